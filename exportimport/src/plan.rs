//! The checking pass: every data file is read and every object checked as it will be written
//! (its place, its type, its fields, its files' presence and size) before anything is
//! written, so a broken export is refused whole, with all its problems named.

use crate::error::{ImportError, Stopped};
use crate::format::{DEFAULT_LANGUAGE_PLACEHOLDER, FORMAT_VERSION, Metadata, SITE_ROOT_KEY};
use crate::item::{ItemContext, build};
use crate::notes::Notes;
use crate::source::{CONTENT_DIR, ExportDir};
use crate::types_map::TypeMap;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use wcs_core::app::App;
use wcs_core::content::links::is_uid;
use wcs_core::content::{LANGUAGE_FIELD, LANGUAGE_ROOT};

/// The most problems listed at once.
const MAX_PROBLEMS: usize = 50;

/// One object to write.
#[derive(Debug, Clone)]
pub struct Planned {
    /// Its key in the metadata: its uid, or [`SITE_ROOT_KEY`].
    pub key: String,
    /// Its `data.json`, relative to `content/`.
    pub file: String,
    /// Its uid here (the site root keeps this site's own).
    pub uid: String,
    /// Its path below the site (`/bar/foo`); empty for the site root.
    pub path: String,
    /// Its type here.
    pub portal_type: String,
    /// Its place in the export's list, its position when the metadata has none.
    pub index: usize,
}

impl Planned {
    /// Its id, the last segment of its path.
    pub fn id(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or_default()
    }

    /// Its container's path below the site (empty for the site root).
    pub fn parent_path(&self) -> &str {
        self.path.rfind('/').map_or("", |at| &self.path[..at])
    }
}

/// A data file read, before it is placed.
struct Found {
    relative: String,
    plone_type: String,
    language: String,
    planned: Planned,
}

/// What the checking pass found.
#[derive(Debug)]
pub struct Plan {
    /// The site root's data, which updates this site's root.
    pub root: Option<Planned>,
    /// The other objects, containers before what they contain.
    pub items: Vec<Planned>,
    /// The uid each path below the site has (the site root's is this site's own).
    pub uids: HashMap<String, String>,
    /// The old site's id (`/plone` is the root's `@id`), which old paths may start with.
    pub old_site_id: String,
    /// The old site's default language.
    pub default_language: String,
    /// The ids of the language root folders (a multilingual site), site language first.
    pub languages: Vec<String>,
}

/// Where the objects go and what they are; the old site's default language is `language`
/// when given, else the language root folder that stands for it, else `site_language`.
pub struct Placing<'a> {
    /// The application.
    pub app: &'a App,
    /// The export.
    pub export: &'a ExportDir,
    /// Its metadata.
    pub metadata: &'a Metadata,
    /// The type mapping.
    pub types: &'a TypeMap,
    /// This site's root.
    pub root_uid: &'a str,
    /// The old site's default language, when the site owner names it.
    pub language: Option<&'a str>,
    /// This site's language.
    pub site_language: &'a str,
}

