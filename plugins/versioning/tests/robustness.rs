//! Random and hostile HTML through the comparison: it never panics, what it writes is
//! well-formed, and the marks are honest — dropping every `<ins>` (keeping what `<del>`
//! holds) gives the version's text back, dropping every `<del>` gives the current text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use scraper::{Html, Node};
use std::time::Duration;
use unicode_normalization::UnicodeNormalization;
use wcs_core::i18n::Catalogs;
use wcs_plugin_versioning::{DiffOptions, HtmlDiff, MESSAGES, diff_html, no_image_files};

/// Elements whose text the comparison never shows (scripts, form controls, frames…).
const SILENT: [&str; 26] = [
    "script", "style", "template", "noscript", "head", "title", "meta", "link", "base", "col", "wbr", "input", "area",
    "source", "track", "embed", "param", "keygen", "textarea", "select", "button", "object", "frameset", "frame",
    "iframe", "img",
];

/// The text of `html` as a reader sees it, without any whitespace; `skip` names elements
/// left out with their content (`ins` or `del` in the output).
fn text(html: &str, skip: &str) -> String {
    let parsed = Html::parse_fragment(html);
    let mut out = String::new();
    let mut skipping: Option<ego_tree::NodeId> = None;
    for edge in parsed.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) if skipping.is_none() => match node.value() {
                Node::Element(e) if e.name() == skip || SILENT.contains(&e.name()) => skipping = Some(node.id()),
                Node::Text(t) => out.extend(t.chars().filter(|c| !c.is_whitespace() && !invisible(*c))),
                _ => {}
            },
            ego_tree::iter::Edge::Close(node) if skipping == Some(node.id()) => skipping = None,
            _ => {}
        }
    }
    out.nfc().collect()
}

fn invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// Whether start and end tags of `html` (as the sanitiser writes it) pair up.
fn is_balanced(html: &str) -> bool {
    const VOID: [&str; 13] =
        ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"];
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let mut quoted = false;
        let end = rest.char_indices().find(|(_, c)| {
            if *c == '"' {
                quoted = !quoted;
            }
            *c == '>' && !quoted
        });
        let Some((end, _)) = end else { return false };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let name: String = tag.trim_start_matches('/').chars().take_while(|c| !c.is_whitespace()).collect();
        if tag.starts_with('/') {
            if open.pop().as_deref() != Some(name.as_str()) {
                return false;
            }
        } else if !VOID.contains(&name.as_str()) {
            open.push(name);
        }
    }
    open.is_empty()
}

fn compare(old: &str, new: &str, deadline: Duration) -> HtmlDiff {
    let catalogs = Catalogs::load(&MESSAGES).unwrap();
    let translator = catalogs.translator("en");
    let same_page = |_: &str| false;
    let options = DiffOptions {
        translator: &translator,
        same_page: &same_page,
        image_file: &no_image_files,
        deadline,
        only_changes: false,
        keep_first: false,
    };
    diff_html(old, new, &options)
}

fn check(old: &str, new: &str, deadline: Duration) -> Result<(), TestCaseError> {
    let diff = compare(old, new, deadline);
    prop_assert!(is_balanced(&diff.html), "not well-formed: {}", diff.html);
    prop_assert!(!diff.html.contains("<script") && !diff.html.contains(" on"), "unsafe: {}", diff.html);
    if diff.changed {
        prop_assert_eq!(text(&diff.html, "ins"), text(old, "-"), "old text; output {}", diff.html);
        prop_assert_eq!(text(&diff.html, "del"), text(new, "-"), "new text; output {}", diff.html);
    } else {
        prop_assert_eq!(text(old, "-"), text(new, "-"), "unchanged but the texts differ");
    }
    Ok(())
}

