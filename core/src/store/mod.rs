//! Storage through `sqlx::Any`: one code path for SQLite (the embedded default) and PostgreSQL,
//! with one migrations folder per backend.
//!
//! Reads go through the pool. Writes go through a [`Tx`]: write transactions take turns on one
//! writer connection and share commits ([`group_commit`]). SQLite allows only one writer; on
//! PostgreSQL, other instances write beside this one.

mod alias_writes;
mod audit;
mod backup;
mod blob;
pub mod change_feed;
mod changes;
mod content;
mod content_memo;
mod content_write;
mod dump;
mod feed;
mod follow;
mod group_commit;
mod hooks;
mod kept;
mod keywords;
mod links;
mod listing;
mod listing_page;
mod lock;
mod memo;
mod migrations;
mod portrait;
mod principal;
mod principal_write;
mod records;
mod redirect;
mod relation;
mod room;
mod rows;
mod scale;
mod search;
mod security;
mod size;
mod statistics;
mod tasks;
#[cfg(test)]
pub(crate) mod test_support;
mod tx;
pub mod type_edits;
mod visibility;

pub use audit::{AuditEntry, AuditQuery};
pub use backup::BackupError;
pub use blob::{BlobMeta, BlobRange};
pub use changes::ORDERING;
pub use dump::{DumpError, ExportSummary, ImportSummary, Manifest, TableManifest};
pub use feed::Change;
pub use follow::OnForeignChange;
use group_commit::{Link, Member, Writer};
pub use hooks::{DerivedFacts, Phase, Subscriber, Subscribers};
pub use kept::Kept;
pub use listing::{BehaviourOrder, Listing, ListingOrder, TypeFilter};
pub use listing_page::{Columns, ListedPage};
pub use lock::{ContentLock, LockInfo, checkout_lock, unlocked};
pub use migrations::Migration;
pub use portrait::StoredPortrait;
pub use principal::{PrincipalQuery, StoredPrincipal};
pub use redirect::{Alias, AliasQuery, RedirectHit};
pub use relation::{RelationQuery, RelationRow};
pub use rows::{SUMMARY_FIELDS, placeholders, time_from_db, time_to_db};
pub use scale::StoredScale;
pub use search::{Bind, SearchSql, json_field};
pub use security::{HistoryEntry, LocalRole, ancestor_paths};
use sqlx::AnyPool;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
pub use tx::Tx;
pub use visibility::Visibility;

/// How long a PostgreSQL connection may lie idle in the pool before it is tested again when
/// taken: shorter than any server restart.
const TESTED_AFTER_IDLE: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a request waits for a database connection.
const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Which database engine is behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The embedded default.
    Sqlite,
    /// For several instances sharing one database.
    Postgres,
}

/// The handle every service uses to read and write.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The one connection this instance writes through, whose writers share commits.
    writer: Writer,
    queries: Arc<AtomicU64>,
    subscribers: Arc<OnceLock<Subscribers>>,
    /// Held weakly: the site that installs it holds the store.
    derived: Arc<OnceLock<Weak<dyn DerivedFacts>>>,
    records: Arc<records::RecordMemory>,
    /// What writes check first, remembered on SQLite.
    memo: Arc<memo::ObjectMemo>,
    generation: Arc<AtomicU64>,
    /// Where the database is, for the connection that listens for other instances' commits.
    url: Arc<str>,
    /// This instance's name on its PostgreSQL connections, which its commits' notifications
    /// carry (see [`follow`]).
    instance: Arc<str>,
    /// Dropped with the last handle, which stops the background tasks (see [`tasks`]).
    tasks: Arc<tasks::Tasks>,
}

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL names no supported backend.
    #[error("unsupported database URL '{0}': use sqlite://… or postgres://…")]
    UnsupportedUrl(String),
    /// Connecting or migrating failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
}

