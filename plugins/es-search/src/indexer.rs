//! Keeps the index in step with storage: a background task reads the change feed after the
//! position the index last committed (stored with the index itself, so a crash between the
//! database's commit and the index's loses nothing), re-indexes what changed in batches and
//! commits. At start-up it catches up the same way; an index that was never built, or one
//! that fell behind what the feed still holds, is rebuilt from storage.

use crate::document::{block_owner, index_doc, index_docs, parts_by_owner};
use crate::dsl::{CustomFields, custom_fields};
use crate::engine::IndexDoc;
use crate::engine::{EngineError, SearchEngine};
use crate::index_state::IndexState;
use crate::records::CUSTOM_FIELDS;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;
use wcs_core::app::App;
use wcs_core::catalog::is_searchable;
use wcs_core::content::ContentObject;
use wcs_core::events::{USER_CREATED, USER_LOGGED_IN, USER_LOGGED_OUT};
use wcs_core::store::change_feed::FeedConsumer;
use wcs_core::store::{Change, Listing, ListingOrder, Store, TypeFilter, Visibility};

/// The feed consumer's name: one per index, so several instances sharing a database (each with
/// its own index) each hold back the trimming of what they have not read.
fn consumer_name(app: &App) -> String {
    match &app.settings.data_dir {
        Some(dir) => format!("es-search:{}", dir.display()),
        None => "es-search:memory".to_owned(),
    }
}

/// How often the task looks for changes: well under the one second a change may take to
/// become searchable.
pub const POLL: Duration = Duration::from_millis(150);

/// The pause after a round that committed: while writes keep coming, the index commits twice a
/// second rather than at every poll (each commit makes a segment, with buffers allocated
/// afresh and merges to follow), and a change is still searchable within a second.
const AFTER_COMMIT: Duration = Duration::from_millis(500);

/// The most objects one index commit takes in, which bounds what a batch holds in memory.
const BATCH_OBJECTS: usize = 500;

/// The most feed entries one index commit covers. Far more than [`BATCH_OBJECTS`]: under a
/// stream of edits most entries name an object already in the batch, and every commit makes a
/// segment, so a busy page edited thousands of times a second costs two commits, not twenty.
const BATCH_CHANGES: i64 = 5_000;

/// What one round of [`apply_next`] did.
pub struct Applied {
    /// How many feed entries it took in (0: the index was up to date).
    pub changes: usize,
    /// Whether the feed held more than one commit takes: a backlog to work through at once.
    pub backlog: bool,
    /// The feed position the index now holds everything up to.
    pub indexed: i64,
}

/// The longest wait between attempts while indexing fails (a cluster that is down).
const MAX_RETRY_PAUSE: Duration = Duration::from_secs(30);

/// Why indexing failed.
#[derive(Debug)]
pub enum IndexError {
    /// Storage failed.
    Store(sqlx::Error),
    /// The engine failed.
    Engine(EngineError),
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::Store(e) => write!(f, "storage: {e}"),
            IndexError::Engine(e) => write!(f, "search engine: {e}"),
        }
    }
}

impl From<sqlx::Error> for IndexError {
    fn from(err: sqlx::Error) -> Self {
        IndexError::Store(err)
    }
}

impl From<EngineError> for IndexError {
    fn from(err: EngineError) -> Self {
        IndexError::Engine(err)
    }
}

/// Brings the index up to date: a rebuild when it has no position or the feed no longer holds
/// what follows it, else the changes since.
pub async fn catch_up(app: &App, store: &Store, engine: &dyn SearchEngine) -> Result<(), IndexError> {
    let gap = match engine.position()? {
        None => true,
        Some(at) => !store.feed_kept_after(at).await?,
    };
    if gap {
        rebuild(app, store, engine, |_, _| {}).await?;
    }
    while apply_next(app, store, engine).await?.changes > 0 {}
    Ok(())
}

