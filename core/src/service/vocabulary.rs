use crate::context::Ctx;
use crate::error::ApiResult;
use crate::future::BoxFuture;

/// How a vocabulary computes its terms, `(token, title)`, for one request.
pub type TermsFn = for<'a> fn(&'a Ctx) -> BoxFuture<'a, ApiResult<Vec<(String, String)>>>;

/// A named vocabulary a plugin adds to `@vocabularies` (the content rules' triggers): its terms
/// as `(token, title)`, computed per request, so they may depend on the site and the caller.
pub struct Vocabulary {
    /// The name in `@vocabularies/<name>` (`plone.contentrules.events`).
    pub name: &'static str,
    /// The terms, in the order they are offered.
    pub terms: TermsFn,
}
