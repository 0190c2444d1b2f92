//! `PATCH <obj>/@workingcopy`.

use super::checked_out;
use crate::http::{ApiResult, Ctx};
use crate::ops::working_copy::check_in;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Checks the working copy in onto its baseline.
pub static CHECK_IN: Service = Service {
    method: Method::PATCH,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Check in: copy fields and blocks onto the baseline and remove the working copy (204)",
        crate::untyped!(|ctx| Box::pin(patch(ctx))),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.baseline, Permission::MODIFY_PORTAL_CONTENT).await?;
    ctx.check_on(&pair.working_copy, Permission::MODIFY_PORTAL_CONTENT).await?;
    check_in(&ctx.app, &pair).await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
