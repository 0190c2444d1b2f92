//! plone.app.querystring's registry records: for each index Volto's listing and search blocks
//! may query, its label, help, group, whether it is offered and sortable, its vocabulary and
//! its operations (`plone.app.querystring.field.<index>.*`), and for each operation its
//! label, help and widget (`plone.app.querystring.operation.<operation>.*`). `@querystring`
//! is built from their current values, so a site owner retitles, hides or narrows an index
//! through `@registry` as in Plone. The names, defaults and texts are Plone's.
//!
//! Left out on purpose: `show_inactive`, with which Plone lets a listing show embargoed and
//! expired content to roles it names. Here inactive content is shown to those who hold the
//! permission to see it, and no listing setting widens that.

use crate::records::{RecordDef, RecordKind};
use serde_json::{Value, json};

/// The prefix of the index records.
pub const FIELD: &str = "plone.app.querystring.field.";
/// The prefix of the operation records.
pub const OPERATION: &str = "plone.app.querystring.operation.";

/// The indexes, in Plone's order of declaration.
pub const INDEXES: [&str; 21] = [
    "Creator",
    "Description",
    "SearchableText",
    "Subject",
    "Title",
    "created",
    "effective",
    "effectiveRange",
    "end",
    "expires",
    "getId",
    "getObjPositionInParent",
    "getRawRelatedItems",
    "isDefaultPage",
    "isFolderish",
    "modified",
    "path",
    "portal_type",
    "review_state",
    "sortable_title",
    "start",
];

/// The operations (without [`OPERATION`]).
pub const OPERATIONS: [&str; 26] = [
    "boolean.isFalse",
    "boolean.isTrue",
    "date.afterRelativeDate",
    "date.afterToday",
    "date.beforeRelativeDate",
    "date.beforeToday",
    "date.between",
    "date.largerThan",
    "date.largerThanRelativeDate",
    "date.lessThan",
    "date.lessThanRelativeDate",
    "date.today",
    "int.is",
    "int.largerThan",
    "int.lessThan",
    "reference.is",
    "selection.all",
    "selection.any",
    "selection.none",
    "string.absolutePath",
    "string.contains",
    "string.currentUser",
    "string.is",
    "string.isNot",
    "string.path",
    "string.relativePath",
];

/// A record of text that may be unset (null), as Plone's optional text lines are.
fn optional_text(value: &Value) -> Result<(), String> {
    if value.is_null() || value.is_string() { Ok(()) } else { Err("Expected a string or null.".into()) }
}

/// The operations of an index must be ones this server runs.
fn known_operations(value: &Value) -> Result<(), String> {
    let unknown: Vec<&str> = value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|op| !op.strip_prefix(OPERATION).is_some_and(|op| OPERATIONS.contains(&op)))
        .collect();
    if unknown.is_empty() { Ok(()) } else { Err(format!("Unknown operations: {}.", unknown.join(", "))) }
}

macro_rules! field {
    ($index:literal, $title:literal, $description:literal, $group:literal, $enabled:literal, $sortable:literal,
     $vocabulary:expr, [$($op:literal),*]) => {
        [
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".title"),
                title: "Title",
                description: "The index's label in the query widget.",
                kind: RecordKind::Text,
                default: || json!($title),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".description"),
                title: "Description",
                description: "The index's help text.",
                kind: RecordKind::Text,
                default: || json!($description),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".enabled"),
                title: "Enabled",
                description: "Whether the query widget offers the index.",
                kind: RecordKind::Bool,
                default: || json!($enabled),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".sortable"),
                title: "Sortable",
                description: "Whether results may be sorted on the index.",
                kind: RecordKind::Bool,
                default: || json!($sortable),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".operations"),
                title: "Operations",
                description: "The operations offered on the index (plone.app.querystring.operation.*).",
                kind: RecordKind::TextList,
                default: || json!([$(concat!("plone.app.querystring.operation.", $op)),*]),
                check: Some(known_operations),
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".group"),
                title: "Group",
                description: "The group the query widget lists the index under.",
                kind: RecordKind::Text,
                default: || json!($group),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".vocabulary"),
                title: "Vocabulary",
                description: "The vocabulary the widget takes the index's values from; null for free input.",
                kind: RecordKind::Json,
                default: || json!($vocabulary),
                check: Some(optional_text),
            },
            RecordDef {
                name: concat!("plone.app.querystring.field.", $index, ".fetch_vocabulary"),
                title: "Fetch vocabulary",
                description: "Whether the widget fetches the vocabulary itself rather than take the listed values.",
                kind: RecordKind::Bool,
                default: || json!(true),
                check: None,
            },
        ]
    };
}

