//! `@types`: the content types and their JSON Schemas (GET), and their editing through the
//! web (POST a field or fieldset, PATCH, PUT, DELETE), which needs Manage portal.

mod delete;
mod edit;
pub mod factories;
mod fieldsets;
mod get;
mod input;
mod patch;
mod post;
mod put;
mod schema;
mod shapes;

pub use delete::TYPES_DELETE;
pub use edit::{Origin, create_type, delete_type, edit_type, unknown_type};
pub use get::{TYPES, TYPES_COMPONENT};
pub use input::text;
pub use patch::TYPES_PATCH;
pub use post::TYPES_POST;
pub use put::TYPES_PUT;
pub use schema::{CATALOG_VOCABULARY, KEYWORDS_VOCABULARY};
