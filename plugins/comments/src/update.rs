//! `PATCH @comments/<id> {text}`: changes a comment's text (while editing is enabled, for
//! holders of `Edit comments`, authors included); 204 with its URL in `Location`.

use crate::access::CommentAccess;
use crate::add::{Stored, refused};
use crate::events::{COMMENT_MODIFIED, comment_event};
use crate::input::text;
use crate::permissions::EDIT_COMMENTS;
use crate::settings::Settings;
use crate::store;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Changes comments.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "@comments",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("{comment_id}", "Change a comment's text: {text}", endpoint!(update)),
        Route {
            body_required: false,
            ..Route::new("", "Refused: the comment's id is part of the URL", endpoint!(no_id))
        },
    ],
};

async fn update(ctx: Ctx) -> ApiResult<Stored> {
    let rights = CommentAccess::new(&ctx, Settings::load(&ctx.app).await?);
    let comment = crate::get::find(&ctx, &rights).await?;
    if !rights.is_editable(&comment) {
        let message = if rights.settings.edit_comment_enabled {
            "You are not allowed to edit this comment."
        } else {
            "Editing comments is not enabled on this site."
        };
        return Err(refused(&ctx.principal, EDIT_COMMENTS, message));
    }
    let text = text(&ctx.json_body()?)?;
    let mut tx = ctx.app.store.begin().await?;
    if !store::update_text(&mut tx, &ctx.context.uid, comment.id, &text, chrono::Utc::now()).await? {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    tx.emit(comment_event(&COMMENT_MODIFIED, &ctx.context.uid, comment.id));
    tx.commit().await?;
    Ok(Stored::Stored(format!("{}/@comments/{}", ctx.url_of(&ctx.context), comment.id)))
}

/// plone.restapi's 400 for a PATCH or DELETE without a comment id.
pub async fn no_id(_: Ctx) -> ApiResult<Stored> {
    Err(ApiError::new(ErrorCode::BadRequest, "Comment id is a required part of the url"))
}
