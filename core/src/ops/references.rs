//! What a write refers to: relation targets named by UID, path or URL become uids, and links
//! into the site inside rich text and link fields are stored as `resolveuid/<uid>`, so moves
//! and renames never break them.

use crate::content::links::{SitePrefixes, internal_link_candidates, internalize_links, is_uid};
use crate::content::values::ChangeSet;
use crate::content::volto_blocks;
use crate::content::{ContentObject, FieldDef, FieldKind, TypeProfile};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::security::Visibility;
use crate::site::Site;
use crate::store::Tx;
use serde_json::{Value, json};
use std::collections::HashMap;

/// The widget that marks a text field as a link.
pub const LINK_WIDGET: &str = "LinkFieldWidget";

/// Who writes, and through which address.
pub struct WriteOrigin<'a> {
    /// `scheme://host` of the request, to recognise absolute links into the site; empty when
    /// the write does not come over HTTP.
    pub base_url: &'a str,
    /// What the writer may see: a relation to a hidden object is refused like a missing one.
    pub visibility: &'a Visibility,
}

/// Whether a field holds a link (rather than free text).
pub fn is_link_field(field: &FieldDef) -> bool {
    matches!(field.kind, FieldKind::TextLine | FieldKind::URI) && field.widget.as_deref() == Some(LINK_WIDGET)
}

/// Resolves relation references to uids and internalizes links in `changes`; unknown or
/// unsuitable targets are 400 field errors, all reported at once.
pub async fn resolve_references(
    site: &Site,
    origin: &WriteOrigin<'_>,
    site_id: &str,
    profile: &TypeProfile,
    changes: &mut ChangeSet,
) -> ApiResult<()> {
    let prefixes = SitePrefixes::new(origin.base_url, site_id);
    resolve_relations(site, origin, &prefixes, profile, changes).await?;
    internalize(site, &prefixes, profile, changes).await
}

async fn resolve_relations(
    site: &Site,
    origin: &WriteOrigin<'_>,
    prefixes: &SitePrefixes,
    profile: &TypeProfile,
    changes: &mut ChangeSet,
) -> ApiResult<()> {
    let fields: Vec<&FieldDef> = profile.relation_fields().filter(|f| changes.values.contains_key(&f.name)).collect();
    let references: Vec<String> =
        fields.iter().flat_map(|f| stored_targets(changes.values.get(&f.name).unwrap_or(&Value::Null))).collect();
    if references.is_empty() {
        return Ok(());
    }
    let found = lookup_references(site, prefixes, origin.visibility, &references).await?;
    let mut errors = Vec::new();
    for field in fields {
        let value = changes.values.get(&field.name).cloned().unwrap_or(Value::Null);
        let mut resolved = Vec::new();
        for reference in stored_targets(&value) {
            match found.get(&reference) {
                None => errors.push(FieldError::new(&field.name, format!("No content found for '{reference}'."))),
                Some(target) if !field.target_types.is_empty() && !field.target_types.contains(&target.portal_type) => {
                    errors.push(FieldError::new(
                        &field.name,
                        format!(
                            "'{reference}' is a {}; this field accepts {}.",
                            target.portal_type,
                            field.target_types.join(", ")
                        ),
                    ))
                }
                Some(target) if !resolved.contains(&target.uid) => resolved.push(target.uid.clone()),
                Some(_) => {}
            }
        }
        let stored = match field.kind {
            FieldKind::RelationList => json!(resolved),
            _ => resolved.into_iter().next().map_or(Value::Null, Value::String),
        };
        changes.values.insert(field.name.clone(), stored);
    }
    if errors.is_empty() { Ok(()) } else { Err(ApiError::validation(errors)) }
}

