//! The poem endpoint that serves every site path: negotiation, authentication, traversal,
//! dispatch through the frozen service table, then CORS, the theming header and one log line.

use super::Edge;
use super::vhost;
use super::{ApiError, ApiResult, Ctx, ErrorCode, RequestInfo, parse_query};
use crate::api::VirtualHost;
use crate::app::App;
use crate::security::Access;
use crate::service::DEFAULT_VIEW;
use crate::traverse::{Target, parse_path, resolve};
use poem::http::{HeaderMap, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Request, Response};
use std::sync::Arc;
use std::time::Instant;

/// Serves the content interface of an [`App`] through an [`Edge`].
#[derive(Clone)]
pub struct SiteEndpoint {
    app: Arc<App>,
    edge: Arc<Edge>,
}

impl SiteEndpoint {
    /// An endpoint over `app`, at `edge`.
    pub fn new(app: Arc<App>, edge: Arc<Edge>) -> Self {
        SiteEndpoint { app, edge }
    }
}

impl Endpoint for SiteEndpoint {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let started = Instant::now();
        let method = req.method().clone();
        let path = req.uri().path().to_owned();
        let headers = req.headers().clone();
        let request_id = super::probes::request_id(&headers);
        let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip());
        let proxied = self.edge.trusted_proxies.trusts(peer);
        // A proxy on the same host passes the public's requests from loopback: those it
        // forwards carry a forwarding header, and are no operator's.
        let operator = proxied && !headers.contains_key("x-forwarded-for") && !headers.contains_key("forwarded");
        if let Some(mut response) = super::probes::answer(&self.app, &self.edge, &path, operator).await {
            response.headers_mut().insert(super::probes::REQUEST_ID, request_id);
            return Ok(response);
        }
        let answers = &self.edge.answers;
        let key = answers.key_of(&req, proxied);
        // Read before serving, so a change that lands meanwhile makes what is kept stale.
        let generation = self.app.store.generation();
        let (mut response, representation) = match key.as_deref().and_then(|key| answers.get(key, generation)) {
            Some(kept) => (kept.head(), Some(kept.representation())),
            None => {
                let mut response = self.answer(&mut req, &path, &headers, proxied).await;
                let representation = super::conditional::representation(&method, &mut response).await.map(Arc::new);
                if let (Some(key), Some(representation)) = (key, &representation) {
                    answers.keep(key, generation, &response, representation);
                }
                (response, representation)
            }
        };
        self.edge.cors.decorate(&headers, &mut response);
        super::security_headers::decorate(&mut response);
        let served_by = response.extensions().get::<super::ServedBy>().copied();
        if let Some(representation) = representation {
            response = super::conditional::deliver(&headers, response, &representation);
        }
        let elapsed = started.elapsed().as_secs_f64();
        self.edge.metrics.observe(served_by, &method, response.status(), elapsed);
        let status = response.status().as_u16();
        let duration_ms = elapsed * 1000.0;
        tracing::info!(
            target: "wcs::access",
            request_id = request_id.to_str().unwrap_or_default(),
            %method,
            path,
            status,
            duration_ms,
            "{method} {path} {status} {duration_ms:.1}ms"
        );
        response.headers_mut().insert(super::probes::REQUEST_ID, request_id);
        Ok(response)
    }
}

impl SiteEndpoint {
    /// The answer as services and hooks make it, in the virtual host's terms.
    async fn answer(&self, req: &mut Request, path: &str, headers: &HeaderMap, proxied: bool) -> Response {
        if let Some(refused) = super::request_limits::check(req) {
            return refused.into_response();
        }
        // Virtual-hosting paths, like forwarded headers, are believed from trusted proxies only.
        let virtual_host = if proxied { vhost::parse(path) } else { Ok(None) };
        let (mut response, virtual_host) = match virtual_host {
            Err(malformed) => (ApiError::new(ErrorCode::BadRequest, malformed).into_response(), None),
            Ok(virtual_host) => {
                let response = self.respond(req, proxied, virtual_host.as_ref()).await;
                (response.unwrap_or_else(IntoResponse::into_response), virtual_host.map(|v| v.host))
            }
        };
        let api = wants_json(headers)
            || path.split('/').nth(2) == Some("++api++")
            || (virtual_host.is_some() && path.contains("/++api++/"));
        if api {
            response.headers_mut().insert("x-theme-disabled", poem::http::HeaderValue::from_static("True"));
        }
        if let Some(host) = &virtual_host {
            response = virtualize(host, response).await;
        }
        response
    }
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers.get("accept").and_then(|v| v.to_str().ok()).is_some_and(|accept| accept.contains("application/json"))
}

