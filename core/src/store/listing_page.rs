//! A page of a folder listing with the listing's total, as a folder's serialization shows it:
//! what every GET of a folder or a folderish page reads, a statement or two per request.
//!
//! The total costs no statement when the page tells it (a page shorter than asked for ends the
//! listing, as it does for every page without children), and a page read is kept ([`Kept`])
//! for the next request that asks for the same one, until a commit moves the store on or the
//! memory's maximum age passes. The age also bounds what no commit announces: a child whose
//! publication date passes shows (or goes) at most that late, as in the navigation trees.

use super::listing::Listing;
use super::{Kept, Store, Visibility};
use crate::content::ContentObject;
use std::sync::Arc;

/// Pages kept: keys come from requests (a page of any folder), so the memory is bounded by
/// the pages' weight. Most pages are those of documents without children, which weigh next to
/// nothing: a walk over ten thousand documents keeps all of theirs.
static PAGES: Kept<Arc<ListedPage>> = Kept::weighed(4 * 1024 * 1024, |page| page_weight(page));

/// Pages heavier than this (estimated from their objects' text) are read each time: a
/// hundred of them must not fill the memory.
const MAX_KEPT_WEIGHT: usize = 32 * 1024;

/// About how many bytes a kept page holds: its objects' text, and its key and entry.
fn page_weight(page: &ListedPage) -> usize {
    256 + page.items.iter().map(super::content_memo::weight_of).sum::<usize>()
}

/// A page of a listing and how many objects the whole listing holds.
#[derive(Debug)]
pub struct ListedPage {
    /// The page's objects, in the listing's order.
    pub items: Vec<ContentObject>,
    /// How many objects the listing holds in all.
    pub total: i64,
}

/// What a listing reads of each object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Every column: for summaries that show more than the brief's fields, and whole objects.
    All,
    /// Only the summary fields of each object's field values: for summaries of the default
    /// metadata.
    Briefs,
}

impl Store {
    /// The page of `listing` from `offset`, at most `limit` objects, with the listing's total.
    pub async fn list_page(
        &self,
        listing: &Listing<'_>,
        visibility: &Visibility,
        offset: i64,
        limit: i64,
        columns: Columns,
    ) -> Result<Arc<ListedPage>, sqlx::Error> {
        let key = page_key(listing, visibility, offset, limit, columns);
        let generation = match PAGES.recall(self, &key) {
            Ok(page) => return Ok(page),
            Err(generation) => generation,
        };
        let items = match columns {
            Columns::All => self.list(listing, visibility, offset, limit).await?,
            Columns::Briefs => self.list_briefs(listing, visibility, offset, limit).await?,
        };
        let total = match total_told_by_page(offset, limit, items.len()) {
            Some(total) => total,
            None => self.count_listed(listing, visibility).await?,
        };
        let page = Arc::new(ListedPage { items, total });
        if page_weight(&page) <= MAX_KEPT_WEIGHT {
            PAGES.keep(self, generation, &key, page.clone());
        }
        Ok(page)
    }
}

/// The listing's total, when a page of `found` objects asked for at `offset` with `limit`
/// tells it: a page shorter than the limit is the last one, unless it is empty past the start
/// (the listing may end before `offset`).
fn total_told_by_page(offset: i64, limit: i64, found: usize) -> Option<i64> {
    let found = i64::try_from(found).ok()?;
    (found < limit && (found > 0 || offset == 0)).then(|| offset + found)
}

/// Everything a page depends on but the moment it is read at (see the module's note).
fn page_key(listing: &Listing<'_>, visibility: &Visibility, offset: i64, limit: i64, columns: Columns) -> String {
    let (kept, types) = match listing.types {
        super::TypeFilter::Except(types) => ("except", types),
        super::TypeFilter::Only(types) => ("only", types),
    };
    // Uids and type names hold no control characters: one separates them.
    let (parents, types) = (listing.parents.join("\u{1f}"), types.join("\u{1f}"));
    let order = listing.order;
    format!("{columns:?} {order:?} {offset} {limit} {parents} {kept} {types} {}", visibility.memory_key())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::test_support::{object, store};
    use crate::store::{ListingOrder, TypeFilter};

    #[test]
    fn a_short_page_tells_the_total() {
        assert_eq!(total_told_by_page(0, 25, 0), Some(0), "no children");
        assert_eq!(total_told_by_page(0, 25, 7), Some(7));
        assert_eq!(total_told_by_page(50, 25, 3), Some(53));
        assert_eq!(total_told_by_page(0, 25, 25), None, "a full page may not be the last");
        assert_eq!(total_told_by_page(50, 25, 0), None, "the listing may end before the offset");
        assert_eq!(total_told_by_page(0, 0, 0), None);
    }

    #[tokio::test]
    async fn a_page_is_kept_until_a_commit_and_counted_only_when_it_cannot_tell() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let folder = object("folder");
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&folder).await.unwrap();
        for n in 0..3 {
            let mut child = object(&format!("child{n}"));
            child.parent_uid = Some(folder.uid.clone());
            child.path = format!("/folder/child{n}");
            child.position = n;
            tx.insert_content(&child).await.unwrap();
        }
        tx.commit().await.unwrap();
        let parents = [folder.uid.clone()];
        let listing = Listing { parents: &parents, types: TypeFilter::Except(&[]), order: ListingOrder::Position };

        let before = store.query_count();
        let page = store.list_page(&listing, &Visibility::ALL, 0, 2, Columns::Briefs).await.unwrap();
        assert_eq!((page.items.len(), page.total), (2, 3));
        assert_eq!(store.query_count() - before, 2, "a full page and its count");
        let again = store.list_page(&listing, &Visibility::ALL, 0, 2, Columns::Briefs).await.unwrap();
        assert!(Arc::ptr_eq(&page, &again), "the same page read again");
        assert_eq!(store.query_count() - before, 2, "the kept page was read again");

        let before = store.query_count();
        let last = store.list_page(&listing, &Visibility::ALL, 2, 2, Columns::All).await.unwrap();
        assert_eq!((last.items.len(), last.total), (1, 3));
        assert_eq!(store.query_count() - before, 1, "the last page tells the total");

        let mut tx = store.begin().await.unwrap();
        let mut added = object("child3");
        added.parent_uid = Some(folder.uid.clone());
        added.path = "/folder/child3".to_owned();
        added.position = 3;
        tx.insert_content(&added).await.unwrap();
        tx.commit().await.unwrap();
        let after = store.list_page(&listing, &Visibility::ALL, 2, 2, Columns::All).await.unwrap();
        let ids: Vec<&str> = after.items.iter().map(|o| o.id.as_str()).collect();
        assert_eq!((ids, after.total), (vec!["child2", "child3"], 4), "a commit makes kept pages stale");

        let hidden = Visibility { tokens: Some(vec!["user:nobody".to_owned()]), active_at: None };
        let none = store.list_page(&listing, &hidden, 0, 2, Columns::Briefs).await.unwrap();
        assert_eq!((none.items.len(), none.total), (0, 0), "another caller's page is not shared");
    }
}
