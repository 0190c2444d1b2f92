//! Speed of the version comparison, measured (never asserted in tests).
//!
//! Run with `cargo bench -p wcs-plugin-versioning`. Prints p50/p95/max for
//! - a page of 50 text blocks (~2 KB each) with about 5 % of the words changed, compared
//!   block by block as the `@versions/<id>/comparison` endpoint does;
//! - one 100 KB text block with about 5 % of the words changed;
//! - one 100 KB block against an unrelated one (the worst case, bounded by the deadline).

use std::time::{Duration, Instant};

/// The server's allocator: comparisons allocate many small strings, and glibc's allocator
/// costs a tenth of the time that the server does not pay.
#[global_allocator]
static ALLOCATOR: wcs_malloc_tune::Allocator = wcs_malloc_tune::Allocator;

use wcs_core::i18n::Catalogs;
use wcs_plugin_versioning::{DEFAULT_DEADLINE, DiffOptions, MESSAGES, diff_html, no_image_files};

/// A small deterministic generator, so every run compares the same texts.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const WORDS: [&str; 24] = [
    "Gemeinde",
    "Bürger",
    "Straße",
    "Öffnungszeiten",
    "Antrag",
    "Formular",
    "Gebühr",
    "Verwaltung",
    "und",
    "der",
    "die",
    "das",
    "für",
    "mit",
    "werden",
    "können",
    "Größe",
    "Jahr",
    "2026",
    "neue",
    "Regeln",
    "gilt",
    "ab",
    "sofort",
];

/// One paragraph of `words` words, some bold, some linked; `change` of 1000 words differ
/// from what `seed` alone would give.
fn paragraph(rng: &mut Lcg, changes: &mut Lcg, words: usize, change: usize) -> String {
    let mut html = String::from("<p>");
    for i in 0..words {
        let mut word = WORDS[rng.below(WORDS.len())].to_owned();
        if changes.below(1000) < change {
            word = format!("{word}x");
        }
        match rng.below(20) {
            0 => html.push_str(&format!("<strong>{word}</strong>")),
            1 => html.push_str(&format!("<a href=\"https://example.org/{i}\">{word}</a>")),
            _ => html.push_str(&word),
        }
        html.push_str(if rng.below(12) == 0 { ". " } else { " " });
    }
    html.push_str("</p>");
    html
}

/// A text of about `bytes` bytes; the version (`change` 0) and the current text share the
/// structure and differ in about `change`/1000 of the words.
fn text(seed: u64, bytes: usize, change: usize) -> String {
    let (mut rng, mut changes) = (Lcg(seed), Lcg(seed ^ 0xfeed));
    let mut html = String::from("<h2>Titel des Blocks</h2>");
    while html.len() < bytes {
        html.push_str(&paragraph(&mut rng, &mut changes, 40, change));
        if rng.below(6) == 0 {
            html.push_str("<ul><li>Erster Punkt</li><li>Zweiter Punkt</li></ul>");
        }
    }
    html
}

fn report(name: &str, mut samples: Vec<Duration>, target: Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{name}: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms over {} runs (target p95 ≤ {} ms)",
        at(0.5).as_secs_f64() * 1e3,
        at(0.95).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
        samples.len(),
        target.as_millis()
    );
}

fn main() {
    wcs_malloc_tune::tune();
    let catalogs = match Catalogs::load(&MESSAGES) {
        Ok(catalogs) => catalogs,
        Err(error) => return eprintln!("messages: {error}"),
    };
    let translator = catalogs.translator("de");
    let same_page = |_: &str| false;
    let options = DiffOptions {
        translator: &translator,
        same_page: &same_page,
        image_file: &no_image_files,
        deadline: DEFAULT_DEADLINE,
        only_changes: true,
        keep_first: true,
    };

    let page: Vec<(String, String)> = (0..50).map(|b| (text(b, 2_000, 0), text(b, 2_000, 50))).collect();
    let changed = page.iter().filter(|(old, new)| old != new).count();
    let samples = (0..200)
        .map(|_| {
            let start = Instant::now();
            for (old, new) in &page {
                if old != new {
                    std::hint::black_box(diff_html(old, new, &options));
                }
            }
            start.elapsed()
        })
        .collect();
    report(
        &format!("50-block page, ~5 % of words changed ({changed} blocks differ)"),
        samples,
        Duration::from_millis(5),
    );

    let (old, new) = (text(7, 100_000, 0), text(7, 100_000, 50));
    let samples = (0..50)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(diff_html(&old, &new, &options));
            start.elapsed()
        })
        .collect();
    report(
        &format!("one {} KB text block, ~5 % of words changed", new.len() / 1000),
        samples,
        Duration::from_millis(10),
    );

    let unrelated = text(99, 100_000, 500);
    let mut replaced = 0;
    let samples = (0..10)
        .map(|_| {
            let start = Instant::now();
            replaced += usize::from(diff_html(&old, &unrelated, &options).replaced_whole);
            start.elapsed()
        })
        .collect();
    report(
        &format!("100 KB against an unrelated text (deadline {} ms, hit {replaced}/10)", DEFAULT_DEADLINE.as_millis()),
        samples,
        DEFAULT_DEADLINE + Duration::from_millis(100),
    );
}
