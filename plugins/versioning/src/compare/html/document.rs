//! One side of a comparison as the engine sees it: an arena of elements and the flat list of
//! atoms (words, punctuation, whitespace, line breaks, embedded objects) in reading order,
//! each knowing the element it sits in.
//!
//! The tree is walked without recursion, so deep nesting cannot exhaust the stack. Scripts,
//! styles and templates are left out; user markup that looks like our own marks (`del`,
//! `ins`, `mark`) keeps its meaning but is shown as `s`, `u` and `span`, so the only marks
//! in the output are the comparison's.

use super::ImageFile;
use super::format::Format;
use super::render::escape_into;
use super::words::{Piece, normalize, pieces};
use scraper::{Html, Node};
use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use wcs_core::content::links::linked_uids;
use wcs_core::content::markup::{is_custom_element_name, is_safe_custom_attribute};

/// Index of an element in its document's arena.
pub(super) type ElementId = usize;

/// An element that contains atoms.
pub(super) struct Element {
    /// The name it is written with.
    pub name: &'static str,
    /// Its attributes, names checked, values as parsed.
    pub attrs: Vec<(String, String)>,
    pub parent: Option<ElementId>,
    /// Element children, in order.
    pub children: Vec<ElementId>,
    pub format: Rc<Format>,
}

/// What an atom is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum AtomKind {
    Word,
    Punct,
    /// Whitespace; shown, never compared.
    Space,
    /// `<br>`; shown from the current side only, never compared.
    Break,
    /// An element with nothing to compare inside (an empty cell), so its place shows.
    Empty,
    /// An image, frame, rule or custom element, compared as one piece.
    Object(Object),
}

/// An embedded thing compared as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Object {
    /// How it is written: a start tag, or the whole canonical markup of a custom element.
    pub markup: ObjectMarkup,
    /// Attribute values that are its properties rather than its identity, canonical.
    pub properties: Vec<(String, String)>,
}

