//! The writing pass: the site root's data onto this site's root, then the objects in batches,
//! containers first, each batch one transaction. An object whose uid is already at its place
//! was written by an earlier run and is passed over, so an interrupted import goes on where it
//! stopped when run again.

use crate::error::{ImportError, Stopped};
use crate::item::{ItemContext, build};
use crate::notes::Notes;
use crate::plan::{Plan, Planned};
use crate::source::CONTENT_DIR;
use serde_json::{Map, Value};
use std::collections::HashMap;
use wcs_core::ops::import::{insert_imported, rewrite_imported};

/// How many objects the writing pass wrote and passed over.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Objects written now.
    pub objects: usize,
    /// Objects an earlier run wrote.
    pub already_there: usize,
    /// Files written.
    pub files: usize,
}

/// Writes the site root's data and every object of `plan`, `batch` objects a transaction;
/// `progress` hears how many of how many are done.
pub async fn write(
    ctx: &ItemContext<'_>,
    plan: &Plan,
    site_path: &str,
    batch: usize,
    notes: &mut Notes,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Written, Stopped> {
    if let Some(root) = &plan.root {
        write_root(ctx, root, notes).await?;
    }
    let mut written = Written::default();
    let total = plan.items.len();
    for chunk in plan.items.chunks(batch.max(1)) {
        let uids: Vec<String> = chunk.iter().map(|p| p.uid.clone()).collect();
        let there: HashMap<String, String> = ctx
            .app
            .store
            .content_by_uids(&uids)
            .await
            .map_err(|e| stop("", e))?
            .into_iter()
            .map(|o| (o.uid, o.path))
            .collect();
        let mut tx = ctx.app.store.begin().await.map_err(|e| stop("", e))?;
        for planned in chunk {
            let path = format!("{site_path}{}", planned.path);
            match there.get(&planned.uid) {
                Some(at) if *at == path => {
                    written.already_there += 1;
                    continue;
                }
                Some(at) => {
                    return Err(Stopped::writing(ImportError::new(
                        data_file(planned),
                        format!("its UID {} is this site's object at {at} already", planned.uid),
                    )));
                }
                None => {}
            }
            let parent = plan.uids.get(planned.parent_path()).map(String::as_str).unwrap_or_default();
            let body: Map<String, Value> = ctx.export.required_json(&data_file(planned)).map_err(Stopped::writing)?;
            let mut item = build(ctx, planned, parent, body, true, notes).map_err(first)?;
            item.object.path = path;
            insert_imported(ctx.app, &mut tx, &item).await.map_err(|e| stop(&data_file(planned), e.message))?;
            written.objects += 1;
            written.files += item.uploads.len();
        }
        tx.commit().await.map_err(|e| stop("", e.message))?;
        progress(written.objects + written.already_there, total);
    }
    Ok(written)
}

/// The old site root's title, description, blocks and roles onto this site's root (its uid
/// and place stay this site's).
async fn write_root(ctx: &ItemContext<'_>, root: &Planned, notes: &mut Notes) -> Result<(), Stopped> {
    let before = ctx.app.site_root().await.map_err(|e| stop("", e.message))?;
    let body: Map<String, Value> = ctx.export.required_json(&data_file(root)).map_err(Stopped::writing)?;
    // A root without a title or description (an export of Plone 5 holds no root) keeps this
    // site's.
    let (titled, described) = (body.contains_key("title"), body.contains_key("description"));
    let item = build(ctx, root, "", body, true, notes).map_err(first)?;
    let mut after = before.clone();
    if titled {
        after.title = item.object.title;
    }
    if described {
        after.description = item.object.description;
    }
    // Values the root shows already (stored, or its field's default, or its type's layout)
    // are left as they are.
    let profile = ctx.app.types.get(&before.portal_type);
    for (name, value) in item.object.fields {
        let shown = before.fields.get(&name).cloned().or_else(|| {
            let profile = profile.as_ref()?;
            match name.as_str() {
                "layout" => Some(Value::from(profile.layout.clone())),
                _ => profile.field(&name).map(|f| f.default_json()),
            }
        });
        if shown.as_ref() != Some(&value) {
            after.fields.insert(name, value);
        }
    }
    let mut tx = ctx.app.store.begin().await.map_err(|e| stop("", e))?;
    // An import run again, or of this site's own export, changes nothing here.
    if after != before {
        rewrite_imported(ctx.app, &mut tx, &before, &after).await.map_err(|e| stop(&data_file(root), e.message))?;
    }
    for (principal, roles) in &item.local_roles {
        tx.set_local_roles(&after.uid, principal, roles).await.map_err(|e| stop(&data_file(root), e))?;
    }
    tx.commit().await.map_err(|e| stop("", e.message))?;
    Ok(())
}

fn data_file(planned: &Planned) -> String {
    format!("{CONTENT_DIR}/{}", planned.file)
}

fn first(problems: Vec<ImportError>) -> Stopped {
    Stopped::writing(problems.into_iter().next().unwrap_or_else(|| ImportError::new("", "an object was refused")))
}

fn stop(file: &str, problem: impl ToString) -> Stopped {
    Stopped::writing(ImportError::new(file, problem.to_string()))
}
