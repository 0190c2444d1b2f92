//! The behaviours Site Setup's Content Types panel switches on and off (Plone's names), and
//! what each gives a type here: fields, and the behaviour core and plugins look for.

use crate::content::{FieldDef, TypeProfile};

/// A behaviour of the panel.
pub struct Behaviour {
    /// Plone's name, the key of the panel's form.
    pub name: &'static str,
    /// Its label.
    pub title: &'static str,
    /// Plone's help text.
    pub description: &'static str,
    /// The behaviour core and plugins know it by, if they do.
    pub marks: Option<&'static str>,
    /// Its fields: name, kind and label.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
}

const fn behaviour(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    marks: Option<&'static str>,
    fields: &'static [(&'static str, &'static str, &'static str)],
) -> Behaviour {
    Behaviour { name, title, description, marks, fields }
}

/// A behaviour that is a setting only: the type records it, nothing else changes.
const fn setting(name: &'static str, title: &'static str, description: &'static str) -> Behaviour {
    behaviour(name, title, description, None, &[])
}

const TITLE: (&str, &str, &str) = ("title", "TextLine", "Title");
const DESCRIPTION: (&str, &str, &str) = ("description", "Text", "Summary");
const SUBJECTS: (&str, &str, &str) = ("subjects", "List", "Tags");
const LANGUAGE: (&str, &str, &str) = ("language", "TextLine", "Language");
const EFFECTIVE: (&str, &str, &str) = ("effective", "Datetime", "Publishing Date");
const EXPIRES: (&str, &str, &str) = ("expires", "Datetime", "Expiration Date");
const RIGHTS: (&str, &str, &str) = ("rights", "Text", "Rights");

