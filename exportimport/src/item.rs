//! One `data.json` made into an object as the old site had it: fields checked as a create
//! checks them, files read and their sizes compared, dates, creator, state, history and local
//! roles kept. Keys this server has no field for are left out and counted for the summary.

use crate::dates;
use crate::error::ImportError;
use crate::format::{DEFAULT_LANGUAGE_PLACEHOLDER, Metadata};
use crate::notes::Notes;
use crate::plan::Planned;
use crate::source::{CONTENT_DIR, ExportDir};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde_json::{Map, Value};
use std::collections::HashMap;
use wcs_core::app::{ADMIN_USER, App};
use wcs_core::content::values::{ChangeSet, Mode, file_change, parse_changes};
use wcs_core::content::{ContentObject, LANGUAGE_FIELD, TypeProfile};
use wcs_core::ops::import::Imported;
use wcs_core::ops::working_copy::ORIGINS;
use wcs_core::store::HistoryEntry;

/// What plone.restapi's serializer and plone.exportimport add beside the fields: read here
/// (places, dates, state) or by later steps (conversations, versions), never stored as fields.
const NOT_FIELDS: [&str; 24] = [
    "@id",
    "default_page",
    "@type",
    "UID",
    "id",
    "parent",
    "created",
    "modified",
    "review_state",
    "workflow_history",
    "creators",
    "contributors",
    "exportimport.constrains",
    "exportimport.conversation",
    "exportimport.versions",
    "lock",
    "version",
    "working_copy",
    "working_copy_of",
    "is_folderish",
    "type_title",
    "items_total",
    "items",
    "@components",
];

/// What every item is read with.
pub struct ItemContext<'a> {
    /// The application.
    pub app: &'a App,
    /// The export.
    pub export: &'a ExportDir,
    /// Its metadata.
    pub metadata: &'a Metadata,
    /// The zone naive times are in.
    pub zone: Tz,
    /// The old site's default language, for `##DEFAULT##`.
    pub default_language: &'a str,
    /// The largest file an import reads.
    pub max_blob_bytes: u64,
    /// The uid of each object of the export by its path below the site, for links to it.
    pub paths: &'a HashMap<String, String>,
}

/// The object `planned` stands for, from its `data.json` (`body`). Without `read_blobs`, files
/// are only looked at (present, of the size the export states), so the checking pass reads no
/// file's bytes.
pub fn build(
    ctx: &ItemContext<'_>,
    planned: &Planned,
    parent_uid: &str,
    mut body: Map<String, Value>,
    read_blobs: bool,
    notes: &mut Notes,
) -> Result<Imported, Vec<ImportError>> {
    let file = format!("{CONTENT_DIR}/{}", planned.file);
    let fail = |problem: String| vec![ImportError::new(&file, problem)];
    let profile = ctx
        .app
        .types
        .get(&planned.portal_type)
        .ok_or_else(|| fail(format!("its type {} is not on this server", planned.portal_type)))?;
    let created = date_of(&body, "created", ctx.zone).map_err(&fail)?.unwrap_or_else(Utc::now);
    let modified = date_of(&body, "modified", ctx.zone).map_err(&fail)?.unwrap_or(created);
    let effective = date_of(&body, "effective", ctx.zone).map_err(&fail)?;
    let expires = date_of(&body, "expires", ctx.zone).map_err(&fail)?;
    let creator = body
        .get("creators")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(Value::as_str)
        .unwrap_or(ADMIN_USER)
        .to_owned();
    let review_state = body.get("review_state").and_then(Value::as_str).map(str::to_owned);
    let history = body.remove("workflow_history");
    let baseline = baseline_of(&body, ctx.paths, notes);
    let origins = body.remove(ORIGINS);
    note_what_stays_behind(&body, &planned.portal_type, notes);
    let plone_type = body.get("@type").and_then(Value::as_str).unwrap_or_default().to_owned();
    if crate::collection::as_listing_page(&mut body, profile.as_ref()) {
        notes.left_out(&format!("{plone_type}: its query became a listing block (its table columns are left out)"));
    }
    for key in NOT_FIELDS.iter().chain(&["effective", "expires"]) {
        body.remove(*key);
    }
    language(&mut body, ctx.default_language);
    let (files, blobs) = take_blobs(ctx, profile.as_ref(), &mut body, read_blobs, &file)?;
    let read_only = ctx.app.registry.read_only_keys(profile.as_ref());
    leave_out_unknown(&mut body, profile.as_ref(), &planned.portal_type, &read_only, notes);
    // A file counts as sent (a required one is not missing), and is checked by itself.
    for name in &files {
        body.insert(name.clone(), Value::Null);
    }
    let consumed: Vec<&str> = files.iter().map(String::as_str).collect();
    let mut changes = parse_changes(profile.as_ref(), &body, Mode::Create, &consumed, &read_only).map_err(|e| {
        let details: Vec<String> = e.errors.iter().map(|f| format!("{}: {}", f.field, f.message)).collect();
        fail(if details.is_empty() { e.message } else { details.join("; ") })
    })?;
    crate::links::internalize(profile.as_ref(), &mut changes.values, ctx.paths);
    for blob in blobs {
        changes.values.extend(blob.values);
        changes.uploads.extend(blob.uploads);
    }
    let mut object = ContentObject {
        uid: planned.uid.clone(),
        parent_uid: Some(parent_uid.to_owned()),
        path: String::new(),
        id: planned.id().to_owned(),
        portal_type: planned.portal_type.clone(),
        position: ctx.metadata.ordering.get(&planned.key).copied().unwrap_or(planned.index as i64),
        title: String::new(),
        description: String::new(),
        review_state: None,
        created,
        modified,
        effective,
        expires,
        creator: creator.clone(),
        fields: Map::new(),
        block_local_roles: ctx.metadata.local_roles.get(&planned.key).is_some_and(|r| r.blocks()),
        trash_root: None,
        working_copy_of: baseline.clone(),
    };
    changes.apply(&mut object);
    if let (Some(_), Some(origins)) = (&baseline, origins) {
        object.fields.insert(ORIGINS.to_owned(), origins);
    }
    object.effective = effective;
    object.expires = expires;
    let (state, history) = workflow(ctx, profile.as_ref(), review_state, history, &object, &file, notes)?;
    object.review_state = state;
    let local_roles = ctx
        .metadata
        .local_roles
        .get(&planned.key)
        .map(|r| r.local_roles.iter().map(|(p, roles)| (p.clone(), roles.clone())).collect())
        .unwrap_or_default();
    Ok(Imported { object, uploads: changes.uploads, history, local_roles })
}

