//! The site's languages, from the language control panel's records.

use wcs_core::content::language::{codes, is_multilingual};
use wcs_core::content::{ContentObject, LANGUAGE_ROOT};
use wcs_core::http::{ApiError, ApiResult};
use wcs_core::i18n::SITE_LANGUAGE;
use wcs_core::services::AVAILABLE_LANGUAGES;
use wcs_core::site::Site;

/// The languages a site owner chose.
pub struct Languages {
    /// The site language (`plone.default_language`).
    pub default: String,
    /// The languages content may be written in (`plone.available_languages`).
    pub available: Vec<String>,
    /// Whether the site is multilingual with them.
    pub multilingual: bool,
}

/// The site's languages as stored now.
pub async fn site_languages(site: &Site) -> ApiResult<Languages> {
    let [default, available] = site
        .store
        .record_values(&[&SITE_LANGUAGE, &AVAILABLE_LANGUAGES])
        .await?
        .try_into()
        .map_err(|_| ApiError::internal("record values"))?;
    let available = codes(&available);
    Ok(Languages {
        default: default.as_str().unwrap_or_default().to_owned(),
        multilingual: is_multilingual(&site.types, &available),
        available,
    })
}

/// The path of a language's root folder on the site at `site_path` (`/Plone/de`).
pub fn root_path(site_path: &str, language: &str) -> String {
    format!("{site_path}/{language}")
}

/// Whether `object` is a language root folder.
pub fn is_language_root(site: &Site, object: &ContentObject) -> bool {
    site.types.get(&object.portal_type).is_some_and(|profile| profile.has_behaviour(LANGUAGE_ROOT))
}
