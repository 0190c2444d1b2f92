//! Reads string column values of hits (`UID`, `portal_type`, …), each column opened once per
//! segment a page of hits touches: opening one costs more than reading a value.

use std::collections::HashMap;
use tantivy::columnar::StrColumn;
use tantivy::{DocAddress, Searcher};

/// The columns opened so far, by segment and name.
pub struct StrColumns<'s> {
    searcher: &'s Searcher,
    open: HashMap<(u32, &'static str), Option<StrColumn>>,
}

impl<'s> StrColumns<'s> {
    /// Nothing opened yet.
    pub fn new(searcher: &'s Searcher) -> Self {
        StrColumns { searcher, open: HashMap::new() }
    }

    /// The first value of column `name` for the document at `address`, if it has one.
    pub fn value(&mut self, address: DocAddress, name: &'static str) -> tantivy::Result<Option<String>> {
        let column = match self.open.entry((address.segment_ord, name)) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let segment = self.searcher.segment_reader(address.segment_ord);
                entry.insert(segment.fast_fields().str(name)?)
            }
        };
        let Some(column) = column else { return Ok(None) };
        let Some(ord) = column.term_ords(address.doc_id).next() else { return Ok(None) };
        let mut value = String::new();
        let found = column.ord_to_str(ord, &mut value)?;
        Ok(found.then_some(value))
    }
}
