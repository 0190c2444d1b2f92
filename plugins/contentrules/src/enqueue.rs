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
use std::collections::HashMap;
use wcs_core::events::{Actor, Event};
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
    let fired: Vec<(&Event, &'static Trigger)> = events.iter().filter_map(|e| Some((e, fired_by(e)?))).collect();
    if fired.is_empty() {
        return Ok(());
    }
    let mut tokens: Vec<&str> = fired.iter().map(|(_, t)| t.token).collect();
    tokens.sort_unstable();
    tokens.dedup();
    let mut rules = store::rules_for(tx, &tokens).await?;
    if let Some(origin) = &origin {
        rules.retain(|r| r.id != origin.rule_id);
    }
    if rules.is_empty() {
        return Ok(());
    }
    let rule_ids: Vec<&str> = rules.iter().map(|r| r.id.as_str()).collect();
    let assignments = store::assignments_with_paths(tx, &rule_ids).await?;
    if assignments.is_empty() {
        return Ok(());
    }
    let facts = event_facts(tx, &fired).await?;
    let actor = match &origin {
        Some(origin) => origin.actor.clone(),
        None => wcs_core::events::actor().unwrap_or_default(),
    };
    let depth = origin.as_ref().map_or(0, |o| o.depth + 1);
    for (event, trigger) in fired {
        let Some(facts) = facts.get(event.uid()) else { continue };
        let path = match event {
            Event::Moved { to, .. } => to.as_str(),
            _ => facts.path.as_str(),
        };
        let start = if matches!(event, Event::Plugin(_)) { path } else { parent(path) };
        let mut chosen: Vec<&str> = Vec::new();
        for (level, folder) in ancestors(start).enumerate() {
            for (assignment, _) in assignments.iter().filter(|(a, at)| at == folder && (level == 0 || a.bubbles)) {
                let rule = rules.iter().find(|r| r.id == assignment.rule_id && r.event == trigger.token);
                if let Some(rule) = rule
                    && !chosen.contains(&rule.id.as_str())
                {
                    chosen.push(&rule.id);
                }
            }
        }
        if !chosen.is_empty() {
            let state = match event {
                Event::WorkflowChanged { state, .. } => Some(state.as_str()),
                _ => facts.review_state.as_deref(),
            };
            let job = Job {
                rule_ids: &chosen,
                trigger,
                uid: event.uid(),
                path,
                portal_type: facts.portal_type.as_deref(),
                state,
            };
            queue_job(tx, &job, &actor, depth).await?;
        }
    }
    Ok(())
}

/// What a rule judges an event's object by, as it is when the event is told.
#[derive(Default)]
struct Facts {
    path: String,
    portal_type: Option<String>,
    review_state: Option<String>,
}

/// The facts of each event's object: read inside the transaction (one query), so they are
/// those of the event; a deleted object has only its path.
async fn event_facts(tx: &mut Tx, fired: &[(&Event, &Trigger)]) -> ApiResult<HashMap<String, Facts>> {
    let mut facts: HashMap<String, Facts> = HashMap::new();
    let mut uids: Vec<&str> = Vec::new();
    for (event, _) in fired {
        match event {
            Event::Removed { uid, path } => {
                facts.insert(uid.clone(), Facts { path: path.clone(), ..Facts::default() });
            }
            other => uids.push(other.uid()),
        }
    }
    uids.sort_unstable();
    uids.dedup();
    if !uids.is_empty() {
        let sql = format!(
            "SELECT uid, path, portal_type, review_state FROM content WHERE uid IN ({})",
            placeholders(1, uids.len())
        );
        let mut query = sqlx::query_as::<_, (String, String, String, Option<String>)>(AssertSqlSafe(sql));
        for uid in &uids {
            query = query.bind(*uid);
        }
        for (uid, path, portal_type, review_state) in query.fetch_all(tx.own_tables()).await? {
            facts.insert(uid, Facts { path, portal_type: Some(portal_type), review_state });
        }
    }
    Ok(facts)
}

/// An event's rules to queue, with what they judge it by.
struct Job<'a> {
    rule_ids: &'a [&'a str],
    trigger: &'a Trigger,
    uid: &'a str,
    path: &'a str,
    portal_type: Option<&'a str>,
    state: Option<&'a str>,
}

async fn queue_job(tx: &mut Tx, job: &Job<'_>, actor: &Actor, depth: i64) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO content_rule_job (rule_ids, trigger, content_uid, content_path, content_type, content_state, \
         actor, depth, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(json!(job.rule_ids).to_string())
    .bind(job.trigger.token)
    .bind(job.uid)
    .bind(job.path)
    .bind(job.portal_type)
    .bind(job.state)
    .bind(serde_json::to_string(actor).unwrap_or_default())
    .bind(depth)
    .bind(time_to_db(chrono::Utc::now()))
    .execute(tx.own_tables())
    .await?;
    Ok(())
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
