//! The boxed future that hooks, handlers and serializers return: a plain type below every
//! floor that declares one.

use std::future::Future;
use std::pin::Pin;

/// A boxed future, as handlers and serializers return them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
