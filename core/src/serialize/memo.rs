//! Values computed once per request and shared by everything serving it (a navigation tree
//! used by both an endpoint and an expanded component, say).

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A per-request cache keyed by name; dropped with the request.
#[derive(Default)]
pub struct RequestMemo {
    entries: Mutex<HashMap<String, Arc<dyn Any + Send + Sync>>>,
}

impl RequestMemo {
    /// The value stored under `key`, if one of type `T` is there.
    pub fn get<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.get(key).cloned().and_then(|value| value.downcast::<T>().ok())
    }

    /// Stores `value` under `key` for the rest of the request.
    pub fn put<T: Any + Send + Sync>(&self, key: String, value: Arc<T>) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_by_key_and_type() {
        let memo = RequestMemo::default();
        memo.put("tree".into(), Arc::new(vec![1, 2]));
        assert_eq!(memo.get::<Vec<i32>>("tree").as_deref(), Some(&vec![1, 2]));
        assert!(memo.get::<String>("tree").is_none(), "another type is a miss");
        assert!(memo.get::<Vec<i32>>("other").is_none());
    }
}
