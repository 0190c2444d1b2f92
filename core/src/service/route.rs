//! A service's routes: the sub-path after the `@name`, its parameters, its request body and a
//! typed handler. The OpenAPI document is read from these declarations, and the success
//! statuses and response schemas from the handlers' return types ([`endpoint!`](crate::endpoint)).

use super::{Guard, Handler};
use crate::context::Ctx;
use crate::error::ApiResult;
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaResponses, MetaSchemaRef, Registry};
use std::future::Future;

/// One sub-path of a service.
pub struct Route {
    /// The segments after the `@name`, `/`-separated; `{name}` matches any one segment and
    /// is a path parameter in the document. `""` is the service itself.
    pub subpath: &'static str,
    /// One line for the OpenAPI document.
    pub summary: &'static str,
    /// The query parameters it reads.
    pub query: &'static [QueryParam],
    /// The JSON body it takes, if any.
    pub request: Option<RequestBody>,
    /// Whether a request without a body is refused (`true` by default when a body is declared).
    pub body_required: bool,
    /// The other media types its body may come in (form posts, CSV uploads), beside JSON.
    pub other_media: &'static [&'static str],
    /// The code and what it answers.
    pub endpoint: Endpoint,
    /// A guard this route adds to its service's, checked once the route is chosen (e.g. `Manage
    /// users` for a listing whose single items their own users may read).
    pub guard: Option<Guard>,
    /// Whether its 200 answers may be kept in the answer cache ([`crate::http::AnswerCache`]):
    /// true only for a read whose answer follows from stored data, the URL and the request
    /// headers alone, that writes nothing and reads no other in-process state.
    pub cacheable: bool,
}

impl Route {
    /// A route with no parameters and no body.
    pub const fn new(subpath: &'static str, summary: &'static str, endpoint: Endpoint) -> Self {
        Route {
            subpath,
            summary,
            query: &[],
            request: None,
            body_required: true,
            other_media: &[],
            endpoint,
            guard: None,
            cacheable: false,
        }
    }

    /// The same route, its answers kept in the answer cache.
    pub const fn cacheable(mut self) -> Self {
        self.cacheable = true;
        self
    }

    /// Whether `subpath` (the request's segments after the name) is this route's.
    pub fn matches(&self, subpath: &[String]) -> bool {
        let mut pattern = self.segments();
        let mut given = subpath.iter();
        loop {
            match (pattern.next(), given.next()) {
                (None, None) => return true,
                (Some(p), Some(segment)) if is_parameter(p) || p == segment => {}
                _ => return false,
            }
        }
    }

    /// The value of the path parameter `{name}` in a matching `subpath`.
    pub fn parameter<'a>(&self, name: &str, subpath: &'a [String]) -> Option<&'a str> {
        let index = self.segments().position(|p| is_parameter(p) && &p[1..p.len() - 1] == name)?;
        subpath.get(index).map(String::as_str)
    }

    /// The names of its path parameters, in order.
    pub fn parameters(&self) -> impl Iterator<Item = &'static str> {
        self.segments().filter(|p| is_parameter(p)).map(|p| &p[1..p.len() - 1])
    }

    fn segments(&self) -> impl Iterator<Item = &'static str> {
        self.subpath.split('/').filter(|s| !s.is_empty())
    }
}

fn is_parameter(segment: &str) -> bool {
    segment.len() > 2 && segment.starts_with('{') && segment.ends_with('}')
}

/// The media type of an HTML form post.
pub const FORM: &str = "application/x-www-form-urlencoded";

/// A query parameter a route reads.
pub struct QueryParam {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub kind: ParamKind,
    /// What it does.
    pub description: &'static str,
}

impl QueryParam {
    /// An optional parameter.
    pub const fn new(name: &'static str, kind: ParamKind, description: &'static str) -> Self {
        QueryParam { name, kind, description }
    }
}

/// The types query parameters come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// Text.
    String,
    /// A whole number.
    Integer,
    /// `true`/`false` (also `1`/`0`).
    Boolean,
    /// Repeatable: `?name=a&name=b`.
    StringList,
}

/// The schema of a request body.
pub type RequestBody = fn(&mut Registry) -> MetaSchemaRef;

/// The responses of a handler, registering the schemas they refer to.
pub type ResponsesFn = fn(&mut Registry) -> MetaResponses;

/// A handler with what it answers; built by [`endpoint!`](crate::endpoint) from a typed
/// `async fn(Ctx) -> ApiResult<R>`.
pub struct Endpoint {
    /// The code, its reply turned into a response.
    pub handler: Handler,
    /// What it answers, read from its reply type.
    pub responses: ResponsesFn,
}

/// The responses of the handler `_handler`, from its reply type `R`. `const`, so statics can
/// call it.
pub const fn responses_of<F, Fut, R>(_handler: &F) -> ResponsesFn
where
    F: Fn(Ctx) -> Fut,
    Fut: Future<Output = ApiResult<R>>,
    R: ApiResponse,
{
    reply_meta::<R>
}

fn reply_meta<R: ApiResponse>(registry: &mut Registry) -> MetaResponses {
    R::register(registry);
    R::meta()
}

/// Turns a typed `async fn(Ctx) -> ApiResult<R>` into an [`Endpoint`].
#[macro_export]
macro_rules! endpoint {
    ($handler:path) => {
        $crate::service::Endpoint {
            handler: |ctx| {
                ::std::boxed::Box::pin(async move {
                    $handler(ctx).await.map($crate::poem_reexports::IntoResponse::into_response)
                })
            },
            responses: $crate::service::responses_of(&$handler),
        }
    };
}

/// `b_start`: where a batched listing's page starts.
pub const B_START: QueryParam = QueryParam::new("b_start", ParamKind::Integer, "The first entry of the page, from 0");

/// `b_size`: how many entries a page of a batched listing has.
pub const B_SIZE: QueryParam =
    QueryParam::new("b_size", ParamKind::Integer, "Entries per page: default 25, at most 1000");

#[cfg(test)]
mod tests {
    use super::*;

    fn route(subpath: &'static str) -> Route {
        Route::new(
            subpath,
            "",
            Endpoint { handler: |_| unreachable_handler(), responses: |_| MetaResponses { responses: vec![] } },
        )
    }

    fn unreachable_handler() -> super::super::BoxFuture<'static, ApiResult<poem::Response>> {
        Box::pin(async { Ok(poem::Response::default()) })
    }

    fn segments(path: &str) -> Vec<String> {
        path.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect()
    }

    #[test]
    fn literal_and_parameter_segments_match_exactly() {
        let comparison = route("{version_id}/comparison");
        assert!(comparison.matches(&segments("3/comparison")));
        assert!(!comparison.matches(&segments("3")));
        assert!(!comparison.matches(&segments("3/restore")));
        assert!(!comparison.matches(&segments("3/comparison/more")));
        assert_eq!(comparison.parameter("version_id", &segments("3/comparison")), Some("3"));
        assert_eq!(comparison.parameters().collect::<Vec<_>>(), ["version_id"]);
        assert!(route("").matches(&[]));
        assert!(!route("").matches(&segments("x")));
    }
}
