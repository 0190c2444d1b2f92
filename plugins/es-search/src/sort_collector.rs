//! Sorting raw queries by one or more keys as Elasticsearch does: fields by their column (the
//! smallest value of a document for ascending order, the largest for descending), `_score`,
//! `_doc`; documents without a value last in either order (unless `missing: _first`); ties go
//! to the next key and finally to index order. tantivy sorts by one fast field only, so this
//! collector keeps the best `from + size` documents of every segment itself.

use std::cmp::Ordering;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// Whole numbers (and seconds, for the site index's dates).
    Integer,
    /// Floating-point numbers.
    Float,
    /// true or false (sorted as 0 and 1).
    Boolean,
    /// Dates (sorted, and reported, in milliseconds).
    Date,
    /// Whole strings.
    Keyword,
}

/// One resolved sort key.
#[derive(Clone, Debug)]
pub enum SortBy {
    /// Relevance.
    Score { descending: bool },
    /// Index order.
    Doc { descending: bool },
    /// A column.
    Column {
        /// Its name in the index.
        column: String,
        /// What it holds.
        kind: ColumnKind,
        /// Largest first.
        descending: bool,
        /// Documents without a value first.
        missing_first: bool,
        /// Whole seconds (the site index's dates), reported in milliseconds.
        seconds: bool,
        /// The value the index holds for "none" (the site index's `effective`/`expires`).
        stand_in: Option<i64>,
    },
}