/// How an object is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ObjectMarkup {
    /// A void element (`img`, `hr`) or an `iframe`, written with its attributes and, when
    /// it is marked, frame classes.
    Element { name: &'static str, attrs: Vec<(String, String)> },
    /// Whole markup, already escaped (custom elements, figures of stored images). A custom
    /// element keeps its own name.
    Whole { name: Cow<'static, str>, attrs: Vec<(String, String)>, inner: String },
}

/// One atom.
#[derive(Clone, Debug)]
pub(super) struct Atom {
    pub kind: AtomKind,
    /// The text as shown (words, punctuation, whitespace).
    pub text: Range<usize>,
    /// The element it sits in; `None` at the top level.
    pub element: Option<ElementId>,
    /// The interned comparison key (words, punctuation and objects).
    pub key: u32,
}

impl Atom {
    /// Whether the atom takes part in the comparison (whitespace and line breaks do not).
    pub fn is_compared(&self) -> bool {
        matches!(self.kind, AtomKind::Word | AtomKind::Punct | AtomKind::Object(_))
    }
}

/// A parsed side.
pub(super) struct Document {
    pub elements: Vec<Element>,
    pub atoms: Vec<Atom>,
    /// The text all atoms point into.
    pub text: String,
}

/// Comparison keys shared by both sides.
#[derive(Default)]
pub(super) struct Interner {
    ids: HashMap<String, u32>,
    /// Which keys are words or objects (rather than punctuation).
    pub weighty: Vec<bool>,
}

impl Interner {
    fn intern(&mut self, key: &str, weighty: bool) -> u32 {
        if let Some(id) = self.ids.get(key) {
            return *id;
        }
        let id = u32::try_from(self.weighty.len()).unwrap_or(u32::MAX);
        self.ids.insert(key.to_owned(), id);
        self.weighty.push(weighty);
        id
    }
}

/// Whether a link stays inside the page: a fragment link, or a link to one of the page's own
/// objects (`same_page` says which uids those are).
fn is_within_page(href: &str, same_page: &dyn Fn(&str) -> bool) -> bool {
    let href = href.trim();
    href.starts_with('#') || linked_uids(href).iter().any(|uid| same_page(uid))
}

/// Elements whose content is never shown.
fn is_dropped(name: &str) -> bool {
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
fn output_name(name: &str) -> &'static str {
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
fn kept_attribute(name: &str) -> bool {
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

fn attributes(element: &scraper::node::Element) -> Vec<(String, String)> {
    let custom = is_custom(element);
    let mut attrs: Vec<(String, String)> = element
        .attrs()
        .filter(|(name, _)| if custom { is_safe_custom_attribute(name) } else { kept_attribute(name) })
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    attrs.sort();
    attrs
}

fn attribute<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

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

/// Canonical markup of a subtree compared as a whole: names checked, attributes sorted and
/// escaped, text normalised with whitespace collapsed. As a key (`shown` false) it keeps
/// every name and attribute; to be shown, elements take their output names (unknown ones,
/// and foreign ones like SVG's, become `span`, whose text the sanitiser keeps).
fn canonical_markup(node: ego_tree::NodeRef<'_, Node>, shown: bool) -> String {
    let mut out = String::new();
    let mut skip_until: Option<ego_tree::NodeId> = None;
    for edge in node.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) if skip_until.is_none() => match n.value() {
                Node::Element(e) if is_dropped(e.name()) => skip_until = Some(n.id()),
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

/// Whether an element is in the HTML namespace (not SVG or MathML).
fn is_html(element: &scraper::node::Element) -> bool {
    &*element.name.ns == "http://www.w3.org/1999/xhtml"
}

/// Whether an element is a custom element (an HTML element with a name such as `x-karte`).
fn is_custom(element: &scraper::node::Element) -> bool {
    is_html(element) && is_custom_element_name(element.name())
}

/// Whether an element is compared as one piece rather than looked into.
fn is_whole(element: &scraper::node::Element) -> bool {
    let name = element.name();
    !is_html(element)
        || name.contains('-')
        || matches!(name, "video" | "audio" | "canvas" | "svg" | "math" | "picture")
        || name == "figure" && element.attr("data-filename").is_some()
}

/// What flattening one side needs to know about the page.
pub(super) struct SideInfo<'a> {
    /// Whether a uid is the page's own or one of its blocks'.
    pub same_page: &'a dyn Fn(&str) -> bool,
    /// The stored file of the image object a uid names, on this side.
    pub image_file: &'a dyn Fn(&str) -> Option<ImageFile>,
}

/// Parses one side and flattens it into atoms.
pub(super) fn flatten(html: &str, interner: &mut Interner, side: &SideInfo<'_>) -> Document {
    let parsed = Html::parse_fragment(html);
    let mut doc = Document { elements: Vec::new(), atoms: Vec::new(), text: String::with_capacity(html.len() / 2) };
    let root_format = Rc::new(Format::root());
    // Open elements of the walk: the scraper node, our element (None when not kept).
    let mut open: Vec<(ego_tree::NodeId, Option<ElementId>, usize)> = Vec::new();
    let mut skip_until: Option<ego_tree::NodeId> = None;
    let current = |open: &[(ego_tree::NodeId, Option<ElementId>, usize)]| open.iter().rev().find_map(|(_, e, _)| *e);
    for edge in parsed.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => {
                if skip_until.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(e) => {
                        let name = e.name();
                        // The fragment parser's own `html` wrapper is the top level.
                        if node.parent().is_some_and(|p| p.value().is_fragment()) {
                            open.push((node.id(), None, doc.atoms.len()));
                            continue;
                        }
                        if is_dropped(name) {
                            skip_until = Some(node.id());
                            continue;
                        }
                        let parent = current(&open);
                        if is_whole(e) || matches!(name, "img" | "hr" | "iframe") {
                            push_object(&mut doc, interner, node, e, parent, side);
                            skip_until = Some(node.id());
                            continue;
                        }
                        if name == "br" {
                            doc.atoms.push(Atom { kind: AtomKind::Break, text: 0..0, element: parent, key: 0 });
                            skip_until = Some(node.id());
                            continue;
                        }
                        if !is_plain_name(name) {
                            open.push((node.id(), None, doc.atoms.len()));
                            continue;
                        }
                        let attrs = attributes(e);
                        let link = (name == "a")
                            .then(|| attribute(&attrs, "href"))
                            .flatten()
                            .filter(|href| !is_within_page(href, side.same_page))
                            .map(|href| Rc::from(href.trim()));
                        let parent_format = parent.map_or(&root_format, |p| &doc.elements[p].format);
                        let format = Rc::new(parent_format.inside(name, link));
                        let id = doc.elements.len();
                        doc.elements.push(Element {
                            name: output_name(name),
                            attrs,
                            parent,
                            children: Vec::new(),
                            format,
                        });
                        if let Some(p) = parent {
                            doc.elements[p].children.push(id);
                        }
                        open.push((node.id(), Some(id), doc.atoms.len()));
                    }
                    Node::Text(t) => push_text(&mut doc, interner, &t.text, current(&open)),
                    _ => {}
                }
            }
            ego_tree::iter::Edge::Close(node) => {
                if let Some(skipped) = skip_until {
                    if skipped == node.id() {
                        skip_until = None;
                    }
                    continue;
                }
                if open.last().is_some_and(|(id, _, _)| *id == node.id())
                    && let Some((_, Some(element), atoms_before)) = open.pop()
                    && doc.atoms.len() == atoms_before
                {
                    doc.atoms.push(Atom { kind: AtomKind::Empty, text: 0..0, element: Some(element), key: 0 });
                }
            }
        }
    }
    doc
}

fn push_text(doc: &mut Document, interner: &mut Interner, text: &str, element: Option<ElementId>) {
    let text = normalize(text);
    for (piece, part) in pieces(&text) {
        let start = doc.text.len();
        doc.text.push_str(part);
        let range = start..doc.text.len();
        let (kind, key) = match piece {
            Piece::Space => (AtomKind::Space, 0),
            Piece::Word => (AtomKind::Word, interner.intern(part, true)),
            Piece::Punct => (AtomKind::Punct, interner.intern(part, false)),
        };
        doc.atoms.push(Atom { kind, text: range, element, key });
    }
}

fn push_object(
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
            let inner = node.children().map(|child| canonical_markup(child, true)).collect::<String>();
            let shown: Cow<'static, str> = if is_custom(element) {
                Cow::Owned(name.to_owned())
            } else if is_plain_name(name) && is_html(element) {
                Cow::Borrowed(output_name(name))
            } else {
                Cow::Borrowed("span")
            };
            if attribute(&attrs, "data-filename").is_none() {
                key = format!("\u{0}whole\u{0}{}", canonical_markup(node, false));
            }
            ObjectMarkup::Whole { name: shown, attrs, inner }
        }
    };
    let object = Object { markup, properties };
    let key = interner.intern(&key, true);
    doc.atoms.push(Atom { kind: AtomKind::Object(object), text: 0..0, element: parent, key });
}
