//! Which nestings a parser reads back as they are written.
//!
//! A parsed tree is not always what its own markup parses to: the parser's repairs (foster
//! parenting out of tables, the adoption of misnested formatting) build nestings that it
//! undoes when it reads them again: a list item inside a list item, a paragraph inside a
//! paragraph, a link inside a link. Written as they are, such an element makes the parser
//! that reads the comparison (the sanitiser, then the browser) first close the elements
//! around it, and with them any mark it sits in, so the rest of a removed object's text
//! would read as kept. The comparison therefore keeps an element only where its start tag
//! opens it in place; the content of any other goes into its parent (its text stays, its
//! tags go).
//!
//! The rules are those of the "in body" and table insertion modes of the HTML standard (as
//! html5ever implements them), for the names the comparison writes. Everything it writes is
//! closed explicitly, so when every start tag opens in place, nothing is ever closed
//! implicitly and the markup reads back as the tree it was written from. The markup is read
//! twice: by the sanitiser, which then drops the tags it does not allow (`section`, `main`…),
//! and by the reader, who gets their content directly in the element around them; the rules
//! are applied so that both readings keep the nesting.

use super::sanitize::keeps_tags;

/// The open elements at a point of the output, reduced to what decides whether a start tag
/// makes the parser close some of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct OpenElements {
    /// What the innermost open element is, as far as that matters.
    current: Current,
    /// A list item that a new `li` closes: one reached before any special element other
    /// than `address`, `div` and `p`.
    list_item: bool,
    /// Likewise a `dd` or `dt`, which a new `dd` or `dt` closes.
    definition: bool,
    /// A paragraph in button scope, which block-level start tags close.
    paragraph: bool,
    /// A link among the active formatting elements (after the last marker): a new `a` runs
    /// the adoption agency, which closes it.
    link: bool,
}

/// The kinds of innermost element some start tags depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Current {
    #[default]
    Other,
    /// `h1`–`h6`: a new heading closes it.
    Heading,
    /// An element a ruby annotation (`rp`, `rt`) may close by implication.
    Implied,
    Table,
    /// `tbody`, `thead` or `tfoot`.
    TableSection,
    Row,
}

impl OpenElements {
    /// Whether a start tag of `name` opens its element inside the current one, closing
    /// nothing and moving nowhere.
    pub fn opens(&self, name: &str) -> bool {
        match name {
            "caption" | "colgroup" | "tbody" | "thead" | "tfoot" => self.current == Current::Table,
            "tr" => matches!(self.current, Current::Table | Current::TableSection),
            "td" | "th" => self.current == Current::Row,
            // Anything else inside a table but outside its cells is moved before the table.
            _ if matches!(self.current, Current::Table | Current::TableSection | Current::Row) => false,
            "li" if self.list_item => false,
            "dd" | "dt" if self.definition => false,
            "a" if self.link => false,
            "rp" | "rt" if self.current == Current::Implied => false,
            _ if self.paragraph && closes_paragraph(name) => false,
            _ => !(is_heading(name) && self.current == Current::Heading),
        }
    }

    /// The open elements once `name` is open inside these.
    ///
    /// An element whose tags the sanitiser drops is open while the sanitiser reads the output
    /// but not when the reader does, so what it holds has to open in place both ways: inside
    /// it, the stricter of the two holds.
    pub fn inside(&self, name: &str) -> OpenElements {
        let opened = self.opened(name);
        if keeps_tags(name) { opened } else { opened.stricter(self) }
    }

    /// The open elements with `name` open inside these.
    fn opened(&self, name: &str) -> OpenElements {
        let passed = !is_special(name) || matches!(name, "address" | "div" | "p");
        OpenElements {
            current: match name {
                "table" => Current::Table,
                "tbody" | "thead" | "tfoot" => Current::TableSection,
                "tr" => Current::Row,
                "p" | "li" | "dd" | "dt" | "rp" | "rt" => Current::Implied,
                _ if is_heading(name) => Current::Heading,
                _ => Current::Other,
            },
            list_item: name == "li" || passed && self.list_item,
            definition: matches!(name, "dd" | "dt") || passed && self.definition,
            paragraph: name == "p" || !bounds_button_scope(name) && self.paragraph,
            link: name == "a" || !is_marker(name) && self.link,
        }
    }

    /// Open elements in which a start tag opens in place only if it does in both.
    fn stricter(&self, other: &OpenElements) -> OpenElements {
        OpenElements {
            current: self.current.stricter(other.current),
            list_item: self.list_item || other.list_item,
            definition: self.definition || other.definition,
            paragraph: self.paragraph || other.paragraph,
            link: self.link || other.link,
        }
    }
}

