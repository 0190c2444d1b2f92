//! Content objects, their types and the rules for their ids and field values.

mod event_dates;
mod field_input;
mod fields;
pub mod ids;
mod kind;
pub mod language;
pub mod layout;
pub mod links;
mod live_types;
pub mod markup;
pub mod named_vocabularies;
mod object;
mod query_field;
pub mod remap;
pub mod scales;
pub mod type_edits;
pub mod type_openapi;
mod type_profile;
pub mod types;
pub mod values;
pub mod volto_blocks;

pub use event_dates::check_event_dates;
pub use kind::ContentKind;
pub use live_types::Types;
pub use object::{ContentObject, LANGUAGE_FIELD};
pub use query_field::QUERY;
pub use types::{
    FieldDef, FieldKind, FieldKindDef, Fieldset, LANGUAGE_ROOT, NAVIGATION_ROOT, TypeBehaviour, TypeProfile,
    TypeRegistry,
};
