//! Builds the OpenAPI 3.1 document from the frozen service registry, so the document lists
//! exactly the endpoints this build serves, plugins included.
//!
//! Content paths are documented as `/{site}/{path}/@name`; `path` may contain `/` (clients
//! may also send it as `%2F`, which traversal accepts).

use serde_json::{Map, Value, json};
use wcs_core::http::ErrorCode;
use wcs_core::plugin::Registry;
use wcs_core::security::Csrf;
use wcs_core::service::Service;

/// The OpenAPI document of everything `registry` serves.
pub fn document(registry: &Registry) -> Value {
    let mut paths: Map<String, Value> = Map::new();
    for (plugin, service) in registry.services() {
        let path = if service.name.is_empty() {
            "/{site}/{path}".to_owned()
        } else {
            format!("/{{site}}/{{path}}/{}", service.name)
        };
        let item = paths.entry(path).or_insert_with(|| json!({"parameters": path_parameters()}));
        let method = service.method.as_str().to_ascii_lowercase();
        match item.get_mut(&method) {
            Some(existing) => add_kind(existing, service),
            None => {
                item[method] = operation(plugin, service);
            }
        }
    }
    if let Some(get) = paths.get_mut("/{site}/{path}").and_then(|item| item.get_mut("get")) {
        get["parameters"] = json!([expand_parameter(registry)]);
    }
    let hooks: Vec<Value> =
        registry.request_hooks().map(|(plugin, hook)| json!({"name": hook.name, "plugin": plugin})).collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "wcs-backend",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The plone.restapi-compatible content interface. Send `Accept: application/json` \
                            or put `++api++` after the site id.",
        },
        "paths": paths,
        "components": {
            "schemas": {"Error": error_schema()},
            "securitySchemes": {"basic": {"type": "http", "scheme": "basic"}},
        },
        "security": [{}, {"basic": []}],
        "x-wcs-request-hooks": hooks,
    })
}

/// `expand`: the `@components` entries a content GET can inline, by name.
fn expand_parameter(registry: &Registry) -> Value {
    let mut names: Vec<&str> = registry.all_components().iter().map(|(_, c)| c.name).collect();
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

fn path_parameters() -> Value {
    json!([
        {"name": "site", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The site id"},
        {"name": "path", "in": "path", "required": true, "schema": {"type": "string"},
         "description": "The object's path below the site; may contain '/' (or '%2F')"},
    ])
}

fn operation(plugin: &str, service: &Service) -> Value {
    let success = match (service.method.as_str(), service.name) {
        ("POST", "") => "201",
        ("DELETE", _) => "204",
        _ => "200",
    };
    let mut success_body = json!({"description": "Success"});
    if let Some(schema) = service.response_schema {
        success_body["content"] = json!({"application/json": {"schema": schema()}});
    }
    let mut op = json!({
        "operationId": operation_id(service),
        "summary": service.summary,
        "tags": [plugin],
        "x-wcs-permission": service.permission.name(),
        "x-wcs-csrf": csrf_label(service.csrf),
        "x-wcs-applies-to": [service.kind.label()],
        "responses": {
            success: success_body,
            "default": {"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        },
    });
    if let Some(schema) = service.request_schema {
        op["requestBody"] = json!({"required": true, "content": {"application/json": {"schema": schema()}}});
    }
    op
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

fn operation_id(service: &Service) -> String {
    let name: String = service.name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    // Browser views (no `@`) share names with endpoints (`login` and `@login`): ids must not.
    let name = match name.as_str() {
        "" => "content".to_owned(),
        _ if !service.name.starts_with('@') => format!("view_{}", name.replace('-', "_")),
        _ => name.replace('-', "_"),
    };
    format!("{}_{name}", service.method.as_str().to_ascii_lowercase())
}

fn error_schema() -> Value {
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.code()).collect();
    json!({
        "type": "object",
        "required": ["type", "message", "code"],
        "properties": {
            "type": {"type": "string", "description": "plone.restapi exception class, e.g. BadRequest"},
            "message": {"type": "string"},
            "code": {"type": "string", "enum": codes},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"field": {"type": "string"}, "message": {"type": "string"}, "error": {"type": "string"}},
                },
            },
        },
    })
}
