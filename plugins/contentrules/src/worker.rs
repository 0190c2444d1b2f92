//! The background task that runs queued rules and posts webhooks, twice a second. Each
//! queued event is claimed for a while (instances sharing a database never run one twice),
//! its rules are tried in order (conditions, then actions), and it is deleted, or kept with
//! the errors of the actions that failed. A worker that dies mid-run leaves its claim to run
//! out, and the event is run again: rules run at least once.

use crate::actions::perform;
use crate::conditions::holds;
use crate::origin::{self, Origin};
use crate::run::Run;
use crate::{store, triggers, webhook};
use chrono::{TimeDelta, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;
use std::sync::Arc;
use std::time::Duration;
use wcs_core::app::App;
use wcs_core::events::Actor;
use wcs_core::http::ApiResult;
use wcs_core::service::StartHook;
use wcs_core::store::time_to_db;

/// How often the queues are looked at.
const POLL: Duration = Duration::from_millis(500);
/// How long a claimed event is left to its worker.
const CLAIM: TimeDelta = TimeDelta::minutes(5);
/// Events per look.
const BATCH: i64 = 20;
/// Failed runs and deliveries are kept this long for Managers to see.
const KEEP_FAILED: TimeDelta = TimeDelta::days(30);
/// Looks between two prunings of what failed long ago.
const PRUNE_EVERY: u32 = 1200;

/// Starts the worker with the application.
pub static START: StartHook = StartHook {
    name: "contentrules-worker",
    run: |app| {
        Box::pin(async move {
            let client = webhook::client().map_err(|e| e.message)?;
            spawn(&app, client);
            Ok(())
        })
    },
};

fn spawn(app: &Arc<App>, client: reqwest::Client) {
    let app = Arc::downgrade(app);
    tokio::spawn(async move {
        let mut looks: u32 = 0;
        loop {
            tokio::time::sleep(POLL).await;
            let Some(app) = app.upgrade() else { return };
            if let Err(err) = run_due(&app).await {
                tracing::warn!(%err, "running content rules failed; retrying later");
            }
            if let Err(err) = webhook::deliver_due(&app, &client).await {
                tracing::warn!(%err, "posting webhooks failed; retrying later");
            }
            looks = looks.wrapping_add(1);
            if looks.is_multiple_of(PRUNE_EVERY)
                && let Err(err) = prune(&app).await
            {
                tracing::warn!(%err, "pruning old content rule failures failed");
            }
        }
    });
}

/// Runs the queued events that are due; how many ran.
pub async fn run_due(app: &App) -> ApiResult<usize> {
    let store = app.store.background();
    let now = Utc::now();
    let due = sqlx::query(
        "SELECT id, rule_ids, trigger, content_uid, content_path, actor, depth, content_type, content_state, \
         content_transition FROM content_rule_job \
         WHERE failed IS NULL AND (claimed_until IS NULL OR claimed_until < $1) ORDER BY id LIMIT $2",
    )
    .bind(time_to_db(now))
    .bind(BATCH)
    .fetch_all(store.pool())
    .await?;
    let mut ran = 0;
    for row in due {
        let id: i64 = row.try_get(0)?;
        let claimed = sqlx::query(
            "UPDATE content_rule_job SET claimed_until = $1 \
             WHERE id = $2 AND failed IS NULL AND (claimed_until IS NULL OR claimed_until < $3)",
        )
        .bind(time_to_db(now + CLAIM))
        .bind(id)
        .bind(time_to_db(now))
        .execute(store.pool())
        .await?;
        if claimed.rows_affected() != 1 {
            continue;
        }
        let errors = run_job(app, &row).await?;
        if errors.is_empty() {
            sqlx::query("DELETE FROM content_rule_job WHERE id = $1").bind(id).execute(store.pool()).await?;
        } else {
            tracing::warn!(job = id, errors = %errors.join("; "), "a content rule's action failed");
            sqlx::query("UPDATE content_rule_job SET failed = $1, last_error = $2 WHERE id = $3")
                .bind(time_to_db(Utc::now()))
                .bind(errors.join("; "))
                .bind(id)
                .execute(store.pool())
                .await?;
        }
        ran += 1;
    }
    Ok(ran)
}

/// Tries the event's rules in order; the errors of the actions that failed.
async fn run_job(app: &App, row: &AnyRow) -> ApiResult<Vec<String>> {
    let rule_ids: Vec<String> = serde_json::from_str(&row.try_get::<String, _>(1)?).unwrap_or_default();
    let Some(trigger) = triggers::trigger(&row.try_get::<String, _>(2)?) else { return Ok(Vec::new()) };
    let uid: String = row.try_get(3)?;
    let actor: Actor = serde_json::from_str(&row.try_get::<String, _>(5)?).unwrap_or_default();
    let depth: i64 = row.try_get(6)?;
    let object = app.store.content_by_uids(std::slice::from_ref(&uid)).await?.into_iter().next();
    let path = object.as_ref().map_or(row.try_get::<String, _>(4)?, |o| o.path.clone());
    let (portal_type, review_state, transition) = (row.try_get(7)?, row.try_get(8)?, row.try_get(9)?);
    let run = Run { app, trigger, object, path, uid, actor: &actor, portal_type, review_state, transition };
    let mut errors = Vec::new();
    for rule_id in rule_ids {
        let Ok(rule) = store::rule(&app.store, &rule_id, "").await else { continue };
        // A rule switched off, or given another trigger, since the event was queued.
        if !rule.enabled || rule.event != trigger.token {
            continue;
        }
        let mut applies = true;
        for condition in &rule.conditions {
            applies = applies && holds(&run, condition).await?;
        }
        if !applies {
            continue;
        }
        let origin = Origin { rule_id: rule.id.clone(), cascading: rule.cascading, depth, actor: actor.clone() };
        let failures = origin::running(origin, async {
            for (idx, action) in rule.actions.iter().enumerate() {
                if let Err(problem) = perform(&run, &rule, action).await {
                    return Some(format!("{} action {idx} ({}): {problem}", rule.id, action.kind));
                }
            }
            None
        })
        .await;
        errors.extend(failures);
        if rule.stop {
            break;
        }
    }
    Ok(errors)
}

/// Forgets runs and deliveries that failed long ago.
async fn prune(app: &App) -> ApiResult<()> {
    let store = app.store.background();
    let before = time_to_db(Utc::now() - KEEP_FAILED);
    for sql in [
        "DELETE FROM content_rule_job WHERE failed IS NOT NULL AND failed < $1",
        "DELETE FROM content_rule_webhook WHERE failed IS NOT NULL AND failed < $1",
    ] {
        sqlx::query(sql).bind(&before).execute(store.pool()).await?;
    }
    Ok(())
}
