//! The layout of a block page: named slots hold rows, rows hold columns, columns hold block
//! uids. The layout is stored in the page's `simplelayout` field, in ftw.simplelayout's shape,
//! so snapshots and copies carry it with the other fields.
//!
//! The children of the page are the truth about which blocks exist; the layout only places
//! them. Reading normalizes the two: uids without a child block are dropped and child blocks
//! missing from the layout are appended to the last column.

use super::links::is_uid;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The field that stores the layout on block pages.
pub const LAYOUT_FIELD: &str = "simplelayout";
/// The main slot; the others (e.g. a sidebar) are the theme's business.
pub const MAIN_SLOT: &str = "default";
/// At most this many columns in a row (ftw.simplelayout's 1, 2 or 4 column layouts fit).
const MAX_COLUMNS: usize = 4;
const MAX_SLOTS: usize = 10;
const MAX_ROWS: usize = 500;
/// The Bootstrap grid has twelve units.
const GRID_UNITS: u8 = 12;

/// A page layout: slot name → rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PageLayout {
    slots: BTreeMap<String, Vec<Row>>,
}

/// A row of columns, with optional display properties (e.g. a CSS class).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The columns, left to right.
    pub cols: Vec<Column>,
    /// Free display properties of plain values; never compared between versions.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub config: Map<String, Value>,
}

/// A column of blocks, top to bottom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The blocks placed here.
    pub blocks: Vec<BlockRef>,
    /// The column's width in grid units (1–12); `None` shares the row equally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u8>,
}

/// A block placed in a column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockRef {
    /// The block's uid.
    pub uid: String,
}

impl PageLayout {
    /// The layout of a page nobody has arranged yet: one row with one empty column.
    pub fn empty() -> PageLayout {
        let mut slots = BTreeMap::new();
        slots.insert(MAIN_SLOT.to_owned(), vec![empty_row()]);
        PageLayout { slots }
    }

    /// Reads a stored value; anything unreadable counts as the empty layout, because the
    /// children (not the layout) say which blocks exist.
    pub fn from_stored(value: Option<&Value>) -> PageLayout {
        value.and_then(|v| parse(v).ok()).unwrap_or_else(PageLayout::empty)
    }

    /// The stored and wire form.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Slot names in reading order: the main slot, then the others by name.
    fn slot_order(&self) -> Vec<&String> {
        let mut names: Vec<&String> = self.slots.keys().collect();
        names.sort_by_key(|name| (name.as_str() != MAIN_SLOT, name.as_str()));
        names
    }

    /// Every placed uid in reading order (slot, row, column, top to bottom).
    pub fn uids(&self) -> Vec<String> {
        let mut out = Vec::new();
        for slot in self.slot_order() {
            for row in &self.slots[slot] {
                for col in &row.cols {
                    out.extend(col.blocks.iter().map(|b| b.uid.clone()));
                }
            }
        }
        out
    }

    fn cells_mut(&mut self) -> Vec<&mut BlockRef> {
        let order: Vec<String> = self.slot_order().into_iter().cloned().collect();
        let mut slots: HashMap<&String, &mut Vec<Row>> = self.slots.iter_mut().collect();
        let mut cells = Vec::new();
        for name in &order {
            if let Some(rows) = slots.remove(name) {
                for row in rows.iter_mut() {
                    for col in &mut row.cols {
                        cells.extend(col.blocks.iter_mut());
                    }
                }
            }
        }
        cells
    }

    /// Drops the blocks `keep` refuses.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        for rows in self.slots.values_mut() {
            for row in rows.iter_mut() {
                for col in &mut row.cols {
                    col.blocks.retain(|b| keep(&b.uid));
                }
            }
        }
    }

    /// Places `uids` at the end of the last column of the main slot.
    pub fn append(&mut self, uids: impl IntoIterator<Item = String>) {
        let rows = self.slots.entry(MAIN_SLOT.to_owned()).or_default();
        if rows.is_empty() {
            rows.push(empty_row());
        }
        if let Some(col) = rows.last_mut().and_then(|row| row.cols.last_mut()) {
            col.blocks.extend(uids.into_iter().map(|uid| BlockRef { uid }));
        }
    }

    /// The layout as it applies to a page whose child blocks are `blocks` (in position
    /// order): unknown uids dropped, unplaced blocks appended.
    pub fn normalized(mut self, blocks: &[String]) -> PageLayout {
        let existing: HashSet<&str> = blocks.iter().map(String::as_str).collect();
        self.retain(|uid| existing.contains(uid));
        let placed: HashSet<String> = self.uids().into_iter().collect();
        let missing: Vec<String> = blocks.iter().filter(|uid| !placed.contains(*uid)).cloned().collect();
        self.append(missing);
        self
    }

    /// Keeps the rows and columns but refills their cells with `order`: the block order
    /// changed elsewhere (an `ordering` PATCH), the arrangement stays. `order` must hold
    /// exactly the placed uids.
    pub fn pour(&mut self, order: &[String]) {
        for (cell, uid) in self.cells_mut().into_iter().zip(order) {
            cell.uid = uid.clone();
        }
    }

    /// Replaces uids by `renamed` (copies and check-ins give blocks new uids).
    pub fn rename(&mut self, renamed: &HashMap<String, String>) {
        for cell in self.cells_mut() {
            if let Some(new) = renamed.get(&cell.uid) {
                cell.uid = new.clone();
            }
        }
    }
}

