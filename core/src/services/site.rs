//! `GET <obj>/@site`: the site-wide settings a front end needs on every page (Volto reads its
//! title, logo, languages and image sizes from here), in plone.restapi's shape. The title is
//! the site root's; the rest are registry records under Plone's names.

use crate::content::scales::SCALES;
use crate::http::{ApiResult, Ctx, json};
use crate::i18n::SITE_LANGUAGE;
use crate::records::{RecordDef, RecordKind};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static SITE: Service = Service {
    method: Method::GET,
    name: "@site",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Site-wide settings for front ends: title, logo, languages, time zone, image sizes",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// The site logo, as a URL or path a front end shows instead of its default logo (empty for
/// none).
pub static SITE_LOGO: RecordDef = RecordDef {
    name: "plone.site_logo",
    title: "Site logo",
    description: "The URL of the logo front ends show; empty for their default logo.",
    kind: RecordKind::Text,
    default: || json!(""),
};

/// The languages content may be written in.
pub static AVAILABLE_LANGUAGES: RecordDef = RecordDef {
    name: "plone.available_languages",
    title: "Available languages",
    description: "Language codes content may be written in; the site language first.",
    kind: RecordKind::TextList,
    default: || json!(["en"]),
};

/// The site's time zone.
pub static PORTAL_TIMEZONE: RecordDef = RecordDef {
    name: "plone.portal_timezone",
    title: "Time zone",
    description: "The site's time zone (IANA name, e.g. 'Europe/Berlin').",
    kind: RecordKind::Text,
    default: || json!("UTC"),
};

/// What robots may crawl (`{portal_url}` stands for the site's URL).
pub static ROBOTS_TXT: RecordDef = RecordDef {
    name: "plone.robots_txt",
    title: "robots.txt",
    description: "The robots.txt front ends serve; {portal_url} stands for the site's URL.",
    kind: RecordKind::Text,
    default: || {
        json!(
            "Sitemap: {portal_url}/sitemap-index.xml\n\n# Define access-restrictions for robots/spiders\n\
             # http://www.robotstxt.org/wc/norobots.html\n\nUser-agent: *\nDisallow: /search\nDisallow: /login\n"
        )
    },
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let [language, logo, languages, timezone, robots] = ctx
        .app
        .record_values(&[&SITE_LANGUAGE, &SITE_LOGO, &AVAILABLE_LANGUAGES, &PORTAL_TIMEZONE, &ROBOTS_TXT])
        .await?
        .try_into()
        .unwrap_or_else(|_| [Value::Null, Value::Null, Value::Null, Value::Null, Value::Null]);
    // The site root is the first of the traversal chain; its title is the site's.
    let site = ctx.access.chain().first().unwrap_or(&ctx.context);
    let allowed_sizes: Vec<String> = SCALES
        .iter()
        .filter(|(name, _, _)| *name != "listing")
        .map(|(name, width, height)| format!("{name} {width}:{height}"))
        .collect();
    let logo = logo.as_str().filter(|l| !l.is_empty()).map_or(Value::Null, |l| json!(l));
    Ok(json(&json!({
        "@id": format!("{}/@site", site.url(&ctx.request.base_url)),
        "features": {"filter_aliases_by_date": true, "multilingual": false},
        "plone.allowed_sizes": allowed_sizes,
        "plone.available_languages": languages,
        "plone.default_language": language,
        "plone.portal_timezone": timezone,
        "plone.robots_txt": robots,
        "plone.site_logo": logo,
        "plone.site_title": site.title,
    })))
}
