//! The content types a running server serves: the profiles' registry with the site owners'
//! edits applied. Requests read the current registry without locking; an edit, or another
//! instance's edit noticed by [`crate::site::Site::refresh_types`], swaps in a new one whole, so a
//! request sees one consistent set of types throughout.

use super::type_edits::{self, TypeEdit};
use super::{TypeProfile, TypeRegistry};
use arc_swap::ArcSwap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// The live types.
pub struct Types {
    /// What the profiles define, which edits apply to.
    base: TypeRegistry,
    current: ArcSwap<TypeRegistry>,
    /// The stored edits' revision the current registry was built from.
    revision: AtomicI64,
}

impl Types {
    /// The profiles' types, before any edit is loaded.
    pub fn new(base: TypeRegistry) -> Types {
        Types { current: ArcSwap::from_pointee(base.clone()), base, revision: AtomicI64::new(0) }
    }

    /// What the profiles define.
    pub fn profiles(&self) -> &TypeRegistry {
        &self.base
    }

    /// The current registry, whole.
    pub fn snapshot(&self) -> Arc<TypeRegistry> {
        self.current.load_full()
    }

    /// The revision of the stored edits now applied.
    pub fn revision(&self) -> i64 {
        self.revision.load(Ordering::Acquire)
    }

    /// Applies the stored edits of `revision`; returns what could not be applied.
    pub fn install(&self, revision: i64, edits: &[TypeEdit]) -> Vec<String> {
        let (registry, problems) = type_edits::apply(&self.base, edits);
        self.current.store(Arc::new(registry));
        self.revision.store(revision, Ordering::Release);
        problems
    }

    /// A type by id.
    pub fn get(&self, id: &str) -> Option<Arc<TypeProfile>> {
        self.current.load().get(id).cloned()
    }

    /// Every type, sorted by id.
    pub fn all(&self) -> std::vec::IntoIter<Arc<TypeProfile>> {
        self.current.load().all_shared().collect::<Vec<_>>().into_iter()
    }

    /// The plugin that defined the type `id` (none for other types).
    pub fn defined_by(&self, id: &str) -> Option<&'static str> {
        self.base.defined_by(id)
    }

    /// The ids of every block type, sorted; listings, navigation and search leave them out.
    pub fn block_types(&self) -> Vec<String> {
        self.current.load().block_types()
    }

    /// Whether objects of `portal_type` are layout blocks (unknown types are not).
    pub fn is_block_type(&self, portal_type: &str) -> bool {
        self.current.load().is_block_type(portal_type)
    }

    /// Whether `container` accepts a child of type `child`.
    pub fn allows_child(&self, container: &TypeProfile, child: &TypeProfile) -> bool {
        TypeRegistry::allows_child_of(container, child)
    }
}
