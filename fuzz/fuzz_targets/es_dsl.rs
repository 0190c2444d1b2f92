//! An `@raw-es-search` body (Elasticsearch's `_search` request) through everything the
//! embedded engine does with it: the body parser with its suggesters, the query DSL translated
//! to tantivy, sorts, aggregations, highlighting, and the search itself, on two small indexes
//! in memory (the site index with custom fields, as the service searches it for an anonymous
//! caller, and an index with a declared mapping, as `wcs search eval` builds one). The query
//! is also translated as a search pattern record is, where unknown fields are errors.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::LazyLock;
use wcs_plugin_es_search::dsl::{self, CustomFields, CustomKind, Mapping};
use wcs_plugin_es_search::engine::{Filters, IndexDoc, SearchEngine, TypedValue};
use wcs_plugin_es_search::schema::{Fields, schema};
use wcs_plugin_es_search::tantivy_engine::TantivyEngine;
use wcs_plugin_es_search::{parse_raw_search_body, run_suggesters};

static CUSTOM: LazyLock<CustomFields> = LazyLock::new(|| {
    [
        ("summary", CustomKind::Text),
        ("code", CustomKind::Keyword),
        ("rank", CustomKind::Integer),
        ("price", CustomKind::Float),
        ("featured", CustomKind::Boolean),
        ("event_date", CustomKind::Date),
    ]
    .into_iter()
    .map(|(name, kind)| (name.to_owned(), kind))
    .collect()
});

static FIELDS: LazyLock<Fields> = LazyLock::new(|| schema().1);

/// The harness's own set-up failing is not a finding, but it leaves nothing to fuzz.
fn set_up<T, E: std::fmt::Display>(what: &str, result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{what}: {error}"))
}

static SITE: LazyLock<TantivyEngine> = LazyLock::new(|| {
    let engine = set_up("site index", TantivyEngine::open(None));
    let doc = |n: usize, title: &str, text: &str, state: &str, allowed: &str| IndexDoc {
        uid: format!("{n:032x}"),
        paths: vec![format!("/Plone/folder/doc-{n}"), "/Plone/folder".into(), "/Plone".into()],
        portal_type: ["Document", "News Item", "ContentPage"][n % 3].into(),
        review_state: state.into(),
        title: title.into(),
        description: format!("Beschreibung {title}"),
        searchable_text: format!("{title} {text}"),
        subjects: vec!["Verwaltung".into(), format!("tag{n}")],
        allowed: vec![allowed.into()],
        created: 1_700_000_000 + n as i64 * 86_400,
        modified: 1_700_000_000 + n as i64 * 90_000,
        effective: if n == 2 { i64::MIN } else { 1_700_000_000 },
        expires: i64::MAX,
        custom_text: vec![("summary".into(), format!("Kurzfassung {text}"))],
        custom_keyword: vec![("code".into(), format!("C-{n}"))],
        custom_typed: vec![
            ("rank".into(), TypedValue::Integer(n as i64)),
            ("price".into(), TypedValue::Float(n as f64 * 1.5)),
            ("featured".into(), TypedValue::Boolean(n % 2 == 0)),
            ("event_date".into(), TypedValue::Date(1_760_000_000 + n as i64)),
        ],
        // German, and one French document, so queries meet both analyses.
        language: if n == 4 { "fr".into() } else { String::new() },
    };
    let docs = [
        doc(1, "Öffnungszeiten des Rathauses", "Das Rathaus ist montags geöffnet.", "published", "Anonymous"),
        doc(2, "Baustelle an der Brücke", "Die Straße über die Brücke wird gesperrt.", "published", "Anonymous"),
        doc(3, "Gebühren für Anträge", "Formulare und Gebühren der Verwaltung", "private", "user:editor"),
        doc(4, "Müllabfuhr und Abfall", "Abfallkalender für alle Straßen", "published", "Anonymous"),
    ];
    set_up("indexing", engine.index(&docs));
    set_up("commit", engine.commit(1));
    engine
});

static DECLARED: LazyLock<TantivyEngine> = LazyLock::new(|| {
    let mapping = json!({"properties": {
        "user": {"type": "keyword"},
        "message": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
        "title": {"type": "text", "analyzer": "german"},
        "age": {"type": "integer"},
        "price": {"type": "float"},
        "active": {"type": "boolean"},
        "born": {"type": "date"},
        "suggest": {"type": "completion"},
        "address": {"properties": {"city": {"type": "keyword"}}}
    }});
    let engine = set_up("declared index", TantivyEngine::with_mapping(&mapping));
    let docs = [
        json!({"_id": "1", "user": "kimchy", "message": "trying out Elasticsearch", "title": "Die Häuser",
               "age": 30, "price": 9.5, "active": true, "born": "1990-05-01", "suggest": "Nirvana",
               "address": {"city": "Bern"}}),
        json!({"_id": "2", "user": "anna", "message": "quick brown fox", "title": "Das Haus am See",
               "age": 41, "price": 12, "active": false, "born": "1983-11-20T10:00:00Z",
               "suggest": "Nevermind", "address": {"city": "Zürich"}}),
        json!({"_id": "3", "message": "no user, no age"}),
    ];
    set_up("indexing", engine.index_sources(&docs));
    set_up("commit", engine.commit(0));
    engine
});

fuzz_target!(|data: &[u8]| {
    // Elasticsearch's refusals are answers; only a panic is a finding.
    let Ok((parsed, suggesters)) = parse_raw_search_body(data) else { return };

    let strict = Mapping { fields: &FIELDS, custom: &CUSTOM, unmapped_matches_nothing: false, declared: None };
    let _ = dsl::translate(&strict, &parsed.query);

    let anonymous =
        Filters { allowed: Some(vec!["Anonymous".into()]), active_at: Some(1_750_000_000), ..Filters::default() };
    let site_request =
        wcs_plugin_es_search::engine::RawRequest { custom: CUSTOM.clone(), filters: anonymous, ..parsed.clone() };
    let engines: [(&TantivyEngine, _); 2] = [(&SITE, site_request), (&DECLARED, parsed)];
    for (engine, request) in engines {
        let Ok(answer) = engine.raw(&request) else { continue };
        let hits = answer.pointer("/hits/hits").and_then(Value::as_array);
        assert!(hits.is_some_and(|hits| hits.len() <= request.size), "{answer}");
        if !suggesters.is_empty() {
            let _ = run_suggesters(engine, &suggesters, &request);
        }
    }
});
