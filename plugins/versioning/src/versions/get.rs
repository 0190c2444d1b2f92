//! `GET @versions`, `GET @versions/<id>`, `GET @versions/<id>/comparison`.

use super::check_object_visible;
use crate::items::{VersionComparison, VersionItem, VersionList, comparison, version_item, version_list};
use crate::store::find_version;
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING, compare};
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// `GET @versions`, `GET @versions/<id>`, `GET @versions/<id>/comparison`.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    guard: Guard::Has(ACCESS_VERSIONS),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "The object's versions, newest first (not batched)", endpoint!(list)),
        Route::new("{version_id}", "One version", endpoint!(one)),
        Route::new(
            "{version_id}/comparison",
            "The version's differences from the current content, block by block",
            endpoint!(compare_with_current),
        ),
    ],
};

async fn list(ctx: Ctx) -> ApiResult<Json<VersionList>> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    Ok(Json(version_list(&ctx.app, &ctx.context, &url, ctx.allows(CREATE_VERSIONS)).await?))
}

async fn one(ctx: Ctx) -> ApiResult<Json<VersionItem>> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    let (info, _) = find_version(&ctx.app, &ctx.context, ctx.param("version_id"), &ctx.request.service_url).await?;
    Ok(Json(version_item(&url, &info, ctx.allows(CREATE_VERSIONS))))
}

async fn compare_with_current(ctx: Ctx) -> ApiResult<Json<VersionComparison>> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    let (info, snapshot) =
        find_version(&ctx.app, &ctx.context, ctx.param("version_id"), &ctx.request.service_url).await?;
    let translator = ctx.app.translator(ctx.request.header("accept-language")).await?;
    let result = compare::compare(&ctx.app, &ctx.context, &snapshot, &translator, &ctx.request.base_url).await?;
    let item = version_item(&url, &info, ctx.allows(CREATE_VERSIONS));
    Ok(Json(comparison(format!("{url}/@versions/{}/comparison", info.seq), item, &result)))
}
