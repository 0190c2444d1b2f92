//! Which rule's actions the running writes are, so their events do not start rules without
//! end: as in Plone, the events of a rule's actions trigger other rules only when the rule
//! cascades, and only one level deep; a rule never triggers itself.

use std::future::Future;
use wcs_core::events::Actor;

tokio::task_local! {
    static ORIGIN: Origin;
}

/// The rule whose actions run.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The rule.
    pub rule_id: String,
    /// Whether its actions' events may trigger other rules.
    pub cascading: bool,
    /// How deep in a cascade it runs: 0 for a rule an editor's write triggered.
    pub depth: i64,
    /// Who caused the first write of the cascade.
    pub actor: Actor,
}

/// The deepest a cascade goes: the rules a cascading rule's actions trigger run, theirs do not.
pub const MAX_DEPTH: i64 = 1;

/// Runs `work` as the actions of `origin`'s rule.
pub async fn running<F: Future>(origin: Origin, work: F) -> F::Output {
    ORIGIN.scope(origin, work).await
}

/// The rule whose actions the running task performs, if any.
pub fn current() -> Option<Origin> {
    ORIGIN.try_with(Origin::clone).ok()
}
