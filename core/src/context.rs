//! What a handler receives: the app, the request, the traversed object and the caller.

use crate::api::{VirtualHost, check_json_body, parse_bool};
use crate::app::App;
use crate::catalog::Scope;
use crate::content::{ContentObject, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::security::{Access, AuthMethod, Permission, Principal, Visibility};
use crate::serialize::{SerializeCtx, SerializeOptions};
use poem::http::{HeaderMap, Method};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The parts of the request every service may look at.
#[derive(Clone, Debug)]
pub struct RequestInfo {
    /// The HTTP method (HEAD is dispatched as GET).
    pub method: Method,
    /// The request headers.
    pub headers: HeaderMap,
    /// `scheme://host` as the client sees it (honours `X-Forwarded-Proto`).
    pub base_url: String,
    /// Decoded query pairs, in order.
    pub query: Vec<(String, String)>,
    /// The query string as sent, for links back to this request.
    pub raw_query: String,
    /// Whether the client asked for the API (JSON) rather than HTML.
    pub api: bool,
    /// The service's own URL (object URL plus `@name/…`), without query; batch links use it.
    pub service_url: String,
    /// The service's URL as the client wrote it: with `++api++` after the site when it was
    /// there, without query.
    pub sent_url: String,
    /// The client's address, for limits per client and the audit log: the connection's other
    /// end, or, when that is a trusted proxy, the address it forwards for (`X-Forwarded-For`
    /// from anyone else is ignored, since it can be forged).
    pub client: Option<std::net::IpAddr>,
    /// The virtual host the request came through (Zope's virtual-hosting paths), if any.
    pub virtual_host: Option<VirtualHost>,
}

impl RequestInfo {
    /// The URL this request was sent to: the service's URL as sent, `++api++` included, with
    /// the query as sent (what plone.restapi echoes as the `@id` of what it answers from the
    /// request's URL).
    pub fn request_url(&self) -> String {
        if self.raw_query.is_empty() { self.sent_url.clone() } else { format!("{}?{}", self.sent_url, self.raw_query) }
    }

    /// The URL a client of this request sees for the server URL `url`: through a virtual host,
    /// on its public base and root (what responses get at the edge; mails need it themselves).
    pub fn public_url(&self, url: &str) -> String {
        match &self.virtual_host {
            Some(host) => host.outbound(url),
            None => url.to_owned(),
        }
    }

    /// The first value of a query parameter.
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Every value of a repeatable query parameter, comma lists split.
    pub fn query_values(&self, name: &str) -> Vec<String> {
        crate::api::query_values(&self.query, name)
    }

    /// A strict query-string boolean; absent is `None`.
    pub fn query_bool(&self, name: &str) -> ApiResult<Option<bool>> {
        self.query_value(name).map(|v| parse_bool(name, v)).transpose()
    }

    /// A header as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// The handler's view of one request.
pub struct Ctx {
    /// The application: store, registries, security.
    pub app: Arc<App>,
    /// The request.
    pub request: RequestInfo,
    /// The traversed object, shared with traversal's chain (and, on SQLite, its memory), not copied.
    pub context: Arc<ContentObject>,
    /// The caller's standing on the context and its containers (loaded by traversal).
    pub access: Access,
    /// The context's type.
    pub profile: Arc<TypeProfile>,
    /// The caller.
    pub principal: Principal,
    /// How the caller authenticated.
    pub auth: AuthMethod,
    /// The `@name` or view name after the object; empty when the object itself is asked for.
    pub name: String,
    /// Path segments after the `@name` segment, e.g. `["file", "a.pdf"]` for `@@download`.
    pub subpath: Vec<String>,
    /// The raw request body.
    pub body: Vec<u8>,
    /// Values computed once for this request.
    pub memo: crate::serialize::RequestMemo,
    /// The service route that answers, once dispatch has chosen it.
    pub route: Option<&'static crate::service::Route>,
}

impl Ctx {
    /// The path parameter `{name}` of the answering route (`""` if it has none such).
    pub fn param(&self, name: &str) -> &str {
        self.route.and_then(|route| route.parameter(name, &self.subpath)).unwrap_or_default()
    }

    /// The URL of the site the request is in (on the request's base).
    pub fn site_url(&self) -> String {
        format!("{}/{}", self.request.base_url, self.context.site_id())
    }

    /// The body as a JSON object; anything else is a 400 with a clear message.
    pub fn json_body(&self) -> ApiResult<Map<String, Value>> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Err(ApiError::new(ErrorCode::InvalidJson, "The request body is empty; a JSON object is expected."));
        }
        match serde_json::from_slice::<Value>(&self.body) {
            Ok(Value::Object(map)) => {
                check_json_body(&self.body).map_err(|problem| {
                    ApiError::new(ErrorCode::InvalidJson, format!("The request body is refused: {problem}."))
                })?;
                Ok(map)
            }
            Ok(_) => Err(ApiError::new(ErrorCode::InvalidJson, "The request body must be a JSON object.")),
            Err(e) => Err(ApiError::new(ErrorCode::InvalidJson, format!("The request body is not valid JSON: {e}"))),
        }
    }

    /// The body as a JSON object, or an empty one when no body was sent.
    pub fn optional_json_body(&self) -> ApiResult<Map<String, Value>> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Map::new());
        }
        self.json_body()
    }

    /// An entry for the audit log about a change this request makes: by the caller, from the
    /// client's address, now.
    pub fn audit(&self, action: &str, target: &str, details: Value) -> crate::store::AuditEntry {
        crate::store::AuditEntry {
            id: 0,
            at: chrono::Utc::now(),
            actor: self.principal.actor().to_owned(),
            action: action.to_owned(),
            target: target.to_owned(),
            details,
            client: self.request.client.map(|address| address.to_string()),
        }
    }

    /// The absolute URL of an object.
    pub fn url_of(&self, object: &ContentObject) -> String {
        object.url(&self.request.base_url)
    }

    /// The context's container.
    pub fn parent(&self) -> Option<&ContentObject> {
        self.access.parent()
    }

    /// The container when the caller may see it, for `parent` in serializations.
    pub fn visible_parent(&self) -> Option<&ContentObject> {
        self.access.parent().filter(|_| self.access.may_view_parent(&self.app))
    }

    /// The context as serializers and component expanders see it.
    pub fn subject(&self) -> crate::serialize::Subject<'_> {
        crate::serialize::Subject { object: &self.context, parent: self.visible_parent(), profile: &self.profile }
    }

    /// Whether the caller holds `permission` on the context.
    pub fn allows(&self, permission: Permission) -> bool {
        self.access.allows(&self.app, permission)
    }

    /// Like [`Ctx::allows`], as the permission's refusal (401 or 403).
    pub fn check(&self, permission: Permission) -> ApiResult<()> {
        if self.allows(permission) { Ok(()) } else { Err(permission.refuse(&self.principal)) }
    }

    /// Checks a permission on another object than the context (e.g. a move source).
    pub async fn check_on(&self, object: &ContentObject, permission: Permission) -> ApiResult<()> {
        let access = Access::for_object(&self.app, &self.principal, object).await?;
        if access.allows(&self.app, permission) { Ok(()) } else { Err(permission.refuse(&self.principal)) }
    }

    /// What the caller may see, by security alone (relations, references, uids).
    pub fn visibility(&self) -> Visibility {
        Visibility::of(&self.principal)
    }

    /// What the caller may see in listings, navigation and search here: by security, and for
    /// callers without `Access inactive content` only content in its publication window.
    pub fn listing_visibility(&self) -> Visibility {
        self.visibility().in_listings(&self.app, &self.access)
    }

    /// The scope of a search below `path` by the caller (`@search`, `@vocabularies`, a
    /// search engine's endpoints).
    pub fn search_scope(&self, path: &str) -> Scope {
        Scope::new(&self.app, path, self.listing_visibility())
    }

    /// Serialization options from the query string (`include_items`, `b_size`, `expand`…).
    pub fn serialize_options(&self) -> ApiResult<SerializeOptions> {
        SerializeOptions::from_query(&self.request.query, &self.request.service_url)
    }

    /// The caller's language for the titles Plone translates: `Accept-Language`, else the
    /// site's.
    pub async fn translator(&self) -> ApiResult<crate::i18n::Translator<'_>> {
        self.app.translator(self.request.header("accept-language")).await
    }

    /// A serialization context over `options` and what the caller may see.
    pub fn serialize_ctx<'a>(&'a self, options: &'a SerializeOptions, visibility: &'a Visibility) -> SerializeCtx<'a> {
        SerializeCtx {
            site: &self.app,
            serializers: &*self.app.registry,
            base_url: &self.request.base_url,
            principal: &self.principal,
            visibility,
            access: &self.access,
            options,
            query: &self.request.query,
            references: &crate::serialize::NO_REFERENCES,
            memo: &self.memo,
            i18n: &self.app.i18n,
            accept_language: self.request.header("accept-language"),
        }
    }
}
