//! plone.exportimport's `discussions.json`, read by `wcs import-plone` once a moved site's
//! content is in and written by `wcs export-plone`: each object's conversation (by the
//! object's uid, which both keep), every comment with its id, the comment it answers, its
//! author, text and dates. A comment whose id the conversation holds already is left as it
//! is, so an import run again changes nothing.

use crate::settings::{INTELLIGENT_TEXT, PLAIN_TEXT};
use crate::store::{Comment, MAX_PER_OBJECT, all_comments, conversation, insert_as_given};
use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use wcs_core::app::App;
use wcs_core::content::values::format_time;
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::service::{ExportedFile, ImportOutcome, SiteFile};

/// The file.
pub static DISCUSSIONS: SiteFile = SiteFile {
    file: "discussions.json",
    entries: "comments",
    import: |app, file| Box::pin(import(app, file)),
    export: |app| Box::pin(export(app)),
};

/// Every conversation on an object out of the trash, its comments as plone.restapi lists
/// them, with `@id`s below the site (`/a/b/@comments/<id>`) as plone.exportimport writes
/// them. The text goes out as typed, with its own kind, so nothing is lost on the way back.
async fn export(app: &App) -> ApiResult<ExportedFile> {
    let mut by_object: BTreeMap<String, Vec<Comment>> = BTreeMap::new();
    for (uid, comment) in all_comments(&app.store).await? {
        by_object.entry(uid).or_default().push(comment);
    }
    let uids: Vec<String> = by_object.keys().cloned().collect();
    let site_path = format!("/{}", app.settings.site_id);
    let mut paths = BTreeMap::new();
    for chunk in uids.chunks(500) {
        for object in app.store.content_by_uids(chunk).await? {
            let below_site = object.path.strip_prefix(&site_path).unwrap_or_default().to_owned();
            paths.insert(object.uid, below_site);
        }
    }
    let mut file = Map::new();
    let mut count = 0;
    for (uid, comments) in by_object {
        let Some(path) = paths.get(&uid) else { continue };
        let listing = format!("{path}/@comments");
        let items: Vec<Value> = comments.iter().map(|comment| exported(comment, &listing)).collect();
        count += items.len();
        file.insert(uid, json!({"items": items, "items_total": items.len()}));
    }
    Ok(ExportedFile { json: Value::Object(file), entries: count })
}

fn exported(comment: &Comment, listing: &str) -> Value {
    json!({
        "@id": format!("{listing}/{}", comment.id),
        "@parent": comment.in_reply_to.map(|parent| format!("{listing}/{parent}")),
        "@type": "Discussion Item",
        "author_name": comment.author_name,
        "author_username": comment.author_username,
        "comment_id": comment.id.to_string(),
        "creation_date": format_time(comment.created),
        "in_reply_to": comment.in_reply_to.map(|parent| parent.to_string()),
        "modification_date": format_time(comment.modified),
        "text": {"data": comment.text, "mime-type": comment.mime_type},
        "user_notification": false,
    })
}

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
