//! The HTML policy of rich text: what is kept when text is stored and what is sent.
//!
//! Both keep embedded frames (`iframe`) whose source is http(s), because editors embed maps
//! and videos that way. Stored text also keeps custom elements (names with `-`, such as
//! `<x-karte>`) with their safe attributes: nothing an editor placed is lost, and the version
//! comparison, which compares such elements as a whole, sees them. Text sent to clients drops
//! the custom element tags (their text stays); only the comparison shows them.
//!
//! ammonia allowlists tags by exact name, so custom elements are found first (a cheap scan
//! decides whether a parse is needed at all) and allowed by name for that one piece of text.

use ammonia::Builder;
use scraper::{Html, Node};
use std::borrow::Cow;
use std::sync::LazyLock;

/// Attributes an `iframe` keeps.
const FRAME_ATTRIBUTES: [&str; 6] = ["src", "title", "width", "height", "allow", "allowfullscreen"];

/// Names the HTML standard reserves although they contain `-` (SVG and MathML elements).
const RESERVED_NAMES: [&str; 8] = [
    "annotation-xml",
    "color-profile",
    "font-face",
    "font-face-src",
    "font-face-uri",
    "font-face-format",
    "font-face-name",
    "missing-glyph",
];

/// Attributes a custom element never keeps: behaviour, styling and identity are the page's,
/// not the text's.
const UNSAFE_CUSTOM_ATTRIBUTES: [&str; 8] = ["style", "class", "id", "is", "srcdoc", "action", "formaction", "xmlns"];

/// Whether `name` is a valid custom element name (lowercase, with `-`, not reserved).
pub fn is_custom_element_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.contains('-')
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_'))
        && !RESERVED_NAMES.contains(&name)
}

/// Whether a custom element may keep an attribute: a plain name that is no event handler and
/// none of [`UNSAFE_CUSTOM_ATTRIBUTES`]. URL-valued ones (`src`, `href`) are checked by value
/// as on every element.
pub fn is_safe_custom_attribute(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_'))
        && !name.starts_with("on")
        && !UNSAFE_CUSTOM_ATTRIBUTES.contains(&name)
}

/// Whether a frame may load `url`: http or https, or a relative URL (which the browser
/// resolves against the page, so also http(s)). `javascript:`, `data:` and other schemes are
/// refused.
pub fn is_frame_source(url: &str) -> bool {
    let url = url.trim();
    match url.find([':', '/', '?', '#']) {
        Some(pos) if url[pos..].starts_with(':') => {
            let scheme = url[..pos].to_ascii_lowercase();
            scheme == "http" || scheme == "https"
        }
        _ => true,
    }
}

/// The custom elements in a piece of markup: their names and the safe attributes they use.
#[derive(Debug, Default)]
pub struct CustomElements {
    elements: Vec<(String, Vec<String>)>,
}

impl CustomElements {
    /// Finds them; markup without a tag name containing `-` is not parsed.
    pub fn scan(html: &str) -> CustomElements {
        if !may_contain_custom_element(html) {
            return CustomElements::default();
        }
        let mut elements: Vec<(String, Vec<String>)> = Vec::new();
        let parsed = Html::parse_fragment(html);
        for node in parsed.tree.root().descendants() {
            let Node::Element(element) = node.value() else { continue };
            if &*element.name.ns != "http://www.w3.org/1999/xhtml" || !is_custom_element_name(element.name()) {
                continue;
            }
            let index = match elements.iter().position(|(name, _)| name == element.name()) {
                Some(index) => index,
                None => {
                    elements.push((element.name().to_owned(), Vec::new()));
                    elements.len() - 1
                }
            };
            let attributes = &mut elements[index].1;
            for (name, _) in element.attrs() {
                if is_safe_custom_attribute(name) && !attributes.iter().any(|a| a == name) {
                    attributes.push(name.to_owned());
                }
            }
        }
        CustomElements { elements }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Their names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.elements.iter().map(|(name, _)| name.as_str())
    }
}

