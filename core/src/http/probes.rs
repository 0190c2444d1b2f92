//! What operators and load balancers ask of an instance: `/healthz` (the process answers),
//! `/readyz` (it can reach its database, so it may be given traffic), `/metrics` (for trusted
//! peers only), and the request id that ties a client's report to the log line of its request.

use crate::app::App;
use poem::http::{HeaderMap, HeaderValue, StatusCode};
use poem::{Body, IntoResponse, Response};
use serde_json::json;

/// The header carrying the request id, both ways.
pub const REQUEST_ID: &str = "x-request-id";

/// The answer to a probe path, `None` for any other path; `trusted` is whether the request
/// comes from a trusted peer and was forwarded for nobody else: only those read the metrics.
pub async fn answer(app: &App, edge: &super::Edge, path: &str, trusted: bool) -> Option<Response> {
    match path {
        "/metrics" if trusted => Some(edge.metrics.answer(app).await),
        "/metrics" => Some(crate::http::ApiError::not_found(path).into_response()),
        "/healthz" => Some(probe(StatusCode::OK, "ok", None)),
        "/readyz" => Some(match sqlx::query("SELECT 1").execute(app.store.pool()).await {
            Ok(_) => probe(StatusCode::OK, "ready", None),
            Err(e) => {
                tracing::warn!(error = %e, "readiness: the database does not answer");
                probe(StatusCode::SERVICE_UNAVAILABLE, "unavailable", Some("the database does not answer"))
            }
        }),
        _ => None,
    }
}

fn probe(status: StatusCode, state: &str, reason: Option<&str>) -> Response {
    let mut body = json!({"status": state});
    if let Some(reason) = reason {
        body["reason"] = json!(reason);
    }
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header("Cache-Control", "no-store")
        .body(Body::from_string(body.to_string()))
}

/// The client's request id when it sent a sensible one (1 to 128 visible ASCII characters),
/// else a new one.
pub fn request_id(headers: &HeaderMap) -> HeaderValue {
    headers
        .get(REQUEST_ID)
        .filter(|v| (1..=128).contains(&v.len()) && v.as_bytes().iter().all(|b| b.is_ascii_graphic()))
        .cloned()
        .unwrap_or_else(|| {
            HeaderValue::from_str(&uuid::Uuid::new_v4().simple().to_string())
                .unwrap_or(HeaderValue::from_static("unknown"))
        })
}
