//! Content types are data: TOML profiles embedded by core and plugins, plus integrators' own
//! from a directory, all validated at start-up so a typo fails loudly before serving. Site
//! owners' edits through the web are applied on top ([`super::type_edits`]).

use super::named_vocabularies;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub use super::fields::{FieldDef, FieldKind, FieldKindDef};

pub use super::type_profile::{Fieldset, LANGUAGE_ROOT, NAVIGATION_ROOT, TypeProfile};

/// A behaviour a plugin attaches to a type that may be another plugin's.
#[derive(Debug)]
pub struct TypeBehaviour {
    /// The type's id.
    pub portal_type: &'static str,
    /// The behaviour's name.
    pub behaviour: &'static str,
}

/// All content types known to this server, frozen after start-up.
#[derive(Clone, Debug, Default)]
pub struct TypeRegistry {
    types: BTreeMap<String, Arc<TypeProfile>>,
    plugin_kinds: Vec<&'static FieldKindDef>,
    /// The plugin that defined each type (not those only extending one).
    defined_by: BTreeMap<String, &'static str>,
}

/// Why a set of profiles was refused at start-up.
#[derive(Debug, thiserror::Error)]
pub enum TypeError {
    /// A profile is not valid TOML or has unknown keys.
    #[error("content type profile {source_name}: {message}")]
    Parse {
        /// Where the profile came from.
        source_name: String,
        /// The parser's explanation.
        message: String,
    },
    /// The profile set is inconsistent.
    #[error("content type profile {source_name}: {message}")]
    Invalid {
        /// Where the profile came from.
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// The types directory could not be read.
    #[error("types directory {0}: {1}")]
    Io(String, std::io::Error),
}

impl TypeRegistry {
    /// An empty registry whose profiles may also use the plugins' field kinds.
    pub fn with_field_kinds(plugin_kinds: Vec<&'static FieldKindDef>) -> TypeRegistry {
        TypeRegistry { types: BTreeMap::new(), plugin_kinds, defined_by: BTreeMap::new() }
    }

    /// The kind a profile names: one of core's, or a plugin's.
    fn resolve_kind(&self, name: &str) -> Option<FieldKind> {
        FieldKind::core(name)
            .or_else(|| self.plugin_kinds.iter().find(|k| k.name == name).map(|k| FieldKind::Plugin(k)))
    }

    /// Adds a plugin's profile, remembering which plugin defines the type.
    pub fn add_plugin_toml(&mut self, plugin: &'static str, text: &str) -> Result<(), TypeError> {
        let known: Vec<String> = self.types.keys().cloned().collect();
        self.add_toml(&format!("plugin {plugin}"), text)?;
        for id in self.types.keys().filter(|id| !known.contains(id)) {
            self.defined_by.insert(id.clone(), plugin);
        }
        Ok(())
    }

    /// The plugin that defined the type `id` (none for types from `--types-dir`).
    pub fn defined_by(&self, id: &str) -> Option<&'static str> {
        self.defined_by.get(id).copied()
    }

    /// Parses and adds one profile; `source_name` names it in errors.
    pub fn add_toml(&mut self, source_name: &str, text: &str) -> Result<(), TypeError> {
        let profile: TypeProfile = toml::from_str(text)
            .map_err(|e| TypeError::Parse { source_name: source_name.to_owned(), message: e.to_string() })?;
        self.add(source_name, profile)
    }

    /// Resolves the kinds of `profile`'s fields, compiles their patterns and checks them.
    pub(crate) fn prepare(&self, profile: &mut TypeProfile) -> Result<(), String> {
        for field in &mut profile.fields {
            field.kind = self
                .resolve_kind(&field.kind_name)
                .ok_or_else(|| format!("field '{}' has unknown kind '{}'", field.name, field.kind_name))?;
        }
        validate_fields(profile)?;
        compile_patterns(profile)
    }

    /// Puts a whole profile in place of the type of its id, or adds it.
    pub(crate) fn replace(&mut self, profile: TypeProfile) {
        self.types.insert(profile.id.clone(), Arc::new(profile));
    }

