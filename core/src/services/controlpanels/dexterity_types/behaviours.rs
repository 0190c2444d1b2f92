//! The behaviours Site Setup's Content Types panel switches on and off (Plone's names), and
//! what each gives a type here: fields, and the behaviour core and plugins look for.

use crate::content::{FieldDef, TypeProfile};

/// A behaviour of the panel.
pub struct Behaviour {
    /// Plone's name, the key of the panel's form.
    pub name: &'static str,
    /// Its label.
    pub title: &'static str,
    /// The behaviour core and plugins know it by, if they do.
    pub marks: Option<&'static str>,
    /// Its fields: name, kind and label.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
}

const fn behaviour(
    name: &'static str,
    title: &'static str,
    marks: Option<&'static str>,
    fields: &'static [(&'static str, &'static str, &'static str)],
) -> Behaviour {
    Behaviour { name, title, marks, fields }
}

const TITLE: (&str, &str, &str) = ("title", "TextLine", "Title");
const DESCRIPTION: (&str, &str, &str) = ("description", "Text", "Summary");
const SUBJECTS: (&str, &str, &str) = ("subjects", "List", "Tags");
const LANGUAGE: (&str, &str, &str) = ("language", "TextLine", "Language");
const EFFECTIVE: (&str, &str, &str) = ("effective", "Datetime", "Publishing date");
const EXPIRES: (&str, &str, &str) = ("expires", "Datetime", "Expiration date");
const RIGHTS: (&str, &str, &str) = ("rights", "Text", "Rights");

/// Every behaviour the panel offers, in its order.
pub const BEHAVIOURS: [Behaviour; 24] = [
    behaviour("plone.allowdiscussion", "Allow discussion", None, &[]),
    behaviour("plone.basic", "Basic metadata", None, &[TITLE, DESCRIPTION]),
    behaviour(
        "volto.blocks",
        "Blocks",
        None,
        &[("blocks", "Blocks", "Blocks"), ("blocks_layout", "BlocksLayout", "Blocks Layout")],
    ),
    behaviour("volto.blocks.editable.layout", "Blocks (editable layout)", None, &[]),
    behaviour("plone.categorization", "Categorization", None, &[SUBJECTS, LANGUAGE]),
    behaviour("plone.collection", "Collection", None, &[]),
    behaviour("plone.publication", "Date range", None, &[EFFECTIVE, EXPIRES]),
    behaviour(
        "plone.dublincore",
        "Dublin Core metadata",
        None,
        &[TITLE, DESCRIPTION, SUBJECTS, LANGUAGE, EFFECTIVE, EXPIRES, RIGHTS],
    ),
    behaviour(
        "plone.eventbasic",
        "Event basic",
        None,
        &[
            ("start", "Datetime", "Event Starts"),
            ("end", "Datetime", "Event Ends"),
            ("whole_day", "Bool", "Whole Day"),
            ("open_end", "Bool", "Open End"),
        ],
    ),
    behaviour("plone.eventlocation", "Event location", None, &[("location", "TextLine", "Location")]),
    behaviour(
        "plone.eventcontact",
        "Event contact",
        None,
        &[
            ("contact_name", "TextLine", "Contact Name"),
            ("contact_email", "TextLine", "Contact E-mail"),
            ("contact_phone", "TextLine", "Contact Phone"),
            ("event_url", "URI", "Event URL"),
        ],
    ),
    behaviour("plone.eventattendees", "Event attendees", None, &[("attendees", "List", "Attendees")]),
    behaviour("plone.eventrecurrence", "Event recurrence", None, &[("recurrence", "Text", "Recurrence")]),
    behaviour(
        "plone.excludefromnavigation",
        "Exclude from navigation",
        Some("exclude_from_nav"),
        &[("exclude_from_nav", "Bool", "Exclude from navigation")],
    ),
    behaviour(
        "plone.leadimage",
        "Lead image",
        None,
        &[("image", "Image", "Lead image"), ("image_caption", "TextLine", "Lead image caption")],
    ),
    behaviour("plone.locking", "Locking", None, &[]),
    behaviour("plone.namefromtitle", "Name from title", None, &[]),
    behaviour("plone.navigationroot", "Navigation root", None, &[]),
    behaviour("plone.ownership", "Ownership", None, &[RIGHTS]),
    behaviour("plone.relateditems", "Related items", None, &[("relatedItems", "RelationList", "Related items")]),
    behaviour("plone.richtext", "Rich text", None, &[("text", "RichText", "Text")]),
    behaviour("plone.shortname", "Short name", None, &[]),
    behaviour(
        "plone.tableofcontents",
        "Table of contents",
        None,
        &[("table_of_contents", "Bool", "Table of contents")],
    ),
    behaviour(
        "plone.versioning",
        "Versioning",
        Some("versioning"),
        &[("changeNote", "TextLine", "Change note"), ("versioning_enabled", "Bool", "Versioning enabled")],
    ),
];

/// The behaviours a type made in the panel starts with, as in Plone.
pub const DEFAULT_BEHAVIOURS: [&str; 2] = ["plone.dublincore", "plone.namefromtitle"];

/// The behaviour of that name.
pub fn by_name(name: &str) -> Option<&'static Behaviour> {
    BEHAVIOURS.iter().find(|b| b.name == name)
}

/// Whether the type has the behaviour: it was switched on, or (for a profile type) the type
/// has everything it gives.
pub fn has(profile: &TypeProfile, behaviour: &Behaviour) -> bool {
    profile.has_behaviour(behaviour.name)
        || behaviour.marks.is_some_and(|mark| profile.has_behaviour(mark))
        || (!behaviour.fields.is_empty() && behaviour.fields.iter().all(|(name, _, _)| profile.field(name).is_some()))
}

/// Switches the behaviour on: its name and mark, and the fields it gives that the type lacks.
pub fn switch_on(profile: &mut TypeProfile, behaviour: &Behaviour) {
    for name in std::iter::once(behaviour.name).chain(behaviour.marks) {
        if !profile.has_behaviour(name) {
            profile.behaviours.push(name.to_owned());
        }
    }
    for (name, kind, title) in behaviour.fields {
        if profile.field(name).is_none() {
            let mut field = FieldDef::named(name, kind);
            field.title = (*title).to_owned();
            field.required = *name == "title";
            profile.add_field(field);
        }
    }
}

/// Switches the behaviour off: its name and mark, and its fields that no other behaviour the
/// type keeps gives and that `declared` (the profile's own fields) does not hold. Objects
/// keep the values until next saved.
pub fn switch_off(profile: &mut TypeProfile, behaviour: &Behaviour, declared: &[String]) {
    profile.behaviours.retain(|b| b != behaviour.name && Some(b.as_str()) != behaviour.marks);
    let kept: Vec<&str> = BEHAVIOURS
        .iter()
        .filter(|other| other.name != behaviour.name && profile.has_behaviour(other.name))
        .flat_map(|other| other.fields.iter().map(|(name, _, _)| *name))
        .collect();
    let removed: Vec<&str> = behaviour
        .fields
        .iter()
        .map(|(name, _, _)| *name)
        .filter(|name| !kept.contains(name) && !declared.iter().any(|d| d == name))
        .collect();
    for field in removed {
        profile.remove_field(field);
    }
}
