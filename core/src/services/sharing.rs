//! `GET/POST <obj>/@sharing`: local roles per user and group, their inheritance from
//! containers, and blocking that inheritance. Changes recompute the security of the subtree.

use super::principal_forms::authenticated_group;
use crate::content::ContentObject;
use crate::http::{ApiError, ApiResult, Ctx, FieldError, json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission, recompute_allowed};
use crate::service::{ContentKind, Service};
use crate::store::{LocalRole, PrincipalQuery};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// Roles that may be delegated on the sharing page, with their labels.
pub const DELEGATABLE_ROLES: [(&str, &str); 4] =
    [("Contributor", "Can add"), ("Editor", "Can edit"), ("Reader", "Can view"), ("Reviewer", "Can review")];

/// Who holds which local role here, inherited or not.
pub static SHARING_GET: Service = Service {
    method: Method::GET,
    name: "@sharing",
    kind: ContentKind::Any,
    permission: Permission::CHANGE_LOCAL_ROLES,
    csrf: Csrf::Cookie,
    summary: "Local roles on this object (?search= adds matching principals)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(get(ctx)),
};

/// Changes local roles: `{entries: [{id, type, roles: {Editor: true}}], inherit}`.
pub static SHARING_POST: Service = Service {
    method: Method::POST,
    name: "@sharing",
    kind: ContentKind::Any,
    permission: Permission::CHANGE_LOCAL_ROLES,
    csrf: Csrf::Cookie,
    summary: "Change local roles and their inheritance",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(post(ctx)),
};

/// Local roles set here and inherited from containers (inheritance stops at a block).
fn split_roles(
    chain: &[ContentObject],
    local: &[LocalRole],
) -> (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, BTreeSet<String>>) {
    let (mut own, mut inherited): (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, BTreeSet<String>>) =
        Default::default();
    let Some((object, above)) = chain.split_last() else { return (own, inherited) };
    for role in local.iter().filter(|r| r.content_uid == object.uid) {
        own.entry(role.principal_id.clone()).or_default().insert(role.role.clone());
    }
    if !object.block_local_roles {
        for ancestor in above.iter().rev() {
            for role in local.iter().filter(|r| r.content_uid == ancestor.uid) {
                inherited.entry(role.principal_id.clone()).or_default().insert(role.role.clone());
            }
            if ancestor.block_local_roles {
                break;
            }
        }
    }
    (own, inherited)
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let chain = ctx.access.chain();
    let uids: Vec<String> = chain.iter().map(|o| o.uid.clone()).collect();
    let local = ctx.app.store.local_roles(&uids).await?;
    let (own, inherited) = split_roles(chain, &local);
    let mut ids: BTreeSet<String> = own.keys().chain(inherited.keys()).cloned().collect();
    ids.remove(AUTHENTICATED_GROUP);
    let mut principals = ctx.app.store.principals_by_ids(&ids.into_iter().collect::<Vec<_>>()).await?;
    if let Some(term) = ctx.request.query_value("search").filter(|t| !t.trim().is_empty()) {
        let query = PrincipalQuery { kind: None, search: Some(term.trim().to_owned()) };
        for found in ctx.app.store.principals(&query, 0, 50).await? {
            if !principals.iter().any(|p| p.id == found.id) {
                principals.push(found);
            }
        }
    }
    principals.insert(0, authenticated_group());
    let entries: Vec<Value> = principals
        .iter()
        .map(|p| {
            let roles: Map<String, Value> = DELEGATABLE_ROLES
                .iter()
                .map(|(role, _)| {
                    let state = if own.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!(true)
                    } else if inherited.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!("acquired")
                    } else if p.roles.iter().any(|r| r == role) {
                        json!("global")
                    } else {
                        json!(false)
                    };
                    ((*role).to_owned(), state)
                })
                .collect();
            json!({
                "id": p.id,
                "title": if p.fullname.is_empty() { p.id.clone() } else { p.fullname.clone() },
                "type": p.kind,
                "login": p.login,
                "disabled": false,
                "roles": roles,
            })
        })
        .collect();
    let available: Vec<Value> = DELEGATABLE_ROLES.iter().map(|(id, title)| json!({"id": id, "title": title})).collect();
    Ok(json(&json!({"available_roles": available, "entries": entries, "inherit": !ctx.context.block_local_roles})))
}

struct Change {
    principal: String,
    roles: BTreeMap<String, bool>,
}

async fn parse_changes(ctx: &Ctx, body: &Map<String, Value>, errors: &mut Vec<FieldError>) -> ApiResult<Vec<Change>> {
    let entries = match body.get("entries") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(entries)) => entries,
        Some(_) => {
            errors.push(FieldError::new("entries", "Expected a list of {id, type, roles}."));
            return Ok(Vec::new());
        }
    };
    let mut changes = Vec::new();
    for entry in entries {
        let Some(id) = entry.get("id").and_then(Value::as_str) else {
            errors.push(FieldError::new("entries", "Each entry needs an 'id'."));
            continue;
        };
        let known = id == AUTHENTICATED_GROUP || ctx.app.store.principal_exists(id).await?;
        if !known {
            errors.push(FieldError::new("entries", format!("No user or group '{id}'.")));
            continue;
        }
        let mut roles = BTreeMap::new();
        for (role, value) in entry.get("roles").and_then(Value::as_object).into_iter().flatten() {
            match (DELEGATABLE_ROLES.iter().any(|(r, _)| r == role), value) {
                (true, Value::Bool(on)) => {
                    roles.insert(role.clone(), *on);
                }
                (true, _) => {} // "acquired" and "global" echo back what GET showed; nothing to set
                (false, _) => errors.push(FieldError::new("entries", format!("'{role}' cannot be delegated here."))),
            }
        }
        changes.push(Change { principal: id.to_owned(), roles });
    }
    Ok(changes)
}

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let changes = parse_changes(&ctx, &body, &mut errors).await?;
    let inherit = match body.get("inherit") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            errors.push(FieldError::new("inherit", "Expected true or false."));
            None
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let object = &ctx.context;
    let current = ctx.app.store.local_roles(std::slice::from_ref(&object.uid)).await?;
    let mut tx = ctx.app.store.begin().await?;
    for change in &changes {
        let mut roles: BTreeSet<String> =
            current.iter().filter(|r| r.principal_id == change.principal).map(|r| r.role.clone()).collect();
        for (role, on) in &change.roles {
            if *on {
                roles.insert(role.clone());
            } else {
                roles.remove(role);
            }
        }
        tx.set_local_roles(&object.uid, &change.principal, &roles.into_iter().collect::<Vec<_>>()).await?;
    }
    if let Some(inherit) = inherit {
        tx.set_block_local_roles(&object.uid, !inherit).await?;
    }
    recompute_allowed(&ctx.app, &mut tx, &object.path).await?;
    tx.commit().await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
