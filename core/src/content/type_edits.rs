//! Content types as site owners edit them through the web (`@types`, Site Setup's Content
//! Types panel). Each edited type is stored as a whole profile; the live registry is the
//! profiles' registry with the edits applied, rebuilt whenever the stored edits change.
//!
//! A type made through the web is taken as stored. An edit of a profile type (one from a TOML
//! profile) is merged with the profile as it is now, so a profile that changes later still
//! counts: the profile decides what code relies on (its fields' kinds, whether it is folderish,
//! its workflow, its behaviours, which the edit may only add to), the edit decides the rest
//! (titles, help texts, field order and tabs, limits, defaults, added fields, allowed types).

use super::{FieldDef, TypeProfile, TypeRegistry};
use serde::{Deserialize, Serialize};

/// One stored edit.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TypeEdit {
    /// Whether the type was made through the web (and may therefore be deleted).
    pub created: bool,
    /// The type as last saved.
    pub profile: TypeProfile,
}

/// The registry `base` with `edits` applied, and a line for each edit that could not be (a
/// stored edit a changed profile no longer fits is left out and logged; it never stops the
/// server).
pub fn apply(base: &TypeRegistry, edits: &[TypeEdit]) -> (TypeRegistry, Vec<String>) {
    let mut registry = base.clone();
    let mut problems = Vec::new();
    for edit in edits {
        let merged = match (base.get(&edit.profile.id), edit.created) {
            (Some(_), true) => Err("a profile now defines a type of the same id".to_owned()),
            (None, false) => Err("its profile type is no longer defined".to_owned()),
            (Some(profile), false) => Ok(merge(profile, &edit.profile)),
            (None, true) => Ok(made_through_the_web(&edit.profile)),
        };
        let prepared = merged.and_then(|mut profile| registry.prepare(&mut profile).map(|()| profile));
        match prepared {
            Ok(profile) => registry.replace(profile),
            Err(problem) => problems.push(format!("type '{}' as edited through the web: {problem}", edit.profile.id)),
        }
    }
    for profile in registry.all().map(|p| p.id.clone()).collect::<Vec<_>>() {
        if let Some(dangling) = dangling_reference(&registry, &profile) {
            problems.push(format!("type '{profile}': {dangling}; the reference is dropped"));
            drop_dangling(&mut registry, &profile);
        }
    }
    (registry, problems)
}

/// The profile `base` with `edited`'s changes: see the module's documentation.
pub fn merge(base: &TypeProfile, edited: &TypeProfile) -> TypeProfile {
    let mut fields: Vec<FieldDef> = edited
        .fields
        .iter()
        .map(|field| match base.field(&field.name) {
            Some(own) => FieldDef { kind_name: own.kind_name.clone(), through_the_web: false, ..field.clone() },
            None => FieldDef { through_the_web: true, ..field.clone() },
        })
        .collect();
    fields.extend(base.fields.iter().filter(|f| edited.field(&f.name).is_none()).cloned());
    let mut behaviours = base.behaviours.clone();
    behaviours.extend(edited.behaviours.iter().filter(|b| !base.has_behaviour(b)).cloned());
    TypeProfile {
        id: base.id.clone(),
        title: edited.title.clone(),
        description: edited.description.clone(),
        folderish: base.folderish,
        allowed_types: edited.allowed_types.clone(),
        global_allow: edited.global_allow,
        workflow: base.workflow.clone(),
        behaviours,
        layout: edited.layout.clone(),
        fields,
        fieldsets: edited.fieldsets.clone(),
        removed_fields: edited.removed_fields.clone(),
        extend: false,
        through_the_web: false,
    }
}

/// A type made through the web, marked so with every field.
pub fn made_through_the_web(profile: &TypeProfile) -> TypeProfile {
    let mut profile = profile.clone();
    profile.through_the_web = true;
    for field in &mut profile.fields {
        field.through_the_web = true;
    }
    profile
}

/// A type another one names (an allowed child, a relation's target) that no longer exists.
fn dangling_reference(registry: &TypeRegistry, id: &str) -> Option<String> {
    let profile = registry.get(id)?;
    let named = profile.allowed_types.iter().flatten().chain(profile.fields.iter().flat_map(|f| &f.target_types));
    named.into_iter().find(|t| registry.get(t).is_none()).map(|t| format!("names unknown type '{t}'"))
}

fn drop_dangling(registry: &mut TypeRegistry, id: &str) {
    let Some(profile) = registry.get(id) else { return };
    let mut profile = TypeProfile::clone(profile);
    let known = |t: &String| registry.get(t).is_some();
    if let Some(allowed) = &mut profile.allowed_types {
        allowed.retain(known);
    }
    for field in &mut profile.fields {
        field.target_types.retain(known);
    }
    registry.replace(profile);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> TypeRegistry {
        let mut types = TypeRegistry::default();
        let text =
            "id = \"Document\"\ntitle = \"Page\"\nworkflow = []\n\n[[fields]]\nname = \"title\"\nkind = \"TextLine\"\n";
        assert!(types.add_toml("test", text).is_ok());
        types
    }

    #[test]
    fn an_edit_keeps_the_profile_s_kinds_and_adds_its_own_fields() {
        let base = base();
        let mut edited = TypeProfile::clone(base.get("Document").map(AsRef::as_ref).unwrap_or_else(|| unreachable!()));
        edited.title = "Seite".into();
        edited.fields[0].kind_name = "Int".into();
        edited.fields.push(FieldDef::named("author_email", "TextLine"));
        let (registry, problems) = apply(&base, &[TypeEdit { created: false, profile: edited }]);
        assert!(problems.is_empty(), "{problems:?}");
        let document = registry.get("Document").map(|p| (p.title.clone(), p.fields.len(), p.fields[0].kind));
        assert_eq!(document, Some(("Seite".into(), 2, crate::content::FieldKind::TextLine)));
    }

    #[test]
    fn a_created_type_colliding_with_a_profile_type_is_left_out() {
        let base = base();
        let profile = TypeProfile::clone(base.get("Document").map(AsRef::as_ref).unwrap_or_else(|| unreachable!()));
        let (registry, problems) = apply(&base, &[TypeEdit { created: true, profile }]);
        assert_eq!(problems.len(), 1);
        assert_eq!(registry.get("Document").map(|p| p.title.clone()), Some("Page".into()));
    }
}