fn empty_row() -> Row {
    Row { cols: vec![Column { blocks: Vec::new(), width: None }], config: Map::new() }
}

/// Validates a client's layout: shape, slot names, column counts and widths, uid form and
/// that no block is placed twice. Which uids are blocks of the page is checked by the write.
pub fn parse(value: &Value) -> Result<PageLayout, String> {
    let mut layout: PageLayout = serde_json::from_value(value.clone()).map_err(|e| {
        format!("Expected a layout {{\"default\": [{{\"cols\": [{{\"blocks\": [{{\"uid\": …}}]}}]}}]}}: {e}")
    })?;
    if layout.slots.len() > MAX_SLOTS {
        return Err(format!("A layout has at most {MAX_SLOTS} slots."));
    }
    let mut seen = HashSet::new();
    for (name, rows) in &mut layout.slots {
        let valid_name = !name.is_empty()
            && name.len() <= 50
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if !valid_name {
            return Err(format!("'{name}' is not a slot name (lowercase letters, digits, '_' and '-')."));
        }
        if rows.len() > MAX_ROWS {
            return Err(format!("A slot has at most {MAX_ROWS} rows."));
        }
        for row in rows.iter_mut() {
            if row.cols.is_empty() || row.cols.len() > MAX_COLUMNS {
                return Err(format!("A row has 1 to {MAX_COLUMNS} columns."));
            }
            check_config(&row.config)?;
            for col in &mut row.cols {
                if col.width.is_some_and(|w| w == 0 || w > GRID_UNITS) {
                    return Err(format!("A column width is 1 to {GRID_UNITS} grid units."));
                }
                for block in &mut col.blocks {
                    if !is_uid(&block.uid) {
                        return Err(format!("'{}' is not a UID.", block.uid));
                    }
                    block.uid.make_ascii_lowercase();
                    if !seen.insert(block.uid.clone()) {
                        return Err(format!("The block {} is placed twice.", block.uid));
                    }
                }
            }
        }
    }
    if !layout.slots.contains_key(MAIN_SLOT) {
        layout.slots.insert(MAIN_SLOT.to_owned(), vec![empty_row()]);
    }
    Ok(layout)
}

/// Checks a map of display properties: a few plain values, short texts.
pub fn check_config(config: &Map<String, Value>) -> Result<(), String> {
    if config.len() > 50 {
        return Err("At most 50 properties are allowed.".into());
    }
    for (key, value) in config {
        if key.is_empty() || key.chars().count() > 100 {
            return Err("Property names have 1 to 100 characters.".into());
        }
        match value {
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
            Value::String(text) if text.chars().count() <= 1_000 => {}
            _ => {
                return Err(format!(
                    "The property '{key}' must be a text (at most 1000 characters), number or boolean."
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    const C: &str = "cccccccccccccccccccccccccccccccc";

    fn two_rows() -> PageLayout {
        parse(&json!({
            "sidebar": [{"cols": [{"blocks": [{"uid": C}]}]}],
            "default": [{"cols": [{"blocks": [{"uid": A}]}, {"blocks": [], "width": 4}]},
                        {"cols": [{"blocks": [{"uid": B}]}], "config": {"css": "wide"}}]
        }))
        .unwrap_or_default()
    }

    #[test]
    fn reading_order_starts_with_the_main_slot() {
        assert_eq!(two_rows().uids(), [A, B, C]);
    }

    #[test]
    fn pouring_keeps_the_arrangement() {
        let mut layout = two_rows();
        layout.pour(&[C.to_owned(), A.to_owned(), B.to_owned()]);
        assert_eq!(layout.uids(), [C, A, B]);
        assert_eq!(layout.to_value()["default"][0]["cols"][1]["width"], json!(4));
        assert_eq!(layout.to_value()["default"][1]["config"]["css"], json!("wide"));
    }

    #[test]
    fn normalizing_drops_unknown_and_appends_missing() {
        let layout = two_rows().normalized(&[B.to_owned(), C.to_owned(), "d".repeat(32)]);
        assert_eq!(layout.uids(), vec![B.to_owned(), "d".repeat(32), C.to_owned()]);
        assert_eq!(layout.to_value()["default"][1]["cols"][0]["blocks"][1]["uid"], json!("d".repeat(32)));
    }

    #[test]
    fn refuses_bad_shapes() {
        assert!(parse(&json!({"default": [{"cols": []}]})).is_err());
        assert!(parse(&json!({"default": [{"cols": [{"blocks": [{"uid": "x"}]}]}]})).is_err());
        assert!(parse(&json!({"default": [{"cols": [{"blocks": [{"uid": A}]}, {"blocks": [{"uid": A}]}]}]})).is_err());
        assert!(parse(&json!({"default": [{"cols": [{"blocks": [], "width": 13}]}]})).is_err());
        assert!(parse(&json!({"Bad Slot": []})).is_err());
        assert!(parse(&json!({"default": [{"cols": [{"blocks": []}], "rows": 1}]})).is_err());
        assert!(parse(&json!([1, 2])).is_err());
        assert_eq!(parse(&json!({})).map(|l| l.uids().len()), Ok(0));
    }
}
