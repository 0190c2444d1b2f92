//! The site root of a multilingual site, opened in a browser, sends the browser on to the root
//! folder of its language (the browser's most preferred one the site has, else the site
//! language), as plone.app.multilingual's `language-switcher` view does. API requests get the
//! site root as always: Volto makes this choice itself.

use crate::languages::site_languages;
use wcs_core::http::{ApiResult, Ctx};
use wcs_core::i18n::preferred_language;
use wcs_core::poem_reexports::{IntoResponse, Method, Response, StatusCode};
use wcs_core::security::Permission;
use wcs_core::service::RequestHook;

/// The site root's view on a multilingual site.
pub const LANGUAGE_SWITCHER: &str = "language-switcher";

/// The hook.
pub static SWITCHER: RequestHook = RequestHook {
    name: "multilingual-language-switcher",
    summary: "A browser opening the site root of a multilingual site is sent to its language's root folder",
    permission: Permission::VIEW,
    run: |ctx| Box::pin(switch(ctx)),
};

async fn switch(ctx: &Ctx) -> ApiResult<Option<Response>> {
    let candidate = matches!(ctx.request.method, Method::GET | Method::HEAD)
        && !ctx.request.api
        && ctx.context.is_site_root()
        && ctx.name.is_empty()
        && ctx.subpath.is_empty()
        && ctx.context.fields.get("layout").and_then(|v| v.as_str()) == Some(LANGUAGE_SWITCHER);
    if !candidate {
        return Ok(None);
    }
    let languages = site_languages(&ctx.app).await?;
    if !languages.multilingual {
        return Ok(None);
    }
    let offered: Vec<&str> = languages.available.iter().map(String::as_str).collect();
    let language = preferred_language(ctx.request.header("accept-language"), &offered).unwrap_or(languages.default);
    // Language codes are letters and hyphens (the record's check), safe in a URL as they are.
    let location = format!("{}/{language}", ctx.url_of(&ctx.context));
    Ok(Some(Response::builder().status(StatusCode::FOUND).header("Location", location).finish().into_response()))
}
