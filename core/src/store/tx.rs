//! The write transaction: what it wrote is remembered so that the commit can update the derived
//! facts, run the subscribers, and keep or forget the store's memory accordingly.

use super::hooks::{Phase, Subscribers};
use super::{Member, Store, group_commit};
use crate::error::ApiError;
use crate::events::{Event, coalesce};
use sqlx::AnyConnection;
use std::sync::{Arc, Weak};

/// A write transaction. Its content writes record their events (see [`crate::events`]), and
/// [`Tx::commit`] hands them to the subscribers.
pub struct Tx {
    /// Its turn on the writer connection, in a write group.
    pub(super) inner: Member,
    pub(super) store: Store,
    pub(super) events: Vec<Event>,
    /// Whether a record was written, so the store's memory of records is forgotten at commit.
    pub(super) records_written: bool,
    /// Whether something no event tells may have changed local roles or working copies (a
    /// principal deleted, a plugin's own statement), so their memory is forgotten at commit.
    pub(super) facts_written: bool,
    /// The objects whose columns this transaction edited, as written: applied to the memory
    /// of objects once committed.
    pub(super) edits: Vec<Arc<crate::content::ContentObject>>,
    /// Its change feed rows, which the write group's commit writes with the other members'.
    pub(super) feed: Vec<super::feed::FeedRow>,
}

impl Tx {
    /// The transaction's connection, for a plugin's own tables (core's tables change only
    /// through the typed methods, which record their events); each call counts as one
    /// statement.
    pub fn connection(&mut self) -> &mut sqlx::AnyConnection {
        self.count();
        self.facts_written = true;
        &mut self.inner
    }

    /// The transaction's connection for a plugin's statements that read, or write only the
    /// plugin's own tables that nothing core keeps in memory depends on (a queue, a log):
    /// unlike [`Tx::connection`], what core remembers of content stays valid at commit.
    pub fn own_tables(&mut self) -> &mut sqlx::AnyConnection {
        self.count();
        &mut self.inner
    }

    /// A plugin's fact read from its own tables by `read` (which triggers its rules listen
    /// to, say), remembered between transactions as the facts every write checks are: until
    /// a commit that wrote through [`Tx::connection`], another instance's commit, or the
    /// memory's maximum age. A transaction that has written through [`Tx::connection`] reads
    /// its own changes, which may yet be rolled back, so it reads and keeps nothing. `key`
    /// starts with the plugin's id.
    pub async fn remembered_fact<T, F>(&mut self, key: &str, read: F) -> Result<T, sqlx::Error>
    where
        T: Clone + Send + Sync + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> crate::future::BoxFuture<'c, Result<T, sqlx::Error>>,
    {
        let store = self.store.clone();
        let facts = &store.memo.facts;
        if !store.remembers() || self.facts_written {
            return read(self.own_tables()).await;
        }
        let generation = match facts.recall(key, store.memo.max_age()) {
            Ok(value) => match value.downcast_ref::<T>() {
                Some(value) => return Ok(value.clone()),
                None => return Err(sqlx::Error::Protocol(format!("the fact '{key}' has another type"))),
            },
            Err(generation) => generation,
        };
        let value = read(self.own_tables()).await?;
        facts.remember(generation, key.to_owned(), Arc::new(value.clone()), store.memo.max_age());
        Ok(value)
    }

    /// Records an event that no single write tells (a copy, a check-in, a restore).
    pub fn emit(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Updates the derived facts, runs the in-transaction subscribers (an error rolls
    /// everything back), makes every
    /// change durable at once, then starts the after-commit subscribers without waiting.
    pub async fn commit(mut self) -> Result<(), ApiError> {
        let events = coalesce(std::mem::take(&mut self.events));
        let store = self.store.clone();
        let derived = store.derived.get().and_then(Weak::upgrade).filter(|_| !events.is_empty());
        if let Some(derived) = derived {
            derived.update(&mut self, &events).await?;
        }
        let subscribers = store.subscribers.get().filter(|_| !events.is_empty());
        for subscriber in subscribers.into_iter().flat_map(Subscribers::in_transaction) {
            if let Phase::InTransaction(run) = subscriber.phase {
                run(&mut self, &events).await?;
            }
        }
        self.store.count();
        self.inner.commit(std::mem::take(&mut self.feed)).await.map_err(|failure| match failure {
            group_commit::Failure::Database(err) => ApiError::database(&err),
            group_commit::Failure::Lost(cause) => ApiError::internal(cause),
        })?;
        if self.records_written {
            store.records.forget();
        }
        if self.facts_written || events.iter().any(|e| !e.leaves_content_facts()) {
            store.memo.forget_content_facts();
        } else if !self.edits.is_empty() {
            store.memo.content.edited(&self.edits);
        }
        // After the records are forgotten, so nothing kept under the new generation was built
        // from the old ones.
        store.note_change();
        let events: Arc<[Event]> = events.into();
        for subscriber in subscribers.into_iter().flat_map(Subscribers::after_commit) {
            if let Phase::AfterCommit(run) = subscriber.phase {
                tokio::spawn(run(store.clone(), events.clone()));
            }
        }
        Ok(())
    }

    pub(crate) fn count(&self) {
        self.store.count();
    }
}
