//! One side of a comparison as the engine sees it: an arena of elements and the flat list of
//! atoms (words, punctuation, whitespace, line breaks, embedded objects) in reading order,
//! each knowing the element it sits in.
//!
//! The tree is walked without recursion, so deep nesting cannot exhaust the stack. Scripts,
//! styles and templates are left out; user markup that looks like our own marks (`del`,
//! `ins`, `mark`) keeps its meaning but is shown as `s`, `u` and `span`, so the only marks
//! in the output are the comparison's.

use super::format::Format;
use super::names::{attribute, attributes, is_dropped, is_plain_name, output_name};
use super::objects::{is_whole, push_object};
use super::parsing::OpenElements;
use super::words::{Piece, Splitter, normalize};
use super::{FastMap, ImageFile};
use scraper::{Html, Node};
use std::borrow::Cow;
use std::ops::Range;
use std::rc::Rc;
use wcs_core::content::links::linked_uids;

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
    /// An image, frame, rule or custom element, compared as one piece. Boxed because objects
    /// are rare and large: atoms stay small, so the many words move and drop cheaply.
    Object(Box<Object>),
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
    ids: FastMap<String, u32>,
    /// Which keys are words or objects (rather than punctuation).
    pub weighty: Vec<bool>,
}

impl Interner {
    pub(super) fn intern(&mut self, key: &str, weighty: bool) -> u32 {
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

/// What flattening one side needs to know about the page.
pub(super) struct SideInfo<'a> {
    /// Whether a uid is the page's own or one of its blocks'.
    pub same_page: &'a dyn Fn(&str) -> bool,
    /// The stored file of the image object a uid names, on this side.
    pub image_file: &'a dyn Fn(&str) -> Option<ImageFile>,
}

/// A node the walk over a parsed side is inside.
struct Opened {
    node: ego_tree::NodeId,
    /// Our element for it; `None` when it is not kept.
    element: Option<ElementId>,
    /// How many atoms there were when it opened (none since: it shows as empty).
    atoms_before: usize,
    /// The kept elements open inside it, as the output will have them open.
    within: OpenElements,
}

/// Parses one side and flattens it into atoms.
///
/// An element is kept only where the output can nest it as the parser did (see
/// [`OpenElements`]); the content of any other belongs to its parent.
pub(super) fn flatten(html: &str, interner: &mut Interner, side: &SideInfo<'_>) -> Document {
    let parsed = Html::parse_fragment(html);
    // About one atom per four bytes of markup in running text, whose text is nearly all of
    // the markup: sized so that neither grows in the common case.
    let atoms = Vec::with_capacity(html.len() / 3);
    let mut doc = Document { elements: Vec::new(), atoms, text: String::with_capacity(html.len()) };
    let root_format = Rc::new(Format::root());
    let mut open: Vec<Opened> = Vec::new();
    let mut skip_until: Option<ego_tree::NodeId> = None;
    let mut splitter = Splitter::default();
    let current = |open: &[Opened]| open.iter().rev().find_map(|o| o.element);
    let within_open = |open: &[Opened]| open.last().map_or_else(OpenElements::default, |o| o.within);
    for edge in parsed.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => {
                if skip_until.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(e) => {
                        let name = e.name();
                        let (parent, within) = (current(&open), within_open(&open));
                        let unkept = Opened { node: node.id(), element: None, atoms_before: doc.atoms.len(), within };
                        // The fragment parser's own `html` wrapper is the top level.
                        if node.parent().is_some_and(|p| p.value().is_fragment()) {
                            open.push(unkept);
                            continue;
                        }
                        if is_dropped(name) {
                            skip_until = Some(node.id());
                            continue;
                        }
                        if is_whole(e) || matches!(name, "img" | "hr" | "iframe") {
                            push_object(&mut doc, interner, node, e, parent, &within, side);
                            skip_until = Some(node.id());
                            continue;
                        }
                        if name == "br" {
                            doc.atoms.push(Atom { kind: AtomKind::Break, text: 0..0, element: parent, key: 0 });
                            skip_until = Some(node.id());
                            continue;
                        }
                        if !is_plain_name(name) || !within.opens(output_name(name)) {
                            open.push(unkept);
                            continue;
                        }
                        let id = push_element(&mut doc, e, parent, &root_format, side);
                        let within = within.inside(doc.elements[id].name);
                        open.push(Opened { element: Some(id), within, ..unkept });
                    }
                    Node::Text(t) => push_text(&mut doc, interner, &mut splitter, &t.text, current(&open)),
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
                if open.last().is_some_and(|o| o.node == node.id())
                    && let Some(Opened { element: Some(element), atoms_before, .. }) = open.pop()
                    && doc.atoms.len() == atoms_before
                {
                    doc.atoms.push(Atom { kind: AtomKind::Empty, text: 0..0, element: Some(element), key: 0 });
                }
            }
        }
    }
    doc
}

/// Adds an element whose content is looked into; its format is its parent's with its own
/// (bold, a link that leaves the page…) on top.
fn push_element(
    doc: &mut Document,
    element: &scraper::node::Element,
    parent: Option<ElementId>,
    root_format: &Rc<Format>,
    side: &SideInfo<'_>,
) -> ElementId {
    let name = element.name();
    let attrs = attributes(element);
    let link = (name == "a")
        .then(|| attribute(&attrs, "href"))
        .flatten()
        .filter(|href| !is_within_page(href, side.same_page))
        .map(|href| Rc::from(href.trim()));
    let parent_format = parent.map_or(root_format, |p| &doc.elements[p].format);
    let format = Rc::new(parent_format.inside(name, link));
    let id = doc.elements.len();
    doc.elements.push(Element { name: output_name(name), attrs, parent, children: Vec::new(), format });
    if let Some(p) = parent {
        doc.elements[p].children.push(id);
    }
    id
}

fn push_text(
    doc: &mut Document,
    interner: &mut Interner,
    splitter: &mut Splitter,
    text: &str,
    element: Option<ElementId>,
) {
    let text = normalize(text);
    splitter.pieces(&text, |piece, part| {
        let start = doc.text.len();
        doc.text.push_str(part);
        let range = start..doc.text.len();
        let (kind, key) = match piece {
            Piece::Space => (AtomKind::Space, 0),
            Piece::Word => (AtomKind::Word, interner.intern(part, true)),
            Piece::Punct => (AtomKind::Punct, interner.intern(part, false)),
        };
        doc.atoms.push(Atom { kind, text: range, element, key });
    });
}
