//! The error catalogue: every error a client can see, with its stable `code`, HTTP status and
//! plone.restapi-compatible `type`.
//!
//! Handlers never build status codes by hand; they pick an [`ErrorCode`], so the catalogue in
//! the README and the OpenAPI document stays the single truth. It is part of the model, so
//! every floor can return these errors; `http` only renders them.

use poem::http::StatusCode;
use serde::Serialize;
use serde_json::json;

mod database;

/// One entry of the error catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The body is not valid JSON, or not a JSON object where one is needed.
    InvalidJson,
    /// One or more fields failed validation; `errors` names them.
    ValidationFailed,
    /// A query-string parameter has a value of the wrong form.
    InvalidParameter,
    /// A required property such as `@type` or `source` is missing.
    MissingProperty,
    /// `@type` names no known content type.
    UnknownType,
    /// The container does not allow this type of child.
    DisallowedType,
    /// A reorder request does not match the container's children.
    OrderingMismatch,
    /// The workflow cannot do this: unknown state or transition, or one not possible now.
    WorkflowError,
    /// The operation does not apply to this object (e.g. setting a state without a workflow).
    ValueError,
    /// Any other request the server understands but refuses as malformed.
    BadRequest,
    /// No credentials, or wrong ones, for an operation that needs them.
    Unauthorized,
    /// An authenticated principal lacks the permission.
    Forbidden,
    /// An authenticated principal lacks a permission the specification refuses with 401
    /// (versions); type `Forbidden`, so it differs from "log in" (`unauthorized`).
    NotAllowed,
    /// Nothing lives at this path, or the service does not exist here.
    NotFound,
    /// The path exists but does not answer this method.
    MethodNotAllowed,
    /// The request conflicts with current state, e.g. an id that is taken.
    Conflict,
    /// The object is checked out to a working copy; change the copy, or cancel it.
    Locked,
    /// The request body did not arrive in time.
    RequestTimeout,
    /// A precondition the request set (`If-Match`) does not hold: the object changed since
    /// the caller read it.
    PreconditionFailed,
    /// The request body is larger than the configured limit.
    PayloadTooLarge,
    /// The request's URL is longer than the server reads.
    UriTooLong,
    /// The body is not in a media type the service accepts.
    UnsupportedMediaType,
    /// The `Range` header asks for bytes outside the file.
    RangeNotSatisfiable,
    /// The client sent more requests of this kind than a limit allows; `Retry-After` says
    /// when to try again.
    TooManyRequests,
    /// The request's headers are more or larger than the server reads.
    HeaderFieldsTooLarge,
    /// Well-formed, but some of its items cannot be carried out (relations whose ends are not
    /// found); `error.failed` lists them, and nothing was changed.
    Unprocessable,
    /// A service the server depends on (an external search cluster) cannot be reached now; the
    /// request may be retried.
    ServiceUnavailable,
    /// The server failed; details are logged, never sent.
    Internal,
}

impl ErrorCode {
    /// Every code, in catalogue order; the README table and tests iterate this.
    pub const ALL: [ErrorCode; 28] = [
        ErrorCode::InvalidJson,
        ErrorCode::ValidationFailed,
        ErrorCode::InvalidParameter,
        ErrorCode::MissingProperty,
        ErrorCode::UnknownType,
        ErrorCode::DisallowedType,
        ErrorCode::OrderingMismatch,
        ErrorCode::WorkflowError,
        ErrorCode::ValueError,
        ErrorCode::BadRequest,
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::NotAllowed,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::Conflict,
        ErrorCode::Locked,
        ErrorCode::RequestTimeout,
        ErrorCode::PreconditionFailed,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UriTooLong,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::RangeNotSatisfiable,
        ErrorCode::TooManyRequests,
        ErrorCode::HeaderFieldsTooLarge,
        ErrorCode::Unprocessable,
        ErrorCode::ServiceUnavailable,
        ErrorCode::Internal,
    ];

