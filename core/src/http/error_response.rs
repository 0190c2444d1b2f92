//! An [`ApiError`] as an HTTP answer: its status, headers and the catalogue's JSON body.

use crate::error::ApiError;
use poem::{IntoResponse, Response};

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut builder = Response::builder().status(self.code.status()).content_type("application/json");
        for (name, value) in &self.headers {
            builder = builder.header(*name, value.as_str());
        }
        builder.body(self.body().to_string())
    }
}
