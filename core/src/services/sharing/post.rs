//! `POST <obj>/@sharing`.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, NoContent, body_schema};
use crate::security::delegation::delegation_permission;
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// Changes local roles: `{entries: [{id, type, roles: {Editor: true}}], inherit}`.
pub static SHARING_POST: Service = Service {
    method: Method::POST,
    name: "@sharing",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::CHANGE_LOCAL_ROLES),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<SharingChanges>),
        ..Route::new("", "Change local roles and their inheritance; the subtree's security follows", endpoint!(post))
    }],
};

/// The local roles to change here, as Volto's sharing page sends them back.
#[derive(Object)]
pub struct SharingChanges {
    /// The principals whose roles change.
    pub entries: Option<Vec<SharingChange>>,
    /// Whether the object inherits its containers' local roles.
    pub inherit: Option<bool>,
}

/// One principal's role changes.
#[derive(Object)]
pub struct SharingChange {
    /// The user or group id.
    pub id: String,
    /// `user` or `group` (not needed: ids are unique).
    #[oai(rename = "type")]
    pub kind: Option<String>,
    /// Per delegatable role: `true` gives it here, `false` takes it; `"acquired"` and
    /// `"global"` (what GET showed) change nothing.
    pub roles: Option<BTreeMap<String, Value>>,
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
            match (delegation_permission(role).is_some(), value) {
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

async fn post(ctx: Ctx) -> ApiResult<NoContent> {
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
    let mut assignments = Vec::with_capacity(changes.len());
    let mut given_and_taken = Vec::new();
    for change in &changes {
        let before: BTreeSet<String> =
            current.iter().filter(|r| r.principal_id == change.principal).map(|r| r.role.clone()).collect();
        let mut after = before.clone();
        for (role, on) in &change.roles {
            if *on {
                after.insert(role.clone());
            } else {
                after.remove(role);
            }
        }
        for role in before.symmetric_difference(&after) {
            let may = delegation_permission(role).is_some_and(|permission| ctx.allows(permission));
            if !may {
                return Err(ApiError::new(
                    ErrorCode::Forbidden,
                    format!("You may not give or take the role '{role}' here."),
                ));
            }
        }
        if before != after {
            given_and_taken.push(json!({
                "principal": change.principal,
                "given": after.difference(&before).collect::<Vec<_>>(),
                "taken": before.difference(&after).collect::<Vec<_>>(),
            }));
            assignments.push((change.principal.as_str(), after.into_iter().collect::<Vec<_>>()));
        }
    }
    let mut tx = ctx.app.store.begin().await?;
    for (principal, roles) in &assignments {
        tx.set_local_roles(&object.uid, principal, roles).await?;
    }
    let inherit_changed = inherit.filter(|inherit| *inherit == object.block_local_roles);
    if let Some(inherit) = inherit_changed {
        tx.set_block_local_roles(&object.uid, !inherit).await?;
    }
    if !given_and_taken.is_empty() || inherit_changed.is_some() {
        let mut details = json!({"uid": object.uid, "roles": given_and_taken});
        if let Some(inherit) = inherit_changed {
            details["inherit"] = json!(inherit);
        }
        tx.append_audit(&ctx.audit("sharing", &object.path, details)).await?;
    }
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
