//! The embedded engine on a CMS-scale corpus: 100,000 German documents of about 300 words
//! (inflected forms, umlauts, stop words, a long tail of 30,000 rarer words, skewed as word
//! frequencies are), indexed from scratch, then 1,000
//! searches of one to three words through the default search pattern, with the security
//! filter and a terms aggregation, as `@es-search` runs them. Prints the indexing time and the search latency percentiles.
//!
//! `cargo bench -p wcs-plugin-es-search` (release build). Set `ES_BENCH_DOCS` for another
//! corpus size, and `ES_BENCH_LANGUAGES=4` for a site in four languages of the same size: the
//! documents in turn German, French, Italian and English, each search in one of them.

use std::time::Instant;
use wcs_plugin_es_search::dsl::substitute;
use wcs_plugin_es_search::engine::{Filters, IndexDoc, SearchEngine, SearchRequest};
use wcs_plugin_es_search::records::REGULAR;
use wcs_plugin_es_search::tantivy_engine::TantivyEngine;

const STEMS: [&str; 40] = [
    "haus",
    "straß",
    "wohnung",
    "bürger",
    "stadt",
    "gemeind",
    "schul",
    "kind",
    "arzt",
    "wasser",
    "energi",
    "nachhaltig",
    "verkehr",
    "bahnhof",
    "müll",
    "abfall",
    "steuer",
    "antrag",
    "formular",
    "gebühr",
    "bibliothek",
    "museum",
    "park",
    "spielplatz",
    "feuerwehr",
    "polizei",
    "wahl",
    "rathaus",
    "markt",
    "fest",
    "baustell",
    "brück",
    "fluss",
    "wald",
    "garten",
    "sport",
    "bad",
    "kirch",
    "friedhof",
    "hund",
];
const ENDINGS: [&str; 8] = ["", "e", "en", "er", "es", "ern", "s", "ung"];
const FILLER: [&str; 12] = ["der", "die", "das", "und", "mit", "für", "im", "am", "neue", "alte", "große", "kleine"];

/// A cheap deterministic generator (no dependency for the corpus).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Skewed towards small values, as word frequencies are.
    fn skewed(&mut self, n: usize) -> usize {
        let a = self.next() as usize % n;
        let b = self.next() as usize % n;
        a.min(b)
    }
}

/// The size of the long tail of rarer words, as a real vocabulary has (the Snowball German
/// vocabulary has 35,000 words).
const VOCABULARY: usize = 30_000;

fn rare(rng: &mut Rng) -> String {
    format!("begriff{}", rng.skewed(VOCABULARY))
}

fn word(rng: &mut Rng) -> String {
    match rng.next() % 20 {
        0..=4 => FILLER[rng.next() as usize % FILLER.len()].to_owned(),
        5..=7 => {
            let stem = STEMS[rng.skewed(STEMS.len())];
            format!("{stem}{}", ENDINGS[rng.next() as usize % ENDINGS.len()])
        }
        _ => rare(rng),
    }
}

/// The languages of a multilingual corpus, in turn.
const LANGUAGES: [&str; 4] = ["de", "fr", "it", "en"];

fn languages() -> usize {
    std::env::var("ES_BENCH_LANGUAGES").ok().and_then(|n| n.parse().ok()).unwrap_or(1).clamp(1, LANGUAGES.len())
}

fn document(rng: &mut Rng, n: usize) -> IndexDoc {
    let words: Vec<String> = (0..250 + rng.next() as usize % 100).map(|_| word(rng)).collect();
    let public = !n.is_multiple_of(3);
    IndexDoc {
        uid: format!("{n:032x}"),
        paths: vec![format!("/Plone/f{}/d{n}", n % 50), format!("/Plone/f{}", n % 50), "/Plone".into()],
        portal_type: ["Document", "News", "ContentPage", "File"][n % 4].into(),
        review_state: if public { "published" } else { "private" }.into(),
        title: words[..4].join(" "),
        description: words[4..20].join(" "),
        searchable_text: words.join(" "),
        allowed: if public { vec!["Anonymous".into()] } else { vec!["Manager".into(), "user:editor".into()] },
        effective: i64::MIN,
        expires: i64::MAX,
        language: if languages() > 1 { LANGUAGES[n % languages()].into() } else { String::new() },
        ..IndexDoc::default()
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let count: usize = std::env::var("ES_BENCH_DOCS").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let dir = std::env::temp_dir().join(format!("wcs-es-bench-{}", std::process::id()));
    let engine = match TantivyEngine::open(Some(&dir)) {
        Ok(engine) => engine,
        Err(err) => return eprintln!("open: {err}"),
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let started = Instant::now();
    let mut batch = Vec::with_capacity(1000);
    for n in 0..count {
        batch.push(document(&mut rng, n));
        if batch.len() == 1000 || n + 1 == count {
            if let Err(err) = engine.index(&batch) {
                return eprintln!("index: {err}");
            }
            batch.clear();
        }
    }
    if let Err(err) = engine.commit(count as i64) {
        return eprintln!("commit: {err}");
    }
    let indexing = started.elapsed().as_secs_f64();
    println!("indexed {count} documents of ~300 words in {indexing:.1} s ({:.0} docs/s)", count as f64 / indexing);

    let aggregation = serde_json::json!({"portal_type": {"terms": {"field": "portal_type"}}});
    let mut latencies = Vec::with_capacity(1000);
    let mut hits = 0;
    for n in 0..1000 {
        let words = 1 + n % 3;
        // Mostly specific words, now and then a common one, as visitors search.
        let text: Vec<String> =
            (0..words)
                .map(|_| {
                    if rng.next().is_multiple_of(4) {
                        STEMS[rng.skewed(STEMS.len())].to_owned()
                    } else {
                        rare(&mut rng)
                    }
                })
                .collect();
        let request = SearchRequest {
            query: Some(substitute(&(REGULAR.default)(), "%(term)s", &text.join(" "))),
            filters: Filters {
                allowed: Some(vec!["Anonymous".into()]),
                subtrees: vec!["/Plone".into()],
                languages: if languages() > 1 { vec![LANGUAGES[n % languages()].into()] } else { Vec::new() },
                ..Filters::default()
            },
            size: 25,
            aggregations: Some(aggregation.clone()),
            ..SearchRequest::default()
        };
        let started = Instant::now();
        match engine.search(&request) {
            Ok(found) => hits += found.total,
            Err(err) => return eprintln!("search: {err}"),
        }
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    latencies.sort_by(f64::total_cmp);
    println!(
        "1,000 searches (1-3 words, security filter, terms aggregation, top 25): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} hits in all)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        hits
    );
    let _ = std::fs::remove_dir_all(&dir);
}
