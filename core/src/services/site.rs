//! `GET <obj>/@site`: the site-wide settings a front end needs on every page (Volto reads its
//! title, logo, languages and image sizes from here), in plone.restapi's shape. The title is
//! the site root's; the rest are registry records under Plone's names.

use crate::content::scales::SCALES;
use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiError, ApiResult, Ctx, Json};
use crate::i18n::SITE_LANGUAGE;
use crate::records::{RecordDef, RecordKind};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Value, json};

/// The service.
pub static SITE: Service = Service {
    method: Method::GET,
    name: "@site",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Site-wide settings for front ends: title, logo, languages, time zone, image sizes",
        endpoint!(get),
    )],
};

/// `GET @site`: plone.restapi's keys, which are the registry records' names.
#[derive(Object)]
struct SiteSettings {
    /// The endpoint's URL on the site root.
    #[oai(rename = "@id")]
    url: String,
    /// What the front end may offer.
    features: SiteFeatures,
    /// The image scales, as `name width:height`.
    #[oai(rename = "plone.allowed_sizes")]
    allowed_sizes: Vec<String>,
    /// Language codes content may be written in.
    #[oai(rename = "plone.available_languages")]
    available_languages: Vec<String>,
    /// The site language.
    #[oai(rename = "plone.default_language")]
    default_language: String,
    /// The site's time zone (IANA name).
    #[oai(rename = "plone.portal_timezone")]
    portal_timezone: String,
    /// The robots.txt to serve; `{portal_url}` stands for the site's URL.
    #[oai(rename = "plone.robots_txt")]
    robots_txt: String,
    /// The logo's URL, null for the front end's default logo.
    #[oai(rename = "plone.site_logo")]
    site_logo: Nullable<String>,
    /// The site root's title.
    #[oai(rename = "plone.site_title")]
    site_title: String,
}

/// The optional features front ends switch on from `@site`.
#[derive(Object)]
struct SiteFeatures {
    /// `@aliases` can filter by date: always.
    filter_aliases_by_date: bool,
    /// Whether the site keeps content in several languages, each under its language root.
    multilingual: bool,
}

/// The site logo, as a URL or path a front end shows instead of its default logo (empty for
/// none).
pub static SITE_LOGO: RecordDef = RecordDef {
    name: "plone.site_logo",
    title: "Site logo",
    description: "The URL of the logo front ends show; empty for their default logo.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::logo_url),
    default: || json!(""),
};

/// The languages content may be written in.
pub static AVAILABLE_LANGUAGES: RecordDef = RecordDef {
    name: "plone.available_languages",
    title: "Available languages",
    description: "Language codes content may be written in; the site language first.",
    kind: RecordKind::TextList,
    check: Some(crate::record_checks::languages),
    default: || json!(["en"]),
};

/// The site's time zone.
pub static PORTAL_TIMEZONE: RecordDef = RecordDef {
    name: "plone.portal_timezone",
    title: "Time zone",
    description: "The site's time zone (IANA name, e.g. 'Europe/Berlin').",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::time_zone),
    default: || json!("UTC"),
};

/// What robots may crawl (`{portal_url}` stands for the site's URL).
pub static ROBOTS_TXT: RecordDef = RecordDef {
    name: "plone.robots_txt",
    title: "robots.txt",
    description: "The robots.txt front ends serve; {portal_url} stands for the site's URL.",
    kind: RecordKind::Text,
    check: Some(crate::record_checks::document),
    default: || {
        json!(
            "Sitemap: {portal_url}/sitemap-index.xml\n\n# Define access-restrictions for robots/spiders\n\
             # http://www.robotstxt.org/wc/norobots.html\n\nUser-agent: *\nDisallow: /search\nDisallow: /login\n"
        )
    },
};

async fn get(ctx: Ctx) -> ApiResult<Json<SiteSettings>> {
    let [language, logo, languages, timezone, robots]: [Value; 5] = ctx
        .app
        .record_values(&[&SITE_LANGUAGE, &SITE_LOGO, &AVAILABLE_LANGUAGES, &PORTAL_TIMEZONE, &ROBOTS_TXT])
        .await?
        .try_into()
        .map_err(|_| ApiError::internal("record values"))?;
    // The site root is the first of the traversal chain; its title is the site's.
    let site = ctx.access.chain().first().unwrap_or(&ctx.context);
    let allowed_sizes = SCALES
        .iter()
        .filter(|(name, _, _)| *name != "listing")
        .map(|(name, width, height)| format!("{name} {width}:{height}"))
        .collect();
    // Records hold values of their declared kind (a stored value that does not fit yields the
    // default), so these are the texts and lists they are declared as.
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let available_languages = crate::content::language::codes(&languages);
    let multilingual = crate::content::language::is_multilingual(&ctx.app.types, &available_languages);
    Ok(Json(SiteSettings {
        url: format!("{}/@site", site.url(&ctx.request.base_url)),
        features: SiteFeatures { filter_aliases_by_date: true, multilingual },
        allowed_sizes,
        available_languages,
        default_language: text(&language),
        portal_timezone: text(&timezone),
        robots_txt: text(&robots),
        site_logo: Nullable(logo.as_str().filter(|l| !l.is_empty()).map(str::to_owned)),
        site_title: site.title.clone(),
    }))
}
