//! The word-level comparison of two pieces of HTML.
//!
//! Both sides are parsed (html5ever) and flattened into atoms that carry their formatting;
//! the compared atoms (words, punctuation, embedded objects; never whitespace or line breaks)
//! are aligned with a Myers diff under a deadline; equal atoms whose formatting or
//! properties differ become `<mark title="…">`, the rest `<del>`/`<ins>`. The merged
//! sequence is written in the current structure through a stack of open elements, removed
//! text in the place it had, and finally sanitised. When aligning takes too long, the whole
//! version is shown removed and the whole current text added.

mod align;
mod compose;
mod document;
mod format;
mod map;
mod names;
mod objects;
mod parsing;
mod plain;
mod render;
mod sanitize;
mod words;

use compose::Composer;
use document::{Interner, SideInfo, flatten};
use render::{Place, Status, Writer};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use wcs_core::i18n::Translator;

/// The maps of the engine's own keys (words, element pairs), which are many and short-lived:
/// foldhash is much faster than SipHash on them and, seeded per process, still
/// resists crafted collisions, which matters because interning runs before the deadline.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A set of the engine's own keys, for the same reason as [`FastMap`].
type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

/// How long one comparison may align before it falls back to "all removed, all added".
pub const DEFAULT_DEADLINE: Duration = Duration::from_millis(200);

/// Inputs larger than this (per side) are not aligned at all but replaced as a whole.
pub const MAX_ALIGNED_BYTES: usize = 2 * 1024 * 1024;

/// Markup nested deeper than this (estimated without parsing) is not parsed: HTML parsers
/// take time that grows with the square of the depth, so such input is compared as plain
/// text, replaced as a whole.
pub const MAX_NESTING: usize = 2_000;

/// What a comparison needs besides the two texts.
pub struct DiffOptions<'a> {
    /// Writes the titles of marks in the reader's language.
    pub translator: &'a Translator<'a>,
    /// Whether a uid is the page's own or one of its blocks': links to them are not reported.
    pub same_page: &'a dyn Fn(&str) -> bool,
    /// The stored file of the image object a `resolveuid` link names, in the version or now:
    /// an inline image is the same image when this file is (see [`ImageFile`]).
    pub image_file: &'a dyn Fn(Side, &str) -> Option<ImageFile>,
    /// When aligning gives up.
    pub deadline: Duration,
    /// Show only the top-level elements with changes (and a gap marker where others were
    /// left out) rather than everything.
    pub only_changes: bool,
    /// Always show the first top-level element (the block title heading).
    pub keep_first: bool,
}

/// Which side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The selected version.
    Version,
    /// The current content.
    Current,
}

/// What makes two images the same image: the stored file's name and size (SPEC: "An image
/// is unchanged when filename and file size match"). For an inline `img` whose `src` is a
/// `resolveuid` link, it is the file of the image object that link names; an `img` with any
/// other `src` is the same image when the `src` is the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageFile {
    /// The stored file name.
    pub filename: String,
    /// The stored size in bytes.
    pub size: i64,
}

/// For comparisons whose images are not stored objects (tests, benchmarks).
pub fn no_image_files(_: Side, _: &str) -> Option<ImageFile> {
    None
}

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlDiff {
    /// Sanitised, well-formed markup with the marks.
    pub html: String,
    /// Whether anything is reported.
    pub changed: bool,
    /// Whether the deadline (or the size limit) replaced the word diff by a whole
    /// replacement.
    pub replaced_whole: bool,
}

/// Compares `old` (the version) with `new` (the current content).
pub fn diff_html(old: &str, new: &str, options: &DiffOptions<'_>) -> HtmlDiff {
    if plain::nesting(old) > MAX_NESTING || plain::nesting(new) > MAX_NESTING {
        return plain::replace_whole(old, new);
    }
    let deadline = Instant::now() + options.deadline;
    let mut interner = Interner::default();
    let side = |which: Side| move |uid: &str| (options.image_file)(which, uid);
    let (old_files, new_files) = (side(Side::Version), side(Side::Current));
    let old_doc = flatten(old, &mut interner, &SideInfo { same_page: options.same_page, image_file: &old_files });
    let new_doc = flatten(new, &mut interner, &SideInfo { same_page: options.same_page, image_file: &new_files });
    let old_compared: Vec<usize> = (0..old_doc.atoms.len()).filter(|i| old_doc.atoms[*i].is_compared()).collect();
    let new_compared: Vec<usize> = (0..new_doc.atoms.len()).filter(|i| new_doc.atoms[*i].is_compared()).collect();
    let old_keys: Vec<u32> = old_compared.iter().map(|i| old_doc.atoms[*i].key).collect();
    let new_keys: Vec<u32> = new_compared.iter().map(|i| new_doc.atoms[*i].key).collect();
    let too_big = old.len() > MAX_ALIGNED_BYTES || new.len() > MAX_ALIGNED_BYTES;
    let steps = if too_big || Instant::now() >= deadline {
        None
    } else {
        align::align(&old_keys, &new_keys, &interner.weighty, deadline)
    };
    let replaced_whole = steps.is_none();
    let element_map = match &steps {
        Some(steps) => map::map_elements(&old_doc, &new_doc, &old_compared, &new_compared, steps),
        None => vec![None; old_doc.elements.len()],
    };
    let mut composer = Composer::new(&old_doc, &new_doc, &element_map, options.translator);
    match &steps {
        Some(steps) => composer.compose(steps, &old_compared, &new_compared),
        None => composer.replace_whole(),
    }
    let items = composer.items;
    let changed = items.iter().any(|i| i.status != Status::Same && i.has_substance());
    if !changed {
        return HtmlDiff { html: String::new(), changed, replaced_whole };
    }
    let mut writer = Writer::new(&old_doc, &new_doc, new.len() + old.len() / 4 + 64);
    let shown = shown_groups(&items, options);
    let mut gap = false;
    for item in &items {
        let group = item.path.first().copied();
        if shown.as_ref().is_none_or(|s| s.contains(&group)) {
            if gap {
                writer.gap();
                gap = false;
            }
            writer.write(item);
        } else if item.has_substance() {
            gap = true;
        }
    }
    if gap {
        writer.gap();
    }
    writer.close_all();
    HtmlDiff { html: sanitize::sanitize(&writer.out), changed, replaced_whole }
}

/// Whole markup (an added or removed block) cleaned like every comparison.
pub fn clean(html: &str) -> String {
    sanitize::sanitize(html)
}

/// The top-level elements to show (`None` = all): those with a change, and the first when
/// asked to keep it.
fn shown_groups(items: &[render::Item<'_>], options: &DiffOptions<'_>) -> Option<FastSet<Option<Place>>> {
    if !options.only_changes {
        return None;
    }
    let mut shown: FastSet<Option<Place>> = FastSet::default();
    if options.keep_first
        && let Some(first) = items.iter().find_map(|i| i.path.first().copied())
    {
        shown.insert(Some(first));
    }
    for item in items {
        let group = item.path.first().copied();
        if item.status != Status::Same && item.has_substance() {
            shown.insert(group);
        }
    }
    Some(shown)
}
