//! Comparing a version with the current content, block by block.
//!
//! Rows follow the current reading order: a `page` row first when the page's own metadata
//! changed, then one row per added, removed, changed or moved block, with runs of unchanged
//! blocks folded into `skipped` rows. Blocks are matched by uid; a block re-created by a
//! restore is matched with the frozen block it stands for. Layout properties (column widths,
//! block configuration) are not compared, only order; moves are found with a longest
//! increasing subsequence (`moves`). Inside a matched block the word-level engine (`html`)
//! marks what changed; added and removed blocks are shown whole, without marks.

pub mod html;
mod images;
mod metadata;
mod moves;

use crate::render::{RichText, blocks_in_order, render_part, shows_title};
use crate::restore::RESTORED_COPIES;
use crate::snapshot::{FrozenObject, Snapshot};
use html::{DiffOptions, diff_html};
use images::ImageFiles;
use metadata::metadata_changes;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use wcs_core::app::App;
use wcs_core::content::{ContentObject, TypeProfile};
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

/// Compares `snapshot` with the current state of `page`; `base_url` is the request's, for
/// links in the markup.
pub async fn compare(
    app: &App,
    page: &ContentObject,
    snapshot: &Snapshot,
    translator: &Translator<'_>,
    base_url: &str,
) -> ApiResult<Comparison> {
    let current = Snapshot::of(&page_part(app, &app.store.subtree(&page.path).await?));
    let copies: HashMap<String, String> = page
        .fields
        .get(RESTORED_COPIES)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (v.to_owned(), k.clone()))).collect())
        .unwrap_or_default();
    let site_url = format!("{base_url}/{}", page.site_id());
    let images = ImageFiles::load(app, snapshot, &current).await?;
    Ok(compare_snapshots(app, snapshot, &current, &copies, &images, &Reader { translator, site_url: &site_url }))
}

/// Who the comparison is written for.
pub struct Reader<'a> {
    /// Their language.
    pub translator: &'a Translator<'a>,
    /// The site's URL, which internal links in the markup are resolved against.
    pub site_url: &'a str,
}

/// Compares two snapshots of one page; `copies` maps a current uid to the frozen uid it
/// stands for, `images` names the files of inline images.
fn compare_snapshots(
    app: &App,
    old: &Snapshot,
    new: &Snapshot,
    copies: &HashMap<String, String>,
    images: &ImageFiles,
    reader: &Reader<'_>,
) -> Comparison {
    let (Ok(old_page), Ok(new_page)) = (old.page(), new.page()) else {
        return Comparison { rows: Vec::new() };
    };
    let Some(profile) = app.types.get(&new_page.portal_type) else {
        return Comparison { rows: Vec::new() };
    };
    let own: HashSet<&str> = old
        .objects
        .iter()
        .chain(&new.objects)
        .map(|o| o.uid.as_str())
        .chain(copies.keys().map(String::as_str))
        .collect();
    let same_page = |uid: &str| own.contains(uid);
    let image_file = |side, uid: &str| images.file(side, uid);
    let sides = Sides { app, old, new, reader, same_page: &same_page, image_file: &image_file };
    let page_metadata = metadata_changes(&profile, old_page, new_page, reader.translator, true);
    if !profile.has_blocks() {
        let rows = sides.page_without_blocks(&profile, old_page, new_page, page_metadata).into_iter().collect();
        return Comparison { rows };
    }
    let mut rows = Vec::new();
    if !page_metadata.is_empty() {
        rows.push(Row::Page { metadata: page_metadata });
    }
    sides.block_rows(copies, &mut rows);
    if rows.iter().all(|r| matches!(r, Row::Skipped(_))) {
        rows.clear();
    }
    Comparison { rows }
}