    /// The HTTP status this code is always sent with.
    pub fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            InvalidJson | ValidationFailed | InvalidParameter | MissingProperty | UnknownType | DisallowedType
            | OrderingMismatch | WorkflowError | ValueError | BadRequest => StatusCode::BAD_REQUEST,
            Unauthorized | NotAllowed => StatusCode::UNAUTHORIZED,
            Forbidden => StatusCode::FORBIDDEN,
            NotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Conflict | Locked => StatusCode::CONFLICT,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            PreconditionFailed => StatusCode::PRECONDITION_FAILED,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UriTooLong => StatusCode::URI_TOO_LONG,
            HeaderFieldsTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            RangeNotSatisfiable => StatusCode::RANGE_NOT_SATISFIABLE,
            TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
            ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The plone.restapi exception class name clients already switch on.
    pub fn type_name(self) -> &'static str {
        use ErrorCode::*;
        match self {
            InvalidJson => "DeserializationError",
            WorkflowError => "WorkflowException",
            ValueError => "ValueError",
            ValidationFailed | InvalidParameter | MissingProperty | UnknownType | DisallowedType | OrderingMismatch
            | BadRequest => "BadRequest",
            Unauthorized => "Unauthorized",
            Forbidden | NotAllowed => "Forbidden",
            NotFound => "NotFound",
            MethodNotAllowed => "MethodNotAllowed",
            Conflict => "Conflict",
            Locked => "Locked",
            RequestTimeout => "RequestTimeout",
            PreconditionFailed => "PreconditionFailed",
            PayloadTooLarge => "PayloadTooLarge",
            UriTooLong => "URITooLong",
            HeaderFieldsTooLarge => "RequestHeaderFieldsTooLarge",
            UnsupportedMediaType => "UnsupportedMediaType",
            RangeNotSatisfiable => "RangeNotSatisfiable",
            TooManyRequests => "TooManyRequests",
            Unprocessable => "Unprocessable Content",
            ServiceUnavailable => "ServiceUnavailable",
            Internal => "InternalError",
        }
    }

    /// The stable machine-readable code; never changes once released.
    pub fn code(self) -> &'static str {
        use ErrorCode::*;
        match self {
            InvalidJson => "invalid_json",
            ValidationFailed => "validation_failed",
            InvalidParameter => "invalid_parameter",
            MissingProperty => "missing_property",
            UnknownType => "unknown_type",
            DisallowedType => "disallowed_type",
            OrderingMismatch => "ordering_mismatch",
            WorkflowError => "workflow_error",
            ValueError => "value_error",
            BadRequest => "bad_request",
            Unauthorized => "unauthorized",
            Forbidden => "forbidden",
            NotAllowed => "not_allowed",
            NotFound => "not_found",
            MethodNotAllowed => "method_not_allowed",
            Conflict => "conflict",
            Locked => "locked",
            RequestTimeout => "request_timeout",
            PreconditionFailed => "precondition_failed",
            PayloadTooLarge => "payload_too_large",
            UriTooLong => "uri_too_long",
            HeaderFieldsTooLarge => "header_fields_too_large",
            UnsupportedMediaType => "unsupported_media_type",
            RangeNotSatisfiable => "range_not_satisfiable",
            TooManyRequests => "too_many_requests",
            Unprocessable => "unprocessable",
            ServiceUnavailable => "service_unavailable",
            Internal => "internal_error",
        }
    }
}

/// A problem with one field of a request, so clients can show it next to the input.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FieldError {
    /// The field (or query parameter) name.
    pub field: String,
    /// A human-readable explanation.
    pub message: String,
    /// Always `ValidationError`, as plone.restapi masks it.
    pub error: &'static str,
}

impl FieldError {
    /// A validation error on `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into(), error: "ValidationError" }
    }
}