/// Whether some `<name` in `html` has a `-` in the name: the only way a custom element can
/// be there.
fn may_contain_custom_element(html: &str) -> bool {
    html.match_indices('<').any(|(at, _)| {
        let name: &str = html[at + 1..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
            .next()
            .unwrap_or_default();
        name.starts_with(|c: char| c.is_ascii_alphabetic()) && name.contains('-')
    })
}

/// ammonia's defaults plus frames with http(s) sources and the custom elements given; the
/// version comparison adds its own classes to it.
pub fn policy(custom: &CustomElements) -> Builder<'_> {
    let mut builder = Builder::default();
    builder.add_tags(["iframe"]).add_tag_attributes("iframe", FRAME_ATTRIBUTES).attribute_filter(keep_attribute);
    for (name, attributes) in &custom.elements {
        builder.add_tags([name.as_str()]).add_tag_attributes(name.as_str(), attributes.iter().map(String::as_str));
    }
    builder
}

/// Drops a frame source that is not http(s), and any attribute of a custom element whose value
/// is a script URL: ammonia checks URLs only in the attributes HTML defines as URLs, but a
/// custom element's script may load any of its attributes (`data`, `url`, `target-href`).
fn keep_attribute<'u>(element: &str, attribute: &str, value: &'u str) -> Option<Cow<'u, str>> {
    if element == "iframe" && attribute == "src" && !is_frame_source(value) {
        return None;
    }
    if element.contains('-') && is_script_url(value) {
        return None;
    }
    Some(Cow::Borrowed(value))
}

/// Whether a browser would read `value` as a `javascript:` or `vbscript:` URL: C0 controls and
/// spaces around it are ignored, and tabs and line breaks anywhere in it.
fn is_script_url(value: &str) -> bool {
    let scheme: String = value
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take("javascript:".len())
        .collect::<String>()
        .to_ascii_lowercase();
    scheme.starts_with("javascript:") || scheme.starts_with("vbscript:")
}

/// Cleans rich text on its way into storage: keeps frames and custom elements.
pub fn sanitize_for_storage(html: &str) -> String {
    let custom = CustomElements::scan(html);
    policy(&custom).clean(html).to_string()
}

/// Cleans rich text on its way to a reader: keeps frames, drops the tags of custom elements.
pub fn sanitize_html(html: &str) -> String {
    OUTPUT.clean(html).to_string()
}

/// Stored rich text as readers get it. Text is sanitised when it is stored
/// ([`sanitize_for_storage`]), so a read only has work to do where the output policy differs:
/// custom element tags, which a cheap scan finds. Reads of ordinary text parse nothing.
pub fn stored_for_output(stored: &str) -> Cow<'_, str> {
    if may_contain_custom_element(stored) { Cow::Owned(sanitize_html(stored)) } else { Cow::Borrowed(stored) }
}

/// The deepest element nesting rich text may have. Parsing deeply nested markup costs far more
/// than its length suggests (html5ever's tree building is quadratic in the depth), and no
/// editor writes a hundred levels.
pub const MAX_NESTING: usize = 100;

/// Elements that never hold content.
const VOID_ELEMENTS: [&str; 14] =
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// Elements whose end tag may be left out: their next sibling closes them, so they do not nest.
const OPTIONAL_END: [&str; 15] =
    ["p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup", "rt", "rp"];

/// How deeply the elements of `html` nest, by one linear scan of its tags, never counting less
/// than the nesting a parser would build (over-counting a little where markup is broken). An
/// end tag closes only the innermost open element of its name: a parser ignores end tags that
/// match nothing (or that a block in between keeps out), so counting those down would let
/// stray `</x>` tags hide any depth. `<div/>` opens a div, as it does for a parser (the slash
/// counts only on void elements and in SVG, which the sanitiser drops).
pub fn nesting_depth(html: &str) -> usize {
    let mut open: Vec<String> = Vec::new();
    let mut deepest = 0usize;
    let mut at = 0;
    while let Some(offset) = html[at..].find('<') {
        let start = at + offset + 1;
        at = start;
        let closing = html.as_bytes().get(start) == Some(&b'/');
        let name_start = if closing { start + 1 } else { start };
        let name_end = html[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .map_or(html.len(), |end| name_start + end);
        let name = html[name_start..name_end].to_ascii_lowercase();
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) || OPTIONAL_END.contains(&name.as_str()) {
            continue;
        }
        if closing {
            if open.last() == Some(&name) {
                open.pop();
            }
        } else if !VOID_ELEMENTS.contains(&name.as_str()) {
            open.push(name);
            deepest = deepest.max(open.len());
        }
    }
    deepest
}

