//! Server settings and secrets (the `record` table), with a memory of what was read.
//!
//! Every search reads a dozen settings, so on SQLite, where this process is the only server
//! using the database, values are remembered after the first read and forgotten when a
//! transaction that wrote a record commits. A read racing such a commit keeps what it read
//! only if no commit happened in between (a generation count decides), so a stale value is
//! never remembered. On PostgreSQL several instances share the database, so values are
//! remembered only while the store follows the other instances' commits (see
//! [`super::follow`]), which make it forget at once.

use super::rows::placeholders;
use super::{Store, Tx};
use crate::records::{RecordDef, current_value};
use serde_json::Value;
use sqlx::{AssertSqlSafe, Row};
use std::collections::HashMap;
use std::sync::Mutex;

/// The most names remembered: names can come from requests (`@registry/<name>`), so the
/// memory is bounded and starts over when full.
const MAX_REMEMBERED: usize = 1_024;

/// What was read, by record name (`None`: nothing stored), and how many record-writing commits
/// there have been.
#[derive(Default)]
pub(super) struct RecordMemory {
    state: Mutex<Remembered>,
}

#[derive(Default)]
struct Remembered {
    generation: u64,
    values: HashMap<String, Option<String>>,
}

impl RecordMemory {
    fn state(&self) -> std::sync::MutexGuard<'_, Remembered> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The stored values of all `names` if every one is remembered, and the generation a read
    /// of the database must be tagged with.
    fn recall(&self, names: &[&str]) -> (u64, Option<HashMap<String, String>>) {
        let state = self.state();
        let mut found = HashMap::new();
        for name in names {
            match state.values.get(*name) {
                Some(Some(value)) => {
                    found.insert((*name).to_owned(), value.clone());
                }
                Some(None) => {}
                None => return (state.generation, None),
            }
        }
        (state.generation, Some(found))
    }

    /// Remembers a read made at `generation`, unless a record write committed since.
    fn remember(&self, generation: u64, names: &[&str], found: &HashMap<String, String>) {
        let mut state = self.state();
        if state.generation != generation {
            return;
        }
        if state.values.len() + names.len() > MAX_REMEMBERED {
            state.values.clear();
        }
        for name in names {
            state.values.insert((*name).to_owned(), found.get(*name).cloned());
        }
    }

    /// Forgets everything: a record write committed.
    pub(super) fn forget(&self) {
        let mut state = self.state();
        state.generation += 1;
        state.values.clear();
    }
}

impl Store {
    /// A stored server setting or secret.
    pub async fn record(&self, name: &str) -> Result<Option<String>, sqlx::Error> {
        Ok(self.records(&[name]).await?.remove(name))
    }

    /// The stored values of the named records, in one statement (none when all are remembered).
    pub async fn records(&self, names: &[&str]) -> Result<HashMap<String, String>, sqlx::Error> {
        if names.is_empty() {
            return Ok(HashMap::new());
        }
        let remembered = self.remembers().then_some(&*self.records);
        let generation = match remembered.map(|memory| memory.recall(names)) {
            Some((_, Some(found))) => return Ok(found),
            Some((generation, None)) => Some(generation),
            None => None,
        };
        self.count();
        let sql = format!("SELECT name, value FROM record WHERE name IN ({})", placeholders(1, names.len()));
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for name in names {
            query = query.bind(*name);
        }
        let found = query
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<HashMap<String, String>, sqlx::Error>>()?;
        if let (Some(memory), Some(generation)) = (remembered, generation) {
            memory.remember(generation, names, &found);
        }
        Ok(found)
    }
}

impl Store {
    /// The current values of several declared records, read in one statement, in their order
    /// (a stored value that no longer fits its kind yields the default): for background tasks,
    /// which read settings on their own statement counter ([`Store::background`]).
    pub async fn record_values(&self, records: &[&RecordDef]) -> Result<Vec<Value>, sqlx::Error> {
        let names: Vec<&str> = records.iter().map(|r| r.name).collect();
        let mut stored = self.records(&names).await?;
        Ok(records.iter().map(|r| current_value(r, stored.remove(r.name))).collect())
    }
}

impl Tx {
    /// Stores a server setting or secret (visible to every reader once the transaction commits).
    pub async fn set_record(&mut self, name: &str, value: &str) -> Result<(), sqlx::Error> {
        self.count();
        self.records_written = true;
        sqlx::query(
            "INSERT INTO record (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        )
        .bind(name)
        .bind(value)
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Stores a value unless the name is already taken.
    pub async fn insert_record_if_missing(&mut self, name: &str, value: &str) -> Result<(), sqlx::Error> {
        self.count();
        self.records_written = true;
        sqlx::query("INSERT INTO record (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(value)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::RecordMemory;
    use std::collections::HashMap;

    #[test]
    fn a_read_that_raced_a_commit_is_not_remembered() {
        let memory = RecordMemory::default();
        let (generation, found) = memory.recall(&["a"]);
        assert!(found.is_none());
        memory.forget();
        memory.remember(generation, &["a"], &HashMap::from([("a".to_owned(), "old".to_owned())]));
        assert!(memory.recall(&["a"]).1.is_none(), "read before the commit, kept after it");

        let (generation, _) = memory.recall(&["a", "b"]);
        memory.remember(generation, &["a", "b"], &HashMap::from([("a".to_owned(), "new".to_owned())]));
        let (_, found) = memory.recall(&["a", "b"]);
        assert_eq!(found, Some(HashMap::from([("a".to_owned(), "new".to_owned())])), "b: nothing stored");
    }
}
