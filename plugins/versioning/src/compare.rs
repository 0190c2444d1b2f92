//! Comparing a version with the current content, block by block.
//!
//! Rows follow the current reading order: a `page` row first when the page's own metadata
//! changed, then one row per added, removed, changed or moved block, with runs of unchanged
//! blocks folded into `skipped` rows. Blocks are matched by uid; a block re-created by a
//! restore is matched with the frozen block it stands for. Layout properties (column widths,
//! block configuration) are not compared, only order. Marked-up inline differences inside
//! changed blocks are the word-level engine's job; a changed block's `html` is its current
//! markup.

use crate::render::{blocks_in_order, render_part, shows_title};
use crate::restore::RESTORED_COPIES;
use crate::snapshot::{FrozenObject, Snapshot};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use wcs_core::app::App;
use wcs_core::content::layout::LAYOUT_FIELD;
use wcs_core::content::{ContentObject, FieldKind, TypeProfile};
use wcs_core::http::ApiResult;
use wcs_core::i18n::Translator;
use wcs_core::ops::working_copy::page_part;

/// One changed metadata value, formatted for display.
#[derive(Clone, Debug, PartialEq)]
pub struct MetadataChange {
    /// The translated field label.
    pub label: String,
    /// The value in the version; an em dash when empty.
    pub old: String,
    /// The current value; an em dash when empty.
    pub new: String,
}

/// A row of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// The page's own metadata changed.
    Page {
        /// What changed.
        metadata: Vec<MetadataChange>,
    },
    /// Unchanged blocks left out here.
    Skipped(usize),
    /// A block with changes.
    Block {
        /// The translated type title.
        type_title: String,
        /// The block title when the page does not show it.
        hidden_title: Option<String>,
        /// `changed`, `added`, `removed`, or none (only moved or only metadata).
        change: Option<&'static str>,
        /// Whether it changed position.
        moved: bool,
        /// Ready-to-insert markup.
        html: String,
        /// Changed metadata.
        metadata: Vec<MetadataChange>,
    },
}

/// All rows of a comparison.
pub struct Comparison {
    /// In display order.
    pub rows: Vec<Row>,
}

/// Compares `snapshot` with the current state of `page`.
pub async fn compare(
    app: &App,
    page: &ContentObject,
    snapshot: &Snapshot,
    translator: &Translator<'_>,
) -> ApiResult<Comparison> {
    let current = Snapshot::of(&page_part(app, &app.store.subtree(&page.path).await?));
    let copies: HashMap<String, String> = page
        .fields
        .get(RESTORED_COPIES)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (v.to_owned(), k.clone()))).collect())
        .unwrap_or_default();
    Ok(compare_snapshots(app, snapshot, &current, &copies, translator))
}

