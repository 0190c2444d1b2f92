//! `DELETE <obj>/@aliases {"items": [{"path": "/old"}]}` removes aliases of the object; on the
//! site root, any alias. Paths that are not aliases (of this object) are a 400, and then
//! nothing is removed.

use super::paths::{MAX_ALIASES, alias_path};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, FieldError, NoContent, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// The service.
pub static ALIASES_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@aliases",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<RemovedAliases>),
        ..Route::new("", "Remove aliases; on an object only its own, on the site root any", endpoint!(delete))
    }],
};

/// The aliases to remove; all or none are.
#[derive(Object)]
pub struct RemovedAliases {
    /// At most 1,000 (a bare path string is taken too).
    pub items: Vec<RemovedAlias>,
}

/// An alias to remove.
#[derive(Object)]
pub struct RemovedAlias {
    /// The alias, a path inside the site starting with `/`.
    pub path: String,
}

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let items = body.get("items").and_then(Value::as_array).ok_or_else(|| {
        ApiError::invalid_parameter("items", "Send the aliases to remove as 'items': a list of {\"path\": …}.")
    })?;
    if items.len() > MAX_ALIASES {
        return Err(ApiError::invalid_parameter("items", format!("Remove at most {MAX_ALIASES} aliases at once.")));
    }
    let site_path = format!("/{}", ctx.context.site_id());
    let mut errors = Vec::new();
    let mut paths = Vec::new();
    for item in items {
        let given = item.get("path").and_then(Value::as_str).or_else(|| item.as_str()).unwrap_or_default();
        match alias_path(&site_path, given) {
            Ok(path) => paths.push(path),
            Err(message) => errors.push(FieldError::new("items", message)),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let target = (!ctx.context.is_site_root()).then_some(ctx.context.uid.as_str());
    let mut tx = ctx.app.store.begin().await?;
    let removed = tx.remove_aliases(&paths, target).await?;
    if removed < paths.len() as u64 {
        // Dropped with the transaction: nothing is removed unless all are.
        let message = "Some of these paths are not aliases of this object.";
        return Err(ApiError::validation(vec![FieldError::new("items", message)]));
    }
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
