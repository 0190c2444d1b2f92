//! `PATCH @history {"version": n}` (plone.restapi, Volto's history view "Revert to this
//! revision"): restores version `n`, as `POST @versions/<n>/restore` does, and says so in
//! plone.restapi's words. Versioned content only; restoring needs the permission to create
//! versions.

use crate::store::find_version;
use crate::{CREATE_VERSIONS, VERSIONING, restore};
use poem_openapi::Object;
use serde_json::Value;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, Json, body_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Reverts to a version.
pub static HISTORY_REVERT: Service = Service {
    method: Method::PATCH,
    name: "@history",
    kind: ContentKind::Behaviour(VERSIONING),
    guard: Guard::Has(CREATE_VERSIONS),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<Revert>),
        ..Route::new("", "Revert the content to version n: {\"version\": n}", endpoint!(revert))
    }],
};

/// What to revert to.
#[derive(Object)]
pub struct Revert {
    /// The version's number, as `@history` lists it (a number, or text holding one).
    pub version: Value,
}

/// plone.restapi's answer to a revert.
#[derive(Object)]
pub struct Reverted {
    /// `<title> has been reverted to revision <n>.`
    pub message: String,
}

async fn revert(ctx: Ctx) -> ApiResult<Json<Reverted>> {
    crate::versions::check_object_visible(&ctx)?;
    let body = ctx.json_body()?;
    let version = match body.get("version") {
        Some(Value::Number(n)) => n.as_i64().filter(|n| *n >= 0),
        Some(Value::String(text)) => text.trim().parse::<i64>().ok().filter(|n| *n >= 0),
        None => return Err(ApiError::new(ErrorCode::MissingProperty, "Property 'version' is required.")),
        _ => None,
    }
    .ok_or_else(|| ApiError::validation(vec![FieldError::new("version", "A version number, as @history lists it.")]))?;
    let (info, snapshot) = find_version(&ctx.app, &ctx.context, &version.to_string(), &ctx.request.service_url).await?;
    let restored = restore::restore(&ctx.app, &ctx.context, &info, &snapshot, &ctx.principal).await?;
    Ok(Json(Reverted { message: format!("{} has been reverted to revision {version}.", restored.title) }))
}
