//! `@raw-es-search`: the query DSL sent as is, answered in Elasticsearch's shape, always within
//! what the caller may see; refusals in Elasticsearch's error body.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};

async fn raw(server: &TestServer, body: Value, anonymous: bool) -> (u16, Value) {
    let request = if anonymous {
        server.anonymous(Method::POST, "@raw-es-search")
    } else {
        server.admin(Method::POST, "@raw-es-search")
    };
    read(request.json(&body).send().await.unwrap()).await
}

fn ids(answer: &Value) -> Vec<String> {
    answer["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["_source"]["path"].as_str().unwrap().to_owned())
        .collect()
}

/// Three public pages and a private one, all about gardens.
async fn garden(server: &TestServer) {
    for (id, title) in [("rosen", "Rosen im Garten"), ("tulpen", "Tulpen im Garten"), ("baeume", "Bäume im Garten")] {
        server.create("", json!({"@type": "Document", "id": id, "title": title, "description": "Gartentipps"})).await;
        server.transition(id, "publish").await;
    }
    server.create("", json!({"@type": "Document", "id": "geheim", "title": "Geheimer Garten"})).await;
    server.create("", json!({"@type": "Folder", "id": "ordner", "title": "Gartenordner"})).await;
    server.settle().await;
}

#[tokio::test]
async fn raw_queries_answer_in_elasticsearchs_shape_and_only_with_what_the_caller_may_see() {
    let server = TestServer::start().await;
    garden(&server).await;
    let query =
        json!({"query": {"match": {"title": "Garten"}}, "aggs": {"types": {"terms": {"field": "portal_type"}}}});
    let (status, admin) = raw(&server, query.clone(), false).await;
    assert_eq!(status, 200, "{admin}");
    assert_eq!(admin["hits"]["total"], json!({"value": 4, "relation": "eq"}));
    let (status, anonymous) = raw(&server, query, true).await;
    assert_eq!(status, 200);
    assert_eq!(anonymous["hits"]["total"]["value"], 3, "the private page is not counted");
    let mut found = ids(&anonymous);
    found.sort();
    assert_eq!(found, ["/Plone/baeume", "/Plone/rosen", "/Plone/tulpen"]);
    let hit = &anonymous["hits"]["hits"][0];
    assert!(hit["_id"].as_str().is_some_and(|id| id.len() == 32) && hit["_score"].as_f64().is_some(), "{hit}");
    assert_eq!(hit["_source"]["portal_type"], "Document");
    assert!(anonymous["took"].is_u64());
    let buckets = &anonymous["aggregations"]["types"]["buckets"];
    assert_eq!(buckets, &json!([{"key": "Document", "doc_count": 3}]), "no private document, no folder: {anonymous}");
    let all = raw(&server, json!({"aggs": {"types": {"terms": {"field": "portal_type"}}}}), false).await.1;
    let types: Vec<&str> = all["aggregations"]["types"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["key"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["Document", "Folder", "Plone Site"], "admin sees the folder, and the site root is found too");
    assert!(!anonymous.to_string().contains("Geheimer"), "no trace of the private page");

    let buckets = json!({"size": 0, "aggs": {
        "arten": {"filters": {"filters": {"seiten": {"term": {"portal_type": "Document"}},
                                          "ordner": {"term": {"portal_type": "Folder"}}}},
                  "aggs": {"staende": {"terms": {"field": "review_state"}}}},
        "rosen": {"filter": {"match": {"title": "Rosen"}}}}});
    let (status, answer) = raw(&server, buckets.clone(), true).await;
    assert_eq!(status, 200, "{answer}");
    let aggregations = &answer["aggregations"];
    assert_eq!(aggregations["arten"]["buckets"]["seiten"]["doc_count"], 3, "{answer}");
    assert_eq!(aggregations["arten"]["buckets"]["ordner"]["doc_count"], 0, "the private folder is not counted");
    assert_eq!(
        aggregations["arten"]["buckets"]["seiten"]["staende"]["buckets"],
        json!([{"key": "published", "doc_count": 3}])
    );
    assert_eq!(aggregations["rosen"], json!({"doc_count": 1}));
    let metrics = json!({"size": 0, "aggs": {"typen": {"cardinality": {"field": "portal_type"}},
                                              "zeit": {"range": {"field": "created", "ranges": [{"to": 1_000_000_000}, {"from": 1_000_000_000}]}},
                                              "juengste": {"max": {"field": "modified"}}}});
    let (status, answer) = raw(&server, metrics, true).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["aggregations"]["typen"]["value"], 2.0, "only Documents and the site are visible: {answer}");
    let ranges = answer["aggregations"]["zeit"]["buckets"].as_array().unwrap();
    assert_eq!((ranges.len(), &ranges[1]["doc_count"]), (2, &json!(4)), "three pages and the site");
    assert!(answer["aggregations"]["juengste"]["value"].as_f64().is_some_and(|v| v > 1_000_000_000.0));
    let admin = raw(&server, buckets, false).await.1;
    assert_eq!(admin["aggregations"]["arten"]["buckets"]["ordner"]["doc_count"], 1);

    let marked = json!({"query": {"match": {"title": "Rosen"}}, "highlight": {"fields": {"title": {}, "portal_type": {}},
                        "pre_tags": ["<b>"], "post_tags": ["</b>"]}});
    let (status, answer) = raw(&server, marked, true).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["hits"]["hits"][0]["highlight"], json!({"title": ["<b>Rosen</b> im Garten"]}));
    let typo = json!({"suggest": {"text": "Rosn Geheimr", "fix": {"term": {"field": "SearchableText"}}}, "size": 0});
    let (status, answer) = raw(&server, typo, true).await;
    assert_eq!(status, 200, "{answer}");
    let entries = answer["suggest"]["fix"].as_array().unwrap();
    assert_eq!(
        (&entries[0]["text"], &entries[0]["offset"], &entries[0]["length"]),
        (&json!("Rosn"), &json!(0), &json!(4))
    );
    assert!(!entries[0]["options"].as_array().unwrap().is_empty(), "{answer}");
    assert_eq!(entries[1]["options"], json!([]), "words of the private page are never offered: {answer}");
    let complete = json!({"size": 0, "suggest": {"c": {"text": "Ros", "completion": {"field": "title"}},
                                                "g": {"text": "Geheim", "completion": {}}}});
    let (status, answer) = raw(&server, complete, true).await;
    assert_eq!(status, 200, "{answer}");
    let options = answer["suggest"]["c"][0]["options"].as_array().unwrap();
    assert_eq!(options.len(), 1, "{answer}");
    assert_eq!(
        (&options[0]["text"], &options[0]["_source"]["path"]),
        (&json!("Rosen im Garten"), &json!("/Plone/rosen"))
    );
    assert_eq!(answer["suggest"]["g"][0]["options"], json!([]), "the private page is never completed");
    let phrase = json!({"size": 0, "suggest": {"p": {"text": "Rosn im Garten", "phrase": {"field": "title",
                        "highlight": {"pre_tag": "<i>", "post_tag": "</i>"}}}}});
    let (status, answer) = raw(&server, phrase, true).await;
    assert_eq!(status, 200, "{answer}");
    // Elasticsearch builds the corrected phrase from the field's indexed terms: analysed, so lower case.
    let option = &answer["suggest"]["p"][0]["options"][0];
    assert!(
        option["highlighted"].as_str().is_some_and(|h| h.starts_with("<i>") && h.ends_with("</i> im garten")),
        "{answer}"
    );
    let fine = json!({"size": 0, "suggest": {"p": {"text": "Rosen", "phrase": {}}}});
    assert_eq!(raw(&server, fine, true).await.1["suggest"]["p"][0]["options"], json!([]), "nothing to correct");
    let unknown = json!({"suggest": {"x": {"text": "x", "fancy": {}}}});
    let (status, error) = raw(&server, unknown, true).await;
    assert_eq!((status, &error["error"]["type"]), (400, &json!("illegal_argument_exception")));
    let plain = json!({"query": {"match": {"title": "Rosen"}}, "highlight": {"fields": [{"title": {}}]}});
    assert_eq!(
        raw(&server, plain, true).await.1["hits"]["hits"][0]["highlight"]["title"][0],
        "<em>Rosen</em> im Garten"
    );
}

