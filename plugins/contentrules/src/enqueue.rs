//! Queues the rules an event triggers, inside the transaction that tells it, so a crash after
//! the commit loses none and a write that rolls back triggers none. The rules run later, on
//! the worker ([`crate::worker`]), never delaying or failing the write.
//!
//! As in Plone, a rule assigned to a folder applies to events on the objects in that folder,
//! and, when the assignment applies to sub-folders (bubbles), to those further below; a comment
//! event starts at the commented object itself. Rules are tried in assignment order from the
//! nearest folder up, each at most once per event.

use crate::origin::{self, MAX_DEPTH};
use crate::store;
use crate::triggers::{Trigger, fired_by};
use serde_json::json;
use sqlx::AssertSqlSafe;
use std::collections::BTreeSet;
use std::sync::Arc;
use wcs_core::events::{Actor, Event, PluginEvent, USER_LOGGED_IN, USER_LOGGED_OUT};
use wcs_core::http::ApiResult;
use wcs_core::store::{Phase, Subscriber, Tx, placeholders, time_to_db};

/// The subscriber.
pub static ENQUEUE: Subscriber = Subscriber {
    name: "contentrules-enqueue",
    phase: Phase::InTransaction(|tx, events| Box::pin(enqueue(tx, events))),
};

async fn enqueue(tx: &mut Tx, events: &[Event]) -> ApiResult<()> {
    if events.iter().any(|e| matches!(e, Event::Removed { .. })) {
        store::drop_orphans(tx).await?;
    }
    let origin = origin::current();
    if origin.as_ref().is_some_and(|o| !o.cascading || o.depth >= MAX_DEPTH) {
        return Ok(());
    }
    let listened = listened_to(tx).await?;
    let fired: Vec<(&Event, &'static Trigger)> =
        events.iter().filter_map(|e| Some((e, fired_by(e)?))).filter(|(_, t)| listened.contains(t.token)).collect();
    if fired.is_empty() {
        return Ok(());
    }
    let mut candidates = candidates(tx, &fired).await?;
    if let Some(origin) = &origin {
        candidates.retain(|c| c.rule_id != origin.rule_id);
    }
    if candidates.is_empty() {
        return Ok(());
    }
    let actor = match &origin {
        Some(origin) => origin.actor.clone(),
        None => wcs_core::events::actor().unwrap_or_default(),
    };
    let depth = origin.as_ref().map_or(0, |o| o.depth + 1);
    for (event, trigger) in fired {
        let mine: Vec<&Candidate> =
            candidates.iter().filter(|c| c.object_uid == event.uid() && c.event == trigger.token).collect();
        let Some(first) = mine.first() else { continue };
        let path = first.object_path.as_str();
        let start = if matches!(event, Event::Plugin(_)) { path } else { parent(path) };
        let mut chosen: Vec<&str> = Vec::new();
        for (level, folder) in ancestors(start).enumerate() {
            for candidate in mine.iter().filter(|c| c.at == folder && (level == 0 || c.bubbles)) {
                if !chosen.contains(&candidate.rule_id.as_str()) {
                    chosen.push(&candidate.rule_id);
                }
            }
        }
        if !chosen.is_empty() {
            let state = match event {
                Event::WorkflowChanged { state, .. } => Some(state.as_str()),
                _ => first.review_state.as_deref(),
            };
            let portal_type = first.portal_type.as_deref();
            let transition = match event {
                Event::WorkflowChanged { uid, .. } => last_transition(tx, uid).await?,
                _ => None,
            };
            let job = Job { rule_ids: &chosen, trigger, uid: event.uid(), path, portal_type, state, transition };
            let actor = match event {
                Event::Plugin(told) if told.kind == &USER_LOGGED_IN || told.kind == &USER_LOGGED_OUT => {
                    user_as_actor(tx, told, &actor).await?
                }
                _ => actor.clone(),
            };
            queue_job(tx, &job, &actor, depth).await?;
        }
    }
    Ok(())
}

/// The triggers enabled rules have, remembered between writes: on most sites few triggers or
/// none have a rule, and a write whose events none listens to then runs no statement here. The
/// rules change through `Tx::connection`, whose commit forgets it.
async fn listened_to(tx: &mut Tx) -> Result<Arc<BTreeSet<String>>, sqlx::Error> {
    tx.remembered_fact("contentrules.triggers", |connection| {
        Box::pin(async move {
            let sql = "SELECT DISTINCT event FROM content_rule WHERE enabled = 1";
            let events: Vec<String> = sqlx::query_scalar(sql).fetch_all(connection).await?;
            Ok(Arc::new(events.into_iter().collect::<BTreeSet<String>>()))
        })
    })
    .await
}

/// An enabled assignment of an enabled rule of a fired trigger, on an event's object or one of
/// its containers, with what the rule judges the object by (as it is inside the transaction,
/// so at the event; a deleted object has its path only).
struct Candidate {
    object_uid: String,
    object_path: String,
    portal_type: Option<String>,
    review_state: Option<String>,
    rule_id: String,
    event: String,
    bubbles: bool,
    /// Where the rule is assigned.
    at: String,
}

/// The candidates of the fired events: one query for the objects that exist, and one per
/// deleted object that fired a trigger. The query climbs from each object to the site root
/// and looks up the assignments of each folder on the way, so its cost follows the depth of
/// the tree, not the number of rules: rules assigned elsewhere cost a write (next to) nothing.
/// When no enabled rule has a fired trigger, it reads that and nothing else.
async fn candidates(tx: &mut Tx, fired: &[(&Event, &Trigger)]) -> ApiResult<Vec<Candidate>> {
    let mut tokens: Vec<&str> = fired.iter().map(|(_, t)| t.token).collect();
    tokens.sort_unstable();
    tokens.dedup();
    let mut uids: Vec<&str> =
        fired.iter().filter(|(e, _)| !matches!(e, Event::Removed { .. })).map(|(e, _)| e.uid()).collect();
    uids.sort_unstable();
    uids.dedup();
    let mut found = Vec::new();
    if !uids.is_empty() {
        let tokens_in = placeholders(1, tokens.len());
        let sql = format!(
            // CROSS JOIN keeps SQLite's join order: from the objects and their containers to
            // their assignments, the rules and the rows read back, each by key.
            "WITH RECURSIVE up(object_uid, uid, parent_uid) AS ( \
                 SELECT uid, uid, parent_uid FROM content WHERE uid IN ({}) \
                 AND EXISTS (SELECT 1 FROM content_rule WHERE enabled = 1 AND event IN ({tokens_in})) \
               UNION ALL \
                 SELECT up.object_uid, c.uid, c.parent_uid FROM up JOIN content c ON c.uid = up.parent_uid) \
             SELECT o.uid, o.path, o.portal_type, o.review_state, r.id, r.event, a.bubbles, c.path \
             FROM up CROSS JOIN content_rule_assignment a CROSS JOIN content_rule r CROSS JOIN content c \
             CROSS JOIN content o \
             WHERE a.content_uid = up.uid AND a.enabled = 1 AND r.id = a.rule_id AND r.enabled = 1 \
             AND r.event IN ({tokens_in}) AND c.uid = up.uid AND o.uid = up.object_uid \
             ORDER BY a.position",
            placeholders(tokens.len() + 1, uids.len())
        );
        let mut query = sqlx::query_as::<_, CandidateRow>(AssertSqlSafe(sql));
        for value in tokens.iter().chain(&uids) {
            query = query.bind(*value);
        }
        found.extend(query.fetch_all(tx.own_tables()).await?.into_iter().map(Candidate::from));
    }
    for (event, trigger) in fired {
        if let Event::Removed { uid, path } = event {
            let folders: Vec<&str> = ancestors(path).collect();
            let sql = format!(
                "SELECT r.id, r.event, a.bubbles, c.path FROM content c \
                 JOIN content_rule_assignment a ON a.content_uid = c.uid AND a.enabled = 1 \
                 JOIN content_rule r ON r.id = a.rule_id AND r.enabled = 1 AND r.event = $1 \
                 WHERE c.path IN ({}) ORDER BY a.position",
                placeholders(2, folders.len())
            );
            let mut query = sqlx::query_as::<_, (String, String, i64, String)>(AssertSqlSafe(sql)).bind(trigger.token);
            for folder in &folders {
                query = query.bind(*folder);
            }
            let rows = query.fetch_all(tx.own_tables()).await?;
            found.extend(rows.into_iter().map(|(rule_id, event, bubbles, at)| Candidate {
                object_uid: uid.clone(),
                object_path: path.clone(),
                portal_type: None,
                review_state: None,
                rule_id,
                event,
                bubbles: bubbles != 0,
                at,
            }));
        }
    }
    Ok(found)
}

type CandidateRow = (String, String, String, Option<String>, String, String, i64, String);

impl From<CandidateRow> for Candidate {
    fn from((object_uid, object_path, portal_type, review_state, rule_id, event, bubbles, at): CandidateRow) -> Self {
        Candidate {
            object_uid,
            object_path,
            portal_type: Some(portal_type),
            review_state,
            rule_id,
            event,
            bubbles: bubbles != 0,
            at,
        }
    }
}

/// An event's rules to queue, with what they judge it by.
struct Job<'a> {
    rule_ids: &'a [&'a str],
    trigger: &'a Trigger,
    uid: &'a str,
    path: &'a str,
    portal_type: Option<&'a str>,
    state: Option<&'a str>,
    transition: Option<String>,
}