/// Rebuilds the whole index from storage; `progress(done, total)` follows it.
pub async fn rebuild(
    app: &App,
    store: &Store,
    engine: &dyn SearchEngine,
    mut progress: impl FnMut(usize, usize),
) -> Result<usize, IndexError> {
    // Taken first: what changes during the rebuild is replayed from the feed afterwards.
    let position = store.feed_end().await?;
    let site = format!("/{}", app.settings.site_id);
    let custom = custom(store).await?;
    let (_, total) = store.database_size().await?;
    let total = usize::try_from(total).unwrap_or_default();
    let block_types = app.types.block_types();
    engine.clear()?;
    // Page by page in path order, each page with the blocks of its pages: memory stays
    // bounded by the page, whatever the site's size.
    let (mut after, mut read, mut indexed) = (String::new(), 0, 0);
    loop {
        let page = store.subtree_page(&site, &after, &block_types, REBUILD_PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.path.clone();
        read += page.len();
        let mut objects = with_blocks(store, page, &block_types).await?;
        objects.sort_by(|a, b| a.path.cmp(&b.path));
        let parts = parts_by_owner(app, &objects);
        let searchable: Vec<&ContentObject> = objects.iter().filter(|o| is_searchable(&app.types, o)).collect();
        let uids: Vec<String> = searchable.iter().map(|o| o.uid.clone()).collect();
        let mut allowed = store.allowed_tokens(&uids).await?;
        let docs: Vec<IndexDoc> = searchable
            .iter()
            .map(|o| {
                let own_parts = parts.get(o.path.as_str()).map(Vec::as_slice).unwrap_or_default();
                index_doc(app, o, own_parts, allowed.remove(&o.uid).unwrap_or_default(), &custom)
            })
            .collect();
        engine.index(&docs)?;
        indexed += docs.len();
        progress(read.min(total), total.max(read));
    }
    engine.commit(position)?;
    // Answers kept in memory (a cached `@search`) were read from the index as it was.
    store.note_change();
    Ok(indexed)
}

/// `page` and the blocks inside its objects, however deep, and what the blocks hold: the
/// parts each page's document is made of.
async fn with_blocks(
    store: &Store,
    mut page: Vec<ContentObject>,
    block_types: &[String],
) -> Result<Vec<ContentObject>, IndexError> {
    if block_types.is_empty() {
        return Ok(page);
    }
    let mut parents: Vec<String> = page.iter().map(|o| o.uid.clone()).collect();
    let mut types = TypeFilter::Only(block_types);
    while !parents.is_empty() {
        let listing = Listing { parents: &parents, types, order: ListingOrder::Position };
        let found = store.list(&listing, &Visibility::ALL, 0, i64::MAX).await?;
        parents = found.iter().map(|o| o.uid.clone()).collect();
        page.extend(found);
        // Inside a block, everything belongs to the page.
        types = TypeFilter::Except(&[]);
    }
    Ok(page)
}

/// Objects read at once by a rebuild.
const REBUILD_PAGE: i64 = 1000;

/// Applies the next batch of changes.
pub async fn apply_next(app: &App, store: &Store, engine: &dyn SearchEngine) -> Result<Applied, IndexError> {
    let position = engine.position()?.unwrap_or(0);
    // Read first: when the feed holds nothing after the index's position, the index holds
    // everything written up to here.
    let end = store.feed_end().await?;
    let read = store.changes_after(position, BATCH_CHANGES).await?;
    let changes = naming_at_most(&read, BATCH_OBJECTS);
    let Some(last) = changes.last().map(|c| c.seq) else {
        return Ok(Applied { changes: 0, backlog: false, indexed: end.max(position) });
    };
    apply(app, store, engine, changes).await?;
    engine.commit(last)?;
    store.note_change();
    // For trimming only; the index's own position is what counts.
    let _ = FeedConsumer::new(consumer_name(app)).acknowledge(store, last).await;
    let backlog = changes.len() < read.len() || read.len() as i64 >= BATCH_CHANGES;
    // Without a backlog the batch was all the feed held up to its end.
    let indexed = if backlog { last } else { last.max(end) };
    Ok(Applied { changes: changes.len(), backlog, indexed })
}

/// The leading changes that name at most `objects` different objects.
fn naming_at_most(changes: &[Change], objects: usize) -> &[Change] {
    let mut named: HashSet<&str> = HashSet::new();
    for (index, change) in changes.iter().enumerate() {
        if named.insert(change.uid.as_str()) && named.len() > objects {
            return &changes[..index];
        }
    }
    changes
}

/// Changes whose object's whole subtree needs its documents again: paths, security or
/// state changed for everything below (or it went to the trash or away).
const SUBTREE_KINDS: [&str; 6] =
    ["moved", "untrashed", "local_roles_changed", "workflow_changed", "trashed", "removed"];

/// Changes that leave the index as it is. Users' events are told on the site root but change
/// no content: indexing the root again for each login would read its whole subtree.
const IGNORED_KINDS: [&str; 6] =
    ["version_created", "version_deleted", "checked_out", USER_LOGGED_IN.name, USER_LOGGED_OUT.name, USER_CREATED.name];

/// Whether the index may need `change`: not for the kinds that leave it as it is.
fn changes_content(change: &Change) -> bool {
    !IGNORED_KINDS.contains(&change.kind.as_str())
}

/// Applies a batch: every object it names is looked up as it is now. One that is gone (or in
/// the trash) loses its documents and its subtree's, by the path it was indexed under; one
/// that lives is indexed again, with its subtree where the change reaches below it.
async fn apply(app: &App, store: &Store, engine: &dyn SearchEngine, changes: &[Change]) -> Result<(), IndexError> {
    let mut named: BTreeSet<String> = BTreeSet::new();
    let mut subtrees: BTreeSet<String> = BTreeSet::new();
    for change in changes.iter().filter(|c| changes_content(c)) {
        named.insert(change.uid.clone());
        if SUBTREE_KINDS.contains(&change.kind.as_str()) {
            subtrees.insert(change.uid.clone());
        }
        if change.kind == "removed"
            && let Some(path) = &change.path
        {
            engine.delete_under(path)?;
        }
    }
    let named: Vec<String> = named.into_iter().collect();
    let live = store.content_by_uids(&named).await?;
    for uid in named.iter().filter(|uid| !live.iter().any(|o| &o.uid == *uid)) {
        if let Some(path) = engine.path_of(uid)? {
            engine.delete_under(&path)?;
        }
        engine.delete(std::slice::from_ref(uid))?;
    }
    for object in &live {
        if subtrees.contains(&object.uid) {
            // A moved subtree's documents still carry the old paths.
            if let Some(old) = engine.path_of(&object.uid)?.filter(|old| *old != object.path) {
                engine.delete_under(&old)?;
            }
            reindex(app, store, engine, &object.path, None).await?;
        } else {
            let page = page_of(app, store, object).await?;
            reindex(app, store, engine, &page, Some(std::slice::from_ref(&page))).await?;
        }
    }
    Ok(())
}

/// The path whose document holds `object`'s words: its page when it is (in) a block.
async fn page_of(app: &App, store: &Store, object: &ContentObject) -> Result<String, IndexError> {
    if !app.types.is_block_type(&object.portal_type) {
        let parent_path = object.path.get(..object.path.rfind('/').unwrap_or(0)).unwrap_or_default().to_owned();
        let parent = store.content_at_path(&parent_path).await?;
        if parent.is_none_or(|p| !app.types.is_block_type(&p.portal_type)) {
            return Ok(object.path.clone());
        }
    }
    let mut ancestors: Vec<String> = Vec::new();
    let mut path = object.path.as_str();
    while let Some(cut) = path.rfind('/').filter(|c| *c > 0) {
        path = &path[..cut];
        ancestors.push(path.to_owned());
    }
    let found = store.content_at_paths(&ancestors).await?;
    let by_path: HashMap<&str, &ContentObject> =
        found.iter().map(|o| (o.path.as_str(), o)).chain(std::iter::once((object.path.as_str(), object))).collect();
    Ok(block_owner(app, object, &by_path).unwrap_or(&object.path).to_owned())
}

/// Re-indexes the searchable objects at and below `path` (or only `only` among them).
async fn reindex(
    app: &App,
    store: &Store,
    engine: &dyn SearchEngine,
    path: &str,
    only: Option<&[String]>,
) -> Result<(), IndexError> {
    let objects = store.subtree(path).await?;
    let uids: Vec<String> = objects
        .iter()
        .filter(|o| is_searchable(&app.types, o) && only.is_none_or(|paths| paths.contains(&o.path)))
        .map(|o| o.uid.clone())
        .collect();
    let mut allowed = store.allowed_tokens(&uids).await?;
    let docs = index_docs(app, &objects, &mut allowed, only, &custom(store).await?);
    let gone: Vec<String> = objects.iter().filter(|o| !is_searchable(&app.types, o)).map(|o| o.uid.clone()).collect();
    engine.delete(&gone)?;
    engine.index(&docs)?;
    Ok(())
}

/// The custom fields to index, read through the indexer's own store (its statements are no
/// request's cost).
async fn custom(store: &Store) -> Result<CustomFields, IndexError> {
    let value = store.record_values(&[&CUSTOM_FIELDS]).await?.pop().unwrap_or_else(CUSTOM_FIELDS.default);
    Ok(custom_fields(&value))
}

/// Starts the task that keeps the index current; it stops when the application is dropped.
pub fn spawn(app: &Arc<App>, engine: Arc<dyn SearchEngine>, state: Arc<IndexState>) {
    let app: Weak<App> = Arc::downgrade(app);
    tokio::spawn(async move {
        let mut pause = POLL;
        loop {
            state.pause(pause).await;
            let Some(app) = app.upgrade() else { return };
            // Its own statement counter: the index's reads are no request's cost.
            let store = app.store.background();
            // A rebuild holds this until it commits; the changes wait in the feed meanwhile.
            let _writing = state.writing.lock().await;
            let waited = pause;
            pause = POLL;
            loop {
                let applied = apply_next(&app, &store, engine.as_ref()).await;
                if let Ok(applied) = &applied {
                    state.indexed_up_to(applied.indexed);
                }
                match applied {
                    Ok(Applied { changes: 0, .. }) => break,
                    Ok(Applied { backlog: true, .. }) => state.record(Ok(())),
                    // Writes keep coming while a batch is indexed: going on at once would
                    // commit back to back for as long as they do.
                    Ok(_) => {
                        state.record(Ok(()));
                        pause = AFTER_COMMIT;
                        break;
                    }
                    Err(err) => {
                        // A cluster that is down is asked again less and less often.
                        pause = (waited * 2).min(MAX_RETRY_PAUSE);
                        tracing::error!(%err, retry_in = ?pause, "search indexing failed");
                        state.record(Err(err.to_string()));
                        break;
                    }
                }
            }
        }
    });
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn change(seq: i64, uid: &str) -> Change {
        Change { seq, uid: uid.to_owned(), kind: "modified".to_owned(), path: None, time: chrono::Utc::now() }
    }

    #[test]
    fn users_events_on_the_site_root_leave_the_index_alone() {
        let kinds = |kind: &str| changes_content(&Change { kind: kind.to_owned(), ..change(1, "root") });
        assert!(!kinds("user_logged_in") && !kinds("user_logged_out") && !kinds("user_created"));
        assert!(kinds("modified") && kinds("workflow_changed"));
    }

    #[test]
    fn a_batch_stops_before_the_object_beyond_its_bound_and_repeats_cost_nothing() {
        let feed = [change(1, "a"), change(2, "b"), change(3, "a"), change(4, "c"), change(5, "b")];
        let seqs = |changes: &[Change]| changes.iter().map(|c| c.seq).collect::<Vec<_>>();
        assert_eq!(seqs(naming_at_most(&feed, 2)), [1, 2, 3], "c would be the third object");
        assert_eq!(seqs(naming_at_most(&feed, 3)), [1, 2, 3, 4, 5]);
        assert!(naming_at_most(&feed, 0).is_empty());
        let one_page: Vec<Change> = (1..=1_000).map(|seq| change(seq, "page")).collect();
        assert_eq!(naming_at_most(&one_page, 1).len(), 1_000, "a thousand edits of one page are one object");
    }
}
