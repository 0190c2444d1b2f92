//! The third party's binary serves the shipped plugins and its own.
#![allow(clippy::expect_used)]

use std::process::Command;

#[test]
fn the_own_binary_links_the_shipped_plugins_and_its_own() {
    let output = Command::new(env!("CARGO_BIN_EXE_wcs-hello")).arg("openapi").output().expect("runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("the OpenAPI document");
    let paths = document["paths"].as_object().expect("paths");
    assert!(paths.contains_key("/{site}/{path}/@hello"), "its own service");
    assert!(paths.contains_key("/{site}/{path}/@search"), "core's");
    assert!(paths.contains_key("/{site}/{path}/@versions"), "a shipped plugin's");
}
