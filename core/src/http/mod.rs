//! HTTP concerns shared by every service: errors, the request context, query parsing,
//! batching, CORS and the server endpoint itself.

mod answer_cache;
mod client_limiter;
mod conditional;
mod cors;
mod csrf_check;
mod csv_answer;
mod edge;
mod error_response;
mod file_response;
mod login_redirect;
mod media;
mod metrics;
mod preconditions;
mod probes;
mod reply;
mod request_limits;
mod response;
mod security_headers;
mod server;
pub mod tus;
mod vhost;

pub use crate::api::VirtualHost;
pub use crate::api::{Batch, MAX_BATCH_SIZE, batching_links, query_string};
pub use crate::api::{BatchLinksShape, JsonText, OrderedMap, Shaped, batch_links};
pub use crate::api::{PATH_SEGMENT, QUERY_COMPONENT, parse_bool, parse_query, schema};
pub use crate::api::{Shape, body_schema, register_shape, shape_schema};
pub use crate::context::{Ctx, RequestInfo};
pub use crate::error::{ApiError, ApiResult, ErrorCode, FieldError};
pub use crate::serialize::RequestMemo;
pub use crate::service::{B_SIZE, B_START};
pub use answer_cache::{AnswerCache, CacheSettings};
pub use client_limiter::ClientLimiter;
pub use cors::CorsPolicy;
pub use csv_answer::{JsonOrCsv, csv_file, wants_csv};
pub use edge::{Edge, EdgeConfig};
pub use file_response::{FileMeta, file_meta, file_response};
pub use metrics::{Metrics, OpenConnection, ServedBy};
pub use reply::{
    Accepted, Created, Direct, Dyn, DynCreated, Found, Html, HtmlPage, Json, Message, NoContent, Raw, RawMeta, Refused,
    SeeOther, json_response, media_response,
};
pub use request_limits::Timeouts;
pub use response::{json, json_with_status};
pub use server::SiteEndpoint;
pub use vhost::TrustedProxies;
// Parsers of untrusted request input that the server calls internally, public so the fuzz
// targets (`fuzz/` at the repository root) can reach them without a running server.
pub use crate::api::check_json_body;
pub use vhost::{Rewritten, parse as parse_virtual_host};
