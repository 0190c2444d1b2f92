//! CORS: which browser origins may call the API, and the preflight answer. Preflights are
//! answered on every path, `++api++` ones included, without authentication.

use poem::Response;
use poem::http::{HeaderMap, HeaderValue, StatusCode};

const ALLOWED_METHODS: &str = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOWED_HEADERS: &str = "Accept, Authorization, Content-Type, Lock-Token, Prefer, X-CSRF-TOKEN, \
                               Tus-Resumable, Upload-Length, Upload-Metadata, Upload-Offset";
const EXPOSED_HEADERS: &str = "Content-Length, Content-Range, Content-Disposition, Location, \
                               Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Upload-Offset, Upload-Length, \
                               Upload-Expires";

/// The configured origins; empty means no cross-origin access.
#[derive(Clone, Debug, Default)]
pub struct CorsPolicy {
    origins: Vec<String>,
}

impl CorsPolicy {
    /// A policy for these origins; `*` allows any (then without credentials).
    pub fn new(origins: Vec<String>) -> Self {
        CorsPolicy { origins: origins.into_iter().map(|o| o.trim_end_matches('/').to_owned()).collect() }
    }

    fn allowed_origin(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        let origin = headers.get("origin")?;
        let text = origin.to_str().ok()?;
        if self.origins.iter().any(|o| o == "*") {
            return Some(HeaderValue::from_static("*"));
        }
        self.origins.iter().any(|o| o == text).then(|| origin.clone())
    }

    /// The answer to an `OPTIONS` request.
    pub fn preflight(&self, headers: &HeaderMap) -> Response {
        let mut response = Response::builder().status(StatusCode::NO_CONTENT).header("Allow", ALLOWED_METHODS).finish();
        if let Some(origin) = self.allowed_origin(headers) {
            let out = response.headers_mut();
            out.insert("access-control-allow-methods", HeaderValue::from_static(ALLOWED_METHODS));
            out.insert("access-control-allow-headers", HeaderValue::from_static(ALLOWED_HEADERS));
            out.insert("access-control-max-age", HeaderValue::from_static("3600"));
            self.decorate_with(out, origin);
        }
        response
    }

    /// Adds the CORS headers to an ordinary response when the origin is allowed.
    pub fn decorate(&self, request_headers: &HeaderMap, response: &mut Response) {
        if let Some(origin) = self.allowed_origin(request_headers) {
            let out = response.headers_mut();
            out.insert("access-control-expose-headers", HeaderValue::from_static(EXPOSED_HEADERS));
            self.decorate_with(out, origin);
        }
    }

    fn decorate_with(&self, out: &mut HeaderMap, origin: HeaderValue) {
        if origin != "*" {
            out.insert("access-control-allow-credentials", HeaderValue::from_static("true"));
        }
        out.insert("access-control-allow-origin", origin);
        out.append("vary", HeaderValue::from_static("Origin"));
    }
}
