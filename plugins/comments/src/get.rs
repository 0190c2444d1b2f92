//! `GET @comments`: the object's conversation in thread order, batched as plone.restapi
//! batches it (`b_start`, `b_size` over the comments, replies included), with what the
//! caller may do; `GET @comments/<id>`: one comment.

use crate::access::CommentAccess;
use crate::render::{CommentItem, comment_item};
use crate::settings::Settings;
use crate::store;
use crate::threads::{answered, in_thread_order};
use poem_openapi::Object;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, B_SIZE, B_START, Batch, BatchLinksShape, Ctx, Json, Shaped, batch_links};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};
use wcs_core::services::portrait::portrait_urls;

/// Lists comments.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@comments",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: &[B_START, B_SIZE],
            ..Route::new("", "The object's comments, replies after their comment", endpoint!(list))
        },
        Route::new("{comment_id}", "One comment", endpoint!(one)),
    ],
};

/// An object's conversation.
#[derive(Object)]
#[oai(rename = "Conversation")]
pub struct Conversation {
    /// `<object>/@comments`.
    #[oai(rename = "@id")]
    id: String,
    /// The comments of this page.
    items: Vec<CommentItem>,
    /// How many comments there are.
    items_total: i64,
    /// Links to the other pages, when there are any.
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
    /// What the caller may do.
    permissions: ConversationPermissions,
}

/// What the caller may do with the conversation.
#[derive(Object)]
#[oai(rename = "ConversationPermissions")]
pub struct ConversationPermissions {
    /// Whether they see the comments.
    view_comments: bool,
    /// Whether they may add one.
    can_reply: bool,
}

async fn list(ctx: Ctx) -> ApiResult<Json<Conversation>> {
    let rights = CommentAccess::new(&ctx, Settings::load(&ctx.app).await?);
    let batch = Batch::from_query(&ctx.request.query)?;
    let url = ctx.url_of(&ctx.context);
    let comments = if rights.view_comments() {
        in_thread_order(store::conversation(&ctx.app.store, &ctx.context.uid).await?)
    } else {
        Vec::new()
    };
    let replied = answered(&comments);
    let total = i64::try_from(comments.len()).unwrap_or(i64::MAX);
    let start = usize::try_from(batch.start).unwrap_or(usize::MAX);
    let size = usize::try_from(batch.size).unwrap_or(usize::MAX);
    let page: Vec<&store::Comment> = comments.iter().skip(start).take(size).collect();
    let authors: Vec<&str> = page.iter().filter_map(|c| c.author_username.as_deref()).collect();
    let portraits = portrait_urls(&ctx, &authors).await?;
    let items = page
        .into_iter()
        .map(|comment| {
            let portrait = comment.author_username.as_ref().and_then(|a| portraits.get(a)).cloned();
            comment_item(comment, &url, &rights, replied.contains(&comment.id), portrait)
        })
        .collect();
    Ok(Json(Conversation {
        id: ctx.request.service_url.clone(),
        items,
        items_total: total,
        batching: batch_links(&ctx.request.service_url, &ctx.request.query, batch, total),
        permissions: ConversationPermissions { view_comments: rights.view_comments(), can_reply: rights.can_reply() },
    }))
}

async fn one(ctx: Ctx) -> ApiResult<Json<CommentItem>> {
    let rights = CommentAccess::new(&ctx, Settings::load(&ctx.app).await?);
    let comment = find(&ctx, &rights).await?;
    let replied = store::has_replies(&ctx.app.store, &ctx.context.uid, comment.id).await?;
    let authors: Vec<&str> = comment.author_username.as_deref().into_iter().collect();
    let portrait = portrait_urls(&ctx, &authors).await?.into_values().next();
    Ok(Json(comment_item(&comment, &ctx.url_of(&ctx.context), &rights, replied, portrait)))
}

/// The comment the route's `{comment_id}` names, if the caller sees comments; else 404.
pub async fn find(ctx: &Ctx, rights: &CommentAccess<'_>) -> ApiResult<store::Comment> {
    let not_found = || ApiError::not_found(&ctx.request.service_url);
    let id: i64 = ctx.param("comment_id").parse().map_err(|_| not_found())?;
    if !rights.view_comments() {
        return Err(not_found());
    }
    store::comment(&ctx.app.store, &ctx.context.uid, id).await?.ok_or_else(not_found)
}