/// The output policy is the same for every text, so it is built once.
static NO_CUSTOM_ELEMENTS: LazyLock<CustomElements> = LazyLock::new(CustomElements::default);
static OUTPUT: LazyLock<Builder<'static>> = LazyLock::new(|| policy(&NO_CUSTOM_ELEMENTS));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_measured_in_one_pass() {
        assert_eq!(nesting_depth("<p>plain <b>bold <i>both</i></b></p>"), 2);
        assert_eq!(nesting_depth("<ul><li>a<li>b</ul><br><img src=x><hr/>"), 1);
        assert_eq!(nesting_depth(&"<ul>".repeat(120_000)), 120_000);
        assert_eq!(nesting_depth(&"<div>x</div>".repeat(1_000)), 1);
        assert_eq!(nesting_depth("a < b and <3 and </>"), 0);
        assert_eq!(nesting_depth("<b><i>x</b></i>"), 2, "misnested tags count as still open");
        assert_eq!(stored_for_output("<p>kept as stored</p>"), "<p>kept as stored</p>");
        assert_eq!(stored_for_output("<p><x-karte ort=\"a\">Karte</x-karte></p>"), "<p>Karte</p>");
    }

    /// Found by fuzzing: end tags that close nothing, and self-closing slashes a parser
    /// ignores, hid the depth the parser builds (and so its quadratic cost).
    #[test]
    fn stray_end_tags_and_slashes_cannot_hide_nesting() {
        for hidden in ["<div></x>", "<div></td-x>", "<span><div></span>", "<div/>"] {
            let html = hidden.repeat(MAX_NESTING + 1);
            assert!(nesting_depth(&html) > MAX_NESTING, "{hidden} hides nesting: {}", nesting_depth(&html));
        }
    }

    #[test]
    fn frames_keep_http_sources_only() {
        let stored = sanitize_for_storage(
            "<iframe src=\"https://maps.example/embed?x=1\" onload=\"x()\" srcdoc=\"<b>\"></iframe>\
             <iframe src=\"javascript:alert(1)\"></iframe><iframe src=\"data:text/html,x\"></iframe>",
        );
        assert_eq!(
            stored,
            "<iframe src=\"https://maps.example/embed?x=1\"></iframe><iframe></iframe><iframe></iframe>"
        );
        assert!(is_frame_source("HTTP://a.example/"));
        assert!(is_frame_source("resolveuid/0123456789abcdef0123456789abcdef"));
        assert!(is_frame_source("//cdn.example/embed"));
        assert!(!is_frame_source("mailto:a@example.org"));
        assert!(!is_frame_source(" vbscript:x"));
    }

    #[test]
    fn custom_elements_are_stored_with_safe_attributes_and_dropped_on_output() {
        let html = "<p>Karte:</p><x-karte lat=\"47.3\" data-zoom=\"12\" onclick=\"x()\" style=\"color:red\" \
                    class=\"c\" src=\"javascript:x\">Bern <b>Mitte</b></x-karte>";
        let stored = sanitize_for_storage(html);
        assert_eq!(stored, "<p>Karte:</p><x-karte lat=\"47.3\" data-zoom=\"12\">Bern <b>Mitte</b></x-karte>");
        assert_eq!(sanitize_html(&stored), "<p>Karte:</p>Bern <b>Mitte</b>");
    }

    /// Found by fuzzing: ammonia checks URLs only in attributes HTML defines as URLs, so
    /// `data="javascript:…"` stayed on a custom element, whose script may load it.
    #[test]
    fn custom_elements_keep_no_script_url_in_any_attribute() {
        let html = "<x-karte data=\"javascript:x\" url=\" \tJava\nScript:x\" target=\"vbscript:y\" \
                    ort=\"javascript-freie Zone\" link=\"https://maps.example/\">Bern</x-karte>";
        assert_eq!(
            sanitize_for_storage(html),
            "<x-karte link=\"https://maps.example/\" ort=\"javascript-freie Zone\">Bern</x-karte>"
        );
    }

    #[test]
    fn custom_element_names_follow_the_standard() {
        assert!(is_custom_element_name("x-karte"));
        assert!(is_custom_element_name("my-el.v2_a"));
        assert!(!is_custom_element_name("font-face"));
        assert!(!is_custom_element_name("div"));
        assert!(!is_custom_element_name("-x"));
        assert!(!may_contain_custom_element("<p>a-b</p><hr>"));
        assert!(may_contain_custom_element("<p><X-Karte>"));
        assert!(CustomElements::scan("<svg><font-face></font-face></svg>").is_empty());
    }
}
