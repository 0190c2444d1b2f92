//! `PATCH <obj>/@workingcopy`.

use super::checked_out;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent};
use crate::ops::working_copy::check_in;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Checks the working copy in onto its baseline.
pub static CHECK_IN: Service = Service {
    method: Method::PATCH,
    name: "@workingcopy",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Check in: copy fields and blocks onto the baseline and remove the working copy",
        endpoint!(patch),
    )],
};

async fn patch(ctx: Ctx) -> ApiResult<NoContent> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.baseline, Permission::MODIFY_PORTAL_CONTENT).await?;
    ctx.check_on(&pair.working_copy, Permission::MODIFY_PORTAL_CONTENT).await?;
    check_in(&ctx.app, &pair).await?;
    Ok(NoContent::NoContent)
}
