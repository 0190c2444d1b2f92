//! HTTP concerns shared by every service: errors, the request context, query parsing,
//! batching, CORS and the server endpoint itself.

mod answer_cache;
mod batching;
mod client_limiter;
mod conditional;
mod context;
mod cors;
mod error;
mod file_response;
mod json_check;
mod media;
mod memo;
mod metrics;
mod parts;
mod preconditions;
mod probes;
mod query;
mod reply;
mod request_limits;
mod response;
pub mod schema;
mod security_headers;
mod server;
mod vhost;

pub use answer_cache::{AnswerCache, CacheSettings};
pub use batching::{Batch, MAX_BATCH_SIZE, batching_links, query_string};
pub use client_limiter::ClientLimiter;
pub use context::{Ctx, RequestInfo};
pub use cors::CorsPolicy;
pub use error::{ApiError, ApiResult, ErrorCode, FieldError};
pub use file_response::{FileMeta, file_meta, file_response};
pub use memo::RequestMemo;
pub use metrics::{Metrics, OpenConnection, ServedBy};
pub use parts::{B_SIZE, B_START, BatchLinksShape, OrderedMap, Shaped, batch_links};
pub use query::{parse_bool, parse_query};
pub use reply::{
    Accepted, Created, Dyn, DynCreated, Found, Html, HtmlPage, Json, Message, NoContent, Raw, RawMeta, Refused,
    SeeOther, Shape, body_schema, json_response, media_response, register_shape, shape_schema,
};
pub use request_limits::Timeouts;
pub use response::{json, json_with_status};
pub use server::SiteEndpoint;
pub use vhost::{TrustedProxies, VirtualHost};
// Parsers of untrusted request input that the server calls internally, public so the fuzz
// targets (`fuzz/` at the repository root) can reach them without a running server.
pub use json_check::check as check_json_body;
pub use vhost::{Rewritten, parse as parse_virtual_host};

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
