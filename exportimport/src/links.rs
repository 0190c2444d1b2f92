//! Links inside a moved site's text, link fields and blocks. plone.exportimport writes links
//! into the old site as paths below it (`/bar/foo`); one that names an object of the export
//! (or something below one, `/bar/foo/@@download/file`) is stored as `resolveuid/<uid>`, as a
//! create here stores links into the site, so it keeps working when the object moves. Links
//! Plone stored as `resolveuid` already come as they are; any other link stays as written.

use serde_json::{Map, Value};
use std::collections::HashMap;
use wcs_core::content::links::{SitePrefixes, internalize_links};
use wcs_core::content::volto_blocks::rewrite_link_values;
use wcs_core::content::{FieldKind, TypeProfile};
use wcs_core::ops::is_link_field;

/// Rewrites the links in `values` (fields of `profile`); `uids` maps paths below the site to
/// the uids of the export's objects.
pub fn internalize(profile: &TypeProfile, values: &mut Map<String, Value>, uids: &HashMap<String, String>) {
    let prefixes = SitePrefixes::below_site();
    for field in &profile.fields {
        let Some(value) = values.get_mut(&field.name) else { continue };
        match field.kind {
            FieldKind::Blocks => rewrite_link_values(value, &mut |link| {
                let stored = internalize_links(link, &prefixes, true, uids);
                (stored != link).then_some(stored)
            }),
            FieldKind::RichText => {
                if let Some(Value::String(html)) = value.get_mut("data") {
                    *html = internalize_links(html, &prefixes, false, uids);
                }
            }
            _ if is_link_field(field) => {
                if let Value::String(link) = value {
                    *link = internalize_links(link, &prefixes, true, uids);
                }
            }
            _ => {}
        }
    }
}
