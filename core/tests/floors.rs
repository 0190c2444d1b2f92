//! Core's modules stand in floors, and each imports only from its own floor or below (the
//! picture is the doc comment of `core/src/lib.rs`). This reads every `crate::<module>` path in
//! core's code (comments aside) and fails on one that reaches a higher floor, naming the file
//! and the line.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod source;

use source::rust_files;
use std::collections::BTreeSet;
use std::path::Path;

/// Each top-level module of `core/src` and its floor, lowest first.
const FLOORS: &[(&str, u8)] = &[
    // 1: the model, and the interface's vocabulary (URL escaping, query strings, batches,
    // documented shapes).
    ("error", 1),
    ("api", 1),
    ("future", 1),
    ("content", 1),
    ("workflow", 1),
    ("events", 1),
    ("records", 1),
    ("record_checks", 1),
    ("i18n", 1),
    // 2: storage.
    ("store", 2),
    // 3: who may do what, and the index-query model.
    ("security", 3),
    ("catalog", 3),
    ("site", 3),
    ("controlpanel", 3),
    // 4: every write.
    ("ops", 4),
    ("mail", 4),
    // 5: serializers.
    ("serialize", 5),
    // 6: the kernel.
    ("plugin", 6),
    ("service", 6),
    ("app", 6),
    ("extensions", 6),
    ("render", 6),
    ("context", 6),
    // 7: the server edge.
    ("http", 7),
    ("traverse", 7),
    ("server", 7),
    // 8: core's own endpoints.
    ("services", 8),
];

fn floor(module: &str) -> Option<u8> {
    FLOORS.iter().find(|(name, _)| *name == module).map(|(_, floor)| *floor)
}

/// The modules named by `crate::<module>` in a line of code.
fn named_modules(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

#[test]
fn every_module_imports_only_from_its_floor_or_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut unplaced = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let module = relative.split('/').next().unwrap().trim_end_matches(".rs").to_owned();
        if module == "lib" {
            continue;
        }
        let Some(own) = floor(&module) else {
            unplaced.insert(module);
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for target in named_modules(code) {
                let Some(theirs) = floor(&target) else { continue };
                if theirs <= own {
                    continue;
                }
                upward.push(format!(
                    "{relative}:{}: {module} (floor {own}) imports {target} (floor {theirs}): {}",
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        unplaced.is_empty() && upward.is_empty(),
        "modules without a floor (add them to FLOORS): {unplaced:?}\nimports that run upward:\n{}",
        upward.join("\n")
    );
}
