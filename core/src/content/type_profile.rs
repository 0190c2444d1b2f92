//! One content type as its profile declares it: fields, fieldsets, behaviours and what it
//! may hold, with the questions the rest of the server asks of it.

use super::fields::FieldDef;
use serde::{Deserialize, Serialize};

/// A content type.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TypeProfile {
    /// The portal type id, e.g. `Document`.
    pub id: String,
    /// The label shown to editors, e.g. `Page`.
    pub title: String,
    /// What the type is for, shown in Site Setup's type listing.
    #[serde(default)]
    pub description: String,
    /// Whether the type holds children.
    #[serde(default)]
    pub folderish: bool,
    /// Child types allowed; `None` allows every globally addable type.
    #[serde(default)]
    pub allowed_types: Option<Vec<String>>,
    /// Whether the type may be added anywhere that does not restrict children.
    #[serde(default = "yes")]
    pub global_allow: bool,
    /// Workflow chain; empty for types without workflow.
    #[serde(default)]
    pub workflow: Vec<String>,
    /// Behaviours such as `versioning` or `exclude_from_nav`.
    #[serde(default)]
    pub behaviours: Vec<String>,
    /// The default view name.
    #[serde(default = "default_layout")]
    pub layout: String,
    /// The fields, in form order.
    #[serde(default)]
    pub fields: Vec<FieldDef>,
    /// Form tabs of the type's own, beyond Plone's standard ones, each listing its fields.
    #[serde(default)]
    pub fieldsets: Vec<Fieldset>,
    /// Fields removed through the web, whose values objects keep until they are next saved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_fields: Vec<String>,
    /// When true, this profile adds fields to an existing type of the same id.
    #[serde(default)]
    pub extend: bool,
    /// Whether a site owner made the type (no profile defines it). Set when the edits are
    /// applied, never stored.
    #[serde(skip)]
    pub through_the_web: bool,
}

/// A form tab a type defines for some of its fields.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Fieldset {
    /// Its id, unique in the type.
    pub id: String,
    /// Its label.
    pub title: String,
    /// Help text.
    #[serde(default)]
    pub description: String,
    /// The names of its fields, in form order.
    #[serde(default)]
    pub fields: Vec<String>,
}

fn yes() -> bool {
    true
}

fn default_layout() -> String {
    "view".to_owned()
}

impl TypeProfile {
    /// The relation fields, whose values the relation index mirrors.
    pub fn relation_fields(&self) -> impl Iterator<Item = &FieldDef> {
        self.fields.iter().filter(|f| f.kind.is_relation())
    }

    /// A field by name.
    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether the type carries a behaviour.
    pub fn has_behaviour(&self, name: &str) -> bool {
        self.behaviours.iter().any(|b| b == name)
    }

    /// Whether objects of this type are navigation roots (Plone's `plone.navigationroot`):
    /// navigation, breadcrumbs and `@navroot` stop at the nearest one, as they stop at a
    /// multilingual site's language root folders.
    pub fn is_navigation_root(&self) -> bool {
        self.has_behaviour(NAVIGATION_ROOT) || self.has_behaviour(LANGUAGE_ROOT)
    }

    /// Whether objects of this type are layout blocks: parts of a block page, listed in its
    /// layout rather than its items, never shown in navigation.
    pub fn is_block(&self) -> bool {
        self.has_behaviour("block")
    }

    /// Whether objects of this type are block pages, with a layout of child blocks.
    pub fn has_blocks(&self) -> bool {
        self.has_behaviour("blocks")
    }

    /// Adds a field at the end of the form (values a removed field of its name left behind are
    /// its values again).
    pub fn add_field(&mut self, field: FieldDef) {
        self.removed_fields.retain(|removed| *removed != field.name);
        self.fields.push(field);
    }

    /// Removes a field from the form and its tab; objects keep its values until next saved.
    pub fn remove_field(&mut self, name: &str) {
        if self.field(name).is_none() {
            return;
        }
        self.fields.retain(|f| f.name != name);
        for fieldset in &mut self.fieldsets {
            fieldset.fields.retain(|f| f != name);
        }
        self.removed_fields.push(name.to_owned());
    }

    /// The type's own tab holding `field`, if one does.
    pub fn fieldset_of(&self, field: &str) -> Option<&Fieldset> {
        self.fieldsets.iter().find(|f| f.fields.iter().any(|name| name == field))
    }

    /// The first blob field, used when a download URL names no field.
    pub fn primary_blob_field(&self) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.kind.is_blob())
    }
}

/// The behaviour of navigation roots (see [`TypeProfile::is_navigation_root`]).
pub const NAVIGATION_ROOT: &str = "navigation_root";
/// The behaviour of a multilingual site's language root folders (`/de`, `/fr`): each is a
/// navigation root, and a site whose types include one is multilingual once it has two
/// languages.
pub const LANGUAGE_ROOT: &str = "language_root";
