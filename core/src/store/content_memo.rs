//! A memory of content objects by path, for traversal on SQLite.
//!
//! Every request reads the objects along its path, and on SQLite that read is a hand-off to a
//! connection's thread and back, and a parse of every object's fields: under a stream of
//! edits, a quarter of the server's time. On SQLite this process is the only writer, so it
//! knows every change: an edit of an object's columns is applied to the remembered object,
//! once committed, and any other change to content (an object added, moved, deleted, trashed,
//! reordered, its roles blocked or checked out, a plugin's own statement) forgets everything.
//! As in the other memories, a read racing a commit is not kept. PostgreSQL, where other
//! instances write too, always asks the database.

use super::Store;
use super::room::make_room;
use super::security::any_content_at_paths;
use crate::content::ContentObject;
use chrono::SubsecRound;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much text (estimated from the fields) the memory holds before it makes room (see
/// [`make_room`]): it is meant for the folders along the paths being requested and the objects
/// asked for most, not for the whole site.
const MAX_WEIGHT: usize = 2 * 1024 * 1024;

/// Objects with more text than this are always read: a few of them would fill the memory.
const MAX_OBJECT_WEIGHT: usize = 64 * 1024;

/// Objects by path, and how many content commits there have been.
#[derive(Default)]
pub(super) struct ContentMemo {
    state: Mutex<Objects>,
}

#[derive(Default)]
struct Objects {
    generation: u64,
    by_path: HashMap<String, Kept>,
    weight: usize,
}

/// A remembered object, when it was read, and its weight (kept, so that replacing or dropping
/// it does not walk its fields again).
struct Kept {
    object: Arc<ContentObject>,
    read_at: Instant,
    weight: usize,
}

impl ContentMemo {
    fn state(&self) -> std::sync::MutexGuard<'_, Objects> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The objects at `paths` that are remembered and were read less than `max_age` ago (in
    /// the order of `paths`), the paths that are not, and the generation a read of those must
    /// be tagged with.
    pub(super) fn recall(&self, paths: &[String], max_age: Duration) -> Recalled {
        let state = self.state();
        let mut recalled =
            Recalled { objects: Vec::with_capacity(paths.len()), missing: Vec::new(), generation: state.generation };
        for path in paths {
            match state.by_path.get(path) {
                Some(kept) if kept.read_at.elapsed() < max_age => recalled.objects.push(kept.object.clone()),
                _ => recalled.missing.push(path.clone()),
            }
        }
        recalled
    }

    /// Remembers objects read at `generation`, unless a content commit came since; when the
    /// memory is full, what was read longer than `max_age` ago makes room first.
    pub(super) fn remember(&self, generation: u64, objects: &[Arc<ContentObject>], max_age: Duration) {
        let mut state = self.state();
        if state.generation != generation {
            return;
        }
        for object in objects {
            let weight = weight_of(object);
            if weight > MAX_OBJECT_WEIGHT {
                continue;
            }
            if let Some(old) = state.by_path.remove(&object.path) {
                state.weight -= old.weight;
            }
            if state.weight + weight > MAX_WEIGHT {
                let fresh = |_: &String, kept: &Kept| kept.read_at.elapsed() < max_age;
                state.weight = make_room(&mut state.by_path, MAX_WEIGHT, |kept| kept.weight, fresh);
            }
            state.weight += weight;
            let kept = Kept { object: object.clone(), read_at: Instant::now(), weight };
            state.by_path.insert(object.path.clone(), kept);
        }
    }

    /// Forgets everything: content changed in a way that is not an edit of columns.
    pub(super) fn forget(&self) {
        let mut state = self.state();
        state.generation += 1;
        state.by_path.clear();
        state.weight = 0;
    }

    /// Takes in committed edits (objects as [`as_stored_object`] gives them): each remembered
    /// object gets the columns its edit wrote (`Tx::update_content`), unless it already holds
    /// a newer edit (members of one group commit report in any order). An edit does not make
    /// it younger: what other processes wrote is still read within the maximum age.
    pub(super) fn edited(&self, written: &[Arc<ContentObject>]) {
        let mut state = self.state();
        state.generation += 1;
        for edit in written {
            let Some(kept) = state.by_path.get_mut(&edit.path) else { continue };
            if kept.object.uid != edit.uid || kept.object.modified >= edit.modified {
                continue;
            }
            let (before, after) = (kept.weight, weight_of(edit));
            if after > MAX_OBJECT_WEIGHT {
                state.by_path.remove(&edit.path);
                state.weight -= before;
                continue;
            }
            kept.weight = after;
            let object = &mut kept.object;
            if same_unedited_columns(object, edit) {
                // The usual case: the edit is the whole object as stored, shared as it is.
                *object = edit.clone();
            } else {
                let object = Arc::make_mut(object);
                object.title.clone_from(&edit.title);
                object.description.clone_from(&edit.description);
                object.review_state.clone_from(&edit.review_state);
                object.modified = edit.modified;
                object.effective = edit.effective;
                object.expires = edit.expires;
                object.fields.clone_from(&edit.fields);
            }
            state.weight = state.weight + after - before;
        }
    }
}

impl Store {
    /// Objects at `paths`, trashed ones included (traversal decides what they may do). They are
    /// shared, not copied: a request reads them, and the one it edits it copies once.
    pub async fn content_at_paths_with_trash(&self, paths: &[String]) -> Result<Vec<Arc<ContentObject>>, sqlx::Error> {
        let read = async |paths: &[String]| -> Result<Vec<Arc<ContentObject>>, sqlx::Error> {
            self.count();
            Ok(any_content_at_paths(&self.pool, paths).await?.into_iter().map(Arc::new).collect())
        };
        let Some(memo) = self.content_memo() else { return read(paths).await };
        let Recalled { mut objects, missing, generation } = memo.recall(paths, self.memo.max_age());
        if missing.is_empty() {
            return Ok(objects);
        }
        // Only what is not remembered is read: usually the object asked for, below folders
        // that every request along its path keeps fresh.
        let found = read(&missing).await?;
        memo.remember(generation, &found, self.memo.max_age());
        objects.extend(found);
        // In the order a read of them all gives: by path.
        objects.sort_unstable_by(|a, b| a.path.cmp(&b.path));
        Ok(objects)
    }
}

/// What [`ContentMemo::recall`] found for a list of paths.
pub(super) struct Recalled {
    /// The objects remembered, fresh enough.
    objects: Vec<Arc<ContentObject>>,
    /// The paths to read.
    missing: Vec<String>,
    /// The generation the read must be tagged with.
    generation: u64,
}

#[cfg(test)]
impl Recalled {
    /// Every object, when all were remembered; otherwise the generation.
    fn all(self) -> Result<Vec<Arc<ContentObject>>, u64> {
        if self.missing.is_empty() { Ok(self.objects) } else { Err(self.generation) }
    }
}

/// An object as a read gives it back once written: times to the microsecond.
pub(super) fn as_stored_object(object: &ContentObject) -> ContentObject {
    ContentObject {
        modified: object.modified.trunc_subsecs(6),
        effective: object.effective.map(|time| time.trunc_subsecs(6)),
        expires: object.expires.map(|time| time.trunc_subsecs(6)),
        ..object.clone()
    }
}

/// `object` as a read gives it back once written: itself, shared, when its times are already
/// to the microsecond (as an update writes them), which spares a copy of all its fields.
pub(super) fn shared_as_stored(object: &Arc<ContentObject>) -> Arc<ContentObject> {
    if is_as_stored(object) { object.clone() } else { Arc::new(as_stored_object(object)) }
}

/// Whether `object`'s times are as a read gives them back.
fn is_as_stored(object: &ContentObject) -> bool {
    let stored = |time: &chrono::DateTime<chrono::Utc>| time.trunc_subsecs(6) == *time;
    stored(&object.modified)
        && object.effective.as_ref().is_none_or(stored)
        && object.expires.as_ref().is_none_or(stored)
}

/// Whether an edit leaves every column it does not write as `object` has it.
fn same_unedited_columns(object: &ContentObject, edit: &ContentObject) -> bool {
    let ContentObject {
        uid,
        parent_uid,
        path,
        id,
        portal_type,
        position,
        title: _,
        description: _,
        review_state: _,
        created,
        modified: _,
        effective: _,
        expires: _,
        creator,
        fields: _,
        block_local_roles,
        trash_root,
        working_copy_of,
    } = object;
    *uid == edit.uid
        && *parent_uid == edit.parent_uid
        && *path == edit.path
        && *id == edit.id
        && *portal_type == edit.portal_type
        && *position == edit.position
        && *created == edit.created
        && *creator == edit.creator
        && *block_local_roles == edit.block_local_roles
        && *trash_root == edit.trash_root
        && *working_copy_of == edit.working_copy_of
}

/// About how many bytes of text an object holds.
pub(super) fn weight_of(object: &ContentObject) -> usize {
    fn of(value: &Value) -> usize {
        match value {
            Value::String(text) => text.len() + 2,
            Value::Array(items) => items.iter().map(of).sum::<usize>() + 2,
            Value::Object(map) => map.iter().map(|(key, value)| key.len() + 3 + of(value)).sum::<usize>() + 2,
            _ => 8,
        }
    }
    object.path.len()
        + object.title.len()
        + object.description.len()
        + 256
        + object.fields.values().map(of).sum::<usize>()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::test_support::{object, store};

    const LONG: Duration = Duration::from_secs(3_600);

    #[test]
    fn edits_are_applied_in_order_and_other_changes_forget() {
        let memo = ContentMemo::default();
        let folder = object("folder");
        let Err(generation) = memo.recall(std::slice::from_ref(&folder.path), LONG).all() else {
            panic!("recalled from nothing")
        };
        memo.remember(generation, &[Arc::new(folder.clone())], LONG);
        assert_eq!(memo.recall(std::slice::from_ref(&folder.path), LONG).all().unwrap()[0].title, "folder");

        let mut newer = folder.clone();
        newer.title = "newer".to_owned();
        newer.modified = folder.modified + chrono::Duration::seconds(2);
        let mut older = folder.clone();
        older.title = "older".to_owned();
        older.modified = folder.modified + chrono::Duration::seconds(1);
        memo.edited(&[Arc::new(as_stored_object(&newer)), Arc::new(as_stored_object(&older))]);
        let recalled = memo.recall(std::slice::from_ref(&folder.path), LONG).all().unwrap();
        assert_eq!(recalled[0].title, "newer", "an older edit reported later is not applied");
        assert_eq!(recalled[0].modified, newer.modified.trunc_subsecs(6));
        assert!(
            memo.recall(std::slice::from_ref(&folder.path), Duration::ZERO).all().is_err(),
            "an object read longer ago than the maximum age was recalled"
        );

        memo.remember(generation, &[Arc::new(object("raced"))], LONG);
        assert!(memo.recall(&["/raced".to_owned()], LONG).all().is_err(), "a read that raced a commit was kept");

        memo.forget();
        assert!(memo.recall(std::slice::from_ref(&folder.path), LONG).all().is_err(), "kept past a change");
    }

    #[test]
    fn an_object_with_finer_times_than_stored_is_not_shared_as_written() {
        let mut page = object("page");
        page.modified = chrono::DateTime::from_timestamp(1_700_000_000, 123_456_789).unwrap();
        assert!(!is_as_stored(&page), "nanoseconds are not stored");
        assert!(is_as_stored(&as_stored_object(&page)));
        let finer = Arc::new(page.clone());
        assert!(!Arc::ptr_eq(&shared_as_stored(&finer), &finer), "copied to be truncated");
        page.modified = page.modified.trunc_subsecs(6);
        let stored = Arc::new(page.clone());
        assert!(Arc::ptr_eq(&shared_as_stored(&stored), &stored), "shared as it is");
        page.expires = Some(chrono::DateTime::from_timestamp(1_800_000_000, 1).unwrap());
        assert!(!is_as_stored(&page), "each time counts");
    }

    #[test]
    fn large_objects_are_not_kept_and_the_memory_is_bounded() {
        let memo = ContentMemo::default();
        let mut large = object("large");
        large.fields.insert("text".to_owned(), Value::String("x".repeat(MAX_OBJECT_WEIGHT)));
        memo.remember(0, &[Arc::new(large.clone())], LONG);
        assert!(memo.recall(std::slice::from_ref(&large.path), LONG).all().is_err());

        let mut medium = object("m0");
        medium.fields.insert("text".to_owned(), Value::String("x".repeat(MAX_OBJECT_WEIGHT / 2)));
        let many: Vec<Arc<ContentObject>> = (0..2 * MAX_WEIGHT / MAX_OBJECT_WEIGHT * 2)
            .map(|n| Arc::new(ContentObject { path: format!("/m{n}"), ..medium.clone() }))
            .collect();
        memo.remember(0, &many, LONG);
        assert!(memo.state().weight <= MAX_WEIGHT);
        assert!(memo.recall(&[many.last().unwrap().path.clone()], LONG).all().is_ok(), "the newest is kept");
    }

    #[tokio::test]
    async fn only_what_is_not_remembered_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir).await;
        let folder = object("folder");
        let mut page = object("page");
        page.parent_uid = Some(folder.uid.clone());
        page.path = "/folder/page".to_owned();
        let mut tx = store.begin().await.unwrap();
        tx.insert_content(&folder).await.unwrap();
        tx.insert_content(&page).await.unwrap();
        tx.commit().await.unwrap();
        let chain = [folder.path.clone(), page.path.clone()];

        store.content_at_paths_with_trash(&chain[..1]).await.unwrap();
        // Behind the memory's back, as another process would write: what is remembered is
        // not read again within the maximum age.
        sqlx::query("UPDATE content SET title = 'elsewhere'").execute(&store.pool).await.unwrap();
        let before = store.query_count();
        let read = store.content_at_paths_with_trash(&chain).await.unwrap();
        assert_eq!(store.query_count() - before, 1, "one read, for the page");
        let seen: Vec<(&str, &str)> = read.iter().map(|o| (o.path.as_str(), o.title.as_str())).collect();
        assert_eq!(seen, [("/folder", "folder"), ("/folder/page", "elsewhere")], "by path, the folder as remembered");
        store.content_at_paths_with_trash(&chain).await.unwrap();
        assert_eq!(store.query_count() - before, 1, "both remembered now");
    }
}