macro_rules! operation {
    ($op:literal, $title:literal, $description:expr, $parser:literal, $widget:expr) => {
        [
            RecordDef {
                name: concat!("plone.app.querystring.operation.", $op, ".title"),
                title: "Title",
                description: "The operation's label in the query widget.",
                kind: RecordKind::Text,
                default: || json!($title),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.operation.", $op, ".description"),
                title: "Description",
                description: "The operation's help text; null for none.",
                kind: RecordKind::Json,
                default: || json!($description),
                check: Some(optional_text),
            },
            RecordDef {
                name: concat!("plone.app.querystring.operation.", $op, ".operation"),
                title: "Operation",
                description: "Plone's name of the function that runs the operation; shown to clients, the server \
                              runs its own.",
                kind: RecordKind::Text,
                default: || json!(concat!("plone.app.querystring.queryparser.", $parser)),
                check: None,
            },
            RecordDef {
                name: concat!("plone.app.querystring.operation.", $op, ".widget"),
                title: "Widget",
                description: "The widget the value is edited with; null when the operation takes none.",
                kind: RecordKind::Json,
                default: || json!($widget),
                check: Some(optional_text),
            },
        ]
    };
}

/// The index records, eight per index, in the order of [`INDEXES`].
#[rustfmt::skip]
pub static FIELD_RECORDS: [[RecordDef; 8]; 21] = [
    field!("Creator", "Creator", "The person that created an item", "Metadata", true, true, Some("plone.app.vocabularies.Users"), ["string.currentUser", "selection.any", "selection.none"]),
    field!("Description", "Description", "An item's description", "Text", true, false, None::<&str>, ["string.contains"]),
    field!("SearchableText", "Searchable text", "Text search of an item's contents", "Text", true, false, None::<&str>, ["string.contains"]),
    field!("Subject", "Tag", "Tags are used for organization of content", "Text", true, false, Some("plone.app.vocabularies.Keywords"), ["selection.any", "selection.all", "selection.none"]),
    field!("Title", "Title", "Text search of an item's title", "Text", true, false, None::<&str>, ["string.contains"]),
    field!("created", "Creation date", "The date an item was created", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
    field!("effective", "Effective date", "The time and date an item was first published", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
    field!("effectiveRange", "Effective range", "Querying this is undefined", "Dates", false, false, None::<&str>, []),
    field!("end", "Event end date", "The end date and time of an event", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
    field!("expires", "Expiration date", "The time and date an item was expired", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
    field!("getId", "Short name (id)", "The short name of an item (used in the url)", "Metadata", true, true, None::<&str>, ["string.is", "string.isNot"]),
    field!("getObjPositionInParent", "Order in folder", "The order of an item in its parent folder", "Metadata", false, true, None::<&str>, ["int.is", "int.lessThan", "int.largerThan"]),
    field!("getRawRelatedItems", "Related To", "Find items related to the selected items", "Metadata", false, false, None::<&str>, ["reference.is"]),
    field!("isDefaultPage", "Default Page", "Find items that are the default view for their containing folder.", "Metadata", false, false, None::<&str>, ["boolean.isTrue", "boolean.isFalse"]),
    field!("isFolderish", "Folder-like", "Find items that can contain other objects", "Metadata", false, false, None::<&str>, ["boolean.isTrue", "boolean.isFalse"]),
    field!("modified", "Modification date", "The time and date an item was last modified", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
    field!("path", "Location", "The location of an item ", "Metadata", true, false, None::<&str>, ["string.absolutePath", "string.path", "string.relativePath"]),
    field!("portal_type", "Type", "An item's type (e.g. Event)", "Metadata", true, false, Some("plone.app.vocabularies.ReallyUserFriendlyTypes"), ["selection.any", "selection.none"]),
    field!("review_state", "Review state", "An item's workflow state (e.g.published)", "Metadata", true, true, Some("plone.app.vocabularies.WorkflowStates"), ["selection.any", "selection.none"]),
    field!("sortable_title", "Sortable Title", "The item's title, transformed for sorting", "Text", false, true, None::<&str>, ["string.contains", "string.is", "string.isNot"]),
    field!("start", "Event start date", "The start date and time of an event", "Dates", true, true, None::<&str>, ["date.lessThan", "date.largerThan", "date.between", "date.lessThanRelativeDate", "date.largerThanRelativeDate", "date.today", "date.beforeToday", "date.afterToday", "date.beforeRelativeDate", "date.afterRelativeDate"]),
];

/// The operation records, four per operation, in the order of [`OPERATIONS`].
#[rustfmt::skip]
pub static OPERATION_RECORDS: [[RecordDef; 4]; 26] = [
    operation!("boolean.isFalse", "No", None::<&str>, "_isFalse", None::<&str>),
    operation!("boolean.isTrue", "Yes", None::<&str>, "_isTrue", None::<&str>),
    operation!("date.afterRelativeDate", "After relative Date", Some("After N days in the future"), "_afterRelativeDate", Some("RelativeDateWidget")),
    operation!("date.afterToday", "After today", Some("After the current day"), "_afterToday", None::<&str>),
    operation!("date.beforeRelativeDate", "Before relative Date", Some("Before N days in the past"), "_beforeRelativeDate", Some("RelativeDateWidget")),
    operation!("date.beforeToday", "Before today", Some("Before the current day"), "_beforeToday", None::<&str>),
    operation!("date.between", "Between dates", Some("Please use YYYY/MM/DD."), "_dateBetween", Some("DateRangeWidget")),
    operation!("date.largerThan", "After date", Some("Please use YYYY/MM/DD."), "_dateLargerThan", Some("DateWidget")),
    operation!("date.largerThanRelativeDate", "Within last", Some("Please enter the number in days."), "_moreThanRelativeDate", Some("RelativeDateWidget")),
    operation!("date.lessThan", "Before date", Some("Please use YYYY/MM/DD."), "_dateLessThan", Some("DateWidget")),
    operation!("date.lessThanRelativeDate", "Within next", Some("Please enter the number in days."), "_lessThanRelativeDate", Some("RelativeDateWidget")),
    operation!("date.today", "Today", Some("The current day"), "_today", None::<&str>),
    operation!("int.is", "Equals", None::<&str>, "_intEqual", Some("StringWidget")),
    operation!("int.largerThan", "Larger than", None::<&str>, "_intLargerThan", Some("StringWidget")),
    operation!("int.lessThan", "Less than", None::<&str>, "_intLessThan", Some("StringWidget")),
    operation!("reference.is", "Equals", None::<&str>, "_referenceIs", Some("ReferenceWidget")),
    operation!("selection.all", "Matches all of", Some("Tip: you can use * to autocomplete."), "_all", Some("MultipleSelectionWidget")),
    operation!("selection.any", "Matches any of", Some("Tip: you can use * to autocomplete."), "_contains", Some("MultipleSelectionWidget")),
    operation!("selection.none", "Matches none of", Some("Tip: you can use * to autocomplete."), "_excludes", Some("MultipleSelectionWidget")),
    operation!("string.absolutePath", "Absolute path", Some("Location in the site structure"), "_absolutePath", Some("ReferenceWidget")),
    operation!("string.contains", "Contains", None::<&str>, "_contains", Some("StringWidget")),
    operation!("string.currentUser", "Current logged in user", Some("The user viewing the querystring results"), "_currentUser", None::<&str>),
    operation!("string.is", "Is", Some("Tip: you can use * to autocomplete."), "_equal", Some("StringWidget")),
    operation!("string.isNot", "Is not", Some("Tip: you can use * to autocomplete."), "_excludes", Some("StringWidget")),
    operation!("string.path", "Navigation path", Some("Location in the navigation structure"), "_navigationPath", Some("ReferenceWidget")),
    operation!("string.relativePath", "Relative path", Some("Use '../' to navigate to parent objects."), "_relativePath", Some("RelativePathWidget")),
];
