//! What needs every object in place: folders' default pages, relations between objects and
//! the old site's redirects. Each writes absolute values (a field set to what the export
//! says, an alias replaced), so running it again changes nothing.

use crate::error::{ImportError, Stopped};
use crate::format::{Metadata, Relation, SITE_ROOT_KEY};
use crate::notes::Notes;
use crate::plan::Plan;
use crate::source::ExportDir;
use serde_json::Value;
use std::collections::BTreeMap;
use wcs_core::app::App;
use wcs_core::content::FieldKind;
use wcs_core::content::values::DEFAULT_PAGE;
use wcs_core::ops::import::rewrite_imported;

/// The relation Plone keeps for each internal link in text (`isReferencing`).
const LINKS_IN_TEXT: &str = "isReferencing";

/// How many of each were set.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    /// Default pages.
    pub default_pages: usize,
    /// Relations.
    pub relations: usize,
    /// Redirects.
    pub redirects: usize,
}

/// Sets the default pages, relations and redirects the export holds.
pub async fn settle(
    app: &App,
    export: &ExportDir,
    metadata: &Metadata,
    plan: &Plan,
    notes: &mut Notes,
) -> Result<Settled, Stopped> {
    let mut settled = Settled::default();
    let root_uid = plan.uids.get("").cloned().unwrap_or_default();
    let uid_of = |key: &str| if key == SITE_ROOT_KEY { root_uid.clone() } else { key.to_owned() };

    let mut changes: BTreeMap<String, Vec<(String, Value)>> = BTreeMap::new();
    for (key, page) in &metadata.default_page {
        changes.entry(uid_of(key)).or_default().push((DEFAULT_PAGE.to_owned(), Value::from(page.default_page.clone())));
    }
    let relations: Vec<Relation> = export.json("relations.json").map_err(Stopped::writing)?.unwrap_or_default();
    let mut targets: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut free: Vec<(String, String, String)> = Vec::new();
    for relation in relations {
        targets.entry((relation.from_uuid, relation.from_attribute)).or_default().push(relation.to_uuid);
    }
    let mut uids: Vec<String> = changes.keys().cloned().collect();
    uids.extend(targets.keys().map(|(from, _)| from.clone()));
    uids.extend(targets.values().flatten().cloned());
    uids.sort();
    uids.dedup();
    let objects = app.store.content_by_uids(&uids).await.map_err(|e| stop("relations.json", e))?;
    let on_site = |uid: &str| objects.iter().any(|o| o.uid == uid);
    for ((from, attribute), to) in targets {
        let Some(source) = objects.iter().find(|o| o.uid == from) else {
            notes.left_out("relations from objects not on this site");
            continue;
        };
        let kind = app.types.get(&source.portal_type).and_then(|p| p.field(&attribute).map(|f| f.kind));
        let to: Vec<String> = to.into_iter().filter(|uid| on_site(uid)).collect();
        let value = match kind {
            Some(FieldKind::RelationList) => Value::from(to.clone()),
            Some(FieldKind::RelationChoice) => to.first().cloned().map_or(Value::Null, Value::from),
            // Links in text: this server finds them again from the text itself.
            _ if attribute == LINKS_IN_TEXT => continue,
            Some(_) => {
                notes.left_out(&format!("relations named {attribute} (a field of that name here holds no relation)"));
                continue;
            }
            // A relation no field holds (plone.api's `relation.create`) is a free relation.
            None => {
                settled.relations += to.len();
                free.extend(to.into_iter().map(|target| (from.clone(), attribute.clone(), target)));
                continue;
            }
        };
        settled.relations += to.len();
        changes.entry(from).or_default().push((attribute, value));
    }
    let mut tx = app.store.begin().await.map_err(|e| stop("", e))?;
    for (uid, fields) in changes {
        let Some(before) = objects.iter().find(|o| o.uid == uid) else {
            notes.left_out("default pages of folders not on this site");
            continue;
        };
        let mut after = before.clone();
        for (name, value) in fields {
            if name == DEFAULT_PAGE {
                settled.default_pages += 1;
            }
            after.fields.insert(name, value);
        }
        if after != *before {
            rewrite_imported(app, &mut tx, before, &after).await.map_err(|e| stop(&before.path, e.message))?;
        }
    }
    for (source, name, target) in &free {
        tx.add_free_relation(source, name, target).await.map_err(|e| stop("relations.json", e))?;
    }
    tx.commit().await.map_err(|e| stop("", e.message))?;
    settled.redirects = redirects(app, export, plan, notes).await?;
    Ok(settled)
}

/// `redirects.json`: old paths (below the site, or with the old site's id in front) that lead
/// to an object, as aliases.
async fn redirects(app: &App, export: &ExportDir, plan: &Plan, notes: &mut Notes) -> Result<usize, Stopped> {
    let redirects: BTreeMap<String, String> =
        export.json("redirects.json").map_err(Stopped::writing)?.unwrap_or_default();
    if redirects.is_empty() {
        return Ok(0);
    }
    let site_path = format!("/{}", app.settings.site_id);
    let below_site = |path: &str| {
        let old_root = format!("/{}", plan.old_site_id);
        let rest = path.strip_prefix(&old_root).filter(|r| r.is_empty() || r.starts_with('/')).unwrap_or(path);
        format!("{site_path}{}", rest.trim_end_matches('/'))
    };
    let mut tx = app.store.begin().await.map_err(|e| stop("", e))?;
    let mut added = 0;
    for (old, new) in &redirects {
        if !old.starts_with('/') || !new.starts_with('/') {
            notes.left_out("redirects to or from a place outside the site");
            continue;
        }
        let (old_path, new_path) = (below_site(old), below_site(new));
        let Some(target) = app.store.content_at_path(&new_path).await.map_err(|e| stop("redirects.json", e))? else {
            notes.left_out("redirects to nothing on this site");
            continue;
        };
        if app.store.content_at_path(&old_path).await.map_err(|e| stop("redirects.json", e))?.is_some() {
            notes.left_out("redirects from a place an object holds now");
            continue;
        }
        tx.add_alias(&old_path, &target.uid, chrono::Utc::now()).await.map_err(|e| stop("redirects.json", e))?;
        added += 1;
    }
    tx.commit().await.map_err(|e| stop("redirects.json", e.message))?;
    Ok(added)
}

fn stop(file: &str, problem: impl ToString) -> Stopped {
    Stopped::writing(ImportError::new(file, problem.to_string()))
}