/// Pieces random documents are made of, hostile ones included.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "Haus", "Häuser", "Gro\u{308}ße", "Straße", "und", "der", "1.200,50", "don't", "E-Mail", "漢字", "😀", "x",
        ]).prop_map(|w| format!("{w} ")),
        2 => prop::sample::select(vec![
            "<p>", "</p>", "<b>", "</b>", "<strong>", "<em>", "</em>", "<i>", "<h2>", "</h2>", "<ul><li>", "<li>",
            "</li>", "</ul>", "<table><tr><td>", "<td>", "</td>", "</tr>", "<div>", "</div>", "<span>", "<del>",
            "</del>", "<ins>", "</ins>", "<mark>", "<blockquote>", "<pre>", "<a href=\"https://example.org/a\">",
            "<a href=\"#x\">", "</a>", "<x-card a=\"1\">", "</x-card>", "<br>", "<hr>", "<p onclick=\"alert(1)\">",
            "<script>alert(1)</script>", "<style>p{}</style>", "<img src=\"a.png\" alt=\"A\">",
            "<img src=\"b.png\" onerror=\"alert(1)\">", "<iframe src=\"https://example.org/v\"></iframe>",
            "<svg><text>Bild</text></svg>", "<template><b>t</b></template>", "<textarea>t</textarea>",
            "<!-- c -->", "<", ">", "</", "<p", "\"", "'",
        ]).prop_map(str::to_owned),
        1 => prop::sample::select(vec![
            "&ouml;", "&szlig;", "&amp;", "&nbsp;", "&shy;", "&#x308;", "&#xD800;", "&#1114112;", "&#0;", "&ou",
            "&#x;", "&#99999999999;", "&", "&amp",
        ]).prop_map(str::to_owned),
        1 => "[ \\n\\t]{1,3}",
    ]
}

/// An edit of a document made of pieces.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, String),
    Replace(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), piece()).prop_map(|(i, p)| Edit::Insert(i, p)),
        (any::<usize>(), piece()).prop_map(|(i, p)| Edit::Replace(i, p)),
    ]
}

fn apply(pieces: &[String], edits: &[Edit]) -> String {
    let mut pieces = pieces.to_vec();
    for edit in edits {
        let len = pieces.len().max(1);
        match edit {
            Edit::Delete(i) if !pieces.is_empty() => {
                pieces.remove(i % len);
            }
            Edit::Insert(i, p) => pieces.insert(i % (pieces.len() + 1), p.clone()),
            Edit::Replace(i, p) if !pieces.is_empty() => pieces[i % len] = p.clone(),
            _ => {}
        }
    }
    pieces.concat()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn edited_documents_compare_honestly(pieces in prop::collection::vec(piece(), 0..60), edits in prop::collection::vec(edit(), 0..8)) {
        let old = pieces.concat();
        let new = apply(&pieces, &edits);
        check(&old, &new, Duration::from_secs(30))?;
    }

    #[test]
    fn unrelated_documents_compare_honestly(old in prop::collection::vec(piece(), 0..40), new in prop::collection::vec(piece(), 0..40)) {
        check(&old.concat(), &new.concat(), Duration::from_secs(30))?;
    }

    #[test]
    fn a_passed_deadline_replaces_the_whole_text(old in prop::collection::vec(piece(), 1..30), new in prop::collection::vec(piece(), 1..30)) {
        let (old, new) = (old.concat(), new.concat());
        check(&old, &new, Duration::ZERO)?;
        let diff = compare(&old, &new, Duration::ZERO);
        prop_assert!(diff.replaced_whole);
    }
}

#[test]
fn deep_nesting_does_not_exhaust_the_stack() {
    let old = format!("{}Tief{}", "<div><b>".repeat(900), "</b></div>".repeat(900));
    let new = format!("{}Tiefer{}", "<div><i>".repeat(900), "</i></div>".repeat(900));
    let diff = compare(&old, &new, Duration::from_secs(30));
    assert!(diff.changed && !diff.replaced_whole && is_balanced(&diff.html));
    assert!(diff.html.contains("<del>Tief</del>") && diff.html.contains("<ins>Tiefer</ins>"), "{}", diff.html.len());
}

