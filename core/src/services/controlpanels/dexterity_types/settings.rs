//! A type's settings as the Content Types panel sends them (POST and PATCH).

use super::behaviours::{self, switch_off, switch_on};
use crate::content::TypeProfile;
use crate::error::{ApiError, ApiResult};
use crate::services::types::text;
use serde_json::{Map, Value};

/// Applies the keys given; `declared` are the fields the type's profile declares, which a
/// behaviour switched off leaves.
pub fn apply_settings(profile: &mut TypeProfile, body: &Map<String, Value>, declared: &[String]) -> ApiResult<()> {
    for (key, value) in body {
        match key.as_str() {
            "title" => {
                let title = text(body, key)?.filter(|t| !t.trim().is_empty());
                profile.title =
                    title.ok_or_else(|| ApiError::invalid_parameter("title", "The title cannot be empty."))?;
            }
            "description" => profile.description = text(body, key)?.unwrap_or_default(),
            "id" => {}
            "allowed_content_types" => {
                let allowed: Vec<String> = value
                    .as_array()
                    .and_then(|items| items.iter().map(|v| v.as_str().map(str::to_owned)).collect())
                    .ok_or_else(|| ApiError::invalid_parameter(key, "Expected a list of type ids."))?;
                profile.allowed_types = Some(allowed);
            }
            "filter_content_types" => match (value.as_bool(), value.as_str()) {
                (Some(true), _) | (_, Some("some")) => {
                    profile.allowed_types = Some(profile.allowed_types.take().unwrap_or_default());
                }
                (Some(false), _) | (_, Some("all")) => profile.allowed_types = None,
                (_, Some("none")) => profile.allowed_types = Some(Vec::new()),
                _ => return Err(ApiError::invalid_parameter(key, "Expected one of none, all, some.")),
            },
            _ if key.starts_with('@') => {}
            _ => {
                let behaviour = behaviours::by_name(key).ok_or_else(|| {
                    ApiError::invalid_parameter(key, format!("'{key}' is no setting of a content type."))
                })?;
                match value.as_bool() {
                    Some(true) => switch_on(profile, behaviour),
                    Some(false) => switch_off(profile, behaviour, declared),
                    None => return Err(ApiError::invalid_parameter(key, "Expected true or false.")),
                }
            }
        }
    }
    // What `filter_content_types` says wins over a list sent beside it, as in Plone's form.
    match body.get("filter_content_types").map(|v| (v.as_bool(), v.as_str())) {
        Some((Some(false), _) | (_, Some("all"))) => profile.allowed_types = None,
        Some((_, Some("none"))) => profile.allowed_types = Some(Vec::new()),
        _ => {}
    }
    Ok(())
}