impl SiteEndpoint {
    async fn respond(
        &self,
        req: &mut Request,
        proxied: bool,
        virtual_host: Option<&vhost::Rewritten>,
    ) -> ApiResult<Response> {
        let app = &self.app;
        if req.method() == Method::OPTIONS {
            let mut response = self.edge.cors.preflight(req.headers());
            if super::tus::is_endpoint(req.uri().path()) {
                super::tus::advertise(response.headers_mut());
            }
            return Ok(response);
        }
        if req.uri().path() == "/openapi.json"
            && let Some(document) = app.settings.openapi
        {
            let document = crate::content::type_openapi::with_type_schemas(document(&app.registry), &app.types);
            return Ok(Response::builder().content_type("application/json").body(document.to_string()));
        }
        let head = req.method() == Method::HEAD;
        let ctx = match traverse(app, &self.edge, req, proxied, virtual_host).await? {
            Traversed::Redirect(response) => return Ok(response),
            Traversed::Context(ctx) => ctx,
        };
        // A 401 says where the caller was, as plone.rest's does (`context`), like a 404.
        let context_url = ctx.context.url(&ctx.request.base_url);
        let mut response = dispatch(*ctx).await.map_err(|error| match (error.code, &error.context) {
            (ErrorCode::Unauthorized, None) => error.with_context(context_url),
            _ => error,
        })?;
        if head {
            let _ = response.take_body();
        }
        Ok(response)
    }
}

/// Where traversal ended.
enum Traversed {
    /// A moved path: the answer is a redirect.
    Redirect(Response),
    /// An object, with everything a service needs.
    Context(Box<Ctx>),
}

