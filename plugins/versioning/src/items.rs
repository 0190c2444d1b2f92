//! The version item, version list and comparison shapes of the REST API.

use crate::compare::{Comparison, MetadataChange, Row};
use crate::tables::VersionInfo;
use poem_openapi::{Enum, Object};
use wcs_core::content::ContentObject;
use wcs_core::content::values::format_time;
use wcs_core::http::ApiResult;
use wcs_core::http::schema::Nullable;
use wcs_core::site::Site;

/// One version as clients see it.
#[derive(Object)]
pub struct VersionItem {
    /// Its URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its stable id, the per-object number as text.
    pub id: String,
    /// The object's title when it was taken.
    pub title: String,
    /// When it was taken (ISO 8601).
    pub created: String,
    /// Who took it.
    pub creator: VersionCreator,
    /// The editor's comment, `""` when none was given.
    pub comment: String,
    /// Whether the caller may restore it.
    pub can_restore: bool,
    /// Whether the caller may delete it.
    pub can_delete: bool,
}

/// Who took a version.
#[derive(Object)]
pub struct VersionCreator {
    /// The user id.
    pub id: String,
    /// Their full name at the time (the id when they had none).
    pub fullname: String,
}

/// `GET @versions`: every kept version, newest first, not batched.
#[derive(Object)]
pub struct VersionList {
    /// The list's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Whether the caller may create versions.
    pub can_create: bool,
    /// How many versions are kept.
    pub items_total: usize,
    /// The versions, newest first.
    pub items: Vec<VersionItem>,
}

/// `GET @versions/<id>/comparison`: what changed since the version.
#[derive(Object)]
pub struct VersionComparison {
    /// The comparison's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The version compared with the current content.
    pub version: VersionItem,
    /// How many changes the rows show.
    pub changes_total: usize,
    /// The rows, in page order.
    pub items: Vec<ComparisonRow>,
}

/// What a comparison row is.
#[derive(Enum)]
#[oai(rename_all = "lowercase")]
pub enum RowKind {
    /// The page's own metadata changed.
    Page,
    /// Unchanged blocks left out.
    Skipped,
    /// A block with changes.
    Block,
}

/// One row of a comparison; which keys it has depends on its `kind`.
#[derive(Object)]
#[oai(skip_serializing_if_is_none)]
pub struct ComparisonRow {
    /// What the row is.
    pub kind: RowKind,
    /// `skipped`: how many unchanged blocks are left out.
    pub count: Option<usize>,
    /// `block`: the translated block type.
    #[oai(rename = "type")]
    pub type_title: Option<String>,
    /// `block`: the block's title when the page does not show it.
    pub hidden_title: Option<Nullable<String>>,
    /// `block`: `changed`, `added`, `removed`, or null (only moved or only metadata).
    pub change: Option<Nullable<String>>,
    /// `block`: whether it changed position.
    pub moved: Option<bool>,
    /// `block`: ready-to-insert markup.
    pub html: Option<String>,
    /// `page` and `block`: changed metadata.
    pub metadata: Option<Vec<MetadataRow>>,
    /// `page` and `block`: the anchor of the row in the comparison view.
    pub anchor: Option<String>,
}

/// A changed metadata field.
#[derive(Object)]
pub struct MetadataRow {
    /// The translated field label.
    pub label: String,
    /// The value in the version; an em dash when empty.
    pub old: String,
    /// The current value; an em dash when empty.
    pub new: String,
}

/// One version as clients see it. `may_change` is whether the caller holds Create versions,
/// which both restoring and deleting need.
pub fn version_item(object_url: &str, info: &VersionInfo, may_change: bool) -> VersionItem {
    VersionItem {
        url: format!("{object_url}/@versions/{}", info.seq),
        id: info.seq.to_string(),
        title: info.title.clone(),
        created: format_time(info.created),
        creator: VersionCreator { id: info.creator.clone(), fullname: info.creator_fullname.clone() },
        comment: info.comment.clone(),
        can_restore: may_change,
        can_delete: may_change,
    }
}

/// `GET @versions`: every kept version, newest first, not batched.
pub async fn version_list(
    site: &Site,
    object: &ContentObject,
    object_url: &str,
    may_change: bool,
) -> ApiResult<VersionList> {
    let versions = crate::tables::versions(&site.store, &object.uid).await?;
    let items: Vec<VersionItem> = versions.iter().map(|v| version_item(object_url, v, may_change)).collect();
    Ok(VersionList { url: format!("{object_url}/@versions"), can_create: may_change, items_total: items.len(), items })
}

/// The REST shape of a comparison.
pub fn comparison(url: String, version: VersionItem, comparison: &Comparison) -> VersionComparison {
    let mut anchor = 0;
    let mut next_anchor = || {
        anchor += 1;
        Some(format!("version-diff-change-{anchor}"))
    };
    let metadata = |changes: &[MetadataChange]| {
        Some(
            changes
                .iter()
                .map(|c| MetadataRow { label: c.label.clone(), old: c.old.clone(), new: c.new.clone() })
                .collect(),
        )
    };
    let empty = |kind| ComparisonRow {
        kind,
        count: None,
        type_title: None,
        hidden_title: None,
        change: None,
        moved: None,
        html: None,
        metadata: None,
        anchor: None,
    };
    let items = comparison
        .rows
        .iter()
        .map(|row| match row {
            Row::Skipped(count) => ComparisonRow { count: Some(*count), ..empty(RowKind::Skipped) },
            Row::Page { metadata: changes } => {
                ComparisonRow { metadata: metadata(changes), anchor: next_anchor(), ..empty(RowKind::Page) }
            }
            Row::Block { type_title, hidden_title, change, moved, html, metadata: changes } => ComparisonRow {
                type_title: Some(type_title.clone()),
                hidden_title: Some(Nullable(hidden_title.clone())),
                change: Some(Nullable(change.map(str::to_owned))),
                moved: Some(*moved),
                html: Some(html.clone()),
                metadata: metadata(changes),
                anchor: next_anchor(),
                ..empty(RowKind::Block)
            },
        })
        .collect();
    VersionComparison { url, version, changes_total: comparison.changes_total(), items }
}
