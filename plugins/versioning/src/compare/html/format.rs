//! The formatting a word is shown with, and how a change of it is described.
//!
//! Every element contributes to the format of the text inside it: the kind of text block it
//! sits in (paragraph, heading, list item…), inline styles (bold, italic…) and the target of
//! the link around it. Equal words whose format differs are marked, not deleted and inserted.

use std::rc::Rc;
use wcs_core::i18n::Translator;

/// The kind of text block the innermost block element makes of its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BlockKind {
    Paragraph,
    Heading(u8),
    ListItem,
    Quotation,
    Preformatted,
    TableCell,
}

/// Inline styles, one bit each.
pub(super) mod style {
    pub const BOLD: u16 = 1;
    pub const ITALIC: u16 = 1 << 1;
    pub const UNDERLINE: u16 = 1 << 2;
    pub const STRIKE: u16 = 1 << 3;
    pub const SUBSCRIPT: u16 = 1 << 4;
    pub const SUPERSCRIPT: u16 = 1 << 5;
    pub const CODE: u16 = 1 << 6;
    pub const HIGHLIGHT: u16 = 1 << 7;
    /// Every style with the message id of its name, in the order titles list them.
    pub const ALL: [(u16, &str); 8] = [
        (BOLD, "versioning-style-bold"),
        (ITALIC, "versioning-style-italic"),
        (UNDERLINE, "versioning-style-underline"),
        (STRIKE, "versioning-style-strike"),
        (SUBSCRIPT, "versioning-style-subscript"),
        (SUPERSCRIPT, "versioning-style-superscript"),
        (CODE, "versioning-style-code"),
        (HIGHLIGHT, "versioning-style-highlight"),
    ];
}

/// The format of text inside an element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Format {
    pub block: BlockKind,
    pub styles: u16,
    /// The link target; links within the page are not links to the comparison.
    pub link: Option<Rc<str>>,
}

impl Format {
    /// Text outside any element: a plain paragraph.
    pub fn root() -> Format {
        Format { block: BlockKind::Paragraph, styles: 0, link: None }
    }

    /// The format inside a child element named `name` (its link target given when it has
    /// one that counts).
    pub fn inside(&self, name: &str, link: Option<Rc<str>>) -> Format {
        let mut format = self.clone();
        match name {
            "p" => format.block = BlockKind::Paragraph,
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                format.block = BlockKind::Heading(name.as_bytes()[1] - b'0');
            }
            "li" | "dt" | "dd" => format.block = BlockKind::ListItem,
            "blockquote" => format.block = BlockKind::Quotation,
            "pre" => format.block = BlockKind::Preformatted,
            "td" | "th" => format.block = BlockKind::TableCell,
            "b" | "strong" => format.styles |= style::BOLD,
            "i" | "em" | "cite" | "var" => format.styles |= style::ITALIC,
            "u" | "ins" => format.styles |= style::UNDERLINE,
            "s" | "strike" | "del" => format.styles |= style::STRIKE,
            "sub" => format.styles |= style::SUBSCRIPT,
            "sup" => format.styles |= style::SUPERSCRIPT,
            "code" | "kbd" | "samp" | "tt" => format.styles |= style::CODE,
            "mark" => format.styles |= style::HIGHLIGHT,
            "a" => format.link = link,
            _ => {}
        }
        format
    }
}

fn block_name(kind: BlockKind, t: &Translator<'_>) -> String {
    match kind {
        BlockKind::Paragraph => t.text("versioning-block-paragraph"),
        BlockKind::Heading(level) => t.text_with("versioning-block-heading", &[("level", level.to_string())]),
        BlockKind::ListItem => t.text("versioning-block-list-item"),
        BlockKind::Quotation => t.text("versioning-block-quotation"),
        BlockKind::Preformatted => t.text("versioning-block-preformatted"),
        BlockKind::TableCell => t.text("versioning-block-table-cell"),
    }
}

/// What changed from `old` to `new`, as the title of a `<mark>`: "bold added; link target
/// changed from A to B; paragraph → heading 2".
pub(super) fn describe(old: &Format, new: &Format, t: &Translator<'_>) -> String {
    let mut parts = Vec::new();
    for (bit, id) in style::ALL {
        let name = || t.text(id);
        match (old.styles & bit != 0, new.styles & bit != 0) {
            (false, true) => parts.push(t.text_with("versioning-mark-added", &[("what", name())])),
            (true, false) => parts.push(t.text_with("versioning-mark-removed", &[("what", name())])),
            _ => {}
        }
    }
    match (&old.link, &new.link) {
        (None, Some(target)) => {
            parts.push(t.text_with("versioning-mark-link-added", &[("target", target.to_string())]))
        }
        (Some(target), None) => {
            parts.push(t.text_with("versioning-mark-link-removed", &[("target", target.to_string())]))
        }
        (Some(a), Some(b)) if a != b => {
            parts.push(t.text_with("versioning-mark-link-changed", &[("old", a.to_string()), ("new", b.to_string())]))
        }
        _ => {}
    }
    if old.block != new.block {
        parts.push(t.text_with(
            "versioning-mark-block",
            &[("old", block_name(old.block, t)), ("new", block_name(new.block, t))],
        ));
    }
    parts.join("; ")
}