impl Store {
    /// Connects and brings the schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let store = Store::connect(url).await?;
        match store.backend {
            Backend::Sqlite => {
                sqlx::query("PRAGMA journal_mode=WAL").execute(&store.pool).await?;
                core_migrations(sqlx::migrate!("./migrations/sqlite")).run(&store.pool).await?;
            }
            Backend::Postgres => core_migrations(sqlx::migrate!("./migrations/postgres")).run(&store.pool).await?,
        }
        Ok(store)
    }

    /// Connects without touching the schema: for tools that read a database another process
    /// serves (`wcs backup`), which must not migrate it under that process.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::UnsupportedUrl(url.to_owned()));
        };
        let instance: Arc<str> = uuid::Uuid::new_v4().simple().to_string().into();
        let named = instance.clone();
        let pool = AnyPoolOptions::new()
            // Each PostgreSQL connection names the instance, which its commits' notifications
            // then carry (see [`follow`]).
            .after_connect(move |connection, _| {
                let instance = named.clone();
                Box::pin(async move {
                    if backend == Backend::Postgres {
                        sqlx::query("SELECT set_config('wcs.instance', $1, false)")
                            .bind(instance.to_string())
                            .execute(connection)
                            .await?;
                    }
                    Ok(())
                })
            })
            // A pooled SQLite connection is a file handle that cannot go stale, and testing it
            // costs a hand-off to its worker thread on every query. A PostgreSQL connection
            // may have died with a server restart while it lay idle, and is tested first if it
            // did lie idle: the pool tests every connection when it is given back, so one
            // taken again at once is known to be alive, and a test is a round trip on the
            // way of every statement.
            .test_before_acquire(false)
            .before_acquire(move |connection, meta| {
                Box::pin(async move {
                    if backend == Backend::Postgres && meta.idle_for >= TESTED_AFTER_IDLE {
                        sqlx::Connection::ping(connection).await?;
                    }
                    Ok(true)
                })
            })
            .max_connections(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            })
            // A request waits this long for a connection, then answers 503: while PostgreSQL
            // restarts, the pool keeps trying to connect until this runs out.
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await?;
        let writer = Writer::new(Link::take(&pool, backend).await?);
        Ok(Store {
            pool,
            backend,
            writer,
            queries: Arc::new(AtomicU64::new(0)),
            subscribers: Arc::new(OnceLock::new()),
            derived: Arc::new(OnceLock::new()),
            records: Arc::default(),
            memo: Arc::default(),
            generation: Arc::new(AtomicU64::new(0)),
            url: url.into(),
            instance,
            tasks: Arc::default(),
        })
    }

    /// Keeps `facts` up to date in every commit from now on (once, at start-up, before the
    /// first write).
    pub(crate) fn keep_derived(&self, facts: Weak<dyn DerivedFacts>) {
        let _ = self.derived.set(facts);
    }

    /// Hands every commit's events to `subscribers` from now on (once, at start-up, before the
    /// first write).
    pub(crate) fn set_subscribers(&self, subscribers: Subscribers) {
        let _ = self.subscribers.set(subscribers);
    }

    /// The engine behind this store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// How many SQL statements this store has run; tests use it to prove listings are not N+1.
    pub fn query_count(&self) -> u64 {
        self.queries.load(Ordering::Relaxed)
    }

    fn count(&self) {
        self.queries.fetch_add(1, Ordering::Relaxed);
    }

    /// A number that moves on whenever something this process reads may have changed: every
    /// commit, and whatever [`Store::note_change`] reports. Answers kept in memory are valid
    /// only while it stands still.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Reports a change that no commit of this store tells: a search index that took in a
    /// batch, a plugin switched on or off.
    pub fn note_change(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Connections in the pool, and how many of them are idle.
    pub fn pool_usage(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// The same store with a statement counter of its own, for background tasks (a search
    /// indexer), whose statements are no request's cost.
    pub fn background(&self) -> Store {
        Store { queries: Arc::new(AtomicU64::new(0)), ..self.clone() }
    }

    /// The pool, for a plugin reading its own tables; each call counts as one statement.
    pub fn pool(&self) -> &AnyPool {
        self.count();
        &self.pool
    }

    /// Starts a write transaction; dropping it without [`Tx::commit`] rolls back.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        self.count();
        let inner = self.writer.join().await?;
        Ok(Tx {
            inner,
            store: self.clone(),
            events: Vec::new(),
            records_written: false,
            facts_written: false,
            edits: Vec::new(),
            feed: Vec::new(),
        })
    }

    /// Closes every connection; used on shutdown so SQLite checkpoints its WAL.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}

/// Core's migrations. Databases made before the versioning tables moved into their plugin
/// have core's old migration 6 recorded; it is no longer shipped, and that is expected.
fn core_migrations(mut migrator: sqlx::migrate::Migrator) -> sqlx::migrate::Migrator {
    migrator.set_ignore_missing(true);
    migrator
}

/// The upper bound of a subtree's paths: every descendant of `/a` sorts in `["/a/", "/a0")`.
fn subtree_end(path: &str) -> String {
    format!("{path}0")
}

/// Whether a database error is a unique-constraint violation (e.g. a path taken concurrently).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}
