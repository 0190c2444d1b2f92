//! The frozen state of a page: the object and everything that belongs to it (its blocks and
//! their files or images), with fields as stored, so links and layout keep their uids.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult};

/// The snapshot format written now; older formats are read by migrating them here.
const FORMAT: u32 = 1;

/// A page as it was: `objects[0]` is the page, the rest its blocks and their contents,
/// parents before children.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// The format version of this JSON.
    pub format: u32,
    /// The page first, then what belongs to it.
    pub objects: Vec<FrozenObject>,
}

/// One object as it was.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FrozenObject {
    /// Its uid then; a block deleted since is re-created under a new one.
    pub uid: String,
    /// Its container's uid then.
    pub parent_uid: Option<String>,
    /// Its id then.
    pub id: String,
    /// Its type.
    pub portal_type: String,
    /// Its order among siblings.
    pub position: i64,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Publication date.
    pub effective: Option<DateTime<Utc>>,
    /// Expiry date.
    pub expires: Option<DateTime<Utc>>,
    /// The stored field values (blob fields hold metadata; the bytes are kept by the store).
    pub fields: Map<String, Value>,
}

/// Whether a stored field is internal bookkeeping (working-copy origins, restored copies)
/// rather than content; those are never frozen or restored.
pub fn is_bookkeeping(field: &str) -> bool {
    field.starts_with('_')
}

impl Snapshot {
    /// Freezes `part` (the page first, as `page_part` returns it).
    pub fn of(part: &[ContentObject]) -> Snapshot {
        let objects = part
            .iter()
            .map(|o| FrozenObject {
                uid: o.uid.clone(),
                parent_uid: o.parent_uid.clone(),
                id: o.id.clone(),
                portal_type: o.portal_type.clone(),
                position: o.position,
                title: o.title.clone(),
                description: o.description.clone(),
                effective: o.effective,
                expires: o.expires,
                fields: o
                    .fields
                    .iter()
                    .filter(|(k, _)| !is_bookkeeping(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            })
            .collect();
        Snapshot { format: FORMAT, objects }
    }

    /// Reads stored snapshot JSON; a damaged one is a server-side fault, never a panic.
    pub fn parse(text: &str) -> ApiResult<Snapshot> {
        let snapshot: Snapshot =
            serde_json::from_str(text).map_err(|e| ApiError::internal(format!("stored version is damaged: {e}")))?;
        if snapshot.objects.is_empty() {
            return Err(ApiError::internal("stored version has no object"));
        }
        Ok(snapshot)
    }

    /// The JSON to store.
    pub fn to_json(&self) -> ApiResult<String> {
        serde_json::to_string(self).map_err(ApiError::internal)
    }

    /// The page as it was.
    pub fn page(&self) -> ApiResult<&FrozenObject> {
        self.objects.first().ok_or_else(|| ApiError::internal("stored version has no object"))
    }

    /// The page's blocks and their contents as they were.
    pub fn parts(&self) -> &[FrozenObject] {
        self.objects.get(1..).unwrap_or_default()
    }
}

impl FrozenObject {
    /// This frozen state as a content object at `live`'s place: what serializers and
    /// renderers take. Identity, place and workflow state come from `live`.
    pub fn onto(&self, live: &ContentObject) -> ContentObject {
        let mut object = live.clone();
        object.title = self.title.clone();
        object.description = self.description.clone();
        object.effective = self.effective;
        object.expires = self.expires;
        object.fields = self.fields.clone();
        object
    }

    /// A stand-in content object for a frozen part under `page` (for rendering a block that
    /// may no longer exist).
    pub fn standalone(&self, page: &ContentObject) -> ContentObject {
        let mut object = self.onto(page);
        object.uid = self.uid.clone();
        object.parent_uid = self.parent_uid.clone();
        object.id = self.id.clone();
        object.path = format!("{}/{}", page.path, self.id);
        object.portal_type = self.portal_type.clone();
        object.position = self.position;
        object.review_state = None;
        object.working_copy_of = None;
        object
    }
}
