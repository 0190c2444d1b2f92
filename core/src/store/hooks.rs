//! Commit hooks: the subscribers a transaction tells its events to when it commits (see
//! [`crate::events`] for what they are told).

use super::{Store, Tx};
use crate::error::ApiResult;
use crate::events::Event;
use crate::future::BoxFuture;
use std::sync::Arc;

/// When a subscriber runs.
#[derive(Clone, Copy)]
pub enum Phase {
    /// Inside the write's transaction, before it commits, with all of its events; an error
    /// rolls the write back.
    InTransaction(for<'a> fn(&'a mut Tx, &'a [Event]) -> BoxFuture<'a, ApiResult<()>>),
    /// After the commit, on a task of its own with every event of the transaction; best
    /// effort (a failure is the subscriber's to log) and never delaying the response.
    AfterCommit(fn(Store, Arc<[Event]>) -> BoxFuture<'static, ()>),
}

/// What the store keeps derived from content by rules it does not know itself (who may view
/// each object: the site's roles, workflows and permission map). The site installs one at
/// start-up ([`Store::keep_derived`]), and every commit runs it first, inside the transaction,
/// with the transaction's events, so no write can leave it stale and no caller has to
/// remember it.
pub trait DerivedFacts: Send + Sync {
    /// Brings the derived facts up to date with `events`, inside `tx`.
    fn update<'a>(&'a self, tx: &'a mut Tx, events: &'a [Event]) -> BoxFuture<'a, ApiResult<()>>;
}

/// A plugin's handler of events.
pub struct Subscriber {
    /// A name for listings and logs.
    pub name: &'static str,
    /// When it runs, and the code.
    pub phase: Phase,
}

/// The subscribers of every plugin, in plugin order; what a commit tells.
#[derive(Default)]
pub struct Subscribers {
    list: Vec<(&'static str, &'static Subscriber)>,
}

impl Subscribers {
    /// The subscribers with the plugin that registered each, in the order they run.
    pub fn new(list: Vec<(&'static str, &'static Subscriber)>) -> Subscribers {
        Subscribers { list }
    }

    /// In-transaction handlers, in order.
    pub(crate) fn in_transaction(&self) -> impl Iterator<Item = &'static Subscriber> + '_ {
        self.list.iter().map(|(_, s)| *s).filter(|s| matches!(s.phase, Phase::InTransaction(_)))
    }

    /// After-commit handlers, in order.
    pub(crate) fn after_commit(&self) -> impl Iterator<Item = &'static Subscriber> + '_ {
        self.list.iter().map(|(_, s)| *s).filter(|s| matches!(s.phase, Phase::AfterCommit(_)))
    }

    /// Every subscriber with its plugin.
    pub fn all(&self) -> &[(&'static str, &'static Subscriber)] {
        &self.list
    }
}
