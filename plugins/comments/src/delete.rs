//! `DELETE @comments/<id>`: deletes a comment with every reply below it. Holders of `Delete
//! comments` may delete any; authors their own while deleting one's own is enabled and
//! nobody has replied.

use crate::access::CommentAccess;
use crate::events::{COMMENT_REMOVED, comment_event};
use crate::permissions::DELETE_COMMENTS;
use crate::settings::Settings;
use crate::store;
use crate::update::no_id;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, NoContent};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Deletes comments.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@comments",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("{comment_id}", "Delete a comment with its replies", endpoint!(delete)),
        Route {
            body_required: false,
            ..Route::new("", "Refused: the comment's id is part of the URL", endpoint!(no_id))
        },
    ],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let rights = CommentAccess::new(&ctx, Settings::load(&ctx.app).await?);
    let comment = crate::get::find(&ctx, &rights).await?;
    let replied = store::has_replies(&ctx.app.store, &ctx.context.uid, comment.id).await?;
    if !rights.is_deletable(&comment, replied) {
        return Err(crate::add::refused(
            &ctx.principal,
            DELETE_COMMENTS,
            "You are not allowed to delete this comment.",
        ));
    }
    let mut tx = ctx.app.store.begin().await?;
    let deleted = store::delete_thread(&mut tx, &ctx.context.uid, comment.id).await?;
    if deleted.is_empty() {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    for id in deleted {
        tx.emit(comment_event(&COMMENT_REMOVED, &ctx.context.uid, id));
    }
    tx.commit().await?;
    Ok(NoContent::NoContent)
}
