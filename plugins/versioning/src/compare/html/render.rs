//! Writing the merged sequence as markup through a stack of open elements: every item names
//! the full path of elements it sits in, the writer closes what the item is not in and opens
//! what is missing, and the mark (`del`, `ins`, `mark`) is always the innermost element. The
//! output is balanced by construction; no tag is ever spliced into text.

use super::document::{Document, ElementId, Object, ObjectMarkup};
pub(super) use crate::render::escape_into;
use std::rc::Rc;

/// An element of the output: one of the current side, or a copy of one of the version's that
/// has no counterpart now (a removed paragraph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Place {
    New(ElementId),
    Old(ElementId),
}

/// How an item differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Status {
    Same,
    /// Only in the version.
    Removed,
    /// Only in the current content.
    Added,
    /// Formatting or properties changed; the title says how.
    Marked(Rc<str>),
}

/// What an item shows.
#[derive(Clone, Copy, Debug)]
pub(super) enum Content<'a> {
    Text(&'a str),
    Break,
    /// Nothing: the item only makes its element appear.
    Nothing,
    Object(&'a Object),
}

/// One piece of output at its place.
#[derive(Clone, Debug)]
pub(super) struct Item<'a> {
    /// Outermost first.
    pub path: Rc<[Place]>,
    pub status: Status,
    pub content: Content<'a>,
}

impl Item<'_> {
    /// Whether leaving the item out hides something (not only whitespace or structure).
    pub fn has_substance(&self) -> bool {
        match self.content {
            Content::Text(text) => !text.trim().is_empty(),
            Content::Object(_) => true,
            Content::Break | Content::Nothing => false,
        }
    }
}

/// The frame classes of an object inside a mark (Bootstrap 5.3 border utilities).
pub(super) fn frame(status: &Status) -> Option<&'static str> {
    match status {
        Status::Same => None,
        Status::Removed => Some("border border-3 border-danger"),
        Status::Added => Some("border border-3 border-success"),
        Status::Marked(_) => Some("border border-3 border-warning"),
    }
}

/// The marker written where unchanged parts were left out.
pub(super) const GAP: &str = "<p class=\"text-body-secondary\">\u{2026}</p>";

/// Writes items as markup.
pub(super) struct Writer<'d> {
    pub out: String,
    stack: Vec<Place>,
    wrapper: Option<Status>,
    old: &'d Document,
    new: &'d Document,
}

impl<'d> Writer<'d> {
    pub fn new(old: &'d Document, new: &'d Document, capacity: usize) -> Writer<'d> {
        Writer { out: String::with_capacity(capacity), stack: Vec::new(), wrapper: None, old, new }
    }

    fn close_wrapper(&mut self) {
        if let Some(status) = self.wrapper.take() {
            self.out.push_str(match status {
                Status::Removed => "</del>",
                Status::Added => "</ins>",
                Status::Marked(_) | Status::Same => "</mark>",
            });
        }
    }

    /// Closes everything open.
    pub fn close_all(&mut self) {
        self.close_wrapper();
        while let Some(place) = self.stack.pop() {
            self.close(place);
        }
    }

    /// Writes the gap marker at the top level.
    pub fn gap(&mut self) {
        self.close_all();
        self.out.push_str(GAP);
    }

    fn element(&self, place: Place) -> &'d super::document::Element {
        match place {
            Place::New(e) => &self.new.elements[e],
            Place::Old(e) => &self.old.elements[e],
        }
    }

    fn open(&mut self, place: Place) {
        let element = self.element(place);
        open_tag(&mut self.out, element.name, &element.attrs, None);
        self.stack.push(place);
    }

    fn close(&mut self, place: Place) {
        let name = self.element(place).name;
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    /// Writes one item.
    pub fn write(&mut self, item: &Item<'_>) {
        let common = self.stack.iter().zip(item.path.iter()).take_while(|(a, b)| a == b).count();
        let leaves = common < self.stack.len() || common < item.path.len();
        if self.wrapper.is_some() && (leaves || self.wrapper.as_ref() != Some(&item.status)) {
            self.close_wrapper();
        }
        while self.stack.len() > common {
            if let Some(place) = self.stack.pop() {
                self.close(place);
            }
        }
        for place in &item.path[common..] {
            self.open(*place);
        }
        if self.wrapper.is_none() && item.status != Status::Same {
            match &item.status {
                Status::Removed => self.out.push_str("<del>"),
                Status::Added => self.out.push_str("<ins>"),
                Status::Marked(title) => {
                    self.out.push_str("<mark title=\"");
                    escape_into(&mut self.out, title);
                    self.out.push_str("\">");
                }
                Status::Same => {}
            }
            self.wrapper = Some(item.status.clone());
        }
        match item.content {
            Content::Text(text) => escape_into(&mut self.out, text),
            Content::Break => self.out.push_str("<br>"),
            Content::Nothing => {}
            Content::Object(object) => write_object(&mut self.out, object, frame(&item.status)),
        }
    }
}

fn open_tag(out: &mut String, name: &str, attrs: &[(String, String)], class: Option<&str>) {
    out.push('<');
    out.push_str(name);
    for (attr, value) in attrs {
        out.push(' ');
        out.push_str(attr);
        out.push_str("=\"");
        escape_into(out, value);
        out.push('"');
    }
    if let Some(class) = class {
        out.push_str(" class=\"");
        out.push_str(class);
        out.push('"');
    }
    out.push('>');
}

fn write_object(out: &mut String, object: &Object, class: Option<&str>) {
    match &object.markup {
        ObjectMarkup::Element { name, attrs } => {
            open_tag(out, name, attrs, class);
            if *name == "iframe" {
                out.push_str("</iframe>");
            }
        }
        ObjectMarkup::Whole { name, attrs, inner } => {
            open_tag(out, name, attrs, class);
            out.push_str(inner);
            out.push_str("</");
            out.push_str(name);
            out.push('>');
        }
    }
}
