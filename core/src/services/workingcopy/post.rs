//! `POST <obj>/@workingcopy`.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, Json};
use crate::ops::working_copy::check_out;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::{ApiResponse, Object};

/// Checks out a working copy next to the object.
pub static CHECK_OUT: Service = Service {
    method: Method::POST,
    name: "@workingcopy",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Check out a working copy (needs Modify here and Add on the container)", endpoint!(post))],
};

/// Where the new working copy is.
#[derive(Object)]
pub struct CheckedOut {
    /// The working copy's URL.
    #[oai(rename = "@id")]
    pub url: String,
}

/// 201 with the working copy.
#[derive(ApiResponse)]
pub enum CheckOutReply {
    /// Checked out; `Location` is the working copy's URL.
    #[oai(status = 201)]
    Created(Json<CheckedOut>, #[oai(header = "Location")] String),
}

async fn post(ctx: Ctx) -> ApiResult<CheckOutReply> {
    let container =
        ctx.parent().ok_or_else(|| ApiError::new(ErrorCode::BadRequest, "The site root cannot be checked out."))?;
    if !ctx.access.allows_on_parent(&ctx.app, Permission::ADD_PORTAL_CONTENT) {
        return Err(Permission::ADD_PORTAL_CONTENT.refuse(&ctx.principal));
    }
    let copy = check_out(&ctx.app, &ctx.context, container, ctx.principal.actor()).await?;
    let url = ctx.url_of(&copy);
    Ok(CheckOutReply::Created(Json(CheckedOut { url: url.clone() }), url))
}
