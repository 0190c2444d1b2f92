//! `GET <obj>/@translations` and `@components.translations`: the object's translations the
//! caller may view, and the language root folders, in plone.restapi's shape.

use crate::languages::{is_language_root, root_path, site_languages};
use crate::store::translations_of;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use std::collections::BTreeMap;
use wcs_core::content::ContentObject;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Json};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::Component;
use wcs_core::service::{ContentKind, Guard, Route, Service};
use wcs_core::site::Site;
use wcs_core::store::Visibility;

/// The service.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@translations",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The object's translations the caller may view, and each language's root folder",
        endpoint!(get),
    )],
};

/// `@components.translations`; expanded, the same body as the endpoint.
pub static COMPONENT: Component = Component {
    name: "translations",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| {
        Box::pin(async move {
            let body = translations(ctx.site, ctx.base_url, ctx.visibility, subject.object).await?;
            Ok(body.to_json().unwrap_or_default().into())
        })
    },
};

/// `GET @translations`.
#[derive(Object)]
pub struct Translations {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The object's translations, by language.
    items: Vec<Translation>,
    /// The root folder of each language, by language code.
    root: BTreeMap<String, String>,
}

/// One translation.
#[derive(Object)]
struct Translation {
    /// Its URL.
    #[oai(rename = "@id")]
    url: String,
    /// Its language code.
    language: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Translations>> {
    let visibility = ctx.visibility();
    Ok(Json(translations(&ctx.app, &ctx.request.base_url, &visibility, &ctx.context).await?))
}

async fn translations(
    site: &Site,
    base_url: &str,
    visibility: &Visibility,
    object: &ContentObject,
) -> ApiResult<Translations> {
    let members = translations_of(&site.store, &object.uid).await?;
    let uids: Vec<String> = members.iter().map(|m| m.uid.clone()).collect();
    let visible = site.store.visible_content_by_uids(&uids, visibility).await?;
    let items = members
        .iter()
        .filter_map(|member| {
            let found = visible.iter().find(|o| o.uid == member.uid)?;
            Some(Translation { url: found.url(base_url), language: member.language.clone() })
        })
        .collect();
    let languages = site_languages(site).await?;
    let site_path = format!("/{}", object.site_id());
    let paths: Vec<String> = languages.available.iter().map(|code| root_path(&site_path, code)).collect();
    let roots = if languages.multilingual {
        site.store.visible_content_at_paths(&paths, visibility).await?
    } else {
        Vec::new()
    };
    let root = languages
        .available
        .iter()
        .zip(&paths)
        .filter_map(|(code, path)| {
            roots.iter().find(|o| &o.path == path && is_language_root(site, o)).map(|o| (code.clone(), o.url(base_url)))
        })
        .collect();
    Ok(Translations { url: format!("{}/@translations", object.url(base_url)), items, root })
}
