//! Full-text search for wcs-backend (in progress).

pub mod analysis;
pub mod engine;
pub mod schema;
pub mod tantivy_engine;