impl Current {
    /// The kind that lets fewer start tags open: any kind rather than none, a table section
    /// rather than its table. (The elements the sanitiser drops are no other kind, so no
    /// other pair meets.)
    fn stricter(self, other: Current) -> Current {
        match (self, other) {
            (Current::Other, kind) | (kind, Current::Other) => kind,
            (Current::Table, Current::TableSection) | (Current::TableSection, Current::Table) => Current::TableSection,
            (kind, _) => kind,
        }
    }
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Start tags that close a paragraph in button scope.
fn closes_paragraph(name: &str) -> bool {
    is_heading(name)
        || matches!(
            name,
            "address"
                | "article"
                | "aside"
                | "blockquote"
                | "center"
                | "details"
                | "dialog"
                | "dir"
                | "div"
                | "dl"
                | "fieldset"
                | "figcaption"
                | "figure"
                | "footer"
                | "header"
                | "hgroup"
                | "main"
                | "menu"
                | "nav"
                | "ol"
                | "p"
                | "search"
                | "section"
                | "summary"
                | "ul"
                | "pre"
                | "listing"
                | "form"
                | "li"
                | "dd"
                | "dt"
                | "plaintext"
                | "table"
                | "hr"
                | "xmp"
        )
}

/// Elements a paragraph further out is not in button scope beyond.
fn bounds_button_scope(name: &str) -> bool {
    matches!(
        name,
        "applet" | "caption" | "html" | "table" | "td" | "th" | "marquee" | "object" | "select" | "template" | "button"
    )
}

/// Elements that put a marker on the list of active formatting elements: links opened
/// outside them are not considered inside.
fn is_marker(name: &str) -> bool {
    matches!(name, "applet" | "caption" | "marquee" | "object" | "template" | "td" | "th")
}

/// The standard's special elements (HTML namespace), which stop the search for a list item
/// to close.
fn is_special(name: &str) -> bool {
    is_heading(name)
        || matches!(
            name,
            "address"
                | "applet"
                | "area"
                | "article"
                | "aside"
                | "base"
                | "basefont"
                | "bgsound"
                | "blockquote"
                | "body"
                | "br"
                | "button"
                | "caption"
                | "center"
                | "col"
                | "colgroup"
                | "dd"
                | "details"
                | "dir"
                | "div"
                | "dl"
                | "dt"
                | "embed"
                | "fieldset"
                | "figcaption"
                | "figure"
                | "footer"
                | "form"
                | "frame"
                | "frameset"
                | "head"
                | "header"
                | "hgroup"
                | "hr"
                | "html"
                | "iframe"
                | "img"
                | "input"
                | "li"
                | "link"
                | "listing"
                | "main"
                | "marquee"
                | "menu"
                | "meta"
                | "nav"
                | "noembed"
                | "noframes"
                | "noscript"
                | "object"
                | "ol"
                | "p"
                | "param"
                | "plaintext"
                | "pre"
                | "script"
                | "search"
                | "section"
                | "select"
                | "source"
                | "style"
                | "summary"
                | "table"
                | "tbody"
                | "td"
                | "template"
                | "textarea"
                | "tfoot"
                | "th"
                | "thead"
                | "title"
                | "tr"
                | "track"
                | "ul"
                | "wbr"
                | "xmp"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within(names: &[&str]) -> OpenElements {
        names.iter().fold(OpenElements::default(), |open, name| open.inside(name))
    }

    #[test]
    fn a_list_item_inside_an_item_through_inline_elements_closes_it() {
        assert!(!within(&["ul", "li", "x-card"]).opens("li"));
        assert!(within(&["ul", "li", "x-card", "ul"]).opens("li"));
        assert!(!within(&["ul", "li", "div"]).opens("li"));
    }

    #[test]
    fn blocks_close_a_paragraph_unless_a_table_cell_lies_between() {
        assert!(!within(&["p", "span"]).opens("div"));
        assert!(within(&["p", "span"]).opens("b"));
        assert!(within(&["p", "x-card", "table", "tbody", "tr", "td"]).opens("div"));
    }

    #[test]
    fn table_parts_open_only_in_their_place_and_nothing_else_does() {
        let row = within(&["table", "tbody", "tr"]);
        assert!(row.opens("td") && !row.opens("tr") && !row.opens("span"));
        assert!(within(&["table"]).opens("tbody") && !within(&["div"]).opens("td"));
    }

    #[test]
    fn links_close_links_outside_table_cells_only() {
        assert!(!within(&["a", "span"]).opens("a"));
        assert!(within(&["a", "table", "tbody", "tr", "td"]).opens("a"));
    }

    #[test]
    fn elements_the_sanitiser_drops_do_not_separate_what_they_held() {
        assert!(!within(&["dl", "dt", "x-box", "section"]).opens("dd"));
        assert!(!within(&["ul", "li", "section"]).opens("li"));
        let footer = within(&["table", "tfoot"]);
        assert!(footer.opens("tr") && !footer.opens("tbody"));
    }

    #[test]
    fn a_heading_closes_a_heading_it_is_directly_in() {
        assert!(!within(&["h2"]).opens("h3"));
        assert!(within(&["h2", "span"]).opens("h3"));
    }
}
