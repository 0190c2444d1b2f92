//! `POST <obj>/@workingcopy`.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json_with_status};
use crate::ops::working_copy::check_out;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::json;

/// Checks out a working copy next to the object.
pub static CHECK_OUT: Service = Service {
    method: Method::POST,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Check out a working copy (needs Modify here and Add on the container); 201 {@id}",
        crate::untyped!(|ctx| Box::pin(post(ctx))),
    )],
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let container =
        ctx.parent().ok_or_else(|| ApiError::new(ErrorCode::BadRequest, "The site root cannot be checked out."))?;
    if !ctx.access.allows_on_parent(&ctx.app, Permission::ADD_PORTAL_CONTENT) {
        return Err(Permission::ADD_PORTAL_CONTENT.refuse(&ctx.principal));
    }
    let copy = check_out(&ctx.app, &ctx.context, container, ctx.principal.actor()).await?;
    let url = ctx.url_of(&copy);
    let mut response = json_with_status(StatusCode::CREATED, &json!({"@id": url}));
    if let Ok(location) = url.parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}