/// The uid of the original a working copy (plone.app.iterate's) was checked out from: its
/// `working_copy_of` names it by path below the site. One whose original is not in the export
/// comes in as an ordinary object.
fn baseline_of(body: &Map<String, Value>, paths: &HashMap<String, String>, notes: &mut Notes) -> Option<String> {
    let path = body.get("working_copy_of")?.get("@id")?.as_str()?;
    let uid = paths.get(path).filter(|_| !path.is_empty()).cloned();
    if uid.is_none() {
        notes.left_out("working copies whose original is not in the export (they come in as ordinary objects)");
    }
    uid
}

fn date_of(body: &Map<String, Value>, key: &str, zone: Tz) -> Result<Option<DateTime<Utc>>, String> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.is_empty() || text == "None" => Ok(None),
        Some(Value::String(text)) => dates::parse(text, zone).map(Some).map_err(|e| format!("{key}: {e}")),
        Some(other) => Err(format!("{key}: {other} is not a date")),
    }
}

/// `##DEFAULT##` is the old site's default language.
fn language(body: &mut Map<String, Value>, default_language: &str) {
    if let Some(Value::String(code)) = body.get_mut(LANGUAGE_FIELD)
        && code == DEFAULT_LANGUAGE_PLACEHOLDER
    {
        *code = default_language.to_owned();
    }
}

/// What plone.exportimport carries that this server does not keep, counted for the summary.
fn note_what_stays_behind(body: &Map<String, Value>, plone_type: &str, notes: &mut Notes) {
    let filled = |key: &str| body.get(key).is_some_and(|v| v.as_object().is_some_and(|o| !o.is_empty()));
    if filled("exportimport.versions") {
        notes.left_out("older versions (plone.exportimport's importer does not restore them either)");
    }
    if filled("exportimport.constrains") {
        notes.left_out("types allowed in one folder only (this server sets them per type)");
    }
    if body.get("contributors").and_then(Value::as_array).is_some_and(|c| !c.is_empty()) {
        notes.left_out(&format!("{plone_type}: contributors"));
    }
}