impl Sides<'_> {
    /// A page without blocks is one block row carrying its own metadata too.
    fn page_without_blocks(
        &self,
        profile: &TypeProfile,
        old_page: &FrozenObject,
        new_page: &FrozenObject,
        metadata: Vec<MetadataChange>,
    ) -> Option<Row> {
        let text = self.diff(old_page, new_page, false);
        if text.is_none() && metadata.is_empty() {
            return None;
        }
        Some(Row::Block {
            type_title: self.reader.translator.type_title(profile),
            hidden_title: None,
            change: text.is_some().then_some("changed"),
            moved: false,
            html: text.unwrap_or_else(|| self.whole(self.new, new_page, false)),
            metadata,
        })
    }

    /// The rows of the blocks in the current reading order: removed blocks where they stood,
    /// added and changed ones, and runs of unchanged ones folded into `skipped`.
    fn block_rows(&self, copies: &HashMap<String, String>, rows: &mut Vec<Row>) {
        let (old, new) = (self.old, self.new);
        let old_blocks = blocks_in_order(self.app, old);
        let new_blocks = blocks_in_order(self.app, new);
        let old_index: HashMap<&str, usize> = old_blocks.iter().enumerate().map(|(i, b)| (b.uid.as_str(), i)).collect();
        // Each current block's frozen counterpart: by uid, or the frozen block it is a copy of.
        let counterpart: Vec<Option<usize>> = new_blocks
            .iter()
            .map(|b| old_index.get(copies.get(&b.uid).map_or(b.uid.as_str(), String::as_str)).copied())
            .collect();
        let matched_positions: Vec<usize> = counterpart.iter().flatten().copied().collect();
        let mut kept = moves::in_place(&matched_positions).into_iter();
        let mut still_here = vec![false; old_blocks.len()];
        for position in &matched_positions {
            still_here[*position] = true;
        }
        let mut skipped = 0;
        let mut next_removed = 0;
        for (block, frozen_index) in new_blocks.iter().zip(&counterpart) {
            // Removed blocks that stood before this one's counterpart come first.
            if let Some(until) = frozen_index {
                while next_removed < *until {
                    if !still_here[next_removed] {
                        flush(rows, &mut skipped);
                        rows.push(self.whole_block_row(old, old_blocks[next_removed], "removed"));
                    }
                    next_removed += 1;
                }
            }
            let row = match frozen_index.map(|i| old_blocks[i]) {
                None => Some(self.whole_block_row(new, block, "added")),
                Some(frozen) => self.matched_block_row(frozen, block, !kept.next().unwrap_or(true)),
            };
            match row {
                Some(row) => {
                    flush(rows, &mut skipped);
                    rows.push(row);
                }
                None => skipped += 1,
            }
        }
        for (index, frozen) in old_blocks.iter().enumerate().skip(next_removed) {
            if !still_here[index] {
                flush(rows, &mut skipped);
                rows.push(self.whole_block_row(old, frozen, "removed"));
            }
        }
        flush(rows, &mut skipped);
    }

    /// The row of a block that is in both: `None` when it did not change at all.
    fn matched_block_row(&self, frozen: &FrozenObject, block: &FrozenObject, moved: bool) -> Option<Row> {
        let block_profile = self.app.types.get(&block.portal_type)?;
        let metadata = metadata_changes(&block_profile, frozen, block, self.reader.translator, false);
        let text = self.diff(frozen, block, true);
        if text.is_none() && !moved && metadata.is_empty() {
            return None;
        }
        Some(Row::Block {
            type_title: self.reader.translator.type_title(&block_profile),
            hidden_title: hidden_title(block),
            change: text.is_some().then_some("changed"),
            moved,
            html: text.unwrap_or_else(|| self.whole(self.new, block, shows_title(block))),
            metadata,
        })
    }
}

/// Both snapshots and what rendering their parts needs.
struct Sides<'a> {
    app: &'a App,
    old: &'a Snapshot,
    new: &'a Snapshot,
    reader: &'a Reader<'a>,
    same_page: &'a dyn Fn(&str) -> bool,
    image_file: &'a dyn Fn(html::Side, &str) -> Option<html::ImageFile>,
}

impl Sides<'_> {
    fn markup(&self, snapshot: &Snapshot, part: &FrozenObject, with_title: bool) -> String {
        render_part(self.app, snapshot, part, with_title, RichText::Raw { site_url: self.reader.site_url })
    }

    /// A part's whole markup, cleaned.
    fn whole(&self, snapshot: &Snapshot, part: &FrozenObject, with_title: bool) -> String {
        html::clean(&self.markup(snapshot, part, with_title))
    }

    /// The marked-up changes of a part's text, or `None` when nothing is reported; a block's
    /// title is part of its text where the page shows it (`titled`), and then always shown.
    fn diff(&self, old: &FrozenObject, new: &FrozenObject, titled: bool) -> Option<String> {
        let old_markup = self.markup(self.old, old, titled && shows_title(old));
        let new_markup = self.markup(self.new, new, titled && shows_title(new));
        let keep_title = titled && shows_title(new) && !new.title.is_empty();
        if old_markup == new_markup {
            return None;
        }
        let options = DiffOptions {
            translator: self.reader.translator,
            same_page: self.same_page,
            image_file: self.image_file,
            deadline: html::DEFAULT_DEADLINE,
            only_changes: true,
            keep_first: keep_title,
        };
        let diff = diff_html(&old_markup, &new_markup, &options);
        diff.changed.then_some(diff.html)
    }

    fn whole_block_row(&self, snapshot: &Snapshot, block: &FrozenObject, change: &'static str) -> Row {
        let type_title = self
            .app
            .types
            .get(&block.portal_type)
            .map_or(block.portal_type.clone(), |p| self.reader.translator.type_title(&p));
        Row::Block {
            type_title,
            hidden_title: hidden_title(block),
            change: Some(change),
            moved: false,
            html: self.whole(snapshot, block, shows_title(block)),
            metadata: Vec::new(),
        }
    }
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
}
