//! Site Setup's Content Types panel (`@controlpanels/dexterity-types`): lists the types,
//! creates, edits and deletes them. The fields of a type are edited through `@types`.

mod behaviours;
mod delete;
mod get;
mod patch;
mod post;
mod render;
mod settings;
mod shapes;

pub use delete::DELETE as DEXTERITY_TYPES_DELETE;
pub use get::GET as DEXTERITY_TYPES_GET;
pub use patch::PATCH as DEXTERITY_TYPES_PATCH;
pub use post::POST as DEXTERITY_TYPES_POST;