    fn add(&mut self, source_name: &str, mut profile: TypeProfile) -> Result<(), TypeError> {
        let invalid = |message: String| TypeError::Invalid { source_name: source_name.to_owned(), message };
        self.prepare(&mut profile).map_err(invalid)?;
        // A profile's choice without choices is a slip; a site owner fills one in later.
        if let Some(field) = profile.fields.iter().find(|f| f.kind == FieldKind::Choice && f.vocabulary.is_empty()) {
            return Err(invalid(format!("Choice field '{}' needs a vocabulary", field.name)));
        }
        let misnamed = |f: &&FieldDef| {
            f.vocabulary_name
                .as_deref()
                .is_some_and(|name| f.kind != FieldKind::List || named_vocabularies::terms(name).is_none())
        };
        if let Some(field) = profile.fields.iter().find(misnamed) {
            return Err(invalid(format!(
                "field '{}' names vocabulary '{}', which is no list vocabulary core has",
                field.name,
                field.vocabulary_name.as_deref().unwrap_or_default()
            )));
        }
        match (self.types.get_mut(&profile.id), profile.extend) {
            (Some(existing), true) => {
                let existing = Arc::make_mut(existing);
                for field in profile.fields {
                    match existing.fields.iter_mut().find(|f| f.name == field.name) {
                        Some(slot) => *slot = field,
                        None => existing.fields.push(field),
                    }
                }
                existing.behaviours.extend(profile.behaviours);
                if let Some(allowed) = profile.allowed_types {
                    existing.allowed_types = Some(allowed);
                }
                Ok(())
            }
            (None, true) => Err(invalid(format!("extends unknown type '{}'", profile.id))),
            (Some(_), false) => Err(invalid(format!(
                "type '{}' is already defined; set `extend = true` to add fields to it",
                profile.id
            ))),
            (None, false) => {
                self.types.insert(profile.id.clone(), Arc::new(profile));
                Ok(())
            }
        }
    }

    /// Gives the type `attached.portal_type` the behaviour, once; `plugin` names the attaching
    /// plugin in the error when no such type is registered.
    pub fn attach(&mut self, plugin: &str, attached: &TypeBehaviour) -> Result<(), TypeError> {
        let profile = self.types.get_mut(attached.portal_type).ok_or_else(|| TypeError::Invalid {
            source_name: format!("plugin {plugin}"),
            message: format!("gives behaviour '{}' to unknown type '{}'", attached.behaviour, attached.portal_type),
        })?;
        if !profile.has_behaviour(attached.behaviour) {
            Arc::make_mut(profile).behaviours.push(attached.behaviour.to_owned());
        }
        Ok(())
    }

    /// Loads every `*.toml` file of a directory, in name order.
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), TypeError> {
        let io = |e| TypeError::Io(dir.display().to_string(), e);
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(io)?;
            self.add_toml(&file.display().to_string(), &text)?;
        }
        Ok(())
    }

    /// Checks cross-references once every profile is in.
    pub fn check_references(&self, workflows: &crate::workflow::WorkflowRegistry) -> Result<(), TypeError> {
        for profile in self.types.values() {
            for workflow in &profile.workflow {
                if workflows.get(workflow).is_none() {
                    return Err(TypeError::Invalid {
                        source_name: profile.id.clone(),
                        message: format!("workflow chain names unknown workflow '{workflow}'"),
                    });
                }
            }
            for target in profile.fields.iter().flat_map(|f| &f.target_types) {
                if !self.types.contains_key(target) {
                    return Err(TypeError::Invalid {
                        source_name: profile.id.clone(),
                        message: format!("target_types names unknown type '{target}'"),
                    });
                }
            }
            for child in profile.allowed_types.iter().flatten() {
                if !self.types.contains_key(child) {
                    return Err(TypeError::Invalid {
                        source_name: profile.id.clone(),
                        message: format!("allowed_types names unknown type '{child}'"),
                    });
                }
            }
        }
        Ok(())
    }

    /// A type by id.
    pub fn get(&self, id: &str) -> Option<&Arc<TypeProfile>> {
        self.types.get(id)
    }

    /// Every type, sorted by id.
    pub fn all(&self) -> impl Iterator<Item = &TypeProfile> {
        self.types.values().map(|t| t.as_ref())
    }

    /// Every type, sorted by id, as shared handles that outlive the registry.
    pub fn all_shared(&self) -> impl Iterator<Item = Arc<TypeProfile>> + '_ {
        self.types.values().cloned()
    }

    /// The ids of every block type, sorted; listings, navigation and search leave them out.
    pub fn block_types(&self) -> Vec<String> {
        self.types.values().filter(|t| t.is_block()).map(|t| t.id.clone()).collect()
    }

    /// Whether objects of `portal_type` are layout blocks (unknown types are not).
    pub fn is_block_type(&self, portal_type: &str) -> bool {
        self.types.get(portal_type).is_some_and(|t| t.is_block())
    }

    /// Whether `container` accepts a child of type `child`.
    pub fn allows_child_of(container: &TypeProfile, child: &TypeProfile) -> bool {
        container.folderish
            && match &container.allowed_types {
                Some(allowed) => allowed.contains(&child.id),
                None => child.global_allow,
            }
    }
}

