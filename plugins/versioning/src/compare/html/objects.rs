//! Embedded things compared as one piece (images, frames, rules, custom elements, media,
//! stored figures): what makes each itself, and the canonical markup it is keyed and shown by.

use super::ImageFile;
use super::document::{Atom, AtomKind, Document, ElementId, Interner, Object, ObjectMarkup, SideInfo};
use super::names::{
    attribute, attributes, is_custom, is_dropped, is_html, is_plain_name, is_void, kept_attribute, output_name,
};
use super::parsing::OpenElements;
use super::render::escape_into;
use super::words::normalize;
use scraper::Node;
use std::borrow::Cow;
use wcs_core::content::links::linked_uids;
use wcs_core::content::markup::is_safe_custom_attribute;

/// What makes an object itself (its key) and what are its properties, by kind.
///
/// An image is its file: a stored image (`data-filename`, `data-size`, as block figures are
/// written) by that name and size, an inline `img` whose `src` is a `resolveuid` link by the
/// name and size of the image object it names (`image_file`), any other `img` by its `src`.
/// Everything else about an image (alt text, size on the page, classes, caption, scale) is
/// not compared. Frames are their `src`, with the other attributes as properties; a rule is
/// just a rule.
fn object_identity(
    name: &str,
    attrs: &[(String, String)],
    image_file: &dyn Fn(&str) -> Option<ImageFile>,
) -> (String, Vec<(String, String)>) {
    let image = |file: &str, size: &str| format!("\u{0}image\u{0}{file}\u{0}{size}");
    if let (Some(file), Some(size)) = (attribute(attrs, "data-filename"), attribute(attrs, "data-size")) {
        return (image(file, size), Vec::new());
    }
    let src = attribute(attrs, "src").unwrap_or_default().trim();
    match name {
        "img" => match linked_uids(src).first().and_then(|uid| image_file(uid)) {
            Some(file) => (image(&file.filename, &file.size.to_string()), Vec::new()),
            None => (format!("\u{0}img\u{0}{src}"), Vec::new()),
        },
        "iframe" => (format!("\u{0}iframe\u{0}{src}"), attrs.iter().filter(|(n, _)| n != "src").cloned().collect()),
        _ => (format!("\u{0}{name}"), Vec::new()),
    }
}

/// Canonical markup of a subtree compared as a whole: names checked, attributes sorted and
/// escaped, text normalised with whitespace collapsed. As a key (`shown` is `None`) it keeps
/// every name and attribute. To be shown inside the open elements `shown` gives, custom
/// elements keep their names and safe attributes, other elements take their output names
/// (unknown ones, and foreign ones like SVG's, become `span`, whose text the sanitiser
/// keeps), and an element a parser would not nest where it stands is left out around its
/// content: read back, it would close the object and the mark around it (see
/// [`OpenElements`]).
fn canonical_markup(node: ego_tree::NodeRef<'_, Node>, shown: Option<OpenElements>) -> String {
    let mut out = String::new();
    let mut skip_until: Option<ego_tree::NodeId> = None;
    // The elements written and not yet closed, each with what is open inside it when shown.
    let mut written: Vec<(ego_tree::NodeId, Option<OpenElements>)> = Vec::new();
    for edge in node.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) if skip_until.is_none() => match n.value() {
                Node::Element(e) if is_dropped(e.name()) => skip_until = Some(n.id()),
                Node::Element(e) if is_plain_name(e.name()) => {
                    let name = element_name(e, shown.is_some());
                    let within = written.last().map_or(shown, |(_, within)| *within);
                    if within.is_none_or(|within| within.opens(&name)) {
                        write_start_tag(&mut out, e, &name, shown.is_some());
                        written.push((n.id(), within.map(|within| within.inside(&name))));
                    }
                }
                Node::Text(t) => write_collapsed(&mut out, &t.text),
                _ => {}
            },
            ego_tree::iter::Edge::Open(_) => {}
            ego_tree::iter::Edge::Close(n) => {
                if skip_until.is_some() {
                    if skip_until == Some(n.id()) {
                        skip_until = None;
                    }
                    continue;
                }
                if written.last().is_some_and(|(id, _)| *id == n.id()) {
                    written.pop();
                    if let Node::Element(e) = n.value()
                        && !is_void(e.name())
                    {
                        out.push_str("</");
                        out.push_str(&element_name(e, shown.is_some()));
                        out.push('>');
                    }
                }
            }
        }
    }
    out
}

