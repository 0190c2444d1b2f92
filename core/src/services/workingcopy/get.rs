//! `GET <obj>/@workingcopy`.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::ops::working_copy::pair_of;
use crate::security::{Csrf, Permission};
use crate::serialize::{WorkingCopyInfo, working_copy_info};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Shows the baseline / working copy pair the object belongs to.
pub static INFO: Service = Service {
    method: Method::GET,
    name: "@workingcopy",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Working copy and baseline of this object (both null when none, or for non-editors)",
        endpoint!(get),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Json<WorkingCopyInfo>> {
    // As in content serializations, only editors learn about working copies.
    let pair =
        if ctx.allows(Permission::MODIFY_PORTAL_CONTENT) { pair_of(&ctx.app, &ctx.context).await? } else { None };
    Ok(Json(working_copy_info(&ctx.app, &ctx.request.base_url, &ctx.context, pair.as_ref()).await?))
}
