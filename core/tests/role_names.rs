//! Code names roles through `security::Role`'s constants, so a misspelt role cannot compile.
//! This reads the code of core and of every plugin (comments and test modules aside) and fails
//! on a role's name written as a string, naming the file and the line. `Anonymous` and
//! `Authenticated` are left out: they are also the names of callers and of `allowed` tokens.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod source;

use source::rust_files;
use std::path::Path;

const ROLE_NAMES: [&str; 8] =
    ["Manager", "Site Administrator", "Owner", "Editor", "Contributor", "Reviewer", "Reader", "Member"];

#[test]
fn roles_are_named_by_constants() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&core.join("src"), &mut files);
    for plugin in std::fs::read_dir(core.join("../plugins")).unwrap() {
        let src = plugin.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files.sort();
    let definitions = core.join("src/security/role.rs");
    let mut literals = Vec::new();
    for file in files.iter().filter(|f| **f != definitions) {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim() == "#[cfg(test)]" {
                break;
            }
            let code = line.split("//").next().unwrap_or_default();
            for name in ROLE_NAMES {
                if code.contains(&format!("\"{name}\"")) {
                    let relative = file.strip_prefix(core.join("..")).unwrap_or(file);
                    literals.push(format!("{}:{}: {}", relative.display(), number + 1, line.trim()));
                }
            }
        }
    }
    assert!(literals.is_empty(), "role names written as strings (use security::Role):\n{}", literals.join("\n"));
}
