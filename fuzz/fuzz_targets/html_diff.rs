//! The version comparison of two pieces of rich text (`diff_html`), which editors reach with
//! any stored HTML on either side. The input is one flags byte (bit 0: only the changed
//! top-level elements, bit 1: keep the first one) and the two texts, split at the first NUL.
//! The result must hold no script element and say nothing changed when both sides are equal.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wcs_core::i18n::Catalogs;
use wcs_plugin_versioning::{DEFAULT_DEADLINE, DiffOptions, MESSAGES, diff_html, no_image_files};

thread_local! {
    // Compiled once per process: libFuzzer runs the target on one thread.
    static CATALOGS: &'static Catalogs = Box::leak(Box::new(
        Catalogs::load(&MESSAGES).unwrap_or_else(|error| panic!("the plugin's messages: {error}")),
    ));
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, texts)) = data.split_first() else { return };
    let Ok(texts) = std::str::from_utf8(texts) else { return };
    let (old, new) = texts.split_once('\0').unwrap_or((texts, ""));

    let catalogs = CATALOGS.with(|catalogs| *catalogs);
    let translator = catalogs.translator("de");
    let same_page = |uid: &str| uid.starts_with('0');
    let options = DiffOptions {
        translator: &translator,
        same_page: &same_page,
        image_file: &no_image_files,
        deadline: DEFAULT_DEADLINE,
        only_changes: flags & 1 != 0,
        keep_first: flags & 2 != 0,
    };

    let diff = diff_html(old, new, &options);
    let parsed = scraper::Html::parse_fragment(&diff.html);
    let scripts = parsed.tree.root().descendants().filter_map(|node| node.value().as_element());
    assert!(scripts.filter(|element| element.name() == "script").count() == 0, "{:?}", diff.html);
    assert!(diff.changed || diff.html.is_empty(), "{diff:?}");

    // A text compared with itself has no changes (unless it is too deep to parse at all and
    // is shown replaced as a whole).
    let same = diff_html(new, new, &options);
    assert!(!same.changed || same.replaced_whole, "{new:?} → {same:?}");
});
