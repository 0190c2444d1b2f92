//! Builds the OpenAPI document from the frozen service registry, so the document lists
//! exactly the endpoints this build serves, plugins included, and nothing a plugin switched
//! off serves.
//!
//! Every operation comes from a service route: its path parameters from the route's
//! sub-path, its query parameters and request body from the route's declaration, and its
//! success responses from the handler's reply type (poem-openapi's `ApiResponse`), whose
//! schemas poem-openapi derives from the Rust types. The dialect is OpenAPI 3.0, the one
//! poem-openapi's schemas are written in.
//!
//! Content paths are documented as `/{site}/{path}/@name`; `path` may contain `/` (clients
//! may also send it as `%2F`, which traversal accepts).

mod errors;

use poem_openapi::registry::{MetaResponses, Registry};
use serde_json::{Map, Value, json};
use wcs_core::app::SITE_TYPE;
use wcs_core::plugin::Registry as Services;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, ParamKind, QueryParam, Route, Service};

/// The OpenAPI document of everything `services` serves.
pub fn document(services: &Services) -> Value {
    let mut schemas = Registry::new();
    let mut paths: Map<String, Value> = Map::new();
    for (plugin, service) in services.services() {
        for route in service.routes {
            let item = paths.entry(path_of(service, route)).or_insert_with(|| json!({}));
            let method = service.method.as_str().to_ascii_lowercase();
            match item.get_mut(&method) {
                Some(existing) => add_kind(existing, service),
                None => item[method] = operation(plugin, service, route, &mut schemas),
            }
        }
    }
    if let Some(get) = paths.get_mut("/{site}/{path}").and_then(|item| item.get_mut("get"))
        && let Some(parameters) = get["parameters"].as_array_mut()
    {
        parameters.push(expand_parameter(services));
    }
    let hooks: Vec<Value> =
        services.request_hooks().map(|(plugin, hook)| json!({"name": hook.name, "plugin": plugin})).collect();
    let mut components: Map<String, Value> =
        schemas.schemas.iter().map(|(name, schema)| (name.clone(), to_value(schema))).collect();
    components.insert("Error".into(), errors::schema());
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "wcs-backend",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The plone.restapi-compatible content interface. Send `Accept: application/json` \
                            or put `++api++` after the site id.",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "basic": {"type": "http", "scheme": "basic"},
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT", "description": "The token of @login"},
                "csrf": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-CSRF-TOKEN",
                    "description": "The caller's token from GET <site>/@@authenticator/token; operations that change \
                                    something need it with cookie authentication, some with every kind",
                },
            },
        },
        "security": [{}, {"basic": []}, {"bearer": []}],
        "x-wcs-request-hooks": hooks,
    })
}

/// Where a route is documented: `/{site}/{path}/@name/<sub-path>`, or `/{site}/@name/…` for
/// the services only the site root answers (`@users`, `@controlpanels`…), since `{path}` cannot
/// be empty.
pub fn path_of(service: &Service, route: &Route) -> String {
    let mut path = if site_only(service) { "/{site}" } else { "/{site}/{path}" }.to_owned();
    for part in [service.name, route.subpath] {
        if !part.is_empty() {
            path.push('/');
            path.push_str(part);
        }
    }
    path
}

fn site_only(service: &Service) -> bool {
    service.kind == ContentKind::Type(SITE_TYPE)
}

