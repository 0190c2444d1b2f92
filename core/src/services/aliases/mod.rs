//! `@aliases`: URL management. Old paths that redirect to an object, recorded by moves and
//! renames or added by editors: GET lists them, POST adds, DELETE removes, on an object
//! (its own aliases) or on the site root (every alias; POST there also takes
//! `redirect-to` per item and Plone's CSV upload; GET answers CSV to `Accept: text/csv`).

mod csv;
mod delete;
mod get;
mod paths;
mod post;

pub use delete::ALIASES_DELETE;
pub use get::{ALIASES, ALIASES_COMPONENT};
pub use post::ALIASES_POST;