/// An error on its way to the client.
#[derive(Debug)]
pub struct ApiError {
    /// Which catalogue entry this is.
    pub code: ErrorCode,
    /// What went wrong, in words.
    pub message: String,
    /// Per-field details for validation errors.
    pub errors: Vec<FieldError>,
    /// Extra response headers, e.g. `WWW-Authenticate`.
    pub headers: Vec<(&'static str, String)>,
    /// The nearest URL the caller may go to instead (plone.rest's `context`, sent with 404s).
    pub context: Option<String>,
    /// plone.restapi's own `{"error": {type, message, failed?}}` for services that answer in
    /// it (login, relations), sent besides the catalogue's keys. Boxed: errors travel in
    /// every `Result`, so they stay small.
    pub envelope: Option<Box<Envelope>>,
}

/// plone.restapi's error envelope.
#[derive(Debug)]
pub struct Envelope {
    /// plone.restapi's error type.
    pub type_name: &'static str,
    /// The items that failed, with why (`[[item, message]]`); none for most errors.
    pub failed: Vec<serde_json::Value>,
}

impl ApiError {
    /// An error with a message and no field details.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            errors: Vec::new(),
            headers: Vec::new(),
            context: None,
            envelope: None,
        }
    }

    /// A 400 listing the fields that failed.
    pub fn validation(errors: Vec<FieldError>) -> Self {
        let message = errors.iter().map(|e| format!("{}: {}", e.field, e.message)).collect::<Vec<_>>().join("; ");
        ApiError {
            code: ErrorCode::ValidationFailed,
            message,
            errors,
            headers: Vec::new(),
            context: None,
            envelope: None,
        }
    }

    /// A 400 for one bad query-string or body parameter.
    pub fn invalid_parameter(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        ApiError {
            code: ErrorCode::InvalidParameter,
            message: message.clone(),
            errors: vec![FieldError::new(field, message)],
            headers: Vec::new(),
            context: None,
            envelope: None,
        }
    }

    /// The 404 body plone.rest sends for an unknown path.
    pub fn not_found(url: &str) -> Self {
        ApiError::new(ErrorCode::NotFound, format!("Resource not found: {url}"))
    }

    /// A 500 whose cause is logged but not disclosed.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        ApiError::new(ErrorCode::Internal, "The server could not complete the request.")
    }

    /// Names the nearest URL the caller may go to instead (plone.rest's `context`).
    pub fn with_context(mut self, url: impl Into<String>) -> Self {
        self.context = Some(url.into());
        self
    }

    /// Also sends plone.restapi's `{"error": {"type": type_name, "message"}}` envelope, which
    /// clients of that service read.
    pub fn with_envelope(mut self, type_name: &'static str) -> Self {
        self.envelope = Some(Box::new(Envelope { type_name, failed: Vec::new() }));
        self
    }

    /// Also sends the envelope with the items that failed and why (`[[item, message]]`).
    pub fn with_failed(mut self, type_name: &'static str, failed: Vec<serde_json::Value>) -> Self {
        self.envelope = Some(Box::new(Envelope { type_name, failed }));
        self
    }

    /// Adds a response header, such as `WWW-Authenticate` on a 401.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// The JSON body `{type, message, code, errors?}`.
    pub fn body(&self) -> serde_json::Value {
        let mut body = json!({
            "type": self.code.type_name(),
            "message": self.message,
            "code": self.code.code(),
        });
        if !self.errors.is_empty() {
            body["errors"] = json!(self.errors);
        }
        if let Some(context) = &self.context {
            body["context"] = json!(context);
        }
        if let Some(envelope) = &self.envelope {
            body["error"] = json!({"type": envelope.type_name, "message": self.message});
            if !envelope.failed.is_empty() {
                body["error"]["failed"] = json!(envelope.failed);
            }
        }
        body
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.code(), self.message)
    }
}

impl std::error::Error for ApiError {}

/// Result type of every handler and store call that can reach a client.
pub type ApiResult<T> = Result<T, ApiError>;
