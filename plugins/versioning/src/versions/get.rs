//! `GET @versions`, `GET @versions/<id>`, `GET @versions/<id>/comparison`.

use super::check_object_visible;
use crate::items::{list_schema, version_item, version_list};
use crate::store::find_version;
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING, compare};
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Service};

/// `GET @versions`, `GET @versions/<id>`, `GET @versions/<id>/comparison`.
pub static LIST_OR_GET: Service = Service {
    method: Method::GET,
    name: "@versions",
    kind: ContentKind::Behaviour(VERSIONING),
    permission: ACCESS_VERSIONS,
    csrf: Csrf::Cookie,
    summary: "The object's versions, newest first (not batched); /<id> one version; /<id>/comparison its \
              differences from the current content",
    request_schema: None,
    response_schema: Some(list_schema),
    handler: |ctx| Box::pin(get(ctx)),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    check_object_visible(&ctx)?;
    let url = ctx.url_of(&ctx.context);
    let may_change = ctx.allows(CREATE_VERSIONS);
    match ctx.subpath.as_slice() {
        [] => Ok(json(&version_list(&ctx.app, &ctx.context, &url, may_change).await?)),
        [id] => {
            let (info, _) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
            Ok(json(&version_item(&url, &info, may_change)))
        }
        [id, comparison] if comparison == "comparison" => {
            let (info, snapshot) = find_version(&ctx.app, &ctx.context, id, &ctx.request.service_url).await?;
            let translator = ctx.app.translator(ctx.request.header("accept-language")).await?;
            let result =
                compare::compare(&ctx.app, &ctx.context, &snapshot, &translator, &ctx.request.base_url).await?;
            let item = version_item(&url, &info, may_change);
            Ok(json(&result.to_json(&format!("{url}/@versions/{}/comparison", info.seq), item)))
        }
        _ => Err(ApiError::not_found(&ctx.request.service_url)),
    }
}
