//! Moving a site out: `wcs export-plone DIR` (and `POST @export`) write the site in
//! plone.exportimport's format, the one `wcs import-plone` reads and Plone 6.1+'s importer
//! loads: every object's `data.json` with its uid, place, position, dates, creator, state,
//! workflow history, local roles, default page and fields, its files beside it, the users and
//! groups with their password hashes, relations, redirects, and what plugins keep (translation
//! groups, comments) through their [`wcs_core::service::SiteFile`]s.
//!
//! Every file is written with its keys sorted and the objects in path order, so the same site
//! always gives the same bytes: exporting, importing that export into a new site and exporting
//! again gives the same export.

mod content;
mod object;
mod people;
mod summary;
mod writer;

pub use summary::ExportSummary;
pub(crate) use writer::Writer;

use crate::error::ImportError;
use crate::notes::Notes;
use std::path::Path;
use wcs_core::app::App;

/// Writes `app`'s site into the directory `dir`, which must be new or empty; `progress`
/// hears how many objects of how many are written.
pub async fn export_plone(
    app: &App,
    dir: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ExportSummary, ImportError> {
    let writer = Writer::create(dir)?;
    let mut notes = Notes::default();
    let written = content::write(app, &writer, &mut notes, progress).await?;
    let people = people::write(app, &writer, &mut notes).await?;
    let relations = content::write_relations(app, &writer).await?;
    let redirects = content::write_redirects(app, &writer).await?;
    let mut plugin_files = Vec::new();
    for file in app.registry.site_files() {
        let exported = (file.export)(app).await.map_err(|e| ImportError::new(file.file, e.message))?;
        writer.json(file.file, &exported.json)?;
        plugin_files.push((file.file.to_owned(), file.entries.to_owned(), exported.entries));
    }
    Ok(ExportSummary {
        objects: written.objects,
        files: written.files,
        users: people.users,
        groups: people.groups,
        relations,
        redirects,
        plugin_files,
        notes,
    })
}
