//! Full-text search for wcs-backend (in progress).

pub mod analysis;