#[tokio::test]
async fn the_dsl_covers_bool_ids_patterns_sorting_and_paging() {
    let server = TestServer::start().await;
    garden(&server).await;
    let paths = |answer: &Value| ids(answer);
    let two_of_three = json!({"query": {"bool": {"should": [
        {"match": {"title": "Rosen"}}, {"match": {"title": "Garten"}}, {"match": {"Description": "Gartentipps"}}],
        "minimum_should_match": 3}}});
    assert_eq!(paths(&raw(&server, two_of_three, true).await.1), ["/Plone/rosen"]);
    let sorted = |from: usize, size: usize| json!({"query": {"prefix": {"portal_type": "Doc"}}, "sort": [{"created": "desc"}], "size": size, "from": from});
    let (status, all) = raw(&server, sorted(0, 10), false).await;
    assert_eq!(status, 200, "{all}");
    let keys: Vec<i64> =
        all["hits"]["hits"].as_array().unwrap().iter().map(|h| h["sort"][0].as_i64().unwrap()).collect();
    assert_eq!(keys.len(), 4);
    assert!(keys.windows(2).all(|w| w[0] >= w[1]), "newest first: {keys:?}");
    let page = raw(&server, sorted(1, 2), false).await.1;
    assert_eq!(paths(&page), paths(&all)[1..3], "a page is a slice of the whole order");
    assert_eq!(page["hits"]["total"]["value"], 4);
    // Objects without an effective date (the private ones) come last, ascending or descending,
    // as in Elasticsearch; publishing sets one, and "datiert" has an older one.
    server
        .create(
            "",
            json!({"@type": "Document", "id": "datiert", "title": "Datiert", "effective": "2026-01-01T00:00:00+00:00"}),
        )
        .await;
    server.settle().await;
    for (order, stand_in) in [("asc", i64::MAX), ("desc", i64::MIN)] {
        let sorted = |from: usize, size: usize| json!({"query": {"match_all": {}}, "sort": [{"effective": order}], "from": from, "size": size});
        let (status, answer) = raw(&server, sorted(0, 10), false).await;
        assert_eq!(status, 200, "{answer}");
        let all = paths(&answer);
        assert_eq!(all.len(), 7, "the site root is found too: {all:?}");
        let datiert = all.iter().position(|p| p == "/Plone/datiert").unwrap();
        assert_eq!(datiert, if order == "asc" { 0 } else { 3 }, "{order}: {all:?}");
        let mut last: Vec<&str> = all[4..].iter().map(String::as_str).collect();
        last.sort_unstable();
        assert_eq!(last, ["/Plone", "/Plone/geheim", "/Plone/ordner"], "{order}: missing last");
        assert_eq!(answer["hits"]["hits"][6]["sort"][0], stand_in);
        assert_eq!(paths(&raw(&server, sorted(3, 2), false).await.1), all[3..5], "{order}: a page across both parts");
    }
    let by_type = json!({"query": {"match_all": {}}, "sort": [{"portal_type": "desc"}], "size": 1});
    assert_eq!(raw(&server, by_type, false).await.1["hits"]["hits"][0]["sort"], json!(["Plone Site"]));
    // Several keys: ties on the first go to the second; dates are reported in milliseconds.
    let two_keys =
        json!({"query": {"match_all": {}}, "sort": [{"portal_type": "asc"}, {"effective": "desc"}], "size": 10});
    let answer = raw(&server, two_keys, false).await.1;
    let keys: Vec<(String, i64)> = answer["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["sort"][0].as_str().unwrap().to_owned(), h["sort"][1].as_i64().unwrap()))
        .collect();
    let mut expected = keys.clone();
    expected.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    assert_eq!(keys, expected, "{answer}");
    assert!(keys.iter().any(|k| k == &("Document".to_owned(), 1_767_225_600_000)), "in milliseconds: {keys:?}");
    let by_score = raw(&server, json!({"query": {"match": {"title": "Datiert"}}, "sort": ["_score"]}), false).await.1;
    let hit = &by_score["hits"]["hits"][0];
    assert_eq!(hit["sort"], json!([hit["_score"]]), "an explicit _score sort reports it: {by_score}");
    let text = raw(&server, json!({"sort": ["Title"]}), false).await.1;
    assert!(text["error"]["root_cause"][0]["reason"].as_str().unwrap().starts_with("Text fields are not optimised"));
    let only = |source: Value| json!({"query": {"term": {"path": "/Plone/rosen"}}, "_source": source});
    let keys = |answer: &Value| -> Vec<String> {
        let mut keys: Vec<String> =
            answer["hits"]["hits"][0]["_source"].as_object().map(|s| s.keys().cloned().collect()).unwrap_or_default();
        keys.sort();
        keys
    };
    assert_eq!(keys(&raw(&server, only(json!(["path", "t*"])), true).await.1), ["path", "title"]);
    let excluded = raw(&server, only(json!({"excludes": ["SearchableText", "*_type", "UID"]})), true).await.1;
    assert_eq!(keys(&excluded), ["Description", "path", "review_state", "title"]);
    assert!(raw(&server, only(json!(false)), true).await.1["hits"]["hits"][0].get("_source").is_none());
    let capped = json!({"query": {"match_all": {}}, "track_total_hits": 2, "size": 0});
    assert_eq!(raw(&server, capped, false).await.1["hits"]["total"], json!({"value": 2, "relation": "gte"}));
    let untracked = json!({"query": {"match_all": {}}, "track_total_hits": false});
    assert!(raw(&server, untracked, false).await.1["hits"].get("total").is_none());
    let uid =
        raw(&server, json!({"query": {"term": {"path": "/Plone/rosen"}}}), true).await.1["hits"]["hits"][0]["_id"]
            .clone();
    let by_id = json!({"query": {"constant_score": {"filter": {"ids": {"values": [uid]}}, "boost": 2.0}}});
    let answer = raw(&server, by_id, true).await.1;
    assert_eq!((paths(&answer), &answer["hits"]["hits"][0]["_score"]), (vec!["/Plone/rosen".to_owned()], &json!(2.0)));
    let wildcard = json!({"query": {"wildcard": {"portal_type": {"value": "Fol*r"}}}});
    assert_eq!(paths(&raw(&server, wildcard, false).await.1), ["/Plone/ordner"]);
    let typing = json!({"query": {"multi_match": {"query": "Garten Tul", "type": "bool_prefix", "operator": "and",
                                                  "fields": ["title", "Description"]}}});
    assert_eq!(paths(&raw(&server, typing, true).await.1), ["/Plone/tulpen"], "the last word is a prefix");
    let stop_words =
        |zero: &str| json!({"query": {"match": {"title": {"query": "der die das", "zero_terms_query": zero}}}});
    assert_eq!(raw(&server, stop_words("none"), true).await.1["hits"]["total"]["value"], 0);
    let everything = raw(&server, stop_words("all"), true).await.1;
    assert_eq!(everything["hits"]["total"]["value"], 4, "all the caller may see, the site among them");
    let lucene = json!({"query": {"query_string": {"query": "Title:Häuser OR (Gärten AND NOT Title:Tulpen)",
                                                   "default_field": "Title"}}});
    let (status, answer) = raw(&server, lucene, true).await;
    assert_eq!(status, 200, "{answer}");
    let mut found = paths(&answer);
    found.sort();
    assert_eq!(found, ["/Plone/baeume", "/Plone/rosen"], "German forms meet: Gärten finds Garten");
    let simple = |q: &str| json!({"query": {"simple_query_string": {"query": q, "fields": ["title"]}}});
    for (q, expected) in [
        // As in Elasticsearch, `-Tulpen` alone would join with the default OR ("or lacks
        // Tulpen"); `+-` requires the exclusion.
        ("Garten +-Tulpen", vec!["/Plone/baeume", "/Plone/rosen"]),
        ("Rosen | Tulpen", vec!["/Plone/rosen", "/Plone/tulpen"]),
        ("Gar* + Bäum*", vec!["/Plone/baeume"]),
        ("\"Rosen im Garten\"", vec!["/Plone/rosen"]),
        ("((Rosen", vec!["/Plone/rosen"]),
    ] {
        let (status, answer) = raw(&server, simple(q), true).await;
        assert_eq!(status, 200, "{q}: {answer}");
        let mut found = paths(&answer);
        found.sort();
        assert_eq!(found, expected, "{q}");
    }
    let broken = json!({"query": {"query_string": {"query": "Title:(Rosen"}}});
    let (status, error) = raw(&server, broken, true).await;
    // Found on the shard: Elasticsearch's "all shards failed" with the parse error as the cause.
    assert_eq!((status, &error["error"]["type"]), (400, &json!("search_phase_execution_exception")), "{error}");
    assert_eq!(error["error"]["root_cause"][0]["type"], "query_shard_exception", "{error}");
    let exists = json!({"query": {"bool": {"must_not": {"exists": {"field": "Subject"}}}}});
    assert_eq!(raw(&server, exists, true).await.1["hits"]["total"]["value"], 4, "three pages and the site");
}

#[tokio::test]
async fn refusals_come_in_elasticsearchs_error_body() {
    let server = TestServer::start().await;
    let cases = [
        (json!({"query": {"mtch": {"title": "x"}}}), "parsing_exception", "unknown query [mtch]"),
        (json!({"qurey": {}}), "parsing_exception", "Unknown key for a START_OBJECT in [qurey]."),
        (
            json!({"query": {"multi_match": {"query": "x", "type": "most", "fields": ["title"]}}}),
            "parsing_exception",
            "failed to parse [multi_match] query type [most]. unknown type.",
        ),
        (
            json!({"aggs": {"alles": {"global": {}}}}),
            "illegal_argument_exception",
            "[global] aggregations ignore the security filter",
        ),
    ];
    for (body, kind, reason) in cases {
        let (status, error) = raw(&server, body.clone(), true).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            error,
            json!({"error": {"root_cause": [{"type": kind, "reason": reason}], "type": kind, "reason": reason}, "status": 400})
        );
    }
    let (status, error) = raw(&server, json!({"size": 10_001}), true).await;
    assert_eq!((status, &error["error"]["type"]), (400, &json!("search_phase_execution_exception")));
    assert_eq!(error["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    let reason = error["error"]["root_cause"][0]["reason"].as_str().unwrap_or_default();
    assert!(reason.starts_with(
        "Result window is too large, from + size must be less than or equal to: [10000] but was [10001]."
    ));
    // A range aggregation without ranges, also below another (tantivy would panic on it).
    for aggs in [
        json!({"preise": {"range": {"field": "getObjPositionInParent", "keyed": true, "ranges": []}}}),
        json!({"typen": {"terms": {"field": "portal_type"}, "aggs": {"preise": {"range": {"field": "getObjPositionInParent", "ranges": []}}}}}),
    ] {
        let (status, error) = raw(&server, json!({"size": 0, "aggs": aggs}), true).await;
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["error"]["root_cause"][0]["type"], "illegal_argument_exception", "{error}");
        assert_eq!(error["error"]["root_cause"][0]["reason"], "No [ranges] specified for the [preise] aggregation");
    }
    // As in Elasticsearch, a field the index lacks matches nothing; sorting on it is refused.
    for query in [
        json!({"match": {"nirgends": "x"}}),
        json!({"term": {"nirgends": "x"}}),
        json!({"range": {"nirgends": {"gte": 1}}}),
        json!({"exists": {"field": "nirgends"}}),
        json!({"prefix": {"nirgends": "x"}}),
        json!({"terms": {"nirgends": ["x"]}}),
    ] {
        let (status, answer) = raw(&server, json!({"query": query}), false).await;
        assert_eq!((status, &answer["hits"]["total"]["value"]), (200, &json!(0)), "{query}: {answer}");
    }
    let (status, error) = raw(&server, json!({"sort": ["nirgends"]}), false).await;
    assert_eq!(
        (status, &error["error"]["root_cause"][0]["reason"]),
        (400, &json!("No mapping found for [nirgends] in order to sort on"))
    );
    // Every cost a query can drive is bounded, with a 400 beyond.
    let long = "Garten ".repeat(2_000);
    for body in [
        json!({"query": {"match": {"title": long}}}),
        json!({"suggest": {"s": {"text": long, "term": {"field": "SearchableText"}}}}),
        json!({"query": {"query_string": {"query": long}}}),
        json!({"query": (0..20).fold(json!({"match_all": {}}), |inner, _| json!({"bool": {"must": inner}}))}),
    ] {
        let (status, error) = raw(&server, body.clone(), true).await;
        assert_eq!(status, 400, "{error}");
        assert!(error["error"]["type"].is_string(), "{error}");
    }
    let request = server.anonymous(Method::POST, "@raw-es-search").header("Content-Type", "application/json");
    let (status, error) = read(request.body("{").send().await.unwrap()).await;
    assert_eq!((status, &error["error"]["type"]), (400, &json!("x_content_parse_exception")));
}

#[tokio::test]
async fn managers_see_the_index_status_and_rebuild_it_while_searches_go_on() {
    let server = TestServer::start().await;
    garden(&server).await;
    let (status, report) = server.get_json("@es-admin").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (&report["engine"], &report["lag"], &report["rebuilding"]),
        (&json!("tantivy"), &json!(0), &json!(false))
    );
    let documents = report["documents"].as_u64().unwrap();
    assert!(documents >= 5, "{report}");
    assert_eq!(report["last_error"], Value::Null);

    let rebuild = server.admin(Method::POST, "@es-admin").json(&json!({"action": "rebuild"})).send().await.unwrap();
    assert_eq!(rebuild.status(), 202);
    // Searches answer throughout, from the old index until the new one is committed.
    for _ in 0..200 {
        let (status, answer) = raw(&server, json!({"query": {"match": {"title": "Garten"}}}), true).await;
        assert_eq!((status, &answer["hits"]["total"]["value"]), (200, &json!(3)), "{answer}");
        if server.get_json("@es-admin").await.1["rebuilding"] == false {
            break;
        }
    }
    // The background indexer may commit its own batch around the rebuild's; what counts is
    // that the rebuilt index settles on every document again.
    let mut after = server.get_json("@es-admin").await.1;
    for _ in 0..50 {
        if after["documents"] == json!(documents) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        after = server.get_json("@es-admin").await.1;
    }
    assert_eq!((&after["rebuilding"], &after["documents"]), (&json!(false), &json!(documents)), "{after}");
    server.create("", json!({"@type": "Document", "id": "danach", "title": "Garten danach"})).await;
    server.settle().await;
    assert_eq!(
        raw(&server, json!({"query": {"match": {"title": "danach"}}}), false).await.1["hits"]["total"]["value"],
        1
    );

    let unknown = server.admin(Method::POST, "@es-admin").json(&json!({"action": "drop"})).send().await.unwrap();
    crate::support::assert_error(unknown, 400, "invalid_parameter").await;
    server.user("redakteur", &["Editor"], &[]).await;
    let editor = server.as_user("redakteur", Method::GET, "@es-admin").send().await.unwrap();
    crate::support::assert_error(editor, 403, "forbidden").await;
    crate::support::assert_error(server.anonymous(Method::GET, "@es-admin").send().await.unwrap(), 401, "unauthorized")
        .await;
}

