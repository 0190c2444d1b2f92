//! `DELETE <obj>/@translations` `{"language": "fr"}`: unlinks this object's translation in
//! that language; both objects stay.

use crate::store::unlink;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The service.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@translations",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Unlink this object's translation in a language: {language: code}", endpoint!(delete))],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let body = ctx.json_body()?;
    let language = match body.get("language") {
        None => return Err(ApiError::new(ErrorCode::MissingProperty, "Property 'language' is required.")),
        Some(value) => value
            .as_str()
            .filter(|code| !code.is_empty())
            .ok_or_else(|| ApiError::invalid_parameter("language", "'language' must be a language code."))?,
    };
    let mut tx = ctx.app.store.begin().await?;
    unlink(&mut tx, &ctx.context, language).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
