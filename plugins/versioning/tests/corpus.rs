//! The comparison corpus: cases of old and new HTML with the exact markup the engine must
//! answer, one file per group of rules under `tests/corpus/`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use wcs_core::i18n::Catalogs;
use wcs_plugin_versioning::{DiffOptions, ImageFile, MESSAGES, Side, diff_html};

/// One case of a corpus file.
struct Case {
    name: String,
    old: String,
    new: String,
    options: String,
    expected: Option<String>,
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for chunk in text.split("\n=== ").skip(1) {
        let (name, rest) = chunk.split_once('\n').unwrap_or((chunk, ""));
        let section = |label: &str| -> Option<String> {
            let start = rest.find(&format!("--- {label}\n"))? + label.len() + 5;
            let end = rest[start..].find("\n--- ").map_or(rest.len(), |e| start + e);
            Some(rest[start..end].trim_end_matches('\n').to_owned())
        };
        cases.push(Case {
            name: name.trim().to_owned(),
            old: section("old").unwrap_or_default(),
            new: section("new").unwrap_or_default(),
            options: section("options").unwrap_or_default(),
            expected: section("expected").filter(|e| !e.trim().is_empty()),
        });
    }
    cases
}

fn run(file: &str) {
    let path = format!("{}/tests/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let catalogs = Catalogs::load(&MESSAGES).unwrap();
    let mut failures = Vec::new();
    for case in parse(&text) {
        let words: Vec<&str> = case.options.split_whitespace().collect();
        let translator = catalogs.translator(if words.contains(&"de") { "de" } else { "en" });
        let own: Vec<&str> = words.iter().filter_map(|w| w.strip_prefix("same_page=")).collect();
        let same_page = |uid: &str| own.contains(&uid);
        let image_file = |side: Side, uid: &str| image_of(&words, side, uid);
        let options = DiffOptions {
            translator: &translator,
            same_page: &same_page,
            image_file: &image_file,
            deadline: Duration::from_secs(10),
            only_changes: words.contains(&"only_changes"),
            keep_first: words.contains(&"keep_first"),
        };
        let diff = diff_html(&case.old, &case.new, &options);
        let got = if diff.changed { diff.html.clone() } else { "(unchanged)".to_owned() };
        match &case.expected {
            Some(expected) if *expected == got => {}
            expected => failures.push(format!(
                "{file}: {}\n  expected: {}\n  got:      {got}",
                case.name,
                expected.as_deref().unwrap_or("(not written yet)")
            )),
        }
        assert!(!diff.replaced_whole, "{}: must not time out", case.name);
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
fn text_rules() {
    run("text.txt");
}

#[test]
fn formatting_rules() {
    run("formatting.txt");
}

#[test]
fn embedded_things() {
    run("embedded.txt");
}

#[test]
fn markup_is_well_formed_and_safe() {
    run("markup.txt");
}

/// The file of the image object `uid`, as a case declares it: `image=<uid>:<name>:<size>`
/// for both sides, `old_image=…` or `new_image=…` for one.
fn image_of(words: &[&str], side: Side, uid: &str) -> Option<ImageFile> {
    let own_side = match side {
        Side::Version => "old_image=",
        Side::Current => "new_image=",
    };
    words.iter().rev().find_map(|word| {
        let declared = word.strip_prefix("image=").or_else(|| word.strip_prefix(own_side))?;
        let mut parts = declared.split(':');
        let (declared_uid, filename, size) = (parts.next()?, parts.next()?, parts.next()?.parse().ok()?);
        (declared_uid == uid).then(|| ImageFile { filename: filename.to_owned(), size })
    })
}
