//! Running a rule's actions. They run with the rule's authority (a Manager set the rule up),
//! each write in its own transaction; an action that fails stops the rule's later actions,
//! as in Plone, and its error is kept with the run.

use crate::model::{Element, Rule};
use crate::run::Run;
use crate::substitutions::{substitute, values};
use crate::webhook;
use serde_json::json;
use wcs_core::content::ContentObject;
use wcs_core::mail::Mail;
use wcs_core::ops;
use wcs_core::ops::workflow::TransitionRequest;
use wcs_core::store::Visibility;

/// Runs `action` of `rule`.
pub async fn perform(run: &Run<'_>, rule: &Rule, action: &Element) -> Result<(), String> {
    let failed = |e: wcs_core::http::ApiError| e.message;
    match action.kind.as_str() {
        "plone.actions.Logger" => {
            log(run, rule, action);
            Ok(())
        }
        "plone.actions.Notify" => {
            // Volto shows no portal messages; the notice goes to the log, where it is seen.
            let message = action.text("message");
            tracing::info!(rule = %rule.id, kind = action.text("message_type"), %message, "content rule notice");
            Ok(())
        }
        "plone.actions.Copy" | "plone.actions.Move" => {
            let object = live(run)?;
            let target = target_folder(run, action.text("target_folder")).await?;
            if action.kind == "plone.actions.Copy" {
                let actor = run.actor.user_id.as_deref().unwrap_or("Anonymous");
                ops::copy_into(run.app, std::slice::from_ref(object), &target, actor, &Visibility::ALL)
                    .await
                    .map_err(failed)?;
            } else {
                ops::move_into(run.app, std::slice::from_ref(object), &target).await.map_err(failed)?;
            }
            Ok(())
        }
        "plone.actions.Delete" => ops::delete(run.app, live(run)?).await.map_err(failed),
        "plone.actions.Workflow" => {
            let actor = run.actor.user_id.as_deref().unwrap_or("Anonymous");
            let request = TransitionRequest { comment: String::new(), effective: None, expires: None };
            ops::workflow::transition(
                run.app,
                std::slice::from_ref(live(run)?),
                action.text("transition"),
                actor,
                &request,
            )
            .await
            .map(|_| ())
            .map_err(failed)
        }
        "plone.actions.Mail" => mail(run, rule, action).await,
        "plone.actions.Versioning" => version(run, action).await,
        "wcs.actions.Webhook" => webhook::queue(run, rule, action).await.map_err(failed),
        other => Err(format!("'{other}' is no action this server runs")),
    }
}

fn live<'a>(run: &'a Run<'_>) -> Result<&'a ContentObject, String> {
    run.object.as_ref().ok_or_else(|| format!("{} is gone", run.path))
}

async fn target_folder(run: &Run<'_>, relative: &str) -> Result<ContentObject, String> {
    let path = format!("/{}{}", run.site_id(), relative.trim_end_matches('/'));
    match run.app.store.content_at_path(&path).await {
        Ok(Some(folder)) => Ok(folder),
        Ok(None) => Err(format!("the target folder {relative} is gone")),
        Err(e) => Err(e.to_string()),
    }
}

/// Plone's logger action: `&e` is the trigger, `&c` the object, `&u` the user.
fn log(run: &Run<'_>, rule: &Rule, action: &Element) {
    let message = action
        .text("message")
        .replace("&e", run.trigger.title)
        .replace("&c", &run.object_url())
        .replace("&u", run.actor.user_id.as_deref().unwrap_or("Anonymous"));
    let logger = action.text("targetLogger");
    match action.values.get("loggingLevel").and_then(serde_json::Value::as_i64).unwrap_or(20) {
        ..=10 => tracing::debug!(rule = %rule.id, logger, "{message}"),
        11..=20 => tracing::info!(rule = %rule.id, logger, "{message}"),
        21..=30 => tracing::warn!(rule = %rule.id, logger, "{message}"),
        _ => tracing::error!(rule = %rule.id, logger, "{message}"),
    }
}

/// Queues the mail in the server's outbox, which retries it; the rule's `source` answers
/// replies (the outbox sends from the site's address, so mail is not refused as forged).
async fn mail(run: &Run<'_>, rule: &Rule, action: &Element) -> Result<(), String> {
    let values = values(run).await.map_err(|e| e.message)?;
    let actor_email = values.get("user_email").cloned().unwrap_or_default();
    let recipients: Vec<String> = substitute(action.text("recipients"), &values)
        .split(',')
        .map(|r| r.trim().to_owned())
        .filter(|r| !r.is_empty())
        .filter(|r| !(action.values.get("exclude_actor") == Some(&json!(true)) && r.eq_ignore_ascii_case(&actor_email)))
        .collect();
    if recipients.is_empty() {
        return Ok(());
    }
    let source = substitute(action.text("source"), &values);
    let mail = Mail {
        recipients: recipients.join(", "),
        reply_to: Some(source).filter(|s| !s.trim().is_empty()),
        subject: substitute(action.text("subject"), &values).replace(['\r', '\n'], " "),
        body: substitute(action.text("message"), &values),
    };
    let mut tx = run.app.store.begin().await.map_err(|e| e.to_string())?;
    tx.queue_mail(&format!("contentrules:{}", rule.id), &mail).await.map_err(|e| e.to_string())?;
    tx.commit().await.map_err(|e| e.message)
}

#[cfg(feature = "versioning")]
async fn version(run: &Run<'_>, action: &Element) -> Result<(), String> {
    if !crate::elements::versioning_on(run.app) {
        return Err("the versioning plugin is off".to_owned());
    }
    let object = live(run)?;
    wcs_plugin_versioning::create_version(run.app, object, &run.principal(), action.text("comment"))
        .await
        .map(|_| ())
        .map_err(|e| e.message)
}

#[cfg(not(feature = "versioning"))]
async fn version(_: &Run<'_>, _: &Element) -> Result<(), String> {
    Err("this server is built without the versioning plugin".to_owned())
}