async fn queue_job(tx: &mut Tx, job: &Job<'_>, actor: &Actor, depth: i64) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO content_rule_job (rule_ids, trigger, content_uid, content_path, content_type, content_state, \
         content_transition, actor, depth, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(json!(job.rule_ids).to_string())
    .bind(job.trigger.token)
    .bind(job.uid)
    .bind(job.path)
    .bind(job.portal_type)
    .bind(job.state)
    .bind(job.transition.as_deref())
    .bind(serde_json::to_string(actor).unwrap_or_default())
    .bind(depth)
    .bind(time_to_db(chrono::Utc::now()))
    .execute(tx.own_tables())
    .await?;
    Ok(())
}

/// The transition the object's latest workflow history entry records (written in this same
/// transaction as the state change); none for a state set without one.
async fn last_transition(tx: &mut Tx, uid: &str) -> ApiResult<Option<String>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT action FROM workflow_history WHERE content_uid = $1 ORDER BY seq DESC LIMIT 1")
            .bind(uid)
            .fetch_optional(tx.own_tables())
            .await?;
    Ok(row.and_then(|(action,)| action))
}

/// The user who logged in or out, as the rule's actor (the request has no user yet, or no
/// longer): Plone's current user at that moment. Roles and groups as stored.
async fn user_as_actor(tx: &mut Tx, told: &PluginEvent, request: &Actor) -> ApiResult<Actor> {
    let Some(user_id) = told.detail.get("user").and_then(|u| u.as_str()) else { return Ok(request.clone()) };
    let roles: Option<(String,)> = sqlx::query_as("SELECT roles FROM principal WHERE id = $1")
        .bind(user_id)
        .fetch_optional(tx.own_tables())
        .await?;
    let groups = tx.groups_of(user_id).await?;
    let mut roles: Vec<String> = roles.and_then(|(text,)| serde_json::from_str(&text).ok()).unwrap_or_default();
    roles.push("Authenticated".to_owned());
    Ok(Actor { user_id: Some(user_id.to_owned()), roles, groups, site_url: request.site_url.clone() })
}

/// The container of `path` (the site root is its own).
fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => path,
        Some(cut) => &path[..cut],
    }
}

/// `path` and its containers up to the site root, nearest first.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(path);
    std::iter::from_fn(move || {
        let current = next?;
        let up = parent(current);
        next = (up != current).then_some(up);
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_climbs_to_the_site_root() {
        assert_eq!(ancestors("/plone/a/b").collect::<Vec<_>>(), ["/plone/a/b", "/plone/a", "/plone"]);
        assert_eq!(parent("/plone/a"), "/plone");
        assert_eq!(parent("/plone"), "/plone");
    }
}