/// A start tag in canonical markup: attributes sorted, event handlers never; when `shown`,
/// only those worth showing.
fn write_start_tag(out: &mut String, element: &scraper::node::Element, name: &str, shown: bool) {
    out.push('<');
    out.push_str(name);
    let custom = is_custom(element);
    let mut attrs: Vec<(&str, &str)> = element
        .attrs()
        .filter(|(n, _)| {
            is_plain_name(n)
                && !n.starts_with("on")
                && (!shown || custom && is_safe_custom_attribute(n) || !custom && kept_attribute(n))
        })
        .collect();
    attrs.sort();
    for (attr, value) in attrs {
        out.push(' ');
        out.push_str(&attr.to_ascii_lowercase());
        out.push_str("=\"");
        escape_into(out, value);
        out.push('"');
    }
    out.push('>');
}

/// Text in canonical markup: normalised, each run of whitespace one space, escaped.
fn write_collapsed(out: &mut String, text: &str) {
    let text = normalize(text);
    let mut collapsed = String::with_capacity(text.len());
    for c in text.chars() {
        if !c.is_whitespace() {
            collapsed.push(c);
        } else if !collapsed.ends_with(' ') {
            collapsed.push(' ');
        }
    }
    escape_into(out, &collapsed);
}

/// An element's name in canonical markup: as parsed for keys, its output name when shown.
fn element_name(element: &scraper::node::Element, shown: bool) -> String {
    let name = element.name().to_ascii_lowercase();
    if !shown || is_custom(element) {
        return name;
    }
    if is_html(element) { output_name(&name).to_owned() } else { "span".to_owned() }
}

/// Whether an element is compared as one piece rather than looked into.
pub(super) fn is_whole(element: &scraper::node::Element) -> bool {
    let name = element.name();
    !is_html(element)
        || name.contains('-')
        || matches!(name, "video" | "audio" | "canvas" | "svg" | "math" | "picture")
        || name == "figure" && element.attr("data-filename").is_some()
}

/// Adds an object in `parent`, where the output has the elements `within` open.
pub(super) fn push_object(
    doc: &mut Document,
    interner: &mut Interner,
    node: ego_tree::NodeRef<'_, Node>,
    element: &scraper::node::Element,
    parent: Option<ElementId>,
    within: &OpenElements,
    side: &SideInfo<'_>,
) {
    let name = element.name();
    let attrs = attributes(element);
    let (mut key, properties) = object_identity(name, &attrs, side.image_file);
    let markup = match name {
        "img" => ObjectMarkup::Element { name: "img", attrs },
        "hr" => ObjectMarkup::Element { name: "hr", attrs },
        "iframe" => ObjectMarkup::Element { name: "iframe", attrs },
        _ => {
            let shown: Cow<'static, str> = if is_custom(element) {
                Cow::Owned(name.to_owned())
            } else if is_plain_name(name) && is_html(element) {
                Cow::Borrowed(output_name(name))
            } else {
                Cow::Borrowed("span")
            };
            // Its content is written inside it, inside a mark (which changes nothing a parser
            // decides) and the elements open where it stands.
            let inside = Some(within.inside(&shown));
            let inner = node.children().map(|child| canonical_markup(child, inside)).collect::<String>();
            if attribute(&attrs, "data-filename").is_none() {
                key = format!("\u{0}whole\u{0}{}", canonical_markup(node, None));
            }
            ObjectMarkup::Whole { name: shown, attrs, inner }
        }
    };
    let object = Object { markup, properties };
    let key = interner.intern(&key, true);
    doc.atoms.push(Atom { kind: AtomKind::Object(Box::new(object)), text: 0..0, element: parent, key });
}
