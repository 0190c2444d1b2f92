//! `POST @controlpanels/dexterity-types`: creates a content type (`title`, and `id` or one made
//! from the title), as Plone's panel makes one: a container that allows nothing inside until
//! told otherwise, addable anywhere, with the simple publication workflow and Dublin Core.

use super::behaviours::{DEFAULT_BEHAVIOURS, by_name, switch_on};
use super::render::{panel_url, type_settings};
use super::settings::apply_settings;
use super::shapes::{TypeSettingsInputShape, TypeSettingsShape};
use crate::content::TypeProfile;
use crate::content::ids::normalize_name;
use crate::endpoint;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::http::{Ctx, DynCreated, shape_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::types::{create_type, text};
use poem::http::Method;
use poem_openapi::payload::Response;

/// The workflow of types made in the panel, as Plone's default chain.
const WORKFLOW: &str = "simple_publication_workflow";
/// The longest type id.
const ID_LIMIT: usize = 100;

/// Creates types.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@controlpanels/dexterity-types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<TypeSettingsInputShape>),
        ..Route::new("", "Create a content type: title required", endpoint!(add))
    }],
};

async fn add(ctx: Ctx) -> ApiResult<Response<DynCreated<TypeSettingsShape>>> {
    let body = ctx.json_body()?;
    let title = text(&body, "title")?
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| ApiError::new(ErrorCode::MissingProperty, "Property 'title' is required."))?;
    let id = match text(&body, "id")? {
        Some(id) => id,
        None => normalize_name(&title).chars().take(ID_LIMIT).collect(),
    };
    if !valid_id(&id) {
        return Err(ApiError::invalid_parameter(
            "id",
            format!(
                "'{id}' is no valid type id: letters, digits, _ and -, at most {ID_LIMIT}, starting with a letter."
            ),
        ));
    }
    let mut profile = TypeProfile {
        id: id.clone(),
        title,
        description: String::new(),
        folderish: true,
        allowed_types: Some(Vec::new()),
        global_allow: true,
        workflow: vec![WORKFLOW.to_owned()],
        behaviours: Vec::new(),
        layout: "view".to_owned(),
        fields: Vec::new(),
        fieldsets: Vec::new(),
        removed_fields: Vec::new(),
        extend: false,
        through_the_web: true,
    };
    for behaviour in DEFAULT_BEHAVIOURS.iter().filter_map(|name| by_name(name)) {
        switch_on(&mut profile, behaviour);
    }
    apply_settings(&mut profile, &body, &[])?;
    let profile = create_type(&ctx, profile).await?;
    let url = format!("{}/{id}", panel_url(&ctx));
    Ok(Response::new(DynCreated::new(type_settings(&ctx, &profile))).header("Location", url))
}

fn valid_id(id: &str) -> bool {
    id.len() <= ID_LIMIT
        && id.starts_with(|c: char| c.is_ascii_alphabetic())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}
