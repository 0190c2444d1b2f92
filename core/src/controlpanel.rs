//! Control panels: named groups of settings that Volto's "Site Setup" renders as forms
//! (`@controlpanels`). A panel shows registry records (and, for the site panel, the site
//! title) under form field names; plugins register the panels of the records they declare,
//! so a panel exists exactly when what it configures does.

use crate::records::RecordDef;
use crate::site::Site;
use serde_json::{Map, Value, json};

/// A control panel.
pub struct ControlPanelDef {
    /// The URL segment: `@controlpanels/<id>`.
    pub id: &'static str,
    /// The heading.
    pub title: &'static str,
    /// Where Site Setup lists it (`General`, `Content`, `Security`, `Users`, `Add-on Configuration`).
    pub group: &'static str,
    /// The form's fields, in order.
    pub fields: &'static [PanelField],
    /// Read-only entries the panel lists instead of (or besides) a form, such as the content
    /// types; given the site URL.
    pub items: Option<fn(&Site, &str) -> Vec<Value>>,
}

/// One field of a panel's form.
pub struct PanelField {
    /// The key in the panel's `data` and `schema`.
    pub name: &'static str,
    /// Where the value lives.
    pub source: PanelSource,
    /// A widget for Volto's form (`textarea` for multi-line text), when the value's kind alone
    /// does not say it.
    pub widget: Option<&'static str>,
}

/// Where a panel field's value is read from and written to.
#[derive(Clone, Copy)]
pub enum PanelSource {
    /// A registry record, validated by its kind.
    Record(&'static RecordDef),
    /// The site root's title.
    SiteTitle,
}

impl ControlPanelDef {
    /// The JSON Schema of the form, in plone.restapi's shape.
    pub fn schema(&self) -> Value {
        let mut properties = Map::new();
        for field in self.fields {
            properties.insert(field.name.to_owned(), field.schema());
        }
        let names: Vec<&str> = self.fields.iter().map(|f| f.name).collect();
        json!({
            "type": "object",
            "fieldsets": [{"id": "default", "title": "Default", "behavior": "plone", "fields": names}],
            "properties": properties,
            "required": [],
        })
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&PanelField> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// What Site Setup's filter matches the panel by, as plone.restapi lists it: its title,
    /// its group and its fields' labels.
    pub fn searchable_text(&self) -> Vec<String> {
        let labels = self.fields.iter().map(|f| match f.source {
            PanelSource::Record(record) => record.title,
            PanelSource::SiteTitle => SITE_TITLE_LABEL,
        });
        [self.title, self.group].into_iter().chain(labels).map(str::to_owned).collect()
    }
}

/// The label of the site title's field.
const SITE_TITLE_LABEL: &str = "Site title";

/// The order Site Setup lists groups in, as Plone's overview does; others come after.
pub const GROUP_ORDER: [&str; 5] = ["General", "Content", "Users", "Security", "Add-on Configuration"];

impl PanelField {
    fn schema(&self) -> Value {
        let mut schema = self.source_schema();
        if let Some(widget) = self.widget {
            schema["widget"] = json!(widget);
        }
        schema
    }

    fn source_schema(&self) -> Value {
        match self.source {
            PanelSource::Record(record) => {
                let (kind, factory) = record.kind.schema_type();
                let mut schema = json!({
                    "type": kind,
                    "title": record.title,
                    "description": record.description,
                    "factory": factory,
                    "default": (record.default)(),
                });
                if kind == "array" {
                    schema["items"] = json!({"type": "string", "title": ""});
                }
                if kind == "object" {
                    schema["widget"] = json!("json");
                }
                if record.kind == crate::records::RecordKind::Secret {
                    schema["widget"] = json!("password");
                }
                schema
            }
            PanelSource::SiteTitle => json!({
                "type": "string",
                "title": SITE_TITLE_LABEL,
                "description": "The name of the site, shown in the header and in browser tabs.",
                "factory": "Text line (String)",
            }),
        }
    }
}
