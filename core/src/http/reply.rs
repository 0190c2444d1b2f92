//! What handlers return. Each reply type knows its status and body schema (poem-openapi's
//! `ApiResponse`), and a service's OpenAPI entry is read from its handler's return type, so
//! the document cannot say 200 where the code answers 201.
//!
//! Bodies with a fixed shape are `#[derive(Object)]` structs in [`Json`], [`Created`] or
//! [`Accepted`]. Bodies whose keys depend on data (a content object's fields depend on its
//! type, a panel's on its records) are [`Dyn`]: a JSON value plus a [`Shape`] that declares
//! what every such body has.

use crate::api::{Shape, register_shape};
use crate::error::{ApiError, ApiResult};
use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};
use poem_openapi::{ApiResponse, Object};
use serde::Serialize;
use serde_json::Value;
use std::marker::PhantomData;

pub use poem_openapi::payload::{Html, Json};

/// 201 Created with the new thing.
#[derive(ApiResponse)]
pub enum Created<T: ToJSON> {
    /// Created.
    #[oai(status = 201)]
    Created(Json<T>),
}

impl<T: ToJSON> Created<T> {
    /// Wraps the created thing.
    pub fn new(body: T) -> Self {
        Created::Created(Json(body))
    }
}

/// 202 Accepted: the work was queued.
#[derive(ApiResponse)]
pub enum Accepted<T: ToJSON> {
    /// Accepted; the work runs in the background.
    #[oai(status = 202)]
    Accepted(Json<T>),
}

/// 204 No Content.
#[derive(ApiResponse)]
pub enum NoContent {
    /// Done; nothing to show.
    #[oai(status = 204)]
    NoContent,
}

/// `{"message": "..."}`, the plain acknowledgement some plone.restapi services give.
#[derive(Object)]
pub struct Message {
    /// What happened, in words.
    pub message: String,
}

/// A JSON body built at run time, with status `STATUS`, documented by the shape `S`.
pub struct Dyn<S: Shape, const STATUS: u16 = 200>(String, PhantomData<S>);

/// A 201 [`Dyn`].
pub type DynCreated<S> = Dyn<S, 201>;

impl<S: Shape, const STATUS: u16> Dyn<S, STATUS> {
    /// Wraps a body of shape `S`.
    pub fn new(body: impl Into<Value>) -> Self {
        Dyn(body.into().to_string(), PhantomData)
    }

    /// Wraps a body of shape `S` that serializes itself, such as a content object whose
    /// components were kept as JSON text (no `Value` tree is built for them).
    pub fn serialized(body: &impl Serialize) -> ApiResult<Self> {
        Ok(Dyn(written(body)?, PhantomData))
    }
}

impl<S: Shape, const STATUS: u16> IntoResponse for Dyn<S, STATUS> {
    fn into_response(self) -> Response {
        json_text_response(StatusCode::from_u16(STATUS).unwrap_or(StatusCode::OK), self.0)
    }
}

impl<S: Shape, const STATUS: u16> ApiResponse for Dyn<S, STATUS> {
    fn meta() -> MetaResponses {
        json_response(STATUS, MetaSchemaRef::Reference(S::NAME.to_owned()))
    }

    fn register(registry: &mut Registry) {
        register_shape::<S>(registry);
    }
}

/// A 200 body that serde writes straight from a `T` (no `Value` tree, unlike [`Json`]),
/// documented by `T`'s schema; for hot answers whose parts are kept as [`JsonText`].
///
/// [`JsonText`]: crate::api::JsonText
pub struct Direct<T>(String, PhantomData<fn() -> T>);

impl<T: Type + Serialize> Direct<T> {
    /// Serializes `body`.
    pub fn new(body: &T) -> ApiResult<Self> {
        Ok(Direct(written(body)?, PhantomData))
    }
}

impl<T: Send + 'static> IntoResponse for Direct<T> {
    fn into_response(self) -> Response {
        json_text_response(StatusCode::OK, self.0)
    }
}

impl<T: Type + Send + 'static> ApiResponse for Direct<T> {
    fn meta() -> MetaResponses {
        json_response(200, T::schema_ref())
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

fn written(body: &impl Serialize) -> ApiResult<String> {
    serde_json::to_string(body).map_err(|e| ApiError::internal(format!("an answer did not serialize: {e}")))
}

fn json_text_response(status: StatusCode, text: String) -> Response {
    Response::builder().status(status).content_type("application/json").body(text)
}

/// A response built by hand (a file, a redirect, a page of HTML with headers) whose
/// statuses and media types `M` declares.
pub struct Raw<M: RawMeta>(Response, PhantomData<M>);

/// The responses a [`Raw`] reply may be.
pub trait RawMeta: Send + 'static {
    /// Statuses, media types and schemas.
    fn meta() -> MetaResponses;
}

impl<M: RawMeta> Raw<M> {
    /// Wraps a finished response.
    pub fn new(response: Response) -> Self {
        Raw(response, PhantomData)
    }
}

impl<M: RawMeta> IntoResponse for Raw<M> {
    fn into_response(self) -> Response {
        self.0
    }
}

impl<M: RawMeta> ApiResponse for Raw<M> {
    fn meta() -> MetaResponses {
        M::meta()
    }

    fn register(_: &mut Registry) {}
}

/// One JSON response with `status`.
pub fn json_response(status: u16, schema: MetaSchemaRef) -> MetaResponses {
    MetaResponses {
        responses: vec![MetaResponse {
            description: "Success",
            status: Some(status),
            status_range: None,
            content: vec![MetaMediaType { content_type: "application/json", schema }],
            headers: vec![],
        }],
    }
}

/// One response of `status` with a body of `media_type` described by `schema`, or none.
pub fn media_response(
    status: u16,
    description: &'static str,
    media: Option<(&'static str, MetaSchema)>,
) -> MetaResponse {
    MetaResponse {
        description,
        status: Some(status),
        status_range: None,
        content: media
            .into_iter()
            .map(|(content_type, schema)| MetaMediaType {
                content_type,
                schema: MetaSchemaRef::Inline(Box::new(schema)),
            })
            .collect(),
        headers: vec![],
    }
}

/// A page of HTML (the browser views).
pub struct HtmlPage;

impl RawMeta for HtmlPage {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![media_response(200, "A page of HTML", Some(("text/html", MetaSchema::new("string"))))],
        }
    }
}

/// 303 See Other to `Location`, after a form post.
pub struct SeeOther;

impl RawMeta for SeeOther {
    fn meta() -> MetaResponses {
        let mut response = media_response(303, "Done; the browser goes on to `Location`", None);
        response.headers.push(location_header());
        MetaResponses { responses: vec![response] }
    }
}

/// 302 Found: the thing lives at `Location`.
pub struct Found;

impl RawMeta for Found {
    fn meta() -> MetaResponses {
        let mut response = media_response(302, "Elsewhere; see `Location`", None);
        response.headers.push(location_header());
        MetaResponses { responses: vec![response] }
    }
}

fn location_header() -> poem_openapi::registry::MetaHeader {
    poem_openapi::registry::MetaHeader {
        name: "Location".into(),
        description: None,
        required: true,
        deprecated: false,
        schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
    }
}

/// The reply of a route that is always refused with an error (e.g. `POST @workflow` without a
/// transition, which plone.restapi answers with 400): it has no success response, and no
/// value of it can exist.
pub enum Refused {}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        match self {}
    }
}

impl ApiResponse for Refused {
    fn meta() -> MetaResponses {
        MetaResponses { responses: vec![] }
    }

    fn register(_: &mut Registry) {}
}
