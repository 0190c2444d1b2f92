//! `DELETE @versions/<id>`.

use super::check_object_visible;
use crate::items::{VersionList, version_list};
use crate::store::find_version;
use crate::{CREATE_VERSIONS, VERSIONING};
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// `DELETE @versions/<id>`; X-CSRF-TOKEN for every authentication method.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    guard: Guard::Has(CREATE_VERSIONS),
    csrf: Csrf::Always,
    routes: &[Route::new(
        "{version_id}",
        "Delete a version for good; answers with the updated version list",
        endpoint!(delete),
    )],
};

async fn delete(ctx: Ctx) -> ApiResult<Json<VersionList>> {
    check_object_visible(&ctx)?;
    let (info, _) = find_version(&ctx.app, &ctx.context, ctx.param("version_id"), &ctx.request.service_url).await?;
    let mut tx = ctx.app.store.begin().await?;
    let deleted = crate::tables::delete_version(&mut tx, &info.object_uid, info.seq).await?;
    tx.commit().await?;
    if !deleted {
        // Deleted by someone else in the meantime.
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let url = ctx.url_of(&ctx.context);
    Ok(Json(version_list(&ctx.app, &ctx.context, &url, true).await?))
}
