//! The embedded engine's own cases: positions across reopening, German forms, security
//! filtering and subtrees.
#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn an_index_committed_under_other_rules_has_no_position() {
    let dir = tempfile::tempdir().unwrap();
    let engine = TantivyEngine::open(Some(dir.path())).unwrap();
    engine.commit(41).unwrap();
    drop(engine);
    assert_eq!(TantivyEngine::open(Some(dir.path())).unwrap().position().unwrap(), Some(41));
    assert_eq!(position_of(&format!("41@{}", INDEX_RULES - 1)), None);
    assert_eq!(position_of("41"), None, "before the rules were kept");
}

fn doc(uid: &str, title: &str, text: &str, allowed: &[&str]) -> IndexDoc {
    IndexDoc {
        uid: uid.into(),
        paths: vec!["/Plone".into(), format!("/Plone/{uid}")],
        portal_type: "Document".into(),
        title: title.into(),
        searchable_text: format!("{title} {text}"),
        allowed: allowed.iter().map(|a| (*a).to_owned()).collect(),
        effective: i64::MIN,
        expires: i64::MAX,
        ..IndexDoc::default()
    }
}

fn search(engine: &TantivyEngine, text: &str, allowed: Option<&[&str]>) -> Vec<String> {
    let filters =
        Filters { allowed: allowed.map(|a| a.iter().map(|t| (*t).to_owned()).collect()), ..Filters::default() };
    let query = serde_json::json!({"match": {"SearchableText": {"query": text, "operator": "and"}}});
    let request = SearchRequest { query: Some(query), filters, size: 10, ..SearchRequest::default() };
    engine.search(&request).unwrap().hits.into_iter().map(|h| h.uid).collect()
}

#[test]
fn german_forms_find_each_other_and_security_filters() {
    let engine = TantivyEngine::open(None).unwrap();
    engine
        .index(&[
            doc("a", "Alte Häuser", "am Fluss", &["Anonymous"]),
            doc("b", "Die Strasse", "Herr Müller wohnt hier", &["Anonymous"]),
            doc("c", "Ärzte", "geheim", &[wcs_core::security::Role::MANAGER.name()]),
        ])
        .unwrap();
    engine.commit(3).unwrap();
    assert_eq!(engine.position().unwrap(), Some(3));
    for query in ["Haus", "Hauses", "häusern"] {
        assert_eq!(search(&engine, query, None), ["a"], "{query}");
    }
    assert_eq!(search(&engine, "Straße Mueller", None), ["b"]);
    assert_eq!(search(&engine, "ÄRZTE", None), ["c"]);
    assert_eq!(search(&engine, "ärzte", Some(&["Anonymous"])), Vec::<String>::new());
    assert!(search(&engine, "der die das", None).is_empty());
    engine.delete(&["a".into()]).unwrap();
    engine.commit(4).unwrap();
    assert!(search(&engine, "Haus", None).is_empty());
}

#[test]
fn a_subtree_goes_by_its_roots_path() {
    let engine = TantivyEngine::open(None).unwrap();
    let doc = |uid: &str, paths: &[&str]| IndexDoc {
        uid: uid.into(),
        paths: paths.iter().map(|p| (*p).to_owned()).collect(),
        title: "Garten".into(),
        effective: i64::MIN,
        expires: i64::MAX,
        ..IndexDoc::default()
    };
    engine.index(&[doc("g", &["/P/g", "/P"]), doc("d", &["/P/g/d", "/P/g", "/P"])]).unwrap();
    engine.commit(1).unwrap();
    assert_eq!(engine.path_of("g").unwrap().as_deref(), Some("/P/g"));
    engine.delete_under("/P/g").unwrap();
    engine.commit(2).unwrap();
    let query = serde_json::json!({"match": {"Title": "Garten"}});
    let request = SearchRequest { query: Some(query), size: 10, ..SearchRequest::default() };
    assert_eq!(engine.search(&request).unwrap().total, 0);
}
