//! What `@move` and `@copy` bring into a folder: the `source` of their body (a URL, path or
//! UID, or a list of them) resolved to objects, and the answer pairing old and new URLs.
//!
//! Unlike upstream, a source that cannot be found is a 400 naming it, and nothing is moved:
//! a partial move is harder for an editor to undo than a clear error.

use crate::content::ContentObject;
use crate::content::links::is_uid;
use crate::http::schema::{array_of, object};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, Json, Shape};
use crate::security::Permission;
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use serde_json::Value;

/// The body of `@move` and `@copy`: `source`, one object or a list, each by absolute URL,
/// path (physical or below the site) or UID. (A shape, as poem-openapi's unions take only
/// objects.)
pub struct MoveCopyRequest;

impl Shape for MoveCopyRequest {
    const NAME: &'static str = "MoveCopyRequest";

    fn schema(_: &mut Registry) -> MetaSchema {
        let one = || MetaSchemaRef::Inline(Box::new(MetaSchema::new("string")));
        let source = MetaSchema { one_of: vec![one(), array_of(one())], ..MetaSchema::ANY };
        object("What to bring here", vec![("source", MetaSchemaRef::Inline(Box::new(source)))], &["source"])
    }
}

/// Where an object was and where it is now.
#[derive(Object)]
pub struct MovedObject {
    /// Its URL before.
    pub source: String,
    /// Its URL now.
    pub target: String,
}

/// The objects the body's `source` names, each checked for `permission` (what taking it
/// from where it is needs).
pub async fn requested_sources(ctx: &Ctx, permission: Permission) -> ApiResult<Vec<ContentObject>> {
    let body = ctx.json_body()?;
    let references: Vec<&str> = match body.get("source") {
        None | Some(Value::Null) => {
            return Err(ApiError::new(ErrorCode::MissingProperty, "Property 'source' is required."));
        }
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) if !many.is_empty() => many
            .iter()
            .map(|v| v.as_str().ok_or_else(|| ApiError::invalid_parameter("source", "Each source must be a string.")))
            .collect::<ApiResult<_>>()?,
        Some(_) => {
            return Err(ApiError::invalid_parameter(
                "source",
                "'source' must be a string or a non-empty list of strings.",
            ));
        }
    };
    let sources = resolve_sources(ctx, &references).await?;
    for source in &sources {
        ctx.check_on(source, permission).await?;
    }
    Ok(sources)
}

/// `[{source, target}]`: each object's URL before and after, from `(old path, object)` pairs.
pub fn source_target_pairs(ctx: &Ctx, results: &[(String, ContentObject)]) -> Json<Vec<MovedObject>> {
    let base = &ctx.request.base_url;
    Json(
        results
            .iter()
            .map(|(old_path, object)| MovedObject {
                source: ContentObject { path: old_path.clone(), ..object.clone() }.url(base),
                target: object.url(base),
            })
            .collect(),
    )
}

/// Resolves each reference (absolute URL, physical or site-relative path, or UID).
async fn resolve_sources(ctx: &Ctx, references: &[&str]) -> ApiResult<Vec<ContentObject>> {
    let site_path = format!("/{}", ctx.context.site_id());
    let keys: Vec<(bool, String)> = references.iter().map(|r| reference_key(r, &site_path)).collect();
    let paths: Vec<String> = keys.iter().filter(|(is_uid, _)| !is_uid).map(|(_, k)| k.clone()).collect();
    let uids: Vec<String> = keys.iter().filter(|(is_uid, _)| *is_uid).map(|(_, k)| k.clone()).collect();
    let mut found = ctx.app.store.content_at_paths(&paths).await?;
    found.extend(ctx.app.store.content_by_uids(&uids).await?);
    let mut sources = Vec::with_capacity(keys.len());
    let mut errors = Vec::new();
    for ((is_uid, key), reference) in keys.iter().zip(references) {
        let hit = found.iter().find(|o| if *is_uid { &o.uid == key } else { &o.path == key });
        match hit {
            Some(object) if !sources.iter().any(|s: &ContentObject| s.uid == object.uid) => {
                sources.push(object.clone())
            }
            Some(_) => {}
            None => errors.push(FieldError::new("source", format!("No object found for '{reference}'."))),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    Ok(sources)
}

/// `(true, uid)` for a UID, else `(false, physical path)`.
pub fn reference_key(reference: &str, site_path: &str) -> (bool, String) {
    let trimmed = reference.trim();
    if is_uid(trimmed) {
        return (true, trimmed.to_ascii_lowercase());
    }
    let path = match trimmed.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => trimmed,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty() && *s != "++api++").collect();
    let joined = format!("/{}", segments.join("/"));
    if joined == site_path || joined.starts_with(&format!("{site_path}/")) {
        (false, joined)
    } else {
        (false, format!("{site_path}{}", if joined == "/" { "" } else { &joined }))
    }
}

#[cfg(test)]
mod tests {
    use super::reference_key;

    #[test]
    fn references_resolve_to_physical_paths() {
        assert_eq!(reference_key("http://h:8080/Plone/++api++/a/b", "/Plone").1, "/Plone/a/b");
        assert_eq!(reference_key("/Plone/a", "/Plone").1, "/Plone/a");
        assert_eq!(reference_key("/a", "/Plone").1, "/Plone/a");
        assert!(reference_key("0123456789abcdef0123456789ABCDEF", "/Plone").0);
    }
}
