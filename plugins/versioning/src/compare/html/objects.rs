//! Embedded things compared as one piece (images, frames, rules, custom elements, media,
//! stored figures): what makes each itself, and the canonical markup it is keyed and shown by.

use super::ImageFile;
use super::document::{Atom, AtomKind, Document, ElementId, Interner, Object, ObjectMarkup, SideInfo};
use super::names::{
    attribute, attributes, is_custom, is_dropped, is_html, is_plain_name, is_void, kept_attribute, output_name,
};
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
/// escaped, text normalised with whitespace collapsed. As a key (`shown` false) it keeps
/// every name and attribute; to be shown, custom elements keep their names and safe
/// attributes, other elements take their output names (unknown ones, and foreign ones like
/// SVG's, become `span`, whose text the sanitiser keeps).
fn canonical_markup(node: ego_tree::NodeRef<'_, Node>, shown: bool, unlink: bool) -> String {
    let mut out = String::new();
    let mut skip_until: Option<ego_tree::NodeId> = None;
    for edge in node.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) if skip_until.is_none() => match n.value() {
                Node::Element(e) if is_dropped(e.name()) => skip_until = Some(n.id()),
                Node::Element(e) if unlink && e.name() == "a" => {}
                Node::Element(e) if is_plain_name(e.name()) => {
                    out.push('<');
                    out.push_str(&element_name(e, shown));
                    let mut attrs: Vec<(&str, &str)> = e
                        .attrs()
                        .filter(|(n, _)| {
                            let custom = is_custom(e);
                            is_plain_name(n)
                                && !n.starts_with("on")
                                && (!shown || custom && is_safe_custom_attribute(n) || !custom && kept_attribute(n))
                        })
                        .collect();
                    attrs.sort();
                    for (name, value) in attrs {
                        out.push(' ');
                        out.push_str(&name.to_ascii_lowercase());
                        out.push_str("=\"");
                        escape_into(&mut out, value);
                        out.push('"');
                    }
                    out.push('>');
                }
                Node::Text(t) => {
                    let text = normalize(&t.text);
                    let mut collapsed = String::with_capacity(text.len());
                    for c in text.chars() {
                        if !c.is_whitespace() {
                            collapsed.push(c);
                        } else if !collapsed.ends_with(' ') {
                            collapsed.push(' ');
                        }
                    }
                    escape_into(&mut out, &collapsed);
                }
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
                if let Node::Element(e) = n.value()
                    && is_plain_name(e.name())
                    && !is_void(e.name())
                    && !(unlink && e.name() == "a")
                {
                    out.push_str("</");
                    out.push_str(&element_name(e, shown));
                    out.push('>');
                }
            }
        }
    }
    out
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

pub(super) fn push_object(
    doc: &mut Document,
    interner: &mut Interner,
    node: ego_tree::NodeRef<'_, Node>,
    element: &scraper::node::Element,
    parent: Option<ElementId>,
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
            // Inside a link, links within the object cannot be written back (a parser closes
            // the outer link there, moving the object's text out of its marks): their text stays.
            let mut ancestor = parent;
            let mut in_link = false;
            while let Some(id) = ancestor {
                in_link |= doc.elements[id].name == "a";
                ancestor = doc.elements[id].parent;
            }
            let inner = node.children().map(|child| canonical_markup(child, true, in_link)).collect::<String>();
            let shown: Cow<'static, str> = if is_custom(element) {
                Cow::Owned(name.to_owned())
            } else if is_plain_name(name) && is_html(element) {
                Cow::Borrowed(output_name(name))
            } else {
                Cow::Borrowed("span")
            };
            if attribute(&attrs, "data-filename").is_none() {
                key = format!("\u{0}whole\u{0}{}", canonical_markup(node, false, false));
            }
            ObjectMarkup::Whole { name: shown, attrs, inner }
        }
    };
    let object = Object { markup, properties };
    let key = interner.intern(&key, true);
    doc.atoms.push(Atom { kind: AtomKind::Object(object), text: 0..0, element: parent, key });
}