/// A document's value for one key.
#[derive(Clone, Debug, PartialEq)]
pub enum SortValue {
    /// No value.
    Missing,
    /// A number (integers, booleans, dates in milliseconds).
    Integer(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    Text(String),
}

/// The best `limit` documents by `keys`, with their sort values and scores.
pub struct SortCollector {
    /// The keys, most significant first.
    pub keys: Vec<SortBy>,
    /// How many documents to keep (`from + size`).
    pub limit: usize,
}

/// A kept document.
pub type Sorted = (Vec<SortValue>, Score, DocAddress);

enum Reader {
    Integer(Column<i64>),
    Float(Column<f64>),
    Boolean(Column<bool>),
    Date(Column<tantivy::DateTime>),
    Keyword(StrColumn),
    Absent,
}

/// One segment's side of the collector.
pub struct SortSegment {
    keys: Vec<SortBy>,
    readers: Vec<Reader>,
    segment: SegmentOrdinal,
    limit: usize,
    kept: Vec<Sorted>,
}

fn open(segment: &SegmentReader, key: &SortBy) -> tantivy::Result<Reader> {
    let SortBy::Column { column, kind, .. } = key else { return Ok(Reader::Absent) };
    let fast = segment.fast_fields();
    Ok(match kind {
        ColumnKind::Integer => match fast.column_opt::<i64>(column)? {
            Some(c) => Reader::Integer(c),
            // A JSON field may keep whole numbers as floats where documents mix them.
            None => fast.column_opt::<f64>(column)?.map_or(Reader::Absent, Reader::Float),
        },
        ColumnKind::Float => match fast.column_opt::<f64>(column)? {
            Some(c) => Reader::Float(c),
            None => fast.column_opt::<i64>(column)?.map_or(Reader::Absent, Reader::Integer),
        },
        ColumnKind::Boolean => fast.column_opt::<bool>(column)?.map_or(Reader::Absent, Reader::Boolean),
        ColumnKind::Date => fast.column_opt::<tantivy::DateTime>(column)?.map_or(Reader::Absent, Reader::Date),
        ColumnKind::Keyword => fast.str(column)?.map_or(Reader::Absent, Reader::Keyword),
    })
}

/// The smallest (ascending) or largest (descending) of a document's values.
fn pick<T: PartialOrd>(values: impl Iterator<Item = T>, descending: bool) -> Option<T> {
    values.reduce(|best, v| {
        let better = if descending { v > best } else { v < best };
        if better { v } else { best }
    })
}

fn value(reader: &Reader, key: &SortBy, doc: DocId) -> SortValue {
    let SortBy::Column { descending, seconds, stand_in, .. } = key else { return SortValue::Missing };
    let d = *descending;
    let found = match reader {
        Reader::Integer(c) => pick(c.values_for_doc(doc), d)
            .filter(|v| Some(*v) != *stand_in)
            .map(|v| SortValue::Integer(if *seconds { v.saturating_mul(1000) } else { v })),
        Reader::Float(c) => pick(c.values_for_doc(doc), d).map(SortValue::Float),
        Reader::Boolean(c) => pick(c.values_for_doc(doc), d).map(|b| SortValue::Integer(i64::from(b))),
        Reader::Date(c) => pick(c.values_for_doc(doc), d).map(|t| SortValue::Integer(t.into_timestamp_millis())),
        Reader::Keyword(c) => pick(c.term_ords(doc), d).and_then(|ord| {
            let mut text = String::new();
            c.ord_to_str(ord, &mut text).ok().filter(|found| *found).map(|_| SortValue::Text(text))
        }),
        Reader::Absent => None,
    };
    found.unwrap_or(SortValue::Missing)
}

fn compare_values(a: &SortValue, b: &SortValue) -> Ordering {
    match (a, b) {
        (SortValue::Integer(x), SortValue::Integer(y)) => x.cmp(y),
        (SortValue::Float(x), SortValue::Float(y)) => x.total_cmp(y),
        (SortValue::Integer(x), SortValue::Float(y)) => (*x as f64).total_cmp(y),
        (SortValue::Float(x), SortValue::Integer(y)) => x.total_cmp(&(*y as f64)),
        (SortValue::Text(x), SortValue::Text(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// How two kept documents compare under `keys` (less is better).
pub fn compare(keys: &[SortBy], a: &Sorted, b: &Sorted) -> Ordering {
    for (index, key) in keys.iter().enumerate() {
        let ordering = match key {
            SortBy::Score { descending } => {
                let o = a.1.total_cmp(&b.1);
                if *descending { o.reverse() } else { o }
            }
            SortBy::Doc { descending } => {
                let o = a.2.cmp(&b.2);
                if *descending { o.reverse() } else { o }
            }
            SortBy::Column { descending, missing_first, .. } => {
                let (x, y) = (&a.0[index], &b.0[index]);
                match (x == &SortValue::Missing, y == &SortValue::Missing) {
                    (true, true) => Ordering::Equal,
                    (true, false) => {
                        if *missing_first {
                            Ordering::Less
                        } else {
                            Ordering::Greater
                        }
                    }
                    (false, true) => {
                        if *missing_first {
                            Ordering::Greater
                        } else {
                            Ordering::Less
                        }
                    }
                    (false, false) => {
                        let o = compare_values(x, y);
                        if *descending { o.reverse() } else { o }
                    }
                }
            }
        };
        if ordering != Ordering::Equal {
            return ordering;
        }
    }
    a.2.cmp(&b.2)
}

impl SortSegment {
    fn keep_best(&mut self) {
        let keys = &self.keys;
        self.kept.sort_by(|a, b| compare(keys, a, b));
        self.kept.truncate(self.limit);
    }
}

impl SegmentCollector for SortSegment {
    type Fruit = Vec<Sorted>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let values = self.keys.iter().zip(&self.readers).map(|(key, reader)| value(reader, key, doc)).collect();
        self.kept.push((values, score, DocAddress::new(self.segment, doc)));
        // Sorting now and then keeps memory at a few pages' worth, whatever matches.
        if self.kept.len() >= self.limit.saturating_mul(2).max(1024) {
            self.keep_best();
        }
    }

    fn harvest(mut self) -> Vec<Sorted> {
        self.keep_best();
        self.kept
    }
}

impl Collector for SortCollector {
    type Fruit = Vec<Sorted>;
    type Child = SortSegment;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<SortSegment> {
        let readers = self.keys.iter().map(|key| open(reader, key)).collect::<tantivy::Result<_>>()?;
        Ok(SortSegment { keys: self.keys.clone(), readers, segment, limit: self.limit, kept: Vec::new() })
    }

    fn requires_scoring(&self) -> bool {
        self.keys.iter().any(|key| matches!(key, SortBy::Score { .. }))
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Sorted>>) -> tantivy::Result<Vec<Sorted>> {
        let mut all: Vec<Sorted> = fruits.into_iter().flatten().collect();
        all.sort_by(|a, b| compare(&self.keys, a, b));
        all.truncate(self.limit);
        Ok(all)
    }
}