#[tokio::test]
async fn typed_custom_fields_of_integrator_types_are_queried_aggregated_and_returned() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("kurs.toml"),
        r#"
id = "Kurs"
title = "Kurs"
workflow = ["one_state_workflow"]

[[fields]]
name = "title"
kind = "TextLine"
required = true

[[fields]]
name = "plaetze"
kind = "Int"

[[fields]]
name = "preis"
kind = "Float"

[[fields]]
name = "online"
kind = "Bool"

[[fields]]
name = "beginn"
kind = "Datetime"
"#,
    )
    .unwrap();
    let types_dir = dir.path().to_owned();
    let server = TestServer::start_with(|c| c.types_dir = Some(types_dir)).await;
    let custom = json!({"wcs.backend.search.custom_fields": {
        "plaetze": {"type": "integer"}, "preis": {"type": "double"}, "online": {"type": "boolean"}, "beginn": {"type": "date"}}});
    assert_eq!(server.admin(Method::PATCH, "@registry").json(&custom).send().await.unwrap().status(), 204);
    for (id, seats, price, online, start) in [
        ("yoga", 12, 80.0, false, "2027-01-10T18:00:00+00:00"),
        ("python", 20, 120.5, true, "2027-02-01T09:00:00+00:00"),
        ("toepfern", 8, 95.0, false, "2027-03-15T17:00:00+00:00"),
    ] {
        let kurs = json!({"@type": "Kurs", "id": id, "title": id, "plaetze": seats, "preis": price, "online": online, "beginn": start});
        server.create("", kurs).await;
    }
    // A date beyond what tantivy keeps (1677 to 2262) is indexed at that span's edge.
    server
        .create("", json!({"@type": "Kurs", "id": "fern", "title": "fern", "beginn": "9999-12-31T00:00:00+00:00"}))
        .await;
    server.settle().await;
    let found = |answer: &Value| {
        let mut found = ids(answer);
        found.sort();
        found
    };
    let cases = [
        (json!({"range": {"plaetze": {"gte": 10}}}), vec!["/Plone/python", "/Plone/yoga"]),
        (json!({"range": {"preis": {"lt": 100.0}}}), vec!["/Plone/toepfern", "/Plone/yoga"]),
        (json!({"term": {"online": true}}), vec!["/Plone/python"]),
        (
            json!({"range": {"beginn": {"gte": "2027-02-01T00:00:00+00:00"}}}),
            vec!["/Plone/fern", "/Plone/python", "/Plone/toepfern"],
        ),
        // Bounds beyond that span are answered, not overflowed.
        (
            json!({"range": {"beginn": {"lt": "3000-01-01T00:00:00+00:00"}}}),
            vec!["/Plone/python", "/Plone/toepfern", "/Plone/yoga"],
        ),
        (
            json!({"range": {"beginn": {"gte": -9_000_000_000_000_i64, "lte": "2027-01-31T00:00:00+00:00"}}}),
            vec!["/Plone/yoga"],
        ),
        (json!({"term": {"plaetze": 8}}), vec!["/Plone/toepfern"]),
    ];
    for (query, expected) in cases {
        let (status, answer) = raw(&server, json!({"query": query}), true).await;
        assert_eq!(status, 200, "{query}: {answer}");
        assert_eq!(found(&answer), expected, "{query}");
    }
    let stats = json!({"size": 1, "query": {"term": {"plaetze": 20}},
                       "aggs": {"preise": {"stats": {"field": "preis"}}, "alle": {"max": {"field": "plaetze"}}}});
    let (status, answer) = raw(&server, stats, true).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["aggregations"]["preise"]["avg"], 120.5);
    assert_eq!(answer["aggregations"]["alle"]["value"], 20.0);
    let source = &answer["hits"]["hits"][0]["_source"];
    assert_eq!(
        (&source["plaetze"], &source["preis"], &source["online"]),
        (&json!(20), &json!(120.5), &json!(true)),
        "{source}"
    );
}

