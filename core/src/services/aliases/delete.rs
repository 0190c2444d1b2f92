//! `DELETE <obj>/@aliases {"items": [{"path": "/old"}]}` removes aliases of the object; on the
//! site root, any alias. Paths that are not aliases (of this object) are a 400, and then
//! nothing is removed.

use super::paths::{MAX_ALIASES, alias_path};
use crate::http::{ApiError, ApiResult, Ctx, FieldError};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Value, json};

/// The service.
pub static ALIASES_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@aliases",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Remove aliases: {\"items\": [{\"path\": \"/old\"}]}; on an object only its own (204)",
        crate::untyped!(|ctx| Box::pin(delete(ctx))),
    )],
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
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
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
