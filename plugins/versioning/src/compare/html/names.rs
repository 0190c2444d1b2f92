//! Which element and attribute names the comparison keeps, drops or renames: the tables the
//! walk over a parsed side consults.

use wcs_core::content::markup::{is_custom_element_name, is_safe_custom_attribute};

/// Elements whose content is never shown.
pub(super) fn is_dropped(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "noscript"
            | "head"
            | "title"
            | "meta"
            | "link"
            | "base"
            | "col"
            | "wbr"
            | "input"
            | "area"
            | "source"
            | "track"
            | "embed"
            | "param"
            | "keygen"
            | "textarea"
            | "select"
            | "button"
            | "object"
            | "frameset"
            | "frame"
    )
}

/// Names an element or attribute may be written with: what parsers accept without doubt.
pub(super) fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
}

/// Element names the output uses, interned so elements need no allocation for them; names
/// outside this list are written as `span` (inline) — they carry no meaning we keep.
pub(super) fn output_name(name: &str) -> &'static str {
    const NAMES: [&str; 62] = [
        "a",
        "abbr",
        "address",
        "article",
        "aside",
        "b",
        "bdi",
        "bdo",
        "blockquote",
        "caption",
        "center",
        "cite",
        "code",
        "colgroup",
        "dd",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "i",
        "kbd",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "section",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
    ];
    match name {
        "del" => "s",
        "ins" => "u",
        "mark" => "span",
        "tt" => "code",
        "var" => "i",
        _ => NAMES.iter().find(|n| **n == name).copied().unwrap_or("span"),
    }
}

/// Attributes worth keeping on shown elements (the sanitiser decides finally).
pub(super) fn kept_attribute(name: &str) -> bool {
    matches!(
        name,
        "href"
            | "src"
            | "alt"
            | "title"
            | "width"
            | "height"
            | "colspan"
            | "rowspan"
            | "lang"
            | "dir"
            | "start"
            | "type"
            | "cite"
            | "datetime"
            | "allow"
            | "allowfullscreen"
            | "data-filename"
            | "data-size"
    )
}

pub(super) fn attributes(element: &scraper::node::Element) -> Vec<(String, String)> {
    let custom = is_custom(element);
    let mut attrs: Vec<(String, String)> = element
        .attrs()
        .filter(|(name, _)| if custom { is_safe_custom_attribute(name) } else { kept_attribute(name) })
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    attrs.sort();
    attrs
}

pub(super) fn attribute<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// Elements without content or end tag.
pub(super) fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Whether an element is in the HTML namespace (not SVG or MathML).
pub(super) fn is_html(element: &scraper::node::Element) -> bool {
    &*element.name.ns == "http://www.w3.org/1999/xhtml"
}

/// Whether an element is a custom element (an HTML element with a name such as `x-karte`).
pub(super) fn is_custom(element: &scraper::node::Element) -> bool {
    is_html(element) && is_custom_element_name(element.name())
}