/// Compares two snapshots of one page; `copies` maps a current uid to the frozen uid it
/// stands for.
pub fn compare_snapshots(
    app: &App,
    old: &Snapshot,
    new: &Snapshot,
    copies: &HashMap<String, String>,
    translator: &Translator<'_>,
) -> Comparison {
    let (Ok(old_page), Ok(new_page)) = (old.page(), new.page()) else {
        return Comparison { rows: Vec::new() };
    };
    let Some(profile) = app.types.get(&new_page.portal_type) else {
        return Comparison { rows: Vec::new() };
    };
    let mut rows = Vec::new();
    let page_metadata = metadata_changes(profile, old_page, new_page, translator, true);
    if !profile.has_blocks() {
        let old_html = render_part(app, old, old_page, false);
        let new_html = render_part(app, new, new_page, false);
        if old_html != new_html || !page_metadata.is_empty() {
            rows.push(Row::Block {
                type_title: translator.type_title(profile),
                hidden_title: None,
                change: (old_html != new_html).then_some("changed"),
                moved: false,
                html: new_html,
                metadata: page_metadata,
            });
        }
        return Comparison { rows };
    }
    if !page_metadata.is_empty() {
        rows.push(Row::Page { metadata: page_metadata });
    }
    let old_blocks = blocks_in_order(app, old);
    let new_blocks = blocks_in_order(app, new);
    let key = |uid: &str| copies.get(uid).cloned().unwrap_or_else(|| uid.to_owned());
    let old_by_key: HashMap<String, &FrozenObject> = old_blocks.iter().map(|b| (b.uid.clone(), *b)).collect();
    let new_keys: Vec<String> = new_blocks.iter().map(|b| key(&b.uid)).collect();
    let old_keys: Vec<String> = old_blocks.iter().map(|b| b.uid.clone()).collect();
    let common_new: Vec<&String> = new_keys.iter().filter(|k| old_by_key.contains_key(*k)).collect();
    let new_key_set: HashSet<&String> = new_keys.iter().collect();
    let common_old: Vec<&String> = old_keys.iter().filter(|k| new_key_set.contains(k)).collect();
    let in_place = longest_common_subsequence(&common_old, &common_new);
    let mut skipped = 0;
    let mut removed_emitted: HashSet<&String> = HashSet::new();
    for (block, block_key) in new_blocks.iter().zip(&new_keys) {
        // Removed blocks that stood before this one in the version come first.
        if let Some(old_index) = old_keys.iter().position(|k| k == block_key) {
            for removed in old_keys[..old_index].iter().filter(|k| !new_key_set.contains(k)) {
                if removed_emitted.insert(removed)
                    && let Some(frozen) = old_by_key.get(removed)
                {
                    flush(&mut rows, &mut skipped);
                    rows.push(whole_block_row(app, old, frozen, "removed", translator));
                }
            }
        }
        match old_by_key.get(block_key) {
            None => {
                flush(&mut rows, &mut skipped);
                rows.push(whole_block_row(app, new, block, "added", translator));
            }
            Some(frozen) => {
                let moved = !in_place.contains(block_key);
                let Some(block_profile) = app.types.get(&block.portal_type) else { continue };
                let metadata = metadata_changes(block_profile, frozen, block, translator, false);
                let old_html = render_part(app, old, frozen, shows_title(frozen));
                let new_html = render_part(app, new, block, shows_title(block));
                let changed = old_html != new_html;
                if !changed && !moved && metadata.is_empty() {
                    skipped += 1;
                    continue;
                }
                flush(&mut rows, &mut skipped);
                rows.push(Row::Block {
                    type_title: translator.type_title(block_profile),
                    hidden_title: hidden_title(block),
                    change: changed.then_some("changed"),
                    moved,
                    html: new_html,
                    metadata,
                });
            }
        }
    }
    for removed in old_keys.iter().filter(|k| !new_key_set.contains(k)) {
        if removed_emitted.insert(removed)
            && let Some(frozen) = old_by_key.get(removed)
        {
            flush(&mut rows, &mut skipped);
            rows.push(whole_block_row(app, old, frozen, "removed", translator));
        }
    }
    flush(&mut rows, &mut skipped);
    if rows.iter().all(|r| matches!(r, Row::Skipped(_))) {
        rows.clear();
    }
    Comparison { rows }
}

/// Ends a run of unchanged blocks with its `skipped` row.
fn flush(rows: &mut Vec<Row>, skipped: &mut usize) {
    if *skipped > 0 {
        rows.push(Row::Skipped(*skipped));
        *skipped = 0;
    }
}

fn hidden_title(block: &FrozenObject) -> Option<String> {
    (!shows_title(block) && !block.title.is_empty()).then(|| block.title.clone())
}

fn whole_block_row(
    app: &App,
    snapshot: &Snapshot,
    block: &FrozenObject,
    change: &'static str,
    translator: &Translator<'_>,
) -> Row {
    let type_title = app.types.get(&block.portal_type).map_or(block.portal_type.clone(), |p| translator.type_title(p));
    Row::Block {
        type_title,
        hidden_title: hidden_title(block),
        change: Some(change),
        moved: false,
        html: render_part(app, snapshot, block, shows_title(block)),
        metadata: Vec::new(),
    }
}

/// The items of `b` that keep their relative order from `a` (a longest common subsequence).
fn longest_common_subsequence<'a>(a: &[&'a String], b: &[&'a String]) -> HashSet<&'a String> {
    let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i][j] = if a[i] == b[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut kept) = (0, 0, HashSet::new());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            kept.insert(a[i]);
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    kept
}