/// The objects `references` (UIDs, paths or URLs) name that `visibility` lets the caller see,
/// keyed by reference; two queries whatever the number of references.
pub async fn lookup_references(
    site: &Site,
    prefixes: &SitePrefixes,
    visibility: &Visibility,
    references: &[String],
) -> ApiResult<HashMap<String, ContentObject>> {
    let keys: Vec<Key> = references.iter().map(|r| reference_key(r, prefixes)).collect();
    let uids: Vec<String> =
        keys.iter().filter_map(|k| if let Key::Uid(u) = k { Some(u.clone()) } else { None }).collect();
    let paths: Vec<String> =
        keys.iter().filter_map(|k| if let Key::Path(p) = k { Some(p.clone()) } else { None }).collect();
    let mut by_key: HashMap<String, ContentObject> = HashMap::new();
    for object in site.store.visible_content_by_uids(&uids, visibility).await? {
        by_key.insert(object.uid.clone(), object);
    }
    for object in site.store.visible_content_at_paths(&paths, visibility).await? {
        by_key.insert(object.path.clone(), object);
    }
    Ok(references
        .iter()
        .zip(keys)
        .filter_map(|(reference, key)| {
            let (Key::Uid(key) | Key::Path(key)) = key;
            by_key.get(&key).map(|object| (reference.clone(), object.clone()))
        })
        .collect())
}

enum Key {
    Uid(String),
    Path(String),
}

/// A UID stays a UID; a URL or path into the site becomes its physical path; any other path
/// is taken as relative to the site root.
fn reference_key(reference: &str, prefixes: &SitePrefixes) -> Key {
    if is_uid(reference) {
        return Key::Uid(reference.to_ascii_lowercase());
    }
    Key::Path(prefixes.physical_path(reference))
}

/// The uids (or, before resolution, references) a relation value holds.
pub fn stored_targets(value: &Value) -> Vec<String> {
    match value {
        Value::String(uid) => vec![uid.clone()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    }
}

async fn internalize(
    site: &Site,
    prefixes: &SitePrefixes,
    profile: &TypeProfile,
    changes: &mut ChangeSet,
) -> ApiResult<()> {
    let texts: Vec<(&FieldDef, bool)> = profile
        .fields
        .iter()
        .filter(|f| changes.values.contains_key(&f.name))
        .filter_map(|f| match f.kind {
            FieldKind::RichText => Some((f, false)),
            _ if is_link_field(f) => Some((f, true)),
            _ => None,
        })
        .collect();
    let text_of = |value: &Value| -> Option<String> {
        value.get("data").and_then(Value::as_str).or_else(|| value.as_str()).map(str::to_owned)
    };
    let mut candidates = Vec::new();
    for (field, whole) in &texts {
        if let Some(text) = changes.values.get(&field.name).and_then(text_of) {
            candidates.extend(internal_link_candidates(&text, prefixes, *whole));
        }
    }
    let blocks: Vec<&str> = profile
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::Blocks && changes.values.contains_key(&f.name))
        .map(|f| f.name.as_str())
        .collect();
    for name in &blocks {
        for link in changes.values.get(*name).map(volto_blocks::link_values).unwrap_or_default() {
            candidates.extend(internal_link_candidates(link, prefixes, true));
        }
    }
    if candidates.is_empty() {
        return Ok(());
    }
    let uid_at: HashMap<String, String> =
        site.store.content_at_paths(&candidates).await?.into_iter().map(|o| (o.path, o.uid)).collect();
    for name in blocks {
        if let Some(value) = changes.values.get_mut(name) {
            volto_blocks::rewrite_link_values(value, &mut |link| {
                let stored = internalize_links(link, prefixes, true, &uid_at);
                (stored != link).then_some(stored)
            });
        }
    }
    for (field, whole) in texts {
        let Some(value) = changes.values.get_mut(&field.name) else { continue };
        match value {
            Value::String(text) => *text = internalize_links(text, prefixes, whole, &uid_at),
            Value::Object(map) => {
                if let Some(Value::String(data)) = map.get_mut("data") {
                    *data = internalize_links(data, prefixes, whole, &uid_at);
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Rewrites the relation index rows of `object` from its field values.
pub async fn index_relations(tx: &mut Tx, profile: &TypeProfile, object: &ContentObject) -> Result<(), sqlx::Error> {
    let rows: Vec<(&str, Vec<String>)> = profile
        .relation_fields()
        .map(|f| (f.name.as_str(), object.fields.get(&f.name).map(stored_targets).unwrap_or_default()))
        .collect();
    tx.replace_relations(&object.uid, &rows).await
}
