//! Who causes the writes of a request: the server runs each handler in the scope of its caller
//! ([`acting`]), so a subscriber inside the transaction can tell who did what ([`actor`])
//! without every write path passing it along. Background work runs outside any such scope.

use std::future::Future;

tokio::task_local! {
    static ACTOR: Actor;
}

/// The caller of the request whose writes tell the events.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Actor {
    /// The user id; `None` for an anonymous caller.
    pub user_id: Option<String>,
    /// The caller's global roles, `Anonymous` and `Authenticated` included.
    pub roles: Vec<String>,
    /// The caller's groups.
    pub groups: Vec<String>,
    /// The site's URL as the caller sees it, for links in what the writes cause (a content
    /// rule's mail); background work has no request to read it from.
    pub site_url: Option<String>,
}

/// Runs `work` with `actor` as the cause of its writes.
pub async fn acting<F: Future>(actor: Actor, work: F) -> F::Output {
    ACTOR.scope(actor, work).await
}

/// The cause of the writes of the running task, when it runs in a request's scope.
pub fn actor() -> Option<Actor> {
    ACTOR.try_with(Actor::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_actor_is_known_inside_its_scope_only() {
        assert_eq!(actor(), None);
        let editor = Actor { user_id: Some("editor".into()), roles: vec!["Editor".into()], ..Actor::default() };
        let seen = acting(editor.clone(), async { actor() }).await;
        assert_eq!(seen, Some(editor));
        assert_eq!(actor(), None);
    }
}