#[test]
fn nesting_too_deep_to_parse_quickly_is_compared_as_plain_text() {
    let old = format!("{}Tief{}", "<div><b>".repeat(20_000), "</b></div>".repeat(20_000));
    let new = format!("{}Tiefer{}", "<div><i>".repeat(20_000), "</i></div>".repeat(20_000));
    let diff = compare(&old, &new, Duration::from_secs(30));
    assert!(diff.replaced_whole && is_balanced(&diff.html));
    assert_eq!(diff.html, "<p><del>Tief</del></p><p><ins>Tiefer</ins></p>");
}

#[test]
fn huge_attributes_and_unclosed_tags_are_harmless() {
    let big = "x".repeat(200_000);
    let old = format!("<p title=\"{big}\">Eins <b>zwei <a href=\"https://example.org/{big}\">drei");
    let new =
        format!("<p title=\"{big}\">Eins <b>zwei <a href=\"https://example.org/{big}\">drei vier<img alt=\"{big}\"");
    let diff = compare(&old, &new, Duration::from_secs(30));
    assert!(diff.changed && is_balanced(&diff.html));
    assert!(diff.html.contains("<ins>vier</ins>"), "{}", &diff.html[diff.html.len().saturating_sub(300)..]);
}

#[test]
fn oversized_input_is_replaced_whole_without_aligning() {
    let old = format!("<p>{}</p>", "Wort ".repeat(500_000));
    let new = format!("<p>{} Ende</p>", "Wort ".repeat(500_000));
    let diff = compare(&old, &new, Duration::from_secs(30));
    assert!(diff.replaced_whole && diff.changed);
    assert!(diff.html.starts_with("<p><del>Wort") && diff.html.contains("<ins>Wort"));
}

/// Found by the random documents: a link the parser nests in another (around a table in a
/// custom element) kept its text out of the marks once written back.
#[test]
fn links_nested_by_the_parser_keep_their_text_in_the_marks() {
    let old =
        "<a href=\"https://example.org/a\"><x-card a=\"1\"><table><tr><td></td><a href=\"https://example.org/a\">Haus ";
    let outcome = check(old, "", Duration::from_secs(2));
    assert!(outcome.is_ok(), "{outcome:?}");
}

/// Found by the random documents (seed `cc 58e8bb04…`): a list item the parser puts before
/// a table (`<li>` after `</td>`, foster-parented into the open item) made the output nest
/// an item in an item, and a word of the current side was shown twice once re-parsed.
/// `Delete(12360630204729211152)` removes piece 6 of 14, the `<x-card a="1">`.
#[test]
fn list_items_fostered_before_a_table_keep_their_words_once() {
    let pieces = [
        "Haus ",
        "Haus ",
        "Haus ",
        "<ul><li>",
        "Haus ",
        "Haus ",
        "<x-card a=\"1\">",
        "Haus ",
        "Haus ",
        "Haus ",
        "<table><tr><td>",
        "</td>",
        "<li>",
        "Haus ",
    ];
    let pieces: Vec<String> = pieces.iter().map(|p| (*p).to_owned()).collect();
    assert_eq!(12_360_630_204_729_211_152_u64 % 14, 6);
    let old = pieces.concat();
    let new = apply(&pieces, &[Edit::Delete(6)]);
    assert_eq!(new, "Haus Haus Haus <ul><li>Haus Haus Haus Haus Haus <table><tr><td></td><li>Haus ");
    let outcome = check(&old, &new, Duration::from_secs(2));
    assert!(outcome.is_ok(), "{outcome:?}");
}

/// The same with a tag the sanitiser drops: a `section` keeps the parser from closing the
/// term around the card when it meets the `dd`, but readers get the `dd` without it.
#[test]
fn nesting_that_only_a_dropped_tag_kept_apart_keeps_its_words_in_the_marks() {
    let outcome = check("<dl><dt><x-box><section><dd>Haus ", "", Duration::from_secs(2));
    assert!(outcome.is_ok(), "{outcome:?}");
    let outcome = check("Haus ", "<dl><dt><x-box><section><dd>Haus ", Duration::from_secs(2));
    assert!(outcome.is_ok(), "{outcome:?}");
}
