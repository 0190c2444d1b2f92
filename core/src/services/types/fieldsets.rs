//! Where Plone 6 puts the fields of its standard behaviours in a type's schema: the behaviour
//! that declares each, its help text, and the form tab (fieldset) Volto shows it on. A field
//! no behaviour declares is the type's own and stays on the first tab.

/// A form tab: id and title, in Plone's order.
pub const FIELDSETS: [(&str, &str); 6] = [
    ("default", "Default"),
    ("preview_image", "Preview image"),
    ("categorization", "Categorization"),
    ("dates", "Dates"),
    ("ownership", "Ownership"),
    ("settings", "Settings"),
];

/// A standard field: the behaviour that declares it, its tab and its help text.
pub struct StandardField {
    /// The behaviour, as Plone names it (`plone.basic`, `plone.categorization`…).
    pub behavior: &'static str,
    /// The id of its tab in [`FIELDSETS`].
    pub fieldset: &'static str,
    /// Plone's help text.
    pub description: &'static str,
}

/// The standard field called `name`, if it is one.
pub fn standard_field(name: &str) -> Option<StandardField> {
    let field = |behavior, fieldset, description| Some(StandardField { behavior, fieldset, description });
    match name {
        "title" => field("plone.basic", "default", ""),
        "description" => field("plone.basic", "default", "Used in item listings and search results."),
        "changeNote" => field("plone.versioning", "default", "Enter a comment that describes the changes you made."),
        "nav_title" => field("volto.navtitle", "default", ""),
        "preview_image_link" => field(
            "volto.preview_image_link",
            "preview_image",
            "Select an image that will be used in listing and teaser blocks.",
        ),
        "preview_caption_link" => field("volto.preview_image_link", "preview_image", ""),
        "subjects" => field(
            "plone.categorization",
            "categorization",
            "Tags are commonly used for ad-hoc organization of content.",
        ),
        "language" => field("plone.categorization", "categorization", ""),
        "relatedItems" => field("plone.relateditems", "categorization", ""),
        "effective" => field(
            "plone.publication",
            "dates",
            "If this date is in the future, the content will not show up in listings and searches until this date.",
        ),
        "expires" => field(
            "plone.publication",
            "dates",
            "When this date is reached, the content will no longer be visible in listings and searches.",
        ),
        "rights" => {
            field("plone.ownership", "ownership", "Copyright statement or other rights information on this item.")
        }
        "exclude_from_nav" => field(
            "plone.excludefromnavigation",
            "settings",
            "If selected, this item will not appear in the navigation tree",
        ),
        "versioning_enabled" => field("plone.versioning", "settings", "Enable/disable versioning for this document."),
        "table_of_contents" => field(
            "plone.tableofcontents",
            "settings",
            "If selected, this will show a table of contents at the top of the page.",
        ),
        "allow_discussion" => field(
            "plone.app.discussion.behavior.IAllowDiscussion",
            "settings",
            "Allow discussion for this content object.",
        ),
        _ => None,
    }
}
