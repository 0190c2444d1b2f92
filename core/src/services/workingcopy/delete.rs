//! `DELETE <obj>/@workingcopy`.

use super::checked_out;
use crate::http::{ApiResult, Ctx};
use crate::ops::working_copy::cancel;
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};

/// Cancels the working copy. Callable from the baseline or the copy, hence only View here:
/// the handler checks Delete objects on the working copy itself.
pub static CANCEL: Service = Service {
    method: Method::DELETE,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Cancel the check-out: delete the working copy (204; needs Delete objects on it)",
        crate::untyped!(|ctx| Box::pin(delete(ctx))),
    )],
};

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.working_copy, Permission::DELETE_OBJECTS).await?;
    cancel(&ctx.app, &pair).await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
