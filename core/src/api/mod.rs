//! The interface's vocabulary, below every floor that speaks it: how URLs are escaped, how
//! query strings and batches are read and linked, and the documented shapes of bodies built at
//! run time (OpenAPI schemas). Pure functions and types; the server itself is `http`.

mod batching;
mod json_check;
mod json_text;
mod parts;
mod query;
pub mod schema;
mod shape;
mod virtual_host;

pub use batching::{Batch, MAX_BATCH_SIZE, batching_links, query_string};
pub use json_check::check as check_json_body;
pub use json_text::JsonText;
pub use parts::{BatchLinksShape, OrderedMap, Shaped, batch_links};
pub use query::{parse_bool, parse_query, query_values};
pub use shape::{Shape, body_schema, register_shape, shape_schema};
pub use virtual_host::VirtualHost;

use percent_encoding::{AsciiSet, CONTROLS};

/// Characters escaped in one URL path segment.
pub const PATH_SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// Characters escaped in a query-string key or value.
pub const QUERY_COMPONENT: &AsciiSet = &PATH_SEGMENT.add(b'&').add(b'=').add(b'+');