/// Reads the export and places its objects; `Err` lists every problem (up to
/// [`MAX_PROBLEMS`]).
pub fn plan(ctx: &Placing<'_>, notes: &mut Notes) -> Result<Plan, Stopped> {
    let (metadata, types, root_uid) = (ctx.metadata, ctx.types, ctx.root_uid);
    if metadata.version != FORMAT_VERSION {
        let problem = format!("is format {}; this importer reads {FORMAT_VERSION}", metadata.version);
        return Err(Stopped::checking(vec![ImportError::new(format!("{CONTENT_DIR}/__metadata__.json"), problem)]));
    }
    let mut problems = Vec::new();
    let mut plan = Plan {
        root: None,
        items: Vec::new(),
        uids: HashMap::from([(String::new(), root_uid.to_owned())]),
        old_site_id: String::new(),
        default_language: String::new(),
        languages: Vec::new(),
    };
    // Read first, then placed in path order: a container's path sorts before its content's,
    // whatever order the metadata lists the files in.
    let mut found: Vec<Found> = Vec::new();
    let mut seen_uids = HashSet::new();
    for (index, file) in metadata.data_files.iter().enumerate() {
        let relative = format!("{CONTENT_DIR}/{file}");
        let body: Map<String, Value> = match ctx.export.required_json(&relative) {
            Ok(body) => body,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let text = |key: &str| body.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let (at_id, plone_type, uid) = (text("@id"), text("@type"), text("UID"));
        let key = file.split('/').next().unwrap_or_default().to_owned();
        let fail = |problem: String| ImportError::new(&relative, problem);
        if at_id.is_empty() || plone_type.is_empty() {
            problems.push(fail("needs '@id' and '@type'".into()));
            continue;
        }
        let Some(path) = site_path(&at_id) else {
            problems.push(fail(format!("'@id' {at_id} is not a path below the site")));
            continue;
        };
        if plone_type == "Plone Site" || key == SITE_ROOT_KEY {
            if plan.root.is_some() {
                problems.push(fail("is a second site root".into()));
                continue;
            }
            plan.old_site_id = path.trim_start_matches('/').to_owned();
            let portal_type = types.target(&plone_type).unwrap_or("Plone Site").to_owned();
            plan.root = Some(Planned {
                key,
                file: file.clone(),
                uid: root_uid.to_owned(),
                path: String::new(),
                portal_type,
                index,
            });
            continue;
        }
        if !is_uid(&uid) || uid != key {
            problems.push(fail(format!("'UID' {uid:?} is not the 32 hexadecimal characters its directory is named")));
            continue;
        }
        if !seen_uids.insert(uid.clone()) {
            problems.push(fail(format!("the UID {uid} is there twice")));
            continue;
        }
        let language = text(LANGUAGE_FIELD);
        found.push(Found {
            relative,
            plone_type,
            language,
            planned: Planned { key, file: file.clone(), uid, path, portal_type: String::new(), index },
        });
    }
    found.sort_by(|a, b| a.planned.path.cmp(&b.planned.path));

    let mut folderish: HashSet<String> = HashSet::from([String::new()]);
    let mut left_out_paths: Vec<String> = Vec::new();
    let mut placeholder_root = None;
    for Found { relative, plone_type, language, mut planned } in found {
        let fail = |problem: String| ImportError::new(&relative, problem);
        let path = planned.path.clone();
        if let Some(outer) = left_out_paths.iter().find(|p| path.starts_with(&format!("{p}/"))) {
            notes.left_out(&format!("objects inside what was left out ({outer} and the like)"));
            left_out_paths.push(path);
            continue;
        }
        let Some(portal_type) = types.target(&plone_type) else {
            notes.left_out(&format!("objects of type {plone_type} (no type of this server is mapped to it)"));
            left_out_paths.push(path);
            continue;
        };
        let Some(profile) = ctx.app.types.get(portal_type) else {
            problems.push(fail(format!(
                "its type {plone_type} is mapped to {portal_type}, which this server does not have"
            )));
            continue;
        };
        planned.portal_type = portal_type.to_owned();
        if plan.uids.contains_key(&path) {
            problems.push(fail(format!("{path} is there twice")));
            continue;
        }
        if let Some(problem) = wcs_core::content::ids::problem(planned.id()) {
            problems.push(fail(format!("its id '{}': {problem}", planned.id())));
            continue;
        }
        let parent = planned.parent_path();
        if !plan.uids.contains_key(parent) {
            problems.push(fail(format!("its container {parent} is not in the export")));
            continue;
        }
        if !folderish.contains(parent) {
            problems.push(fail(format!("its container {parent} is not a folder here")));
            continue;
        }
        if profile.has_behaviour(LANGUAGE_ROOT) {
            if language == DEFAULT_LANGUAGE_PLACEHOLDER {
                placeholder_root = Some(planned.id().to_owned());
            }
            plan.languages.push(planned.id().to_owned());
        }
        if profile.folderish {
            folderish.insert(path.clone());
        }
        plan.uids.insert(path, planned.uid.clone());
        plan.items.push(planned);
    }
    if plan.root.is_none() {
        problems
            .push(ImportError::new(format!("{CONTENT_DIR}/__metadata__.json"), "lists no site root (plone_site_root)"));
    }
    if !problems.is_empty() {
        problems.truncate(MAX_PROBLEMS);
        return Err(Stopped::checking(problems));
    }
    plan.default_language =
        ctx.language.map(str::to_owned).or(placeholder_root).unwrap_or_else(|| ctx.site_language.to_owned());
    // The site language's folder first, as the language panel lists it.
    plan.languages.sort_by_key(|code| (*code != plan.default_language, code.clone()));
    Ok(plan)
}

/// Checks every object as it will be written (without reading files' bytes).
pub fn check_items(ctx: &ItemContext<'_>, plan: &Plan, notes: &mut Notes) -> Result<(), Stopped> {
    let mut problems = Vec::new();
    for planned in plan.root.iter().chain(&plan.items) {
        let body = match ctx.export.required_json(&format!("{CONTENT_DIR}/{}", planned.file)) {
            Ok(body) => body,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let parent = plan.uids.get(planned.parent_path()).map(String::as_str).unwrap_or_default();
        if let Err(found) = build(ctx, planned, parent, body, false, notes) {
            problems.extend(found);
        }
        if problems.len() >= MAX_PROBLEMS {
            break;
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(Stopped::checking(problems)) }
}

/// The path below the site an `@id` names: `/bar/foo` as written, percent-decoded.
fn site_path(at_id: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(at_id).decode_utf8().ok()?;
    let path = decoded.trim_end_matches('/');
    (path.starts_with('/') && !path.contains("//")).then(|| path.to_owned())
}