/// Every behaviour the panel offers, in Plone's order.
pub const BEHAVIOURS: [Behaviour; 31] = [
    setting("plone.allowdiscussion", "Allow discussion", "Allow discussion on this item"),
    behaviour("plone.basic", "Basic metadata", "Adds title and description fields.", None, &[TITLE, DESCRIPTION]),
    behaviour(
        "volto.blocks",
        "Blocks",
        "Enables Volto Blocks support",
        None,
        &[("blocks", "Blocks", "Blocks"), ("blocks_layout", "BlocksLayout", "Blocks Layout")],
    ),
    setting(
        "volto.blocks.editable.layout",
        "Blocks (Editable Layout)",
        "Enables Volto Blocks (editable layout) support",
    ),
    behaviour(
        "plone.categorization",
        "Categorization",
        "Adds keywords and language fields.",
        None,
        &[SUBJECTS, LANGUAGE],
    ),
    setting("plone.collection", "Collection", "Adds collection behavior"),
    behaviour(
        "plone.publication",
        "Date range",
        "Adds effective date and expiration date fields.",
        None,
        &[EFFECTIVE, EXPIRES],
    ),
    behaviour(
        "plone.dublincore",
        "Dublin Core metadata",
        "Adds standard metadata fields (equals Basic metadata + Categorization + Effective range + Ownership)",
        None,
        &[TITLE, DESCRIPTION, SUBJECTS, LANGUAGE, EFFECTIVE, EXPIRES, RIGHTS],
    ),
    behaviour(
        "plone.eventattendees",
        "Event Attendees",
        "Attendees extension for Events.",
        None,
        &[("attendees", "List", "Attendees")],
    ),
    behaviour(
        "plone.eventbasic",
        "Event Basic",
        "Basic Event schema.",
        None,
        &[
            ("start", "Datetime", "Event Starts"),
            ("end", "Datetime", "Event Ends"),
            ("whole_day", "Bool", "Whole Day"),
            ("open_end", "Bool", "Open End"),
        ],
    ),
    behaviour(
        "plone.eventcontact",
        "Event Contact",
        "Contact extension for Events.",
        None,
        &[
            ("contact_name", "TextLine", "Contact Name"),
            ("contact_email", "TextLine", "Contact E-mail"),
            ("contact_phone", "TextLine", "Contact Phone"),
            ("event_url", "URI", "Event URL"),
        ],
    ),
    behaviour(
        "plone.eventlocation",
        "Event Location",
        "Location extension for Events.",
        None,
        &[("location", "TextLine", "Location")],
    ),
    behaviour(
        "plone.eventrecurrence",
        "Event Recurrence",
        "Recurrence extension for Events.",
        None,
        &[("recurrence", "Text", "Recurrence")],
    ),
    behaviour(
        "plone.excludefromnavigation",
        "Exclude From navigation",
        "Allow items to be excluded from navigation",
        Some("exclude_from_nav"),
        &[("exclude_from_nav", "Bool", "Exclude from navigation")],
    ),
    setting(
        "plone.constraintypes",
        "Folder Addable Constrains",
        "Restrict the content types that can be added to folderish content",
    ),
    setting(
        "plone.textindexer",
        "Full-Text Indexing",
        "Enables the enhanced full-text indexing for a content type ('plone.textindexer'). If a field is marked \
         'searchable', its content gets added to the 'SearchableText' index in the catalog.",
    ),
    behaviour(
        "plone.leadimage",
        "Lead Image",
        "Adds image and image caption fields",
        None,
        &[("image", "Image", "Lead image"), ("image_caption", "TextLine", "Lead image caption")],
    ),
    setting("plone.locking", "Locking", "Locking support for dexterity"),
    setting("plone.translatable", "Multilingual Support", "Make this content type multilingual aware"),
    setting(
        "plone.namefromfilename",
        "Name from file name",
        "Automatically generate short URL name for content based on its primary field file name",
    ),
    setting(
        "plone.namefromtitle",
        "Name from title",
        "Automatically generate short URL name for content based on its initial title",
    ),
    setting("plone.navigationroot", "Navigation root", "Make all items of this type a navigation root"),
    setting(
        "plone.nextpreviousenabled",
        "Next previous navigation",
        "Enable next previous navigation for all items of this type",
    ),
    setting(
        "plone.nextprevioustoggle",
        "Next previous navigation toggle",
        "Allow items to have next previous navigation enabled",
    ),
    behaviour("plone.ownership", "Ownership", "Adds creator, contributor, and rights fields.", None, &[RIGHTS]),
    behaviour(
        "plone.relateditems",
        "Related items",
        "Adds the ability to assign related items",
        None,
        &[("relatedItems", "RelationList", "Related Items")],
    ),
    behaviour("plone.richtext", "RichText", "Adds richtext behavior", None, &[("text", "RichText", "Text")]),
    setting("plone.shortname", "Short name", "Gives the ability to rename an item from its edit form."),
    behaviour(
        "plone.tableofcontents",
        "Table of contents",
        "Adds a table of contents",
        None,
        &[("table_of_contents", "Bool", "Table of contents")],
    ),
    setting(
        "plone.thumb_icon",
        "Thumbs and icon handling",
        "Options to suppress thumbs and/or icons and to override thumb size in listings, tables etc.",
    ),
    behaviour(
        "plone.versioning",
        "Versioning",
        "Versioning support with CMFEditions",
        Some("versioning"),
        &[("changeNote", "TextLine", "Change Note"), ("versioning_enabled", "Bool", "Versioning enabled")],
    ),
];

/// The behaviours a type made in the panel starts with, as in Plone.
pub const DEFAULT_BEHAVIOURS: [&str; 2] = ["plone.dublincore", "plone.namefromtitle"];

/// The behaviour of that name.
pub fn by_name(name: &str) -> Option<&'static Behaviour> {
    BEHAVIOURS.iter().find(|b| b.name == name)
}

/// Whether the type has the behaviour: it was switched on, or (for a profile type, whose
/// profile names no Plone behaviours) the type has everything it gives.
pub fn has(profile: &TypeProfile, behaviour: &Behaviour) -> bool {
    let gives_all =
        !behaviour.fields.is_empty() && behaviour.fields.iter().all(|(name, _, _)| profile.field(name).is_some());
    profile.has_behaviour(behaviour.name)
        || behaviour.marks.is_some_and(|mark| profile.has_behaviour(mark))
        || (!profile.through_the_web && gives_all)
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
