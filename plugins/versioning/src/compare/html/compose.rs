//! Merging both sides into one sequence of items in the current reading order: every atom of
//! the current side, and each removed stretch of the version spliced in where it stood.

use super::FastMap;
use super::align::Step;
use super::document::{Atom, AtomKind, Document, ElementId};
use super::format::{Format, describe};
use super::map::ElementMap;
use super::render::{Content, Item, Place, Status};
use std::rc::Rc;
use wcs_core::i18n::Translator;

/// Builds the paths of places, remembering them.
struct Paths<'d> {
    old: &'d Document,
    new: &'d Document,
    map: &'d ElementMap,
    /// The path of each element of the current side, once asked for.
    new_known: Vec<Option<Rc<[Place]>>>,
    /// The path of each element of the version shown as a copy, once asked for.
    old_known: Vec<Option<Rc<[Place]>>>,
    top: Rc<[Place]>,
}

impl Paths<'_> {
    /// Where an element of the version is shown: its counterpart, else a copy of it.
    fn translate(&self, element: Option<ElementId>) -> Option<Place> {
        element.map(|e| self.map.get(e).copied().flatten().map_or(Place::Old(e), Place::New))
    }

    /// The places from the top down to `place`, remembered per place asked for (only
    /// those, so deep nesting stays linear).
    fn path(&mut self, place: Option<Place>) -> Rc<[Place]> {
        let Some(place) = place else { return self.top.clone() };
        if let Some(Some(path)) = self.known(place) {
            return path.clone();
        }
        let mut chain = Vec::new();
        let mut at = Some(place);
        while let Some(p) = at {
            chain.push(p);
            at = match p {
                Place::New(e) => self.new.elements[e].parent.map(Place::New),
                Place::Old(e) => self.translate(self.old.elements[e].parent),
            };
        }
        chain.reverse();
        let path: Rc<[Place]> = Rc::from(chain);
        if let Some(slot) = self.known(place) {
            *slot = Some(path.clone());
        }
        path
    }

    /// Where the path of `place` is remembered.
    fn known(&mut self, place: Place) -> Option<&mut Option<Rc<[Place]>>> {
        match place {
            Place::New(e) => self.new_known.get_mut(e),
            Place::Old(e) => self.old_known.get_mut(e),
        }
    }
}

/// The elements two equal atoms sit in (version, current); formats depend only on them.
type ContainerPair = (Option<ElementId>, Option<ElementId>);

/// Merges the aligned sides into items.
pub(super) struct Composer<'d, 't> {
    old: &'d Document,
    new: &'d Document,
    paths: Paths<'d>,
    translator: &'t Translator<'t>,
    titles: FastMap<ContainerPair, Option<Rc<str>>>,
    root: Format,
    pub items: Vec<Item<'d>>,
}

impl<'d, 't> Composer<'d, 't> {
    pub fn new(old: &'d Document, new: &'d Document, map: &'d ElementMap, translator: &'t Translator<'t>) -> Self {
        Composer {
            old,
            new,
            paths: Paths {
                old,
                new,
                map,
                new_known: vec![None; new.elements.len()],
                old_known: vec![None; old.elements.len()],
                top: Rc::from([]),
            },
            translator,
            titles: FastMap::default(),
            root: Format::root(),
            items: Vec::with_capacity(new.atoms.len() + 16),
        }
    }

    fn text(doc: &'d Document, atom: &Atom) -> &'d str {
        doc.text.get(atom.text.clone()).unwrap_or_default()
    }

    fn content(doc: &'d Document, atom: &'d Atom) -> Content<'d> {
        match &atom.kind {
            AtomKind::Word | AtomKind::Punct | AtomKind::Space => Content::Text(Self::text(doc, atom)),
            AtomKind::Break => Content::Break,
            AtomKind::Empty => Content::Nothing,
            AtomKind::Object(object) => Content::Object(object),
        }
    }

