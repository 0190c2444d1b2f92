//! `POST @comments` adds a comment, `POST @comments/<id>` a reply to comment `<id>`; both
//! answer 204 with the new comment's URL in `Location`, as plone.restapi does. The object
//! must take comments ([`crate::access::discussion_enabled`]) and the caller must hold `Reply
//! to item`, or be anonymous while anonymous comments are on.

use crate::access::CommentAccess;
use crate::events::{COMMENT_ADDED, comment_event};
use crate::input::{author_detail, plausible_email, required, text};
use crate::settings::Settings;
use crate::store::{self, InsertError, NewComment};
use poem_openapi::ApiResponse;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission, Principal, denied};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Adds comments and replies.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@comments",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new(
            "",
            "Add a comment: {text}; anonymous commenters may give author_name, author_email",
            endpoint!(add),
        ),
        Route::new("{comment_id}", "Reply to a comment: {text}", endpoint!(reply)),
    ],
};

/// 204 with the comment's URL, plone.restapi's answer to a stored comment.
#[derive(ApiResponse)]
pub enum Stored {
    /// Stored; `Location` is the comment's URL.
    #[oai(status = 204)]
    Stored(#[oai(header = "Location")] String),
}

async fn add(ctx: Ctx) -> ApiResult<Stored> {
    store_comment(&ctx, None).await
}

async fn reply(ctx: Ctx) -> ApiResult<Stored> {
    let rights = CommentAccess::new(&ctx, Settings::load(&ctx.app).await?);
    let parent = crate::get::find(&ctx, &rights).await?;
    store_comment(&ctx, Some(parent.id)).await
}

/// The refusal of a caller who may not comment here, in plone.app.discussion's words.
pub fn refused(principal: &Principal, permission: Permission, message: &str) -> ApiError {
    ApiError { message: message.to_owned(), ..denied(principal, permission.name()) }
}

async fn store_comment(ctx: &Ctx, in_reply_to: Option<i64>) -> ApiResult<Stored> {
    let rights = CommentAccess::new(ctx, Settings::load(&ctx.app).await?);
    if !rights.enabled() {
        return Err(refused(
            &ctx.principal,
            crate::permissions::REPLY_TO_ITEM,
            "Discussion is not enabled for this content object.",
        ));
    }
    if !rights.can_reply() {
        return Err(refused(&ctx.principal, crate::permissions::REPLY_TO_ITEM, "You are not allowed to comment here."));
    }
    let body = ctx.json_body()?;
    let text = text(&body)?;
    let stored_user;
    let (username, name, email) = match ctx.principal.user_id() {
        Some(user) => {
            stored_user = ctx.app.store.principal(user).await?;
            let fullname = stored_user.as_ref().map(|p| p.fullname.as_str()).filter(|n| !n.is_empty()).unwrap_or(user);
            let email = stored_user.as_ref().map(|p| p.email.as_str()).filter(|e| !e.is_empty());
            (Some(user), Some(fullname.to_owned()), email.map(str::to_owned))
        }
        None => {
            let email = author_detail(&body, "author_email")?;
            match &email {
                None if rights.settings.anonymous_email_enabled => return Err(required("author_email")),
                Some(address) if !plausible_email(address) => {
                    return Err(ApiError::validation(vec![FieldError::new("author_email", "Invalid email address.")]));
                }
                _ => {}
            }
            (None, author_detail(&body, "author_name")?, email)
        }
    };
    let new = NewComment {
        in_reply_to,
        author_username: username,
        author_name: name.as_deref(),
        author_email: email.as_deref(),
        text: &text,
        mime_type: &rights.settings.text_transform,
        now: chrono::Utc::now(),
    };
    let mut tx = ctx.app.store.begin().await?;
    let id = match store::insert(&mut tx, &ctx.context.uid, &new).await {
        Ok(id) => id,
        Err(InsertError::Database(error)) => return Err(error.into()),
        Err(InsertError::ParentGone) => return Err(ApiError::not_found(&ctx.request.service_url)),
        Err(InsertError::Full) => {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                format!("This item has {} comments, as many as it may have.", store::MAX_PER_OBJECT),
            ));
        }
        Err(InsertError::Busy) => {
            return Err(ApiError::new(ErrorCode::Conflict, "Too many comments at once; please send it again."));
        }
    };
    tx.emit(comment_event(&COMMENT_ADDED, &ctx.context.uid, id));
    tx.commit().await?;
    Ok(Stored::Stored(format!("{}/@comments/{id}", ctx.url_of(&ctx.context))))
}
