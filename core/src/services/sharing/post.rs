//! `POST <obj>/@sharing`.

use super::DELEGATABLE_ROLES;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, FieldError, NoContent, body_schema};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission, recompute_allowed};
use crate::service::{ContentKind, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Changes local roles: `{entries: [{id, type, roles: {Editor: true}}], inherit}`.
pub static SHARING_POST: Service = Service {
    method: Method::POST,
    name: "@sharing",
    kind: ContentKind::Any,
    permission: Permission::CHANGE_LOCAL_ROLES,
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
    Ok(NoContent::NoContent)
}
