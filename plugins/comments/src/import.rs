//! plone.exportimport's `discussions.json`, read by `wcs import-plone` once a moved site's
//! content is in: each object's conversation (by the object's uid, which the import keeps),
//! every comment with its id, the comment it answers, its author, text and dates as Plone had
//! them. A comment whose id the conversation holds already is left as it is, so an import run
//! again changes nothing.

use crate::settings::{INTELLIGENT_TEXT, PLAIN_TEXT};
use crate::store::{Comment, MAX_PER_OBJECT, conversation, insert_as_given};
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::collections::BTreeSet;
use wcs_core::app::App;
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::service::{ImportOutcome, ImportStep};

/// The step.
pub static IMPORT_DISCUSSIONS: ImportStep =
    ImportStep { file: "discussions.json", entries: "comments", run: |app, file| Box::pin(import(app, file)) };

async fn import(app: &App, file: &Value) -> ApiResult<ImportOutcome> {
    let conversations = file.as_object().ok_or_else(|| {
        ApiError::new(ErrorCode::BadRequest, "discussions.json must map object uids to their conversations.")
    })?;
    let mut outcome = ImportOutcome::default();
    for (uid, listing) in conversations {
        let items = listing.get("items").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        if items.is_empty() {
            continue;
        }
        if app.store.content_by_uids(std::slice::from_ref(uid)).await?.is_empty() {
            outcome
                .skipped
                .extend(items.iter().map(|_| format!("a comment on {uid}: that object is not on this site")));
            continue;
        }
        let mut comments = Vec::new();
        for item in items {
            match comment_of(item) {
                Ok(comment) => comments.push(comment),
                Err(problem) => outcome.skipped.push(format!("a comment on {uid}: {problem}")),
            }
        }
        // Ids are the times comments were made: an answer comes after what it answers.
        comments.sort_by_key(|c| c.id);
        let mut present: BTreeSet<i64> = conversation(&app.store, uid).await?.iter().map(|c| c.id).collect();
        let mut tx = app.store.begin().await?;
        for comment in comments {
            if comment.in_reply_to.is_some_and(|parent| !present.contains(&parent)) {
                outcome.skipped.push(format!("comment {} on {uid}: the comment it answers is not there", comment.id));
                continue;
            }
            if present.len() >= MAX_PER_OBJECT && !present.contains(&comment.id) {
                outcome.skipped.push(format!("comment {} on {uid}: the conversation is full", comment.id));
                continue;
            }
            insert_as_given(&mut tx, uid, &comment).await?;
            present.insert(comment.id);
            outcome.imported += 1;
        }
        tx.commit().await?;
    }
    Ok(outcome)
}

/// A comment as plone.restapi serializes it.
fn comment_of(item: &Value) -> Result<Comment, String> {
    let id = number(item.get("comment_id")).ok_or("its comment_id is not a number")?;
    let in_reply_to = match item.get("in_reply_to") {
        None | Some(Value::Null) => None,
        answered => Some(number(answered).ok_or("its in_reply_to is not a number")?),
    };
    let text = item.get("text").ok_or("it has no text")?;
    let data = text.get("data").and_then(Value::as_str).ok_or("it has no text")?;
    let mime_type = match text.get("mime-type").and_then(Value::as_str).unwrap_or(PLAIN_TEXT) {
        kind @ (PLAIN_TEXT | INTELLIGENT_TEXT) => kind,
        other => return Err(format!("its text is {other}, which comments here are not")),
    };
    let created = time(item.get("creation_date")).ok_or("its creation_date is not a date")?;
    let modified = time(item.get("modification_date")).unwrap_or(created);
    let text_of = |key: &str| item.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
    Ok(Comment {
        id,
        in_reply_to,
        author_username: text_of("author_username"),
        author_name: text_of("author_name"),
        author_email: None,
        text: data.to_owned(),
        mime_type: mime_type.to_owned(),
        created,
        modified,
    })
}

/// Plone writes comment ids as text (`"1707855876188968"`).
fn number(value: Option<&Value>) -> Option<i64> {
    match value? {
        Value::String(text) => text.parse().ok(),
        other => other.as_i64(),
    }
}

fn time(value: Option<&Value>) -> Option<DateTime<Utc>> {
    let text = value?.as_str()?;
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .or_else(|_| chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f").map(|t| t.and_utc()))
        .ok()
}