/// Authenticates the caller and walks the path to the deepest object; what is left over is
/// the service name and its subpath.
async fn traverse(
    app: &Arc<App>,
    edge: &Edge,
    req: &mut Request,
    proxied: bool,
    virtual_host: Option<&vhost::Rewritten>,
) -> ApiResult<Traversed> {
    let raw_path = match virtual_host {
        Some(rewritten) => rewritten.path.clone(),
        None => req.uri().path().to_owned(),
    };
    let raw_query = req.uri().query().unwrap_or_default().to_owned();
    let base_url = match virtual_host {
        Some(rewritten) => rewritten.host.base.clone(),
        None => base_url(req, proxied, edge.public_url.as_deref()),
    };
    let url = format!("{base_url}{raw_path}");
    let parsed = parse_path(&raw_path)?;
    let api = parsed.api_segment || wants_json(req.headers()) || virtual_host.is_some_and(|v| v.api);
    let method = if req.method() == Method::HEAD { Method::GET } else { req.method().clone() };
    let mut body = super::request_limits::read_body(req, edge.max_body_bytes, edge.timeouts.body).await?;
    if let Some(rewritten) = virtual_host
        && let Ok(text) = std::str::from_utf8(&body)
    {
        // Links a client sends in the virtual form are the physical URLs they stand for.
        body = rewritten.host.inbound(text).into_bytes();
    }
    let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip());
    let client = edge.trusted_proxies.client(peer, req.headers());
    let caller = app.security.authenticate(&app.store, req.headers(), client).await?;
    // A 404 names where the caller may go instead (plone.rest's `context`): the deepest object
    // traversal found, else the site.
    let site_url = parsed.segments.first().map(|site| format!("{base_url}/{site}"));
    let with_site = |error: ApiError| match (&site_url, error.code, error.context.clone()) {
        (_, ErrorCode::NotFound, Some(path)) if path.starts_with('/') => {
            error.with_context(format!("{base_url}{path}"))
        }
        (Some(site), ErrorCode::NotFound, None) => error.with_context(site.clone()),
        _ => error,
    };
    let (chain, name, subpath) = match resolve(app, &method, &parsed, &raw_query, &url).await.map_err(with_site)? {
        Target::Redirect { location } => {
            let status = if method == Method::GET { StatusCode::FOUND } else { StatusCode::TEMPORARY_REDIRECT };
            let response =
                Response::builder().status(status).header("Location", format!("{base_url}{location}")).finish();
            return Ok(Traversed::Redirect(response));
        }
        Target::Object { chain, name, subpath } => (chain, name, subpath),
    };
    let access = Access::load(app, &caller.principal, chain).await?;
    let object = access.object().cloned().ok_or_else(|| with_site(ApiError::not_found(&url)))?;
    // Content of a type no linked plugin defines now (its plugin switched off) stays stored,
    // but cannot be served: a 404 that says why, not a 500.
    let profile = app.types.get(&object.portal_type).ok_or_else(|| {
        ApiError::new(
            ErrorCode::NotFound,
            format!(
                "{url} is of type '{}', which no plugin of this server defines (is its plugin switched off?)",
                object.portal_type
            ),
        )
    })?;
    let service_url = service_url(&object.url(&base_url), &name, &subpath);
    let site_url = format!("{base_url}/{}", object.site_id());
    let sent_url = match service_url.strip_prefix(&site_url) {
        Some(rest) if parsed.api_segment => format!("{site_url}/++api++{rest}"),
        _ => service_url.clone(),
    };
    let request = RequestInfo {
        method,
        headers: req.headers().clone(),
        service_url,
        sent_url,
        base_url,
        query: parse_query(&raw_query),
        raw_query,
        api,
        client,
        virtual_host: virtual_host.map(|rewritten| rewritten.host.clone()),
    };
    Ok(Traversed::Context(Box::new(Ctx {
        app: app.clone(),
        request,
        context: object,
        access,
        profile,
        principal: caller.principal,
        auth: caller.method,
        name,
        subpath,
        body,
        memo: Default::default(),
        route: None,
    })))
}

/// The URL of what was asked for: the object's, then the service name and subpath.
fn service_url(object_url: &str, name: &str, subpath: &[String]) -> String {
    let mut url = object_url.to_owned();
    // A longer service name (`@controlpanels/content-rules`) is two segments of the URL.
    for segment in name.split('/').filter(|n| !n.is_empty()).chain(subpath.iter().map(String::as_str)) {
        url.push('/');
        url.extend(percent_encoding::utf8_percent_encode(segment, super::PATH_SEGMENT));
    }
    url
}

