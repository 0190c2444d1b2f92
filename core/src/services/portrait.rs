//! `GET <site>/@portrait[/<user id>]`: a user's portrait, or the caller's own without an id.
//! Portraits are public, as in Plone, where authors' pictures show beside their content and
//! comments.

use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, Raw};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::images::{ImageMeta, image_response};
use poem::http::Method;
use std::collections::HashMap;

/// The service.
pub static PORTRAIT: Service = Service {
    method: Method::GET,
    name: "@portrait",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "The logged-in user's portrait", endpoint!(own)),
        Route::new("{id}", "A user's portrait", endpoint!(of_user)),
    ],
};

/// Where a user's portrait is served.
pub fn portrait_url(site_url: &str, user_id: &str) -> String {
    format!("{site_url}/@portrait/{user_id}")
}

/// The portrait URLs of those of `user_ids` that have a portrait, by user id, with one query
/// for all of them: what listings of users, authors and comments show.
pub async fn portrait_urls(ctx: &Ctx, user_ids: &[&str]) -> ApiResult<HashMap<String, String>> {
    let having = ctx.app.store.users_with_portraits(user_ids).await?;
    let site = ctx.site_url();
    Ok(having
        .into_iter()
        .map(|id| {
            let url = portrait_url(&site, &id);
            (id, url)
        })
        .collect())
}

async fn own(ctx: Ctx) -> ApiResult<Raw<ImageMeta>> {
    let id = ctx.principal.user_id().map(str::to_owned);
    portrait(&ctx, id.as_deref()).await
}

async fn of_user(ctx: Ctx) -> ApiResult<Raw<ImageMeta>> {
    portrait(&ctx, Some(ctx.param("id"))).await
}

async fn portrait(ctx: &Ctx, user_id: Option<&str>) -> ApiResult<Raw<ImageMeta>> {
    let not_found = || ApiError::not_found(&ctx.request.service_url);
    let Some(user_id) = user_id else { return Err(not_found()) };
    let stored = ctx.app.store.portrait(user_id).await?.ok_or_else(not_found)?;
    Ok(Raw::new(image_response(stored.content_type, &stored.sha256, stored.data)))
}
