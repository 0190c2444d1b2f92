//! Vocabularies of fixed terms that a profile's list field may name (`vocabulary_name`): the
//! field stores their tokens, takes tokens or `{token, title}` terms, and is answered as
//! plone.restapi answers a list of choices, as `{title, token}` terms.

use serde_json::{Value, json};

/// Plone's `plone.app.vocabularies.MetadataFields`: the catalog's metadata columns, which a
/// collection's table columns (`customViewFields`) are chosen from.
pub const METADATA_FIELDS: &str = "plone.app.vocabularies.MetadataFields";
/// The same vocabulary under the name plone.app.contenttypes keeps for it, which Volto asks for.
pub const METADATA_FIELDS_OLD_NAME: &str = "plone.app.contenttypes.metadatafields";

/// The metadata columns of a Plone 6 catalog, with the labels Plone's vocabulary gives them
/// (the column's own name where it has none).
pub const METADATA_COLUMNS: [(&str, &str); 41] = [
    ("CreationDate", "Created on"),
    ("Creator", "Creator"),
    ("Date", "Date"),
    ("Description", "Description"),
    ("EffectiveDate", "Publication date"),
    ("ExpirationDate", "Expiration date"),
    ("ModificationDate", "Last modified"),
    ("Subject", "Tags"),
    ("Title", "Title"),
    ("Type", "Type"),
    ("UID", "UID"),
    ("author_name", "author_name"),
    ("cmf_uid", "cmf_uid"),
    ("commentators", "commentators"),
    ("created", "created"),
    ("effective", "effective"),
    ("end", "End Date"),
    ("exclude_from_nav", "Excluded from navigation"),
    ("expires", "expires"),
    ("getIcon", "getIcon"),
    ("getId", "getId"),
    ("getObjSize", "Object Size"),
    ("getRemoteUrl", "getRemoteUrl"),
    ("head_title", "head_title"),
    ("id", "ID"),
    ("image_field", "image_field"),
    ("image_scales", "image_scales"),
    ("in_response_to", "in_response_to"),
    ("is_folderish", "Folder"),
    ("last_comment_date", "Last comment date"),
    ("listCreators", "listCreators"),
    ("location", "Location"),
    ("meta_type", "meta_type"),
    ("mime_type", "MIME type"),
    ("modified", "modified"),
    ("nav_title", "nav_title"),
    ("portal_type", "portal_type"),
    ("review_state", "Review state"),
    ("start", "Start Date"),
    ("sync_uid", "sync_uid"),
    ("total_comments", "Total comments"),
];

/// The terms of the named vocabulary, if core has it.
pub fn terms(name: &str) -> Option<&'static [(&'static str, &'static str)]> {
    matches!(name, METADATA_FIELDS | METADATA_FIELDS_OLD_NAME).then_some(&METADATA_COLUMNS[..])
}

/// A stored list of tokens as terms; a token the vocabulary no longer has is titled by itself.
pub fn as_terms(terms: &[(&str, &str)], stored: &Value) -> Value {
    let items = stored.as_array().into_iter().flatten().filter_map(Value::as_str).map(|token| {
        let title = terms.iter().find(|(known, _)| *known == token).map_or(token, |(_, title)| title);
        json!({"title": title, "token": token})
    });
    Value::Array(items.collect())
}

/// A client's item as its token: a token, or a term carrying one (what a GET answered).
pub fn token_of(item: &Value) -> Option<&str> {
    item.as_str().or_else(|| item.get("token").and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_become_terms_and_terms_give_back_their_tokens() {
        let stored = json!(["Title", "ModificationDate", "gone"]);
        let answered = as_terms(terms(METADATA_FIELDS_OLD_NAME).unwrap_or_default(), &stored);
        assert_eq!(answered[1], json!({"title": "Last modified", "token": "ModificationDate"}));
        assert_eq!(answered[2]["title"], "gone");
        assert_eq!(token_of(&answered[1]), Some("ModificationDate"));
        assert_eq!(token_of(&json!("Title")), Some("Title"));
        assert_eq!(token_of(&json!(3)), None);
    }
}