/// Changed plain values (not text, media, layout or block configuration, which the markup
/// shows or which are not compared).
fn metadata_changes(
    profile: &TypeProfile,
    old: &FrozenObject,
    new: &FrozenObject,
    translator: &Translator<'_>,
    with_title: bool,
) -> Vec<MetadataChange> {
    let mut changes = Vec::new();
    for field in &profile.fields {
        let compared = matches!(
            field.kind,
            FieldKind::TextLine
                | FieldKind::Text
                | FieldKind::Bool
                | FieldKind::Int
                | FieldKind::Float
                | FieldKind::Datetime
                | FieldKind::Date
                | FieldKind::List
                | FieldKind::Choice
                | FieldKind::URI
        );
        if !compared || field.name == LAYOUT_FIELD || field.name == "show_title" && !with_title {
            continue;
        }
        let (old_value, new_value) = match field.name.as_str() {
            "title" => (json!(old.title), json!(new.title)),
            "description" => (json!(old.description), json!(new.description)),
            "effective" => (json!(old.effective), json!(new.effective)),
            "expires" => (json!(old.expires), json!(new.expires)),
            name => {
                let default = field.default_json();
                (
                    old.fields.get(name).cloned().unwrap_or_else(|| default.clone()),
                    new.fields.get(name).cloned().unwrap_or(default),
                )
            }
        };
        if field.name == "title" && !with_title {
            // A block's title is part of its markup when shown, else its hidden_title.
            if old_value == new_value || shows_title(new) {
                continue;
            }
        }
        if old_value != new_value {
            changes.push(MetadataChange {
                label: translator.field_label(field),
                old: display(&old_value, translator),
                new: display(&new_value, translator),
            });
        }
    }
    changes
}

/// A value as people read it; empty is an em dash.
fn display(value: &Value, translator: &Translator<'_>) -> String {
    let text = match value {
        Value::Null => String::new(),
        Value::Bool(true) => translator.text("yes"),
        Value::Bool(false) => translator.text("no"),
        Value::String(s) => match chrono::DateTime::parse_from_rfc3339(s) {
            Ok(time) => translator.datetime(time.with_timezone(&chrono::Utc)),
            Err(_) => s.clone(),
        },
        Value::Array(items) => items.iter().map(|i| display(i, translator)).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    };
    if text.trim().is_empty() { "\u{2014}".to_owned() } else { text }
}

impl Comparison {
    /// Page and block rows (not skipped ones), which `changes_total` counts.
    pub fn changes_total(&self) -> usize {
        self.rows.iter().filter(|r| !matches!(r, Row::Skipped(_))).count()
    }

    /// The rows as JSON, anchors numbered from 1 in row order.
    pub fn rows_json(&self) -> Vec<Value> {
        let mut anchor = 0;
        let meta = |m: &[MetadataChange]| -> Value {
            m.iter().map(|c| json!({"label": c.label, "old": c.old, "new": c.new})).collect()
        };
        self.rows
            .iter()
            .map(|row| match row {
                Row::Skipped(count) => json!({"kind": "skipped", "count": count}),
                Row::Page { metadata } => {
                    anchor += 1;
                    json!({"kind": "page", "metadata": meta(metadata), "anchor": format!("version-diff-change-{anchor}")})
                }
                Row::Block { type_title, hidden_title, change, moved, html, metadata } => {
                    anchor += 1;
                    json!({
                        "kind": "block",
                        "type": type_title,
                        "hidden_title": hidden_title,
                        "change": change,
                        "moved": moved,
                        "html": html,
                        "metadata": meta(metadata),
                        "anchor": format!("version-diff-change-{anchor}"),
                    })
                }
            })
            .collect()
    }

    /// The REST shape: `{@id, version, changes_total, items}`.
    pub fn to_json(&self, id: &str, version: Value) -> Value {
        json!({"@id": id, "version": version, "changes_total": self.changes_total(), "items": self.rows_json()})
    }
}
