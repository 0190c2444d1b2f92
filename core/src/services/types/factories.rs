//! The field factories Volto's Content Types panel offers (plone.schemaeditor's, which
//! `@vocabularies/Fields` lists by token and title, and `POST @types/<type>` takes as
//! `factory`, by either), and the kind of field each makes here.

/// A factory: its token and name, and the kind and widget of the fields it makes.
pub struct Factory {
    /// Plone's token (the message id of its label, or its name).
    pub token: &'static str,
    /// The name schemas give as `factory`.
    pub name: &'static str,
    /// The kind, as profiles name it.
    pub kind: &'static str,
    /// The widget hint, for the factories that differ from their kind's only by it.
    pub widget: Option<&'static str>,
}

const fn factory(token: &'static str, name: &'static str, kind: &'static str, widget: Option<&'static str>) -> Factory {
    Factory { token, name, kind, widget }
}

/// Every factory, sorted by name as Plone lists them. Plone's `Password` and `Full Name` are
/// left out: a password kept in clear on content, and a member's name, are no content fields.
pub const FACTORIES: [Factory; 18] = [
    factory("label_choice_field", "Choice", "Choice", None),
    factory("label_date_field", "Date", "Date", None),
    factory("label_datetime_field", "Date/Time", "Datetime", None),
    factory("Email", "Email", "TextLine", Some(EMAIL_WIDGET)),
    factory("label_email", "Email", "TextLine", Some(EMAIL_WIDGET)),
    factory("File Upload", "File Upload", "File", None),
    factory("label_float_field", "Floating-point number", "Float", None),
    factory("Image", "Image", "Image", None),
    factory("label_integer_field", "Integer", "Int", None),
    factory("JSONField", "JSONField", "Blocks", None),
    factory("label_multi_choice_field", "Multiple Choice", "List", Some(MULTIPLE_CHOICE_WIDGET)),
    factory("Relation Choice", "Relation Choice", "RelationChoice", None),
    factory("Relation List", "Relation List", "RelationList", None),
    factory("Rich Text", "Rich Text", "RichText", None),
    factory("label_text_field", "Text", "Text", None),
    factory("label_textline_field", "Text line (String)", "TextLine", None),
    factory("URL", "URL", "URI", None),
    factory("label_boolean_field", "Yes/No", "Bool", None),
];

/// The widget of e-mail fields: a text line that must hold an address.
pub const EMAIL_WIDGET: &str = "email";
/// Marks multiple-choice fields: lists whose items come from the field's values (Volto picks
/// its widget from the schema's `choices`, so the mark is not sent).
pub const MULTIPLE_CHOICE_WIDGET: &str = "multiple_choice";

/// What an e-mail field accepts, as a pattern (checked on every save).
pub const EMAIL_PATTERN: &str = r"[^@\s]+@[^@\s]+\.[^@\s]+";
/// The field error of a value that is no e-mail address.
pub const EMAIL_HINT: &str = "Expected an e-mail address such as name@example.org.";

/// The factory of that token or name.
pub fn by_name(name: &str) -> Option<&'static Factory> {
    FACTORIES.iter().find(|f| f.token == name || f.name == name)
}

/// The names, for the error that lists them.
pub fn names() -> String {
    let mut names: Vec<&str> = FACTORIES.iter().map(|f| f.name).collect();
    names.dedup();
    names.join(", ")
}
