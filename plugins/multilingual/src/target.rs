//! The object a body names by URL, path or UID (`{"id": …}` of `@translations`,
//! `translation_of` of a new object).

use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult, FieldError};
use wcs_core::services::reference_key;
use wcs_core::site::Site;
use wcs_core::store::Visibility;

/// The object `reference` names on the site at `site_path`, when `visibility` lets the caller
/// see it; a 400 naming `key` otherwise, as for an object that does not exist.
pub async fn named_object(
    site: &Site,
    site_path: &str,
    visibility: &Visibility,
    key: &str,
    reference: &serde_json::Value,
) -> ApiResult<ContentObject> {
    let text = reference
        .as_str()
        .ok_or_else(|| ApiError::invalid_parameter(key, format!("'{key}' must be a URL, a path or a UID.")))?;
    let (is_uid, lookup) = reference_key(text, site_path);
    let found = if is_uid {
        site.store.visible_content_by_uids(&[lookup], visibility).await?
    } else {
        site.store.visible_content_at_paths(&[lookup], visibility).await?
    };
    found
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::validation(vec![FieldError::new(key, format!("No object found for '{text}'."))]))
}