    fn format(&self, doc: &'d Document, element: Option<ElementId>) -> &Format {
        element.map_or(&self.root, |e| &doc.elements[e].format)
    }

    /// The status of a pair of equal atoms: marked when formatting or properties differ.
    fn equal_status(&mut self, old_atom: &Atom, new_atom: &Atom) -> Status {
        let key = (old_atom.element, new_atom.element);
        if let Some(title) = self.titles.get(&key) {
            return title.clone().map_or(Status::Same, Status::Marked);
        }
        let old_format = self.format(self.old, old_atom.element);
        let new_format = self.format(self.new, new_atom.element);
        let mut title =
            if old_format == new_format { String::new() } else { describe(old_format, new_format, self.translator) };
        if let (AtomKind::Object(a), AtomKind::Object(b)) = (&old_atom.kind, &new_atom.kind)
            && a.properties != b.properties
        {
            let mut names: Vec<&str> = a
                .properties
                .iter()
                .chain(&b.properties)
                .filter(|(name, value)| {
                    a.properties.iter().chain(&b.properties).filter(|(n, v)| n == name && v == value).count() != 2
                })
                .map(|(name, _)| name.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            let changed = self.translator.text_with("versioning-mark-properties", &[("names", names.join(", "))]);
            title = if title.is_empty() { changed } else { format!("{title}; {changed}") };
        }
        let title: Option<Rc<str>> = (!title.is_empty()).then(|| Rc::from(title));
        // Objects' properties differ per pair, so only formats are remembered.
        if !matches!(new_atom.kind, AtomKind::Object(_)) {
            self.titles.insert(key, title.clone());
        }
        title.map_or(Status::Same, Status::Marked)
    }

    fn push_new(&mut self, index: usize, status: Status) {
        let new = self.new;
        let atom = &new.atoms[index];
        let status = if atom.kind == AtomKind::Empty { Status::Same } else { status };
        let path = self.paths.path(atom.element.map(Place::New));
        self.items.push(Item { path, status, content: Self::content(self.new, atom) });
    }

    /// The current side's atoms before `until` that are not compared (whitespace, breaks,
    /// empty elements), taking the status of their neighbours when both share it.
    fn push_uncompared(&mut self, from: usize, until: usize, next: &Status) {
        for index in from..until {
            let previous = self.items.last().map(|i| &i.status);
            let status = match previous {
                Some(s) if s == next && !matches!(self.new.atoms[index].kind, AtomKind::Empty) => next.clone(),
                _ => Status::Same,
            };
            self.push_new(index, status);
        }
    }

    /// Merges by `steps`; `old_compared`/`new_compared` map step indexes to atoms.
    pub fn compose(&mut self, steps: &[Step], old_compared: &[usize], new_compared: &[usize]) {
        let (old, new) = (self.old, self.new);
        let mut cursor = 0;
        let mut i = 0;
        while i < steps.len() {
            match steps[i] {
                Step::Equal(o, n) => {
                    let (Some(&oi), Some(&ni)) = (old_compared.get(o), new_compared.get(n)) else { break };
                    let status = self.equal_status(&old.atoms[oi], &new.atoms[ni]);
                    self.push_uncompared(cursor, ni, &status);
                    self.push_new(ni, status);
                    cursor = ni + 1;
                }
                Step::Insert(n) => {
                    let Some(&ni) = new_compared.get(n) else { break };
                    self.push_uncompared(cursor, ni, &Status::Added);
                    self.push_new(ni, Status::Added);
                    cursor = ni + 1;
                }
                Step::Delete(first) => {
                    let mut last = first;
                    while let Some(Step::Delete(next)) = steps.get(i + 1) {
                        last = *next;
                        i += 1;
                    }
                    let (Some(&from), Some(&to)) = (old_compared.get(first), old_compared.get(last)) else { break };
                    let next_new = steps[i + 1..].iter().find_map(|s| match s {
                        Step::Equal(_, n) | Step::Insert(n) => new_compared.get(*n).copied(),
                        Step::Delete(_) => None,
                    });
                    let replaced = matches!(steps.get(i + 1), Some(Step::Insert(_)));
                    cursor = self.push_removed(from..=to, cursor, next_new.unwrap_or(new.atoms.len()), replaced);
                }
            }
            i += 1;
        }
        self.push_uncompared(cursor, self.new.atoms.len(), &Status::Same);
    }

    /// Splices the version's atoms `removed` in, before the current atom `next_new`; returns
    /// the new cursor. The stretch goes after the whitespace leading up to `next_new` unless
    /// that whitespace lies outside the stretch's element and the last thing written is in it
    /// (then right after that, so the element is not closed and opened again). Whitespace
    /// around it follows the version, except that a replacement follows its removal directly.
    fn push_removed(
        &mut self,
        removed: std::ops::RangeInclusive<usize>,
        mut cursor: usize,
        next_new: usize,
        replaced: bool,
    ) -> usize {
        let (old, new) = (self.old, self.new);
        let (from, to) = (*removed.start(), *removed.end());
        let place = self.paths.translate(old.atoms[from].element);
        let here = self.items.last().and_then(|i| i.path.last().copied());
        let pending_here = new.atoms[cursor..next_new].iter().all(|a| a.element.map(Place::New) == place);
        if here != place || pending_here {
            self.push_uncompared(cursor, next_new, &Status::Same);
            cursor = next_new;
        }
        // A removed stretch of text from an element that has no counterpart, between two parts
        // of one current element (paragraphs merged), is shown inline there rather than
        // splitting it. Objects never move: a rule or figure inside a paragraph would make
        // the parser restructure the output.
        let next_place = new.atoms.get(next_new).and_then(|a| a.element.map(Place::New));
        let only_text = old.atoms[from..=to].iter().all(|a| !matches!(a.kind, AtomKind::Object(_)));
        let inline = matches!(place, Some(Place::Old(_))) && next_place.is_some() && here == next_place && only_text;
        let place = if inline { here } else { place };
        let before_is_space = from > 0 && old.atoms[from - 1].kind == AtomKind::Space;
        let written_space =
            self.items.last().is_none_or(|i| matches!(i.content, Content::Text(t) if t.trim().is_empty()));
        if before_is_space && !written_space {
            self.push_space(place);
        }
        for atom in &old.atoms[from..=to] {
            if matches!(atom.kind, AtomKind::Break | AtomKind::Empty) {
                continue;
            }
            let shown_in = if inline { place } else { self.paths.translate(atom.element) };
            let path = self.paths.path(shown_in);
            self.items.push(Item { path, status: Status::Removed, content: Self::content(old, atom) });
        }
        let after_is_space = old.atoms.get(to + 1).is_some_and(|a| a.kind == AtomKind::Space);
        let next_is_space = new.atoms.get(cursor).is_some_and(|a| a.kind == AtomKind::Space);
        if (after_is_space || inline) && !next_is_space && !replaced && cursor < new.atoms.len() {
            self.push_space(place);
        }
        cursor
    }

    fn push_space(&mut self, place: Option<Place>) {
        let path = self.paths.path(place);
        self.items.push(Item { path, status: Status::Same, content: Content::Text(" ") });
    }

    /// Everything of the version removed, then everything current added: the answer when
    /// aligning took too long.
    pub fn replace_whole(&mut self) {
        let old = self.old;
        for atom in &old.atoms {
            if matches!(atom.kind, AtomKind::Break | AtomKind::Empty) {
                continue;
            }
            let path = self.paths.path(atom.element.map(Place::Old));
            self.items.push(Item { path, status: Status::Removed, content: Self::content(old, atom) });
        }
        for index in 0..self.new.atoms.len() {
            self.push_new(index, Status::Added);
        }
    }
}
