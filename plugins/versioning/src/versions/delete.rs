//! `DELETE @versions/<id>`.

use super::check_object_visible;
use crate::items::{list_schema, version_list};
use crate::store::find_version;
use crate::{CREATE_VERSIONS, VERSIONING};
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Service};

/// `DELETE @versions/<id>`; X-CSRF-TOKEN for every authentication method.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    permission: CREATE_VERSIONS,
    csrf: Csrf::Always,
    summary: "Delete a version for good; answers with the updated version list",
    request_schema: None,
    response_schema: Some(list_schema),
    handler: |ctx| Box::pin(delete(ctx)),
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    check_object_visible(&ctx)?;
    let [id] = ctx.subpath.as_slice() else {
        return Err(ApiError::not_found(&ctx.request.service_url));
    };
    let (info, _) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
    let mut tx = ctx.app.store.begin().await?;
    let deleted = crate::tables::delete_version(&mut tx, &info.object_uid, info.seq).await?;
    tx.commit().await?;
    if !deleted {
        // Deleted by someone else in the meantime.
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let url = ctx.url_of(&ctx.context);
    Ok(json(&version_list(&ctx.app, &ctx.context, &url, true).await?))
}