/// Compiles every field's `pattern`, anchored so it must match the whole value.
fn compile_patterns(profile: &mut TypeProfile) -> Result<(), String> {
    for field in &mut profile.fields {
        if let Some(pattern) = &field.pattern {
            if !matches!(field.kind, FieldKind::TextLine | FieldKind::Text | FieldKind::URI) {
                return Err(format!("field '{}' has a pattern but is no text or URI field", field.name));
            }
            let anchored = format!("^(?:{pattern})$");
            let compiled = regex::Regex::new(&anchored)
                .map_err(|e| format!("field '{}' has an invalid pattern: {e}", field.name))?;
            field.compiled_pattern = Some(compiled);
        }
    }
    Ok(())
}

const RESERVED_FIELDS: [&str; 8] = ["id", "UID", "@type", "@id", "created", "modified", "review_state", "parent"];

fn validate_fields(profile: &TypeProfile) -> Result<(), String> {
    if profile.id.is_empty() || profile.id.starts_with('@') {
        return Err(format!("invalid type id '{}'", profile.id));
    }
    let mut seen = std::collections::HashSet::new();
    for field in &profile.fields {
        if !seen.insert(field.name.as_str()) {
            return Err(format!("field '{}' is declared twice", field.name));
        }
        if RESERVED_FIELDS.contains(&field.name.as_str()) || field.name.is_empty() {
            return Err(format!("field name '{}' is reserved", field.name));
        }
        if !field.target_types.is_empty() && !field.kind.is_relation() {
            return Err(format!("field '{}' has target_types but is no relation field", field.name));
        }
    }
    for fieldset in &profile.fieldsets {
        if let Some(unknown) = fieldset.fields.iter().find(|name| profile.field(name).is_none()) {
            return Err(format!("fieldset '{}' lists unknown field '{unknown}'", fieldset.id));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_behaviour_is_attached_once_and_only_to_a_known_type() {
        let mut types = TypeRegistry::default();
        let added = types.add_toml("test", "id = \"Document\"\ntitle = \"Page\"\nbehaviours = [\"blocks\"]\n");
        assert!(added.is_ok(), "{added:?}");
        let versioned = TypeBehaviour { portal_type: "Document", behaviour: "versioning" };
        for _ in 0..2 {
            assert!(types.attach("versioning", &versioned).is_ok());
        }
        let behaviours = types.get("Document").map(|p| p.behaviours.clone()).unwrap_or_default();
        assert_eq!(behaviours, ["blocks", "versioning"]);
        let unknown = TypeBehaviour { portal_type: "Event", behaviour: "versioning" };
        let refused = types.attach("versioning", &unknown).map_err(|e| e.to_string());
        assert_eq!(
            refused,
            Err("content type profile plugin versioning: gives behaviour 'versioning' to unknown type 'Event'".into())
        );
    }
}
