//! A stored content object: catalog columns plus the remaining field values as JSON.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// One row of the `content` table.
#[derive(Clone, Debug, PartialEq)]
pub struct ContentObject {
    /// 32 lowercase hex characters, stable across moves.
    pub uid: String,
    /// The container's uid; `None` for a site root.
    pub parent_uid: Option<String>,
    /// Physical path including the site id, e.g. `/Plone/folder/doc`.
    pub path: String,
    /// The last path segment.
    pub id: String,
    /// The content type id.
    pub portal_type: String,
    /// Order among siblings.
    pub position: i64,
    /// Title (catalog column).
    pub title: String,
    /// Description (catalog column).
    pub description: String,
    /// Workflow state; `None` for types without workflow.
    pub review_state: Option<String>,
    /// Creation time.
    pub created: DateTime<Utc>,
    /// Last modification time.
    pub modified: DateTime<Utc>,
    /// Publication date.
    pub effective: Option<DateTime<Utc>>,
    /// Expiry date.
    pub expires: Option<DateTime<Utc>>,
    /// The user id of the creator.
    pub creator: String,
    /// The remaining field values; blob fields hold metadata only.
    pub fields: Map<String, Value>,
    /// Whether local roles from containers stop here (the sharing "inherit" switch off).
    pub block_local_roles: bool,
    /// When trashed: the uid of the object whose trashing hid this one.
    pub trash_root: Option<String>,
    /// When this is a working copy: the uid of its baseline.
    pub working_copy_of: Option<String>,
}

/// The field that holds an object's language code (Dublin Core's, as Plone names it).
pub const LANGUAGE_FIELD: &str = "language";

impl ContentObject {
    /// The site id this object lives in.
    pub fn site_id(&self) -> &str {
        self.path.trim_start_matches('/').split('/').next().unwrap_or_default()
    }

    /// The path below the site root, without a leading slash; empty for the root.
    pub fn relative_path(&self) -> &str {
        let site_len = self.site_id().len() + 1;
        self.path.get(site_len..).unwrap_or_default().trim_start_matches('/')
    }

    /// Whether the object is in the trash.
    pub fn is_trashed(&self) -> bool {
        self.trash_root.is_some()
    }

    /// Whether this object is a site root.
    pub fn is_site_root(&self) -> bool {
        self.parent_uid.is_none()
    }

    /// The object's language code (its `language` field); `None` for language-neutral content.
    pub fn language(&self) -> Option<&str> {
        self.fields.get(LANGUAGE_FIELD).and_then(Value::as_str).filter(|code| !code.is_empty())
    }

    /// The absolute URL under `base` (scheme and host, no trailing slash).
    pub fn url(&self, base: &str) -> String {
        let mut url = String::with_capacity(base.len() + self.path.len() * 2);
        url.push_str(base);
        for segment in self.path.split('/').filter(|s| !s.is_empty()) {
            url.push('/');
            url.extend(percent_encoding::utf8_percent_encode(segment, crate::api::PATH_SEGMENT));
        }
        url
    }
}