fn operation(plugin: &str, service: &Service, route: &Route, schemas: &mut Registry) -> Value {
    let mut parameters = vec![path_parameter("site", "The site id")];
    if !site_only(service) {
        parameters.push(path_parameter("path", "The object's path below the site; may contain '/' (or '%2F')"));
    }
    parameters.extend(route.parameters().map(|name| path_parameter(name, "")));
    parameters.extend(route.query.iter().map(query_parameter));
    // A route's guard narrows its service's, so the narrower one is what a caller must hold.
    let guard = route.guard.unwrap_or(service.guard);
    let mut responses = responses(&(route.endpoint.responses)(schemas));
    let refused = responses.is_empty();
    responses.insert(
        "default".into(),
        json!({"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}),
    );
    let mut op = json!({
        "operationId": operation_id(service, route),
        "summary": route.summary,
        "tags": [plugin],
        "parameters": parameters,
        "x-wcs-permission": guard.permission().map(|p| p.name()),
        "x-wcs-csrf": csrf_label(service.csrf),
        "x-wcs-applies-to": [service.kind.label()],
        "responses": responses,
    });
    if let Some(words) = guard.describe() {
        op["x-wcs-guard"] = json!(words);
    }
    if refused {
        op["x-wcs-always-refused"] = json!(true);
    }
    if service.csrf == Csrf::Always {
        op["security"] = json!([{"basic": [], "csrf": []}, {"bearer": [], "csrf": []}]);
    }
    let mut content = Map::new();
    if let Some(body) = route.request {
        content.insert("application/json".into(), json!({"schema": to_value(&body(schemas))}));
    }
    for media in route.other_media {
        content.insert((*media).into(), json!({"schema": media_schema(media)}));
    }
    if !content.is_empty() {
        op["requestBody"] = json!({"required": route.body_required, "content": content});
    }
    op
}

/// The success responses, each with a description (poem-openapi leaves it empty where the
/// reply type has no doc comment, and OpenAPI wants one).
fn responses(meta: &MetaResponses) -> Map<String, Value> {
    let Value::Object(mut map) = to_value(meta) else {
        return Map::new();
    };
    for response in map.values_mut() {
        if response["description"].as_str().is_none_or(str::is_empty) {
            response["description"] = json!("Success");
        }
        // poem-openapi names JSON with its charset parameter; media type keys are plain.
        if let Some(content) = response.get_mut("content").and_then(Value::as_object_mut)
            && let Some(schema) = content.remove("application/json; charset=utf-8")
        {
            content.insert("application/json".into(), schema);
        }
    }
    map
}

fn to_value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// What a body of a media type other than JSON holds: form fields, an uploaded file, or text.
fn media_schema(media: &str) -> Value {
    match media {
        "application/x-www-form-urlencoded" => json!({"type": "object", "additionalProperties": {"type": "string"}}),
        "multipart/form-data" => {
            json!({"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}})
        }
        _ => json!({"type": "string"}),
    }
}

/// `expand`: the `@components` entries a content GET can inline, by name.
fn expand_parameter(services: &Services) -> Value {
    let mut names: Vec<&str> = services.all_components().iter().map(|(_, c)| c.name).collect();
    names.sort_unstable();
    names.dedup();
    json!({
        "name": "expand",
        "in": "query",
        "required": false,
        "description": "Comma-separated `@components` entries to inline",
        "schema": {"type": "string"},
        "x-wcs-components": names,
    })
}

fn path_parameter(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}, "description": description})
}

fn query_parameter(param: &QueryParam) -> Value {
    let schema = match param.kind {
        ParamKind::String => json!({"type": "string"}),
        ParamKind::Integer => json!({"type": "integer"}),
        ParamKind::Boolean => json!({"type": "boolean"}),
        ParamKind::StringList => json!({"type": "array", "items": {"type": "string"}}),
    };
    let mut parameter = json!({"name": param.name, "in": "query", "required": false, "description": param.description, "schema": schema});
    if param.kind == ParamKind::StringList {
        parameter["explode"] = json!(true);
    }
    parameter
}

/// A service registered for several content kinds is one operation listing all of them.
fn add_kind(existing: &mut Value, service: &Service) {
    if let Some(kinds) = existing.get_mut("x-wcs-applies-to").and_then(Value::as_array_mut) {
        kinds.push(json!(service.kind.label()));
    }
}

/// When the operation needs an `X-CSRF-TOKEN` header.
fn csrf_label(policy: Csrf) -> &'static str {
    match policy {
        Csrf::Cookie => "with cookie authentication",
        Csrf::Always => "always",
        Csrf::Exempt => "never",
    }
}

/// `get_versions`, `get_versions_comparison`, `get_view_login`: unique per method and path.
fn operation_id(service: &Service, route: &Route) -> String {
    let name: String = service.name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    // Browser views (no `@`) share names with endpoints (`login` and `@login`): ids must not.
    let mut id = match name.as_str() {
        "" => "content".to_owned(),
        _ if !service.name.starts_with('@') => format!("view_{}", name.replace('-', "_")),
        _ => name.replace('-', "_"),
    };
    for segment in route.subpath.split('/').filter(|s| !s.is_empty()) {
        let word: String = segment.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let word = if segment.starts_with('{') { format!("by_{word}") } else { word.replace('-', "_") };
        id.push('_');
        id.push_str(&word);
    }
    format!("{}_{id}", service.method.as_str().to_ascii_lowercase())
}
