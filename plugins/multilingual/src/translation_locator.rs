//! `GET <obj>/@translation-locator?target_language=fr`: where a translation of this object
//! into that language belongs, as plone.app.multilingual's "Add translation" finds it: the
//! translation of its container when the container has one, else the language's root folder.
//! Only folders the caller may view are named.

use crate::languages::{root_path, site_languages};
use crate::store::translations_of;
use poem_openapi::Object;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};

/// The service.
pub static LOCATOR: Service = Service {
    method: Method::GET,
    name: "@translation-locator",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[QueryParam::new("target_language", ParamKind::String, "The language of the translation to add")],
        ..Route::new("", "The folder a translation of this object into a language belongs in", endpoint!(get))
    }],
};

/// `GET @translation-locator`.
#[derive(Object)]
struct Location {
    /// The folder's URL.
    #[oai(rename = "@id")]
    url: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Location>> {
    let language = ctx.request.query_value("target_language").filter(|code| !code.is_empty()).ok_or_else(|| {
        ApiError::invalid_parameter("target_language", "Name the language of the translation: ?target_language=<code>.")
    })?;
    let languages = site_languages(&ctx.app).await?;
    if !languages.multilingual || !languages.available.iter().any(|code| code == language) {
        return Err(ApiError::invalid_parameter(
            "target_language",
            format!("'{language}' is not one of the site's languages."),
        ));
    }
    let visibility = ctx.visibility();
    if let Some(parent) = ctx.parent() {
        let members = translations_of(&ctx.app.store, &parent.uid).await?;
        if let Some(member) = members.iter().find(|m| m.language == language) {
            let found = ctx.app.store.visible_content_by_uids(std::slice::from_ref(&member.uid), &visibility).await?;
            if let Some(folder) = found.first() {
                return Ok(Json(Location { url: ctx.url_of(folder) }));
            }
        }
    }
    let root = root_path(&format!("/{}", ctx.context.site_id()), language);
    let found = ctx.app.store.visible_content_at_paths(&[root], &visibility).await?;
    let folder = found.first().ok_or_else(|| ApiError::not_found(&ctx.request.request_url()))?;
    Ok(Json(Location { url: ctx.url_of(folder) }))
}
