//! State a plugin keeps per running application (a search engine, a connection to a
//! cluster), found by its type. Several applications can run in one process (tests do), so a
//! plugin never keeps such state in a `static`.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The plugins' state of one application.
#[derive(Default)]
pub struct Extensions {
    values: RwLock<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Extensions {
    /// The value of type `T`, once a plugin put it there.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let values = self.values.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        values.get(&TypeId::of::<T>()).cloned().and_then(|value| value.downcast::<T>().ok())
    }

    /// Keeps `value` for the application's lifetime (replacing one of the same type).
    pub fn insert<T: Any + Send + Sync>(&self, value: Arc<T>) {
        let mut values = self.values.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        values.insert(TypeId::of::<T>(), value);
    }

    /// The value of type `T`, made by `make` on first use (once, however many ask at once).
    pub fn get_or_insert_with<T: Any + Send + Sync>(&self, make: impl FnOnce() -> Arc<T>) -> Arc<T> {
        if let Some(value) = self.get::<T>() {
            return value;
        }
        let mut values = self.values.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(value) = values.get(&TypeId::of::<T>()).cloned().and_then(|value| value.downcast::<T>().ok()) {
            return value;
        }
        let value = make();
        values.insert(TypeId::of::<T>(), value.clone());
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_by_type() {
        let extensions = Extensions::default();
        assert!(extensions.get::<String>().is_none());
        extensions.insert(Arc::new("engine".to_owned()));
        extensions.insert(Arc::new(7_u32));
        assert_eq!(extensions.get::<String>().as_deref().map(String::as_str), Some("engine"));
        assert_eq!(extensions.get::<u32>().as_deref(), Some(&7));
        assert_eq!(*extensions.get_or_insert_with(|| Arc::new(9_u32)), 7, "an existing value stays");
        assert_eq!(*extensions.get_or_insert_with(|| Arc::new(1_u8)), 1);
    }
}
