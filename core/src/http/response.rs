//! JSON responses.

use poem::Response;
use poem::http::StatusCode;
use serde_json::Value;

/// A 200 JSON response.
pub fn json(body: &Value) -> Response {
    json_with_status(StatusCode::OK, body)
}

/// A JSON response with any status.
pub fn json_with_status(status: StatusCode, body: &Value) -> Response {
    Response::builder().status(status).content_type("application/json").body(body.to_string())
}
