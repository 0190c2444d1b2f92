//! The index mapping: one document per searchable object.

use crate::analysis::{GERMAN, german};
use crate::standard_analysis::{STANDARD, standard};
use crate::text_languages::{LOCALIZED_FIELDS, TextLanguage};
use tantivy::Index;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, JsonObjectOptions, STORED, STRING, Schema, SchemaBuilder,
    TextFieldIndexing, TextOptions,
};

/// The fields, by the names Plone's catalog gives them.
#[derive(Clone, Copy)]
pub struct Fields {
    /// The object's uid; the document's identity.
    pub uid: Field,
    /// The object's path and every ancestor's, for subtree filters.
    pub path: Field,
    /// The object's own path, kept so a subtree can be found by its root's uid.
    pub own_path: Field,
    /// The content type.
    pub portal_type: Field,
    /// The workflow state.
    pub review_state: Field,
    /// The title (German analysis).
    pub title: Field,
    /// The description (German analysis, stored for highlighting).
    pub description: Field,
    /// Title, description, text and the page's blocks (German analysis, stored for
    /// highlighting).
    pub searchable_text: Field,
    /// Tags.
    pub subject: Field,
    /// Who may see it (`allowedRolesAndUsers`).
    pub allowed: Field,
    /// Seconds since the epoch.
    pub created: Field,
    /// Seconds since the epoch.
    pub modified: Field,
    /// Seconds since the epoch; the earliest time for objects without one.
    pub effective: Field,
    /// Seconds since the epoch; the latest time for objects without one.
    pub expires: Field,
    /// Custom fields of text kind, by name (German analysis).
    pub custom_text: Field,
    /// Custom fields of keyword kind, by name.
    pub custom_keyword: Field,
    /// The object's language code (empty for content in none).
    pub language: Field,
    /// The French, Italian and English copies of `Title`, `Description` and `SearchableText`,
    /// analysed in their language (see [`crate::text_languages`]).
    pub localized: [[Field; 3]; 3],
}

impl Fields {
    /// The title, description and searchable text fields of `language`.
    pub fn text_fields(&self, language: TextLanguage) -> [Field; 3] {
        match language {
            TextLanguage::German => [self.title, self.description, self.searchable_text],
            TextLanguage::French => self.localized[0],
            TextLanguage::Italian => self.localized[1],
            TextLanguage::English => self.localized[2],
        }
    }
}

/// The names of the fixed fields (a declared mapping's fields take other names).
pub const FIXED_NAMES: [&str; 26] = [
    "UID",
    "path",
    "getPath",
    "portal_type",
    "review_state",
    "Title",
    "Description",
    "SearchableText",
    "Subject",
    "allowedRolesAndUsers",
    "created",
    "modified",
    "effective",
    "expires",
    "custom_text",
    "custom_keyword",
    "Language",
    "Title_fr",
    "Description_fr",
    "SearchableText_fr",
    "Title_it",
    "Description_it",
    "SearchableText_it",
    "Title_en",
    "Description_en",
    "SearchableText_en",
];

/// The schema and its field handles.
pub fn schema() -> (Schema, Fields) {
    let (schema, fields, ()) = schema_with(|_| ());
    (schema, fields)
}

/// The schema with further fields that `more` adds (an index mapping's own, for `wcs search
/// eval`), their handles, and the fixed fields' handles.
pub fn schema_with<T>(more: impl FnOnce(&mut SchemaBuilder) -> T) -> (Schema, Fields, T) {
    let mut builder = Schema::builder();
    let analysed = |tokenizer: &str| {
        let indexing = TextFieldIndexing::default()
            .set_tokenizer(tokenizer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions);
        TextOptions::default().set_indexing_options(indexing).set_stored()
    };
    let fields = Fields {
        // Hits read their uid from the column, not from the (large) stored document.
        uid: builder.add_text_field("UID", STRING | FAST),
        path: builder.add_text_field("path", STRING),
        own_path: builder.add_text_field("getPath", STORED),
        portal_type: builder.add_text_field("portal_type", STRING | FAST),
        review_state: builder.add_text_field("review_state", STRING | FAST),
        title: builder.add_text_field("Title", analysed(GERMAN)),
        description: builder.add_text_field("Description", analysed(GERMAN)),
        searchable_text: builder.add_text_field("SearchableText", analysed(GERMAN)),
        subject: builder.add_text_field("Subject", STRING | FAST),
        allowed: builder.add_text_field("allowedRolesAndUsers", STRING),
        created: builder.add_i64_field("created", INDEXED | FAST),
        modified: builder.add_i64_field("modified", INDEXED | FAST),
        effective: builder.add_i64_field("effective", INDEXED | FAST),
        expires: builder.add_i64_field("expires", INDEXED | FAST),
        // Stored: raw queries give the custom fields back in `_source`.
        custom_text: builder.add_json_field(
            "custom_text",
            JsonObjectOptions::default().set_stored().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(GERMAN)
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions),
            ),
        ),
        custom_keyword: builder.add_json_field(
            "custom_keyword",
            JsonObjectOptions::default()
                .set_stored()
                .set_indexing_options(
                    TextFieldIndexing::default().set_tokenizer("raw").set_index_option(IndexRecordOption::Basic),
                )
                .set_fast("raw"),
        ),
        language: builder.add_text_field("Language", STRING | FAST),
        localized: [TextLanguage::French, TextLanguage::Italian, TextLanguage::English].map(|language| {
            LOCALIZED_FIELDS
                .map(|field| builder.add_text_field(&language.field_name(field), analysed(language.analyzer_name())))
        }),
    };
    let added = more(&mut builder);
    (builder.build(), fields, added)
}

/// Registers the German analyzer on an index.
pub fn register_analyzers(index: &Index) {
    index.tokenizers().register(GERMAN, german());
    index.tokenizers().register(STANDARD, standard());
    index.tokenizers().register(crate::standard_analysis::WHITESPACE, crate::standard_analysis::whitespace());
    for language in TextLanguage::ALL {
        index.tokenizers().register(language.analyzer_name(), language.analyzer());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fixed_names_are_the_schemas() {
        let (schema, _) = super::schema();
        let names: Vec<&str> = schema.fields().map(|(_, entry)| entry.name()).collect();
        assert_eq!(names, super::FIXED_NAMES);
    }
}
