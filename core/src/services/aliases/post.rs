//! `POST <obj>/@aliases {"items": [{"path": "/old"}]}` adds aliases of the object;
//! `POST <site>/@aliases {"items": [{"path": "/old", "redirect-to": "/target"}]}` (or Plone's
//! CSV upload) adds aliases of any object. All or nothing: each alias is checked (a clean path
//! where no content lives, a live target outside the trash) before any is stored.

use super::csv::{CsvAlias, parse};
use super::paths::{MAX_ALIASES, alias_path, check_free};
use crate::content::ContentObject;
use crate::content::links::SitePrefixes;
use crate::content::values::parse_datetime;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, FieldError, NoContent, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::csv_upload::csv_text;
use chrono::{DateTime, Utc};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// The service.
pub static ALIASES_POST: Service = Service {
    method: Method::POST,
    name: "@aliases",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<NewAliases>),
        other_media: &["multipart/form-data", "text/csv"],
        ..Route::new(
            "",
            "Add aliases of this object; on the site root with redirect-to per item, or a CSV file (text/csv or \
             the multipart field file: old path,new path[,date]); all or nothing",
            endpoint!(post),
        )
    }],
};

/// The aliases to add; all or none are.
#[derive(Object)]
pub struct NewAliases {
    /// At most 1,000; a path string (or a list of them) is taken too.
    pub items: Vec<NewAlias>,
}

/// An alias to add.
#[derive(Object)]
pub struct NewAlias {
    /// The alias, a path inside the site starting with `/` where no content lives.
    pub path: String,
    /// Site root only: the path of the object it leads to.
    #[oai(rename = "redirect-to")]
    pub redirect_to: Option<String>,
    /// When it was made (ISO 8601); now unless given.
    pub datetime: Option<String>,
}

/// One alias asked for.
struct Wanted {
    path: String,
    target: Option<String>,
    datetime: Option<String>,
}

async fn post(ctx: Ctx) -> ApiResult<NoContent> {
    let site_root = ctx.context.is_site_root();
    let content_type = ctx.request.header("content-type").unwrap_or_default().to_owned();
    let wanted = match csv_text(&content_type, &ctx.body).await? {
        Some(_) if !site_root => {
            return Err(ApiError::invalid_parameter("file", "CSV files of aliases go to the site root's @aliases."));
        }
        Some(text) => parse(&text)
            .map_err(|lines| ApiError::validation(lines.into_iter().map(|l| FieldError::new("file", l)).collect()))?
            .into_iter()
            .map(|CsvAlias { path, target, datetime }| Wanted { path, target: Some(target), datetime })
            .collect(),
        None => from_json(&ctx.json_body()?)?,
    };
    if wanted.len() > MAX_ALIASES {
        return Err(ApiError::invalid_parameter("items", format!("Add at most {MAX_ALIASES} aliases at once.")));
    }
    let site_path = format!("/{}", ctx.context.site_id());
    let prefixes = SitePrefixes::new(&ctx.request.base_url, ctx.context.site_id());
    let mut errors = Vec::new();
    let mut adds: Vec<(String, String, DateTime<Utc>)> = Vec::new();
    for alias in &wanted {
        let physical = match alias_path(&site_path, &alias.path) {
            Ok(path) => path,
            Err(message) => {
                errors.push(FieldError::new("items", message));
                continue;
            }
        };
        if let Err(message) = check_free(&ctx.app, &physical, &alias.path).await? {
            errors.push(FieldError::new("items", message));
            continue;
        }
        let target = match (&alias.target, site_root) {
            (Some(target), true) => match live_target(&ctx, &prefixes.physical_path(target)).await? {
                Some(object) => object,
                None => {
                    errors.push(FieldError::new("items", format!("'{target}': no content lives there.")));
                    continue;
                }
            },
            (None, true) => {
                errors.push(FieldError::new("items", format!("'{}': say where it leads ('redirect-to').", alias.path)));
                continue;
            }
            (_, false) => ContentObject::clone(&ctx.context),
        };
        if target.path == physical {
            errors.push(FieldError::new("items", format!("'{}' would redirect to itself.", alias.path)));
            continue;
        }
        let created = alias.datetime.as_deref().and_then(|d| parse_datetime(d).ok()).unwrap_or_else(Utc::now);
        adds.push((physical, target.uid, created));
    }
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let mut tx = ctx.app.store.begin().await?;
    for (path, uid, created) in &adds {
        tx.add_alias(path, uid, *created).await?;
    }
    tx.commit().await?;
    Ok(NoContent::NoContent)
}

/// `items` as plone.restapi takes it: one path, a list of paths, or a list of objects.
fn from_json(body: &serde_json::Map<String, Value>) -> ApiResult<Vec<Wanted>> {
    let items = match body.get("items") {
        Some(Value::String(path)) => vec![Value::String(path.clone())],
        Some(Value::Array(items)) => items.clone(),
        _ => return Err(ApiError::invalid_parameter("items", "Send the aliases as 'items': a list of {\"path\": …}.")),
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(path) => Ok(Wanted { path: path.clone(), target: None, datetime: None }),
            Value::Object(map) => {
                let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
                let path =
                    text("path").ok_or_else(|| ApiError::invalid_parameter("items", "Each alias needs a 'path'."))?;
                Ok(Wanted { path, target: text("redirect-to"), datetime: text("datetime") })
            }
            _ => Err(ApiError::invalid_parameter("items", "Each alias is a path or {\"path\": …}.")),
        })
        .collect()
}

/// The live object at `path`, outside the trash: aliases never lead into it.
async fn live_target(ctx: &Ctx, path: &str) -> ApiResult<Option<ContentObject>> {
    Ok(ctx.app.store.content_at_path(path).await?.filter(|o| !o.is_trashed()))
}
