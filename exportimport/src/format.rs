//! The files of a plone.exportimport export, as its exporters write them (plone.exportimport's
//! `exporters/` and `utils/`); keys it may leave out are optional here too.

use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The export format version this importer reads.
pub const FORMAT_VERSION: &str = "1.0.0";

/// The directory name plone.exportimport gives the site root instead of its uid.
pub const SITE_ROOT_KEY: &str = "plone_site_root";

/// What stands for the old site's default language in `language`.
pub const DEFAULT_LANGUAGE_PLACEHOLDER: &str = "##DEFAULT##";

/// `content/__metadata__.json`: the data files in path order and what applies across objects,
/// by uid (the site root's key is [`SITE_ROOT_KEY`]).
#[derive(Debug, Deserialize)]
pub struct Metadata {
    /// The format version.
    #[serde(rename = "__version__")]
    pub version: String,
    /// Every object's `data.json`, relative to `content/`, parents first.
    #[serde(rename = "_data_files_")]
    pub data_files: Vec<String>,
    /// A folder's default page.
    #[serde(default)]
    pub default_page: HashMap<String, DefaultPage>,
    /// An object's own local roles and whether it blocks those of its containers.
    #[serde(default)]
    pub local_roles: HashMap<String, LocalRoles>,
    /// An object's position among its siblings (Zope positions, with gaps).
    #[serde(default)]
    pub ordering: HashMap<String, i64>,
    /// Permissions set on single objects, which this server does not have (reported).
    #[serde(default)]
    pub local_permissions: Map<String, Value>,
}

/// A folder's default page.
#[derive(Debug, Deserialize)]
pub struct DefaultPage {
    /// The child's id.
    pub default_page: String,
}

/// An object's local roles.
#[derive(Debug, Default, Deserialize)]
pub struct LocalRoles {
    /// Roles by principal id.
    #[serde(default)]
    pub local_roles: BTreeMap<String, Vec<String>>,
    /// Set (to 1) when the object does not acquire its containers' local roles.
    #[serde(default)]
    pub block: Option<Value>,
}

impl LocalRoles {
    /// Whether the object blocks its containers' local roles.
    pub fn blocks(&self) -> bool {
        matches!(&self.block, Some(Value::Bool(true)))
            || self.block.as_ref().and_then(Value::as_i64).is_some_and(|b| b != 0)
    }
}

/// `principals.json`.
#[derive(Debug, Default, Deserialize)]
pub struct Principals {
    /// Groups, with their global roles and direct members.
    #[serde(default)]
    pub groups: Vec<Group>,
    /// Users, with their password hashes as Zope stored them.
    #[serde(default)]
    pub members: Vec<Member>,
}

/// A group.
#[derive(Debug, Deserialize)]
pub struct Group {
    /// Its id.
    pub groupid: String,
    /// Its title.
    #[serde(default)]
    pub title: Option<String>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// Its address.
    #[serde(default)]
    pub email: Option<String>,
    /// Its global roles.
    #[serde(default)]
    pub roles: Vec<String>,
    /// Its direct members (users and groups).
    #[serde(default)]
    pub principals: Vec<String>,
}

/// A user.
#[derive(Debug, Deserialize)]
pub struct Member {
    /// The user id, which is also the login name.
    pub username: String,
    /// The stored hash (`{SSHA}…`), or clear text, or nothing.
    #[serde(default)]
    pub password: Option<String>,
    /// E-mail address.
    #[serde(default)]
    pub email: Option<String>,
    /// Full name.
    #[serde(default)]
    pub fullname: Option<String>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// Where the user is.
    #[serde(default)]
    pub location: Option<String>,
    /// A URL.
    #[serde(default)]
    pub home_page: Option<String>,
    /// Global roles given directly.
    #[serde(default)]
    pub roles: Vec<String>,
    /// Groups the user is a direct member of.
    #[serde(default)]
    pub groups: Vec<String>,
}

/// One entry of `relations.json`.
#[derive(Debug, Deserialize)]
pub struct Relation {
    /// The field (or the relation's name, `isReferencing` for links in text).
    pub from_attribute: String,
    /// The source.
    pub from_uuid: String,
    /// The target.
    pub to_uuid: String,
}