/// Runs the request hooks the caller holds the permission of, then the service for the method
/// and name: its guard, its CSRF policy, its route's guard, its handler. A browser asking for
/// an object gets its default view, a service like any other.
async fn dispatch(ctx: Ctx) -> ApiResult<Response> {
    let app = ctx.app.clone();
    for (_, hook) in app.registry.request_hooks() {
        if !ctx.allows(hook.permission) {
            continue;
        }
        if let Some(response) = (hook.run)(&ctx).await? {
            return Ok(response);
        }
    }
    let method = ctx.request.method.clone();
    let browsing = !ctx.request.api && method == Method::GET && ctx.name.is_empty();
    let name = if browsing { DEFAULT_VIEW } else { ctx.name.as_str() };
    let Some(service) = app.registry.service(&method, name, &ctx.profile) else {
        return Err(no_service(&app, &method, name, &ctx));
    };
    if let Err(denied) = service.guard.check(&ctx) {
        return super::login_redirect::login_or(&ctx, denied);
    }
    super::csrf_check::check_csrf(&ctx, service.csrf)?;
    let Some(route) = service.route(&ctx.subpath) else {
        return Err(ApiError::not_found(&ctx.request.service_url));
    };
    let mut ctx = ctx;
    ctx.route = Some(route);
    if let Some(Err(denied)) = route.guard.map(|guard| guard.check(&ctx)) {
        return super::login_redirect::login_or(&ctx, denied);
    }
    let content = service.name.is_empty();
    if content && matches!(method, Method::PATCH | Method::PUT | Method::DELETE) {
        super::preconditions::check_if_match(&ctx)?;
    }
    let revision = (content && method == Method::GET).then(|| super::preconditions::revision_of(&ctx.context));
    super::media::check_body_media(&ctx, route)?;
    let actor = crate::events::Actor {
        site_url: Some(ctx.request.public_url(&ctx.site_url())),
        ..crate::events::Actor::from(&ctx.principal)
    };
    let mut response = crate::events::acting(actor, (route.endpoint.handler)(ctx)).await?;
    response.extensions_mut().insert(super::ServedBy(if service.name.is_empty() { "content" } else { service.name }));
    if route.cacheable {
        response.extensions_mut().insert(super::answer_cache::MayBeKept);
    }
    if let Some(revision) = revision {
        response.extensions_mut().insert(revision);
    }
    Ok(response)
}

/// 405 with `Allow` when the name answers other methods here, else 404.
fn no_service(app: &App, method: &Method, name: &str, ctx: &Ctx) -> ApiError {
    let allowed = app.registry.methods_for(name, &ctx.profile);
    if allowed.is_empty() {
        return ApiError::not_found(&ctx.request.service_url).with_context(ctx.context.url(&ctx.request.base_url));
    }
    let allow = allowed.iter().map(Method::as_str).collect::<Vec<_>>().join(", ");
    ApiError::new(ErrorCode::MethodNotAllowed, format!("{method} is not allowed here; use {allow}."))
        .with_header("Allow", allow)
}

/// `scheme://host` of every link in the answer. The configured public URL when there is one;
/// else, from a trusted proxy, the host it forwards (`X-Forwarded-Host`/`-Proto`, or `Host`);
/// else the address the connection came in on. A client that is no trusted proxy never
/// chooses the host of links: its `Host` header would otherwise poison `@id`s, mails and the
/// answers kept for others. Only a well-formed host is echoed; anything else is `localhost`.
fn base_url(req: &Request, proxied: bool, public_url: Option<&str>) -> String {
    if let Some(public) = public_url {
        return public.to_owned();
    }
    let headers = req.headers();
    if !proxied && let Some(local) = req.local_addr().as_socket_addr() {
        return format!("http://{local}");
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let forwarded = |name: &str| if proxied { header(name) } else { None };
    let scheme = match forwarded("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    let host = forwarded("x-forwarded-host")
        .or_else(|| header("host"))
        .filter(|h| !h.is_empty() && h.len() <= 255)
        .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')))
        .unwrap_or("localhost");
    format!("{scheme}://{host}")
}

/// An answer as the virtual host's client must see it: URLs of the physical root in the body
/// (JSON, HTML, text) and in `Location` replaced by the virtual ones.
async fn virtualize(host: &VirtualHost, mut response: Response) -> Response {
    if let Some(location) = response.headers().get("location").and_then(|v| v.to_str().ok()) {
        let absolute = if location.starts_with('/') { format!("{}{location}", host.base) } else { location.to_owned() };
        if let Ok(value) = poem::http::HeaderValue::from_str(&host.outbound(&absolute)) {
            response.headers_mut().insert("location", value);
        }
    }
    let textual = response.content_type().is_some_and(|t| t.starts_with("application/json") || t.starts_with("text/"));
    if !textual {
        return response;
    }
    let Ok(bytes) = response.take_body().into_bytes().await else { return response };
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => response.set_body(host.outbound(&text)),
        Err(_) => response.set_body(bytes),
    }
    response
}
