//! The content of an export: the objects in path order, a batch at a time (their histories
//! and local roles read in one statement per batch), each object's `data.json` and files,
//! then `content/__metadata__.json`; and `relations.json` and `redirects.json`, which name
//! objects by uid and path.

use super::object::{ObjectIn, Summary, data, without_root_uid};
use super::writer::Writer;
use crate::error::ImportError;
use crate::format::{FORMAT_VERSION, SITE_ROOT_KEY};
use crate::notes::Notes;
use crate::source::CONTENT_DIR;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use wcs_core::app::App;
use wcs_core::content::values::DEFAULT_PAGE;
use wcs_core::i18n::SITE_LANGUAGE;
use wcs_core::store::{AliasQuery, BlobRange, RelationQuery, Visibility};

/// Objects read and written at once.
const BATCH: i64 = 500;
/// [`BATCH`] as a count.
const BATCH_USIZE: usize = 500;

/// How many objects and files were written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Objects, the site root among them.
    pub objects: usize,
    /// Files.
    pub files: usize,
}

/// What `__metadata__.json` gathers while the objects are written.
#[derive(Default)]
struct Metadata {
    data_files: Vec<Value>,
    blob_files: Vec<Value>,
    default_page: Map<String, Value>,
    local_roles: Map<String, Value>,
    ordering: Map<String, Value>,
}

