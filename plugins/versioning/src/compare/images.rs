//! The files behind inline images: an `img` whose `src` is a `resolveuid` link is the image
//! object that link names, and it is the same image in the version and now when that
//! object's stored file has the same name and size.
//!
//! Objects frozen with the version (a gallery's images) answer for the version's side; the
//! rest is looked up as it is now, all in one query. An image object whose file was replaced
//! since the version therefore counts as unchanged unless it belongs to the page: the site
//! keeps no history of other objects.

use super::html::{ImageFile, Side};
use crate::snapshot::{FrozenObject, Snapshot};
use serde_json::Value;
use std::collections::HashMap;
use wcs_core::app::App;
use wcs_core::content::FieldKind;
use wcs_core::content::links::linked_uids;
use wcs_core::http::ApiResult;

/// At most this many linked objects are looked up per comparison; images beyond it are
/// compared by `src`.
const MAX_LOOKED_UP: usize = 500;

/// The image files each side's inline images name.
#[derive(Default)]
pub struct ImageFiles {
    version: HashMap<String, ImageFile>,
    current: HashMap<String, ImageFile>,
}

impl ImageFiles {
    /// Finds the files of every object the rich text of either side links to.
    pub async fn load(app: &App, old: &Snapshot, new: &Snapshot) -> ApiResult<ImageFiles> {
        let mut uids: Vec<String> = old.objects.iter().chain(&new.objects).flat_map(rich_text_links).collect();
        uids.sort_unstable();
        uids.dedup();
        uids.truncate(MAX_LOOKED_UP);
        let mut current: HashMap<String, ImageFile> = HashMap::new();
        if !uids.is_empty() {
            for object in app.store.content_by_uids(&uids).await? {
                if let Some(file) = image_file(app, &object.portal_type, &object.fields) {
                    current.insert(object.uid.clone(), file);
                }
            }
        }
        let mut version = current.clone();
        for (side, snapshot) in [(&mut version, old), (&mut current, new)] {
            for part in &snapshot.objects {
                if let Some(file) = image_file(app, &part.portal_type, &part.fields) {
                    side.insert(part.uid.clone(), file);
                }
            }
        }
        Ok(ImageFiles { version, current })
    }

    /// The file of image object `uid` on one side.
    pub fn file(&self, side: Side, uid: &str) -> Option<ImageFile> {
        match side {
            Side::Version => self.version.get(uid),
            Side::Current => self.current.get(uid),
        }
        .cloned()
    }
}

/// The uids an object's rich-text fields link to.
fn rich_text_links(object: &FrozenObject) -> Vec<String> {
    object.fields.values().filter_map(|v| v.get("data").and_then(Value::as_str)).flat_map(linked_uids).collect()
}

/// The stored file of an object's first image field.
fn image_file(app: &App, portal_type: &str, fields: &serde_json::Map<String, Value>) -> Option<ImageFile> {
    let profile = app.types.get(portal_type)?;
    let field = profile.fields.iter().find(|f| f.kind == FieldKind::Image)?;
    let value = fields.get(&field.name)?;
    Some(ImageFile {
        filename: value.get("filename").and_then(Value::as_str)?.to_owned(),
        size: value.get("size").and_then(Value::as_i64)?,
    })
}
