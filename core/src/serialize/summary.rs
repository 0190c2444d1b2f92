//! Item summaries: the short form used in folder `items`, `parent` and search results.

use super::SerializeCtx;
use super::metadata::{DEFAULT_METADATA, all_metadata, metadata};
use crate::content::ContentObject;
use crate::store::SUMMARY_FIELDS;
use serde_json::{Map, Value, json};

/// Whether [`summary`] can be made from an object's brief ([`Store::list_briefs`]): when no
/// further metadata is asked for and every type keeps its file or image (size, MIME type)
/// among the brief's fields.
///
/// [`Store::list_briefs`]: crate::store::Store::list_briefs
pub fn briefs_suffice(ctx: &SerializeCtx<'_>, metadata_fields: &[String]) -> bool {
    metadata_fields.is_empty()
        && ctx
            .site
            .types
            .all()
            .all(|p| p.primary_blob_field().is_none_or(|f| SUMMARY_FIELDS.contains(&f.name.as_str())))
}

/// The summary of `object`: `@id`, `@type`, `title`, `description`, `review_state`,
/// `type_title`, Plone's default summary metadata, plus any requested `metadata_fields`.
pub fn summary(ctx: &SerializeCtx<'_>, object: &ContentObject, metadata_fields: &[String]) -> Map<String, Value> {
    let mut out = plain_summary(ctx, object);
    if object.is_site_root() {
        // A catalog hit: the site root is one too, without a workflow.
        out.insert("review_state".into(), Value::Null);
        return out;
    }
    let profile = ctx.site.types.get(&object.portal_type);
    let wants_all = metadata_fields.iter().any(|f| f == "_all");
    let requested: Vec<&str> =
        if wants_all { all_metadata().collect() } else { metadata_fields.iter().map(String::as_str).collect() };
    for name in DEFAULT_METADATA.into_iter().chain(requested) {
        if name.starts_with('_') || matches!(name, "getObject" | "getDataOrigin" | "getUserData") {
            continue;
        }
        let value = metadata(ctx, object, profile.as_deref(), name);
        out.insert(name.to_owned(), value);
    }
    out
}

/// plone.restapi's summary of an object that is no catalog hit (a content's `parent`): `@id`,
/// `@type`, `title`, `description`, `review_state` and `type_title`, without plone.volto's
/// listing metadata.
pub fn plain_summary(ctx: &SerializeCtx<'_>, object: &ContentObject) -> Map<String, Value> {
    let profile = ctx.site.types.get(&object.portal_type);
    let mut out = Map::new();
    out.insert("@id".into(), json!(object.url(ctx.base_url)));
    out.insert("@type".into(), json!(object.portal_type));
    out.insert("type_title".into(), json!(profile.map_or_else(|| object.portal_type.clone(), |p| p.title.clone())));
    out.insert("title".into(), json!(object.title));
    out.insert("description".into(), json!(object.description));
    if object.is_site_root() {
        return out;
    }
    out.insert("review_state".into(), json!(object.review_state));
    out
}

/// The summary of a relation end: always with `UID`, whatever `metadata_fields` asks, so
/// clients can tell objects with equal titles apart.
pub fn relation_summary(ctx: &SerializeCtx<'_>, object: &ContentObject) -> Map<String, Value> {
    let mut out = summary(ctx, object, &ctx.options.metadata_fields);
    out.insert("UID".into(), json!(object.uid));
    out
}