#[tokio::test]
async fn scores_tell_nothing_of_what_the_caller_may_not_see() {
    let server = TestServer::start().await;
    for (id, text) in [("bericht", "Die Quartalszahlen des Amtes"), ("notiz", "Eine Notiz ohne Zahlen")] {
        server.create("", json!({"@type": "Document", "id": id, "title": id, "description": text})).await;
        server.transition(id, "publish").await;
    }
    server.settle().await;
    let query = json!({"query": {"match": {"description": "Quartalszahlen"}}});
    let score = |answer: &Value| answer["hits"]["hits"][0]["_score"].as_f64().unwrap();
    let (status, before) = raw(&server, query.clone(), true).await;
    assert_eq!(status, 200, "{before}");
    let (_, manager_before) = raw(&server, query.clone(), false).await;
    // Private documents with the word, of other lengths than the public ones.
    for n in 0..20 {
        let text = format!("Quartalszahlen intern {}", "vertraulich ".repeat(n));
        server
            .create("", json!({"@type": "Document", "id": format!("geheim-{n}"), "title": "x", "description": text}))
            .await;
    }
    server.settle().await;
    let (_, after) = raw(&server, query.clone(), true).await;
    assert_eq!(ids(&after), ["/Plone/bericht"]);
    assert_eq!(score(&after), score(&before), "the anonymous score did not move: {before} / {after}");
    let (_, manager_after) = raw(&server, query, false).await;
    assert!(score(&manager_after) < score(&manager_before), "a caller who sees them is scored over them");
}
