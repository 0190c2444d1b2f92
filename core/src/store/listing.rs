//! Folder listings with the rules of the extended folder serializer: blocks left out (or only
//! blocks), news ordered by date, and a working copy's children followed by its baseline's.
//! Each page is one statement and each count another, whatever the length; a folder's page
//! and its total are read through [`Store::list_page`], which spares both where it can.

use super::Store;
use super::Visibility;
use super::content::visibility_filter;
use super::rows::{CONTENT_COLUMNS, brief_columns, content_from_row, page_clause, placeholders, with_text_binds};
use super::search::json_field;
use crate::content::ContentObject;
use sqlx::Row;

/// Which types a listing keeps.
#[derive(Clone, Copy, Debug)]
pub enum TypeFilter<'a> {
    /// Every type but these (folder items leave blocks out).
    Except(&'a [String]),
    /// Only these (a page's blocks).
    Only(&'a [String]),
}

/// How a listing is ordered (within each parent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListingOrder {
    /// The editors' order.
    Position,
    /// Newest first by a top-level date field (ISO 8601), entries without one last, then the
    /// editors' order. The field is an identifier ([`BehaviourOrder`] checks it at start-up).
    FieldDescending(&'static str),
}

/// Folders whose type has `behaviour` list their items in `order` (a news folder lists the
/// newest news first); registered with
/// [`Registrar::listing_order`](crate::plugin::Registrar::listing_order).
#[derive(Debug)]
pub struct BehaviourOrder {
    /// The behaviour that selects the order.
    pub behaviour: &'static str,
    /// The order.
    pub order: ListingOrder,
}

/// A listing of the children of one or more containers.
#[derive(Clone, Copy, Debug)]
pub struct Listing<'a> {
    /// The containers, in order: all children of the first come before those of the second.
    pub parents: &'a [String],
    /// Which types are kept.
    pub types: TypeFilter<'a>,
    /// The order within each container.
    pub order: ListingOrder,
}

impl Listing<'_> {
    /// The `WHERE` condition and `ORDER BY` list, parameters from `$1`, and the parameters.
    fn sql(&self, store: &Store, visibility: &Visibility) -> (String, String, Vec<String>) {
        let mut binds: Vec<String> = self.parents.to_vec();
        let parents = placeholders(1, self.parents.len());
        let (types, op) = match self.types {
            TypeFilter::Except(types) => (types, "NOT IN"),
            TypeFilter::Only(types) => (types, "IN"),
        };
        let mut condition = format!("parent_uid IN ({parents}) AND trashed = 0");
        if !types.is_empty() {
            condition.push_str(&format!(" AND portal_type {op} ({})", placeholders(binds.len() + 1, types.len())));
            binds.extend(types.iter().cloned());
        } else if op == "IN" {
            condition.push_str(" AND 1 = 0");
        }
        let (filter, tokens) = visibility_filter(visibility, binds.len() + 1);
        condition.push_str(&filter);
        binds.extend(tokens);
        let mut order = Vec::new();
        if self.parents.len() > 1 {
            // Children of earlier containers first: the position of parent_uid in the list.
            let cases: Vec<String> =
                (0..self.parents.len()).map(|i| format!("WHEN parent_uid = ${} THEN {i}", i + 1)).collect();
            order.push(format!("CASE {} END", cases.join(" ")));
        }
        match self.order {
            ListingOrder::Position => order.push("position".into()),
            ListingOrder::FieldDescending(field) => {
                order.push(format!("COALESCE({}, '') DESC", json_field(store.backend(), "content", field)));
                order.push("position".into());
            }
        }
        order.push("id".into());
        (condition, order.join(", "), binds)
    }
}

impl Store {
    /// One page of a listing.
    pub async fn list(
        &self,
        listing: &Listing<'_>,
        visibility: &Visibility,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.list_columns(CONTENT_COLUMNS, listing, visibility, offset, limit).await
    }

    /// The same page as [`Store::list`] with only the [`SUMMARY_FIELDS`] of each object's
    /// field values: for listings of summaries, which then neither copy nor parse the rest
    /// (blocks, text).
    ///
    /// [`SUMMARY_FIELDS`]: crate::store::SUMMARY_FIELDS
    pub(super) async fn list_briefs(
        &self,
        listing: &Listing<'_>,
        visibility: &Visibility,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        self.list_columns(brief_columns(self.backend), listing, visibility, offset, limit).await
    }

    async fn list_columns(
        &self,
        columns: &str,
        listing: &Listing<'_>,
        visibility: &Visibility,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<ContentObject>, sqlx::Error> {
        if listing.parents.is_empty() {
            return Ok(Vec::new());
        }
        let (condition, order, binds) = listing.sql(self, visibility);
        let sql =
            format!("SELECT {columns} FROM content WHERE {condition} ORDER BY {order} {}", page_clause(binds.len()));
        self.count();
        let rows = with_text_binds(sql, &binds).bind(limit).bind(offset).fetch_all(&self.pool).await?;
        rows.iter().map(content_from_row).collect()
    }

    /// How many objects a listing holds.
    pub(super) async fn count_listed(
        &self,
        listing: &Listing<'_>,
        visibility: &Visibility,
    ) -> Result<i64, sqlx::Error> {
        if listing.parents.is_empty() {
            return Ok(0);
        }
        let (condition, _, binds) = listing.sql(self, visibility);
        self.count();
        let sql = format!("SELECT COUNT(*) FROM content WHERE {condition}");
        with_text_binds(sql, &binds).fetch_one(&self.pool).await?.try_get(0)
    }
}
