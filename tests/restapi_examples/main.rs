//! plone.restapi's documented examples replayed against this server.
//!
//! Each scenario of `scenarios.toml` is one of plone.restapi's documentation tests: a fresh
//! server (site `plone`, user `admin` / `secret`, the plugins of a plain Plone site) gets the
//! content that test builds, then the test's recorded requests in their order. Every answer is
//! compared with the one a real Plone gave (see `compare.rs`). `exceptions.toml` lists the
//! examples that do not apply, the differences we keep on purpose, and what is still pending;
//! everything else must hold.
//!
//! The examples are read from the directory in `WCS_RESTAPI_EXAMPLES` (a copy of
//! plone.restapi's `src/plone/restapi/tests/http-examples`). The site profile, a plugin for
//! municipal sites, is switched off: plone.restapi's site is a plain Plone site.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
// The contract is that of the default build, every shipped plugin on (as the OpenAPI snapshot's).
#![cfg(all(
    feature = "comments",
    feature = "directdownload",
    feature = "easyform",
    feature = "es-search",
    feature = "multilingual",
    feature = "navigation",
    feature = "site-profile",
    feature = "versioning"
))]

mod compare;
mod example;
mod exceptions;
mod scenario;
#[allow(dead_code)]
#[path = "../http/support.rs"]
mod support;

use std::collections::BTreeSet;
use std::path::PathBuf;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plone_restapi_examples_answer_as_plone_does() {
    let Some(directory) = std::env::var_os("WCS_RESTAPI_EXAMPLES").map(PathBuf::from) else {
        eprintln!("WCS_RESTAPI_EXAMPLES is not set: plone.restapi's examples are not replayed");
        return;
    };
    let scenarios: scenario::Scenarios = toml::from_str(include_str!("scenarios.toml")).expect("scenarios.toml");
    let exceptions: exceptions::Exceptions = toml::from_str(include_str!("exceptions.toml")).expect("exceptions.toml");

    let recorded: BTreeSet<String> = std::fs::read_dir(&directory)
        .unwrap_or_else(|e| panic!("{}: {e}", directory.display()))
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.strip_suffix(".req").map(str::to_owned))
        .collect();
    let placed: BTreeSet<String> = scenarios.scenario.iter().flat_map(|s| s.examples()).map(str::to_owned).collect();
    let unplaced: Vec<&String> = recorded.difference(&placed).collect();

    let mut report = exceptions::Report::default();
    for scenario in &scenarios.scenario {
        if let Some(reason) = &scenario.not_applicable {
            for example in scenario.examples() {
                report.not_applicable(example, reason);
            }
            continue;
        }
        let server = support::TestServer::start_with(|config| {
            config.site_id = "plone".into();
            config.plugins.disabled = vec!["site-profile".into()];
        })
        .await;
        for outcome in scenario::run(&server, scenario, &directory).await {
            report.add(&exceptions, outcome);
        }
    }
    println!("{}", report.summary());
    if let Ok(path) = std::env::var("WCS_RESTAPI_REPORT") {
        std::fs::write(&path, report.details()).expect("write the report");
    }
    let mut problems = report.problems(&exceptions);
    if !unplaced.is_empty() {
        problems.push(format!("examples no scenario replays: {unplaced:?}"));
    }
    assert!(problems.is_empty(), "{} examples differ from their exceptions:\n{}", problems.len(), problems.join("\n"));
}
