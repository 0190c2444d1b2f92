//! The index directory: opened, or created; an index of another schema (made by an older
//! version) replaced by an empty one, which start-up then rebuilds from storage (the index is
//! derived data); and one already written by another running server refused, untouched.

use crate::engine::EngineError;
use std::path::Path;
use tantivy::Index;

/// Opens the index in `dir`, or creates it. An index of another schema (made by an older
/// version) is replaced by an empty one, which start-up then rebuilds from storage: the index
/// is derived data.
pub fn open_or_replace(dir: &Path, schema: tantivy::schema::Schema) -> Result<Index, EngineError> {
    std::fs::create_dir_all(dir).map_err(|e| EngineError::new(format!("{}: {e}", dir.display())))?;
    let open = |schema| {
        let directory = tantivy::directory::MmapDirectory::open(dir)
            .map_err(|e| EngineError::new(format!("{}: {e}", dir.display())))?;
        Index::open_or_create(directory, schema).map_err(EngineError::from)
    };
    match open(schema.clone()) {
        Err(err) if matches!(Index::open_in_dir(dir).map(|i| i.schema() != schema), Ok(true)) => {
            tracing::warn!(%err, dir = %dir.display(), "search index of another schema; rebuilding it");
            std::fs::remove_dir_all(dir).map_err(|e| EngineError::new(format!("{}: {e}", dir.display())))?;
            std::fs::create_dir_all(dir).map_err(|e| EngineError::new(format!("{}: {e}", dir.display())))?;
            open(schema)
        }
        other => other,
    }
}

/// Tantivy's refusal to give a second writer the index, in words an operator can act on.
pub fn writer_error(err: tantivy::TantivyError, dir: Option<&Path>) -> EngineError {
    match (err, dir) {
        (tantivy::TantivyError::LockFailure(..), Some(dir)) => EngineError::new(format!(
            "the search index {} is in use by another running server; with the embedded engine each \
             instance needs its own --data-dir",
            dir.display()
        )),
        (err, _) => EngineError::from(err),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod disk_tests {
    use super::*;
    use crate::engine::SearchEngine;
    use crate::tantivy_engine::TantivyEngine;
    use tantivy::IndexWriter;

    #[test]
    fn the_position_survives_a_restart_and_an_old_schema_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let engine = TantivyEngine::open(Some(dir.path())).unwrap();
        engine.commit(42).unwrap();
        drop(engine);
        assert_eq!(TantivyEngine::open(Some(dir.path())).unwrap().position().unwrap(), Some(42));

        let old = tempfile::tempdir().unwrap();
        let mut builder = tantivy::schema::Schema::builder();
        builder.add_text_field("UID", tantivy::schema::STRING);
        let index = Index::create_in_dir(old.path(), builder.build()).unwrap();
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        writer.commit().unwrap();
        drop(writer);
        let engine = TantivyEngine::open(Some(old.path())).unwrap();
        assert_eq!(engine.position().unwrap(), None, "replaced by an empty index, rebuilt at start");
    }
}