/// Writes every object of the site (but those in the trash, which are counted as left out),
/// working copies with the original they belong to, and the metadata.
pub async fn write(
    app: &App,
    writer: &Writer,
    notes: &mut Notes,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Written, ImportError> {
    let root = app.site_root().await.map_err(|e| ImportError::new("", e.message))?;
    let site_path = root.path.clone();
    let site_language = app.record_value(&SITE_LANGUAGE).await.map_err(|e| ImportError::new("", e.message))?;
    let site_language = site_language.as_str().unwrap_or_default();
    for (trashed, _) in app.store.trash_roots(&site_path).await.map_err(database)? {
        notes.left_out(&format!("objects in the trash (empty it or restore them first): {}", trashed.path));
    }
    let (_, total) = app.store.database_size().await.map_err(database)?;
    let total = usize::try_from(total).unwrap_or_default();
    // Page by page in path order (containers before their content), so memory stays bounded
    // by the page and the containers' summaries, whatever the site's size.
    let mut containers: HashMap<String, Summary> = HashMap::new();
    let mut default_pages: Vec<(String, String, String)> = Vec::new();
    let mut metadata = Metadata::default();
    let mut written = Written::default();
    let mut after = String::new();
    loop {
        let page = app.store.subtree_page(&site_path, &after, &[], BATCH).await.map_err(database)?;
        let Some(last) = page.last() else { break };
        after = last.path.clone();
        let uids: Vec<String> = page.iter().map(|o| o.uid.clone()).collect();
        let histories = app.store.histories(&uids).await.map_err(database)?;
        let mut roles: HashMap<String, BTreeMap<String, Vec<String>>> = HashMap::new();
        for role in app.store.local_roles(&uids).await.map_err(database)? {
            roles.entry(role.content_uid).or_default().entry(role.principal_id).or_default().push(role.role);
        }
        let baseline_uids: Vec<String> = page.iter().filter_map(|o| o.working_copy_of.clone()).collect();
        let mut baselines = HashMap::new();
        for baseline in app.store.content_by_uids(&baseline_uids).await.map_err(database)? {
            if let Some(profile) = app.types.get(&baseline.portal_type) {
                baselines.insert(baseline.uid.clone(), Summary::of(&baseline, &profile, &site_path));
            }
        }
        for object in &page {
            let key = if object.is_site_root() { SITE_ROOT_KEY } else { object.uid.as_str() };
            let profile = app.types.get(&object.portal_type).ok_or_else(|| {
                ImportError::new(&object.path, format!("its type {} is not on this server", object.portal_type))
            })?;
            let input = ObjectIn {
                object,
                profile: &profile,
                parent: object.parent_uid.as_deref().and_then(|uid| containers.get(uid)),
                baseline: object.working_copy_of.as_deref().and_then(|uid| baselines.get(uid)),
                key,
                site_path: &site_path,
                history: histories.get(&object.uid).map(Vec::as_slice).unwrap_or_default(),
                site_language,
            };
            let (body, blobs) = data(&input);
            for blob in blobs {
                let size = app.store.blob_meta(&object.uid, &blob.field).await.map_err(database)?.map_or(0, |m| m.size);
                let bytes = app
                    .store
                    .blob_bytes(&object.uid, &blob.field, BlobRange { offset: 0, length: size })
                    .await
                    .map_err(database)?;
                writer.bytes(&format!("{CONTENT_DIR}/{}", blob.path), &bytes)?;
                metadata.blob_files.push(json!(blob.path));
                written.files += 1;
            }
            let data_file = format!("{key}/data.json");
            let mut body = Value::Object(body);
            without_root_uid(&mut body, &root.uid);
            writer.json(&format!("{CONTENT_DIR}/{data_file}"), &body)?;
            metadata.data_files.push(json!(data_file));
            if !object.is_site_root() {
                metadata.ordering.insert(key.to_owned(), json!(object.position));
            }
            if let Some(page) = object.fields.get(DEFAULT_PAGE).and_then(Value::as_str) {
                default_pages.push((key.to_owned(), page.to_owned(), format!("{}/{page}", object.path)));
            }
            let own = roles.remove(&object.uid).unwrap_or_default();
            let mut entry = Map::new();
            if !own.is_empty() {
                entry.insert("local_roles".into(), json!(own));
            }
            if object.block_local_roles {
                entry.insert("block".into(), json!(1));
            }
            if !entry.is_empty() {
                metadata.local_roles.insert(key.to_owned(), Value::Object(entry));
            }
            if profile.folderish {
                containers.insert(object.uid.clone(), Summary::of(object, &profile, &site_path));
            }
            written.objects += 1;
        }
        progress(written.objects, total.max(written.objects));
    }
    // Default pages by uid, looked up once every page is known.
    for chunk in default_pages.chunks(BATCH_USIZE) {
        let paths: Vec<String> = chunk.iter().map(|(_, _, path)| path.clone()).collect();
        let found: HashMap<String, String> =
            app.store.content_at_paths(&paths).await.map_err(database)?.into_iter().map(|o| (o.path, o.uid)).collect();
        for (key, page, path) in chunk {
            let uid = found.get(path);
            metadata.default_page.insert(key.clone(), json!({"default_page": page, "default_page_uuid": uid}));
        }
    }
    let Metadata { data_files, blob_files, default_page, local_roles, ordering } = metadata;
    let file = json!({
        "__version__": FORMAT_VERSION,
        "_blob_files_": blob_files,
        "_data_files_": data_files,
        "default_page": default_page,
        "local_permissions": {},
        "local_roles": local_roles,
        "ordering": ordering,
    });
    writer.json(&format!("{CONTENT_DIR}/__metadata__.json"), &file)?;
    Ok(written)
}

/// `relations.json`: every relation between objects out of the trash, by source path, name
/// and position; returns how many.
pub async fn write_relations(app: &App, writer: &Writer) -> Result<usize, ImportError> {
    let query = RelationQuery { limit: i64::MAX, ..RelationQuery::default() };
    let rows = app.store.find_relations(&query, &Visibility::ALL).await.map_err(database)?;
    let relations: Vec<Value> = rows
        .iter()
        .map(|r| json!({"from_attribute": r.field, "from_uuid": r.source_uid, "to_uuid": r.target_uid}))
        .collect();
    writer.json("relations.json", &Value::Array(relations.clone()))?;
    Ok(relations.len())
}

/// `redirects.json`: each old path and where it leads now, both as the site's physical paths
/// (`/Plone/old` to `/Plone/new`), as Plone's redirection tool keeps them; returns how many.
pub async fn write_redirects(app: &App, writer: &Writer) -> Result<usize, ImportError> {
    let site_path = format!("/{}", app.settings.site_id);
    let mut redirects = Map::new();
    let page = 1000;
    loop {
        let query = AliasQuery { target: None, text: None };
        let start = i64::try_from(redirects.len()).unwrap_or(i64::MAX);
        let (aliases, total) = app.store.aliases(&site_path, query, start, page).await.map_err(database)?;
        let got = aliases.len();
        for alias in aliases {
            redirects.insert(alias.old_path, json!(alias.target_path));
        }
        if got == 0 || i64::try_from(redirects.len()).unwrap_or(i64::MAX) >= total {
            break;
        }
    }
    let count = redirects.len();
    writer.json("redirects.json", &Value::Object(redirects))?;
    Ok(count)
}

fn database(e: sqlx::Error) -> ImportError {
    ImportError::new("", format!("reading the site: {e}"))
}
