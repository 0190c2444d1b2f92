//! `GET <obj>/@workingcopy`.

use crate::http::{ApiResult, Ctx, json};
use crate::ops::working_copy::pair_of;
use crate::security::{Csrf, Permission};
use crate::serialize::working_copy_info as info;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;

/// Shows the baseline / working copy pair the object belongs to.
pub static INFO: Service = Service {
    method: Method::GET,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Working copy and baseline of this object ({working_copy, working_copy_of}, null when none)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    // As in content serializations, only editors learn about working copies.
    let pair =
        if ctx.allows(Permission::MODIFY_PORTAL_CONTENT) { pair_of(&ctx.app, &ctx.context).await? } else { None };
    Ok(json(&info(&sctx, pair.as_ref()).await?))
}
