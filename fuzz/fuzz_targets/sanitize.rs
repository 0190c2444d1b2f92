//! Rich text on its way into storage and out to readers: the nesting bound checked first
//! (`nesting_depth`, which keeps the HTML parser's quadratic cost in depth away), the storage
//! policy (frames, custom elements) and the output policy.

#![no_main]

use ego_tree::iter::Edge;
use libfuzzer_sys::fuzz_target;
use scraper::Html;
use wcs_core::content::markup::{MAX_NESTING, nesting_depth, sanitize_for_storage, sanitize_html, stored_for_output};

fuzz_target!(|data: &[u8]| {
    let Ok(html) = std::str::from_utf8(data) else { return };

    let counted = nesting_depth(html);
    // The bound stands in for the depth the parser builds, which it must not undercount by
    // more than the few elements a parser adds on its own (`tbody`, an `li`'s list).
    let built = parsed_depth(html);
    assert!(built <= 4 * counted + 8, "counted {counted}, the parser built {built}");
    if counted > MAX_NESTING {
        // Refused before sanitising (a 400).
        return;
    }

    let stored = sanitize_for_storage(html);
    let read = sanitize_html(html);
    for clean in [&stored, &read] {
        check_markup(clean);
    }
    // Stored text is what a later edit sends back. Cleaning it again need not give the same
    // text (a tree html5ever built from misnested input, such as links inside links, parses
    // differently once written out), but it must stay clean.
    check_markup(&sanitize_for_storage(&stored));
    // A read skips the sanitiser for stored text without custom elements; what it gives must
    // be as clean (not always the same text, for the reason above).
    check_markup(&stored_for_output(&stored));
});

/// Attributes a browser loads or follows as URLs. Other attributes of custom elements keep any
/// text: what the page's script makes of them is the page's business.
const URL_ATTRIBUTES: [&str; 10] =
    ["href", "src", "action", "formaction", "poster", "background", "cite", "longdesc", "data", "xlink:href"];

/// No script element, event handler or script URL survives, as a browser parses the text.
/// (Text that merely reads `<script>` inside a frame's raw content is inert.)
fn check_markup(clean: &str) {
    let parsed = Html::parse_fragment(clean);
    for node in parsed.tree.root().descendants() {
        let Some(element) = node.value().as_element() else { continue };
        assert!(!element.name().eq_ignore_ascii_case("script"), "{clean:?}");
        for (name, value) in element.attrs() {
            assert!(!name.to_ascii_lowercase().starts_with("on"), "{name} in {clean:?}");
            if !URL_ATTRIBUTES.contains(&name.to_ascii_lowercase().as_str()) {
                continue;
            }
            // As a browser reads a URL: C0 controls and spaces around it dropped, tabs and
            // line breaks dropped anywhere (other control characters make it relative).
            let value: String = value
                .trim_matches(|c: char| c <= ' ')
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect::<String>()
                .to_ascii_lowercase();
            assert!(!value.starts_with("javascript:") && !value.starts_with("vbscript:"), "{clean:?}");
        }
    }
}

/// The deepest element nesting of the tree html5ever builds for `html` as a fragment, less the
/// `html` element the fragment parser wraps it in.
fn parsed_depth(html: &str) -> usize {
    let parsed = Html::parse_fragment(html);
    let (mut depth, mut deepest) = (0usize, 0usize);
    for edge in parsed.tree.root().traverse() {
        match edge {
            Edge::Open(node) if node.value().is_element() => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            Edge::Close(node) if node.value().is_element() => depth -= 1,
            _ => {}
        }
    }
    deepest.saturating_sub(1)
}
