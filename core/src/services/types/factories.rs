//! The field factories Volto's Content Types panel offers (plone.schemaeditor's names, which
//! `@vocabularies/Fields` lists and `POST @types/<type>` takes as `factory`), and the kind of
//! field each makes here.

/// A factory: its name, and the kind and widget of the fields it makes.
pub struct Factory {
    /// The name clients send.
    pub name: &'static str,
    /// The kind, as profiles name it.
    pub kind: &'static str,
    /// The widget hint, for the factories that differ from their kind's only by it.
    pub widget: Option<&'static str>,
}

const fn factory(name: &'static str, kind: &'static str, widget: Option<&'static str>) -> Factory {
    Factory { name, kind, widget }
}

/// Every factory, in the order Volto lists them.
pub const FACTORIES: [Factory; 18] = [
    factory("Text line (String)", "TextLine", None),
    factory("Text", "Text", None),
    factory("Rich Text", "RichText", None),
    factory("Integer", "Int", None),
    factory("Floating-point number", "Float", None),
    factory("Decimal", "Float", None),
    factory("Yes/No", "Bool", None),
    factory("Date", "Date", None),
    factory("Date/Time", "Datetime", None),
    factory("Choice", "Choice", None),
    factory("Multiple Choice", "List", Some(MULTIPLE_CHOICE_WIDGET)),
    factory("Email", "TextLine", Some(EMAIL_WIDGET)),
    factory("URL", "URI", None),
    factory("File Upload", "File", None),
    factory("Image", "Image", None),
    factory("Relation Choice", "RelationChoice", None),
    factory("Relation List", "RelationList", None),
    factory("JSONField", "Blocks", None),
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

/// The factory called `name`.
pub fn by_name(name: &str) -> Option<&'static Factory> {
    FACTORIES.iter().find(|f| f.name == name)
}

/// The names, for the error that lists them.
pub fn names() -> String {
    FACTORIES.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
}
