//! The catalog's query parsers: `@search`'s query string (`SearchQuery::parse`) and
//! `@querystring-search`'s criteria (`[{"i", "o", "v"}]`, which become the same pairs), then
//! what a search builds from the parsed query without a database: its SQL for both engines
//! and the batching links of its answer. The input is tried both ways: as a query string and,
//! when it is JSON, as a querystring body.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use wcs_core::catalog::{Scope, SearchQuery, SearchSql};
use wcs_core::http::{batching_links, parse_query};
use wcs_core::security::Visibility;
use wcs_core::services::{QueryPlace, querystring_search_pairs};
use wcs_core::store::Backend;

const SITE: &str = "/Plone";
const PLACE: QueryPlace<'static> =
    QueryPlace { context_path: "/Plone/folder/page", site_path: SITE, registered: &[], user: Some("anna") };

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    search(&parse_query(text));
    if let Ok(body) = serde_json::from_str::<Value>(text)
        && let Ok(pairs) = querystring_search_pairs(&body, &PLACE)
    {
        search(&pairs);
    }
});

fn search(pairs: &[(String, String)]) {
    // A refused query is a 400; only a panic is a finding.
    let Ok(query) = SearchQuery::parse(pairs, SITE, &[]) else { return };
    let tokens = Visibility {
        tokens: Some(vec!["Anonymous".into(), "user:editor".into()]),
        active_at: Some(chrono::Utc::now()),
    };
    for (backend, visibility) in [(Backend::Sqlite, Visibility::ALL), (Backend::Postgres, tokens)] {
        let scope = Scope {
            context_path: SITE.to_owned(),
            visibility,
            backend,
            block_types: vec!["TextBlock".to_owned()],
            folderish_types: vec!["Folder".to_owned()],
            field_indexes: Vec::new(),
        };
        let sql = SearchSql::build(&query, &scope);
        // Every value is a bound parameter: the SQL names exactly as many as it binds.
        let highest = placeholders(&sql.condition).max().unwrap_or(0);
        assert_eq!(highest, sql.binds.len(), "{}", sql.condition);
        assert!(placeholders(&sql.order).all(|n| n <= sql.binds.len()), "{}", sql.order);
    }
    // The answer's links to the other pages, for totals around the requested page.
    let url = "http://localhost:8080/Plone/@search";
    for total in [0, 1, query.batch.size, query.batch.start, query.batch.start.saturating_add(1), i64::MAX] {
        if let Some(links) = batching_links(url, pairs, query.batch, total) {
            // `@id` is the URL as requested, as plone.restapi echoes it.
            let current = links.get("@id").and_then(Value::as_str).unwrap_or_default();
            assert!(current.starts_with(url), "@id: {current}");
            // The links to pages name only their own `b_start` (the client's is left out).
            for key in ["first", "last", "prev", "next"] {
                let link = links.get(key).and_then(Value::as_str).unwrap_or_default();
                let (_, query) = link.split_once('?').unwrap_or_default();
                for (name, value) in parse_query(query) {
                    if name == "b_start" {
                        assert!(value.parse::<i64>().is_ok_and(|start| start >= 0), "{key}: {link}");
                    }
                }
            }
        }
    }
}

/// The numbers of the `$n` placeholders in `sql`.
fn placeholders(sql: &str) -> impl Iterator<Item = usize> + '_ {
    sql.split('$').skip(1).filter_map(|rest| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        rest[..digits].parse().ok()
    })
}
