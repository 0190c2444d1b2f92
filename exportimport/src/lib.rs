//! Moving a Plone site onto wcs-backend, and off it again: `wcs import-plone DIR` reads an export in
//! plone.exportimport's format (what Plone 6.1 and later write with `plone-exporter`, or answer
//! to `POST @export` as a ZIP) and writes it into the site, keeping what editors and visitors
//! rely on: every object's uid (so `resolveuid` links keep working), id, place and position, dates,
//! creator, review state and workflow history, local roles and their blocking, default pages,
//! relations, redirects, Volto blocks and rich text as given, files with their bytes, users
//! and groups with their passwords, and what plugins read from the export's other files
//! (translation groups, through [`wcs_core::service::SiteFile`]).
//!
//! The export is read and checked whole first; a broken one is refused with every problem
//! named by file, before anything is written. The objects are then written in batches, one
//! transaction each, containers first; an interrupted import goes on where it stopped when run
//! again. What the export holds that this server has no place for is counted in the summary,
//! never dropped unseen.
//!
//! The way out is [`export_plone`], which writes the site in the same format.

mod collection;
mod collective;
mod content;
mod dates;
mod error;
mod export;
mod format;
mod item;
mod links;
mod notes;
mod plan;
mod principals;
mod report;
mod services;
mod settle;
mod source;
mod types_map;
mod zipped;

pub use error::{ImportError, Stopped};
pub use export::{ExportSummary, export_plone};
pub use notes::Notes;
pub use report::Report;
pub use services::{EXPORT_SITE, IMPORT_SITE, PLUGIN_ID};

use chrono_tz::Tz;
use item::ItemContext;
use plan::{Placing, plan};
use source::{CONTENT_DIR, ExportDir};
use std::path::{Path, PathBuf};
use types_map::TypeMap;
use wcs_core::app::{ADMIN_USER, App};
use wcs_core::i18n::SITE_LANGUAGE;
use wcs_core::services::AVAILABLE_LANGUAGES;

/// How to import.
#[derive(Debug, Clone)]
pub struct Options {
    /// Check the export and count what it holds, writing nothing.
    pub dry_run: bool,
    /// A type mapping over the standard one.
    pub types: Option<PathBuf>,
    /// The old site's default language, which `##DEFAULT##` stands for; found from its
    /// language root folder when left out, else this site's language.
    pub default_language: Option<String>,
    /// The zone the old server wrote naive times in (`effective`, `expires`).
    pub timezone: Tz,
    /// Objects per transaction.
    pub batch: usize,
    /// The largest file read.
    pub max_file_bytes: u64,
    /// The most a ZIP export may unpack to.
    pub max_unpacked_bytes: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            dry_run: false,
            types: None,
            default_language: None,
            timezone: Tz::UTC,
            batch: 200,
            max_file_bytes: 1024 * 1024 * 1024,
            max_unpacked_bytes: 256 * 1024 * 1024 * 1024,
        }
    }
}

/// The files of plone.exportimport that plugins read, and what they hold: one no plugin of
/// this build reads is counted as left out.
const PLUGIN_FILES: [(&str, &str); 3] = [
    ("discussions.json", "comments (the comments plugin reads them)"),
    ("translations.json", "translation groups (the multilingual plugin reads them)"),
    ("portlets.json", "portlets (Volto sites have none)"),
];

