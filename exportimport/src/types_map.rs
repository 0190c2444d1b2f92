//! Which type of this server each type of the export becomes: the standard ones by default
//! (`types.toml` beside this crate), and what an integrator adds or overrides with a file of
//! the same form (`wcs import-plone --types FILE`).

use crate::error::ImportError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

const DEFAULTS: &str = include_str!("../types.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypesFile {
    types: BTreeMap<String, String>,
}

/// The mapping.
#[derive(Debug, Clone)]
pub struct TypeMap {
    types: BTreeMap<String, String>,
}

impl TypeMap {
    /// The standard mapping, with `file`'s entries over it.
    pub fn load(file: Option<&Path>) -> Result<TypeMap, ImportError> {
        let mut types = parse(DEFAULTS, "types.toml")?;
        if let Some(file) = file {
            let shown = file.display().to_string();
            let text = std::fs::read_to_string(file).map_err(|e| ImportError::new(&shown, e.to_string()))?;
            types.extend(parse(&text, &shown)?);
        }
        Ok(TypeMap { types })
    }

    /// This server's type for the export's `plone_type`; `None` when it is left out.
    pub fn target(&self, plone_type: &str) -> Option<&str> {
        self.types.get(plone_type).map(String::as_str).filter(|t| !t.is_empty())
    }
}

fn parse(text: &str, file: &str) -> Result<BTreeMap<String, String>, ImportError> {
    toml::from_str::<TypesFile>(text)
        .map(|parsed| parsed.types)
        .map_err(|e| ImportError::new(file, format!("is not a type mapping ([types] \"Plone type\" = \"type\"): {e}")))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn standard_types_map_and_a_file_adds_overrides_and_leaves_out() {
        let standard = TypeMap::load(None).unwrap();
        assert_eq!(standard.target("Document"), Some("Document"));
        assert_eq!(standard.target("LIF"), Some("Folder"));
        assert_eq!(standard.target("collective.Thing"), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("types.toml");
        std::fs::write(&file, "[types]\n\"News Item\" = \"News\"\nLIF = \"\"\n\"collective.Thing\" = \"Document\"\n")
            .unwrap();
        let mapped = TypeMap::load(Some(&file)).unwrap();
        assert_eq!(mapped.target("News Item"), Some("News"));
        assert_eq!(mapped.target("LIF"), None);
        assert_eq!(mapped.target("collective.Thing"), Some("Document"));
        std::fs::write(&file, "News = 1").unwrap();
        assert!(TypeMap::load(Some(&file)).unwrap_err().problem.contains("type mapping"));
    }
}