/// The file fields given (their names), and their bytes as uploads (when checking, only their
/// presence and size are looked at).
fn take_blobs(
    ctx: &ItemContext<'_>,
    profile: &TypeProfile,
    body: &mut Map<String, Value>,
    read_blobs: bool,
    file: &str,
) -> Result<(Vec<String>, Vec<ChangeSet>), Vec<ImportError>> {
    let mut taken = Vec::new();
    let mut changes = Vec::new();
    let names: Vec<String> = profile.fields.iter().filter(|f| f.kind.is_blob()).map(|f| f.name.clone()).collect();
    for name in names {
        let Some(value) = body.remove(&name) else { continue };
        let Some(blob) = value.as_object() else { continue };
        let Some(blob_path) = blob.get("blob_path").and_then(Value::as_str) else {
            return Err(vec![ImportError::new(file, format!("{name}: a file without 'blob_path'"))]);
        };
        let relative = format!("{CONTENT_DIR}/{blob_path}");
        let declared = blob.get("size").and_then(Value::as_u64);
        let size = ctx.export.size(&relative).map_err(|e| vec![e])?;
        if declared.is_some_and(|d| d != size) {
            return Err(vec![ImportError::new(
                &relative,
                format!("holds {size} bytes where {file} says {}", declared.unwrap_or_default()),
            )]);
        }
        if size > ctx.max_blob_bytes {
            return Err(vec![ImportError::new(&relative, format!("holds {size} bytes, more than the server takes"))]);
        }
        taken.push(name.clone());
        if !read_blobs {
            continue;
        }
        let bytes = ctx.export.read(&relative, ctx.max_blob_bytes).map_err(|e| vec![e])?;
        let filename = blob.get("filename").and_then(Value::as_str).unwrap_or(&name).to_owned();
        let content_type = blob.get("content-type").and_then(Value::as_str);
        let change = file_change(profile, Some(&name), bytes, filename, content_type)
            .map_err(|e| vec![ImportError::new(&relative, e.message)])?;
        changes.push(change);
    }
    Ok((taken, changes))
}

/// Keys that are neither fields, nor the columns every object has, nor settings: left out
/// and counted by type and key (empty ones silently: the serializer writes every key).
fn leave_out_unknown(
    body: &mut Map<String, Value>,
    profile: &TypeProfile,
    plone_type: &str,
    read_only: &[&str],
    notes: &mut Notes,
) {
    body.retain(|key, value| {
        let known = profile.field(key).is_some()
            || wcs_core::content::values::is_column(key)
            || wcs_core::content::values::is_setting(profile, key)
            || (read_only.contains(&key.as_str()) && value.is_null());
        if !known && !value.is_null() && value != &Value::Array(Vec::new()) {
            notes.left_out(&format!("{plone_type}: {key}"));
        }
        known
    });
}

/// The state and history: the state must be one of the type's workflow, and the history is
/// kept for that workflow (entries of others are left out and counted).
fn workflow(
    ctx: &ItemContext<'_>,
    profile: &TypeProfile,
    review_state: Option<String>,
    history: Option<Value>,
    object: &ContentObject,
    file: &str,
    notes: &mut Notes,
) -> Result<(Option<String>, Vec<HistoryEntry>), Vec<ImportError>> {
    let Some(workflow) = profile.workflow.first().and_then(|id| ctx.app.workflows.get(id)) else {
        if review_state.is_some() {
            notes.left_out(&format!("{}: a review state (the type has no workflow here)", profile.id));
        }
        return Ok((None, Vec::new()));
    };
    let state = match review_state {
        Some(state) if workflow.state(&state).is_some() => state,
        Some(state) => {
            return Err(vec![ImportError::new(
                file,
                format!("review_state '{state}' is not a state of {} ({})", workflow.id, profile.id),
            )]);
        }
        None => workflow.initial_state.clone(),
    };
    let mut entries = Vec::new();
    for (workflow_id, list) in history.as_ref().and_then(Value::as_object).into_iter().flatten() {
        if *workflow_id != workflow.id {
            notes.left_out(&format!("workflow history of {workflow_id}"));
            continue;
        }
        for entry in list.as_array().into_iter().flatten() {
            entries.push(history_entry(entry, ctx.zone).map_err(|problem| vec![ImportError::new(file, problem)])?);
        }
    }
    if entries.is_empty() {
        entries.push(HistoryEntry {
            action: None,
            actor: object.creator.clone(),
            comment: String::new(),
            review_state: state.clone(),
            time: object.created,
        });
    }
    entries.sort_by_key(|e| e.time);
    Ok((Some(state), entries))
}

fn history_entry(entry: &Value, zone: Tz) -> Result<HistoryEntry, String> {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let time = entry.get("time").and_then(Value::as_str).ok_or("a workflow history entry without 'time'")?;
    Ok(HistoryEntry {
        action: entry.get("action").and_then(Value::as_str).map(str::to_owned),
        actor: text("actor"),
        comment: text("comments"),
        review_state: Some(text("review_state"))
            .filter(|s| !s.is_empty())
            .ok_or("a workflow history entry without 'review_state'")?,
        time: dates::parse(time, zone).map_err(|e| format!("workflow history: {e}"))?,
    })
}
