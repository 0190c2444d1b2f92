//! `DELETE <obj>/@workingcopy`.

use super::checked_out;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent};
use crate::ops::working_copy::cancel;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// Cancels the working copy. Callable from the baseline or the copy, hence only View here:
/// the handler checks Delete objects on the working copy itself.
pub static CANCEL: Service = Service {
    method: Method::DELETE,
    name: "@workingcopy",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Cancel the check-out: delete the working copy; needs Delete objects on it",
        endpoint!(delete),
    )],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.working_copy, Permission::DELETE_OBJECTS).await?;
    cancel(&ctx.app, &pair).await?;
    Ok(NoContent::NoContent)
}