/// Imports the export at `dir` (its directory, or a ZIP of it) into `app`'s site; `progress`
/// hears how many objects of how many are written.
pub async fn import_plone(
    app: &App,
    dir: &Path,
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, Stopped> {
    // A ZIP (what plone.exportimport's `@export` answers) is unpacked first, into a directory
    // removed when the import ends.
    let unpacked = match dir.is_file() {
        true => Some(zipped::unpack(dir, options.max_unpacked_bytes).map_err(Stopped::checking_one)?),
        false => None,
    };
    let given = unpacked.as_ref().map_or(dir, |u| u.root.as_path());
    // collective.exportimport's format is written out in plone.exportimport's first.
    let converted = match collective::is_collective(given) {
        true => Some(collective::convert(given, options.max_file_bytes).map_err(Stopped::checking_one)?),
        false => None,
    };
    let export =
        ExportDir::open(converted.as_ref().map_or(given, |c| c.root.as_path())).map_err(Stopped::checking_one)?;
    let metadata = export.required_json(&format!("{CONTENT_DIR}/__metadata__.json")).map_err(Stopped::checking_one)?;
    let types = TypeMap::load(options.types.as_deref()).map_err(Stopped::checking_one)?;
    let root = app.site_root().await.map_err(|e| Stopped::checking_one(ImportError::new("", e.message)))?;
    let site_language = app
        .store
        .record_values(&[&SITE_LANGUAGE])
        .await
        .ok()
        .and_then(|values| values.first().and_then(|v| v.as_str().map(str::to_owned)))
        .unwrap_or_default();
    let mut notes = Notes::default();
    let placing = Placing {
        app,
        export: &export,
        metadata: &metadata,
        types: &types,
        root_uid: &root.uid,
        language: options.default_language.as_deref(),
        site_language: &site_language,
    };
    let plan = plan(&placing, &mut notes)?;
    let ctx = ItemContext {
        app,
        export: &export,
        metadata: &metadata,
        zone: options.timezone,
        default_language: &plan.default_language,
        max_blob_bytes: options.max_file_bytes,
        paths: &plan.uids,
    };
    plan::check_items(&ctx, &plan, &mut notes)?;
    note_unread(app, &export, &metadata, &mut notes);
    let people = principals::import(app, &export, options.dry_run, &mut notes).await?;
    let mut report =
        Report { users: people.users, groups: people.groups, languages: plan.languages.clone(), ..Report::default() };
    if options.dry_run {
        report.objects = plan.items.len();
        report.notes = notes;
        return Ok(report);
    }
    // What each object leaves out was counted while checking.
    let written = content::write(&ctx, &plan, &root.path, options.batch, &mut Notes::default(), progress).await?;
    let settled = settle::settle(app, &export, &metadata, &plan, &mut notes).await?;
    report.memberships = people.memberships;
    report.objects = written.objects;
    report.already_there = written.already_there;
    report.files = written.files;
    report.default_pages = settled.default_pages;
    report.relations = settled.relations;
    report.redirects = settled.redirects;
    if !plan.languages.is_empty() {
        save_languages(app, &plan).await?;
    }
    report.plugin_files = plugin_files(app, &export, &mut notes).await?;
    report.notes = notes;
    Ok(report)
}

/// A multilingual export's languages become the site's, as the language panel saves them, so
/// the multilingual plugin finds the imported language root folders its own.
async fn save_languages(app: &App, plan: &plan::Plan) -> Result<(), Stopped> {
    let writes = [
        (SITE_LANGUAGE.name, serde_json::json!(plan.default_language).to_string()),
        (AVAILABLE_LANGUAGES.name, serde_json::json!(plan.languages).to_string()),
    ];
    wcs_core::services::records_save::save_records(app, ADMIN_USER, &writes)
        .await
        .map_err(|e| Stopped::writing(ImportError::new("", format!("saving the site's languages: {}", e.message))))
}

/// Hands the export's other files to the plugins that read them.
async fn plugin_files(
    app: &App,
    export: &ExportDir,
    notes: &mut Notes,
) -> Result<Vec<(String, String, usize)>, Stopped> {
    let mut read = Vec::new();
    for step in app.registry.site_files() {
        let Some(file) = export.json::<serde_json::Value>(step.file).map_err(Stopped::writing)? else { continue };
        let outcome =
            (step.import)(app, &file).await.map_err(|e| Stopped::writing(ImportError::new(step.file, e.message)))?;
        for skipped in outcome.skipped {
            tracing::warn!(file = step.file, "{skipped}");
            notes.left_out(&format!("{} left out of {}", step.entries, step.file));
        }
        read.push((step.file.to_owned(), step.entries.to_owned(), outcome.imported));
    }
    Ok(read)
}

/// What the export holds that nothing here reads.
fn note_unread(app: &App, export: &ExportDir, metadata: &format::Metadata, notes: &mut Notes) {
    for (file, what) in PLUGIN_FILES {
        if app.registry.site_files().any(|step| step.file == file) {
            continue;
        }
        let holds = export.json::<serde_json::Value>(file).ok().flatten().is_some_and(|v| match v {
            serde_json::Value::Array(items) => !items.is_empty(),
            serde_json::Value::Object(map) => !map.is_empty(),
            _ => false,
        });
        if holds {
            notes.left_out(&format!("{file}: {what}"));
        }
    }
    for _ in metadata.local_permissions.keys() {
        notes.left_out("permissions set on single objects (this server takes them from the workflow)");
    }
}
