//! `@users`: list, read, create, update and delete users (site root).

use super::principals::{
    apply_text, check_id, finish, parse_roles, principal_listing, principal_segment, require_manager, site_url,
    user_json,
};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, json, json_with_status};
use crate::security::{Csrf, Permission, Principal, hash_password, verify_password};
use crate::service::{ContentKind, Service};
use crate::store::StoredPrincipal;
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Map, Value};

const MIN_PASSWORD: usize = 8;

/// `GET @users[?query=]` (Manage users) or `GET @users/<id>` (the user or a manager).
pub static USERS_GET: Service = Service {
    method: Method::GET,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "List users (batched, ?query=) or read one (@users/<id>)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(get(ctx)),
};

/// `POST @users {username, password, email, fullname, roles…}`.
pub static USERS_POST: Service = Service {
    method: Method::POST,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Create a user",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(post(ctx)),
};

/// `PATCH @users/<id>`: details, password (`old_password` when changing one's own), roles.
pub static USERS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Update a user",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(patch(ctx)),
};

/// `DELETE @users/<id>`: removes the user, its memberships and local roles.
pub static USERS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Delete a user",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(delete(ctx)),
};

async fn load_user(ctx: &Ctx, id: &str) -> ApiResult<StoredPrincipal> {
    ctx.app
        .store
        .principal(id)
        .await?
        .filter(|p| p.kind == "user")
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("User '{id}' could not be found.")))
}

/// Users may read and change themselves; anything else needs `Manage users`.
fn require_self_or_manager(ctx: &Ctx, id: &str) -> ApiResult<()> {
    if ctx.principal.user_id() == Some(id) { Ok(()) } else { require_manager(ctx) }
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site = site_url(&ctx);
    if let Some(id) = principal_segment(&ctx)? {
        require_self_or_manager(&ctx, &id)?;
        return Ok(json(&user_json(&site, &load_user(&ctx, &id).await?)));
    }
    require_manager(&ctx)?;
    Ok(json(&principal_listing(&ctx, "user", "@users", user_json).await?))
}

fn password(body: &Map<String, Value>, errors: &mut Vec<FieldError>) -> Option<String> {
    match body.get("password") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) if p.chars().count() >= MIN_PASSWORD && p.len() <= 1000 => Some(p.clone()),
        Some(_) => {
            errors.push(FieldError::new(
                "password",
                format!("The password must have at least {MIN_PASSWORD} characters."),
            ));
            None
        }
    }
}

fn hash(password: &str) -> ApiResult<String> {
    hash_password(password).map_err(ApiError::internal)
}

async fn post(ctx: Ctx) -> ApiResult<Response> {
    require_manager(&ctx)?;
    if !ctx.subpath.is_empty() {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let id = match body.get("username").or_else(|| body.get("id")) {
        Some(Value::String(id)) => id.clone(),
        _ => {
            errors.push(FieldError::new("username", "A username is required."));
            String::new()
        }
    };
    check_id("username", &id, &mut errors);
    let mut user =
        StoredPrincipal { id: id.clone(), kind: "user".into(), login: Some(id.clone()), ..Default::default() };
    apply_text(&body, &mut user, &mut errors);
    user.roles = match body.get("roles") {
        Some(value) => parse_roles(&ctx, value, &mut errors).unwrap_or_default(),
        None => vec!["Member".to_owned()],
    };
    let password = password(&body, &mut errors);
    if password.is_none() && !errors.iter().any(|e| e.field == "password") {
        errors.push(FieldError::new("password", "A password is required."));
    }
    finish(errors)?;
    if ctx.app.store.principal_exists(&id).await? {
        return Err(ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken by a user or group.")));
    }
    user.password_hash = password.as_deref().map(hash).transpose()?;
    let mut tx = ctx.app.store.begin().await?;
    tx.insert_principal(&user).await.map_err(|e| {
        if crate::store::is_unique_violation(&e) {
            ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken."))
        } else {
            ApiError::internal(e)
        }
    })?;
    tx.commit().await?;
    let site = site_url(&ctx);
    let mut response = json_with_status(StatusCode::CREATED, &user_json(&site, &user));
    if let Ok(location) = format!("{site}/@users/{id}").parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "PATCH needs @users/<id>."))?;
    require_self_or_manager(&ctx, &id)?;
    let body = ctx.json_body()?;
    let mut user = load_user(&ctx, &id).await?;
    let mut errors = Vec::new();
    for key in body.keys() {
        if !matches!(
            key.as_str(),
            "fullname"
                | "email"
                | "description"
                | "location"
                | "home_page"
                | "password"
                | "old_password"
                | "roles"
                | "username"
                | "id"
        ) {
            errors.push(FieldError::new(key, format!("'{key}' cannot be changed.")));
        }
    }
    apply_text(&body, &mut user, &mut errors);
    if let Some(roles) = body.get("roles") {
        if ctx.allows(Permission::MANAGE_USERS) {
            user.roles = parse_roles(&ctx, roles, &mut errors).unwrap_or_default();
        } else {
            errors.push(FieldError::new("roles", "Only user managers may change roles."));
        }
    }
    if let Some(new_password) = password(&body, &mut errors) {
        let changing_own = ctx.principal.user_id() == Some(id.as_str());
        if changing_own {
            let old = body.get("old_password").and_then(Value::as_str).unwrap_or_default();
            let matches = user.password_hash.as_deref().is_some_and(|h| verify_password(old, h));
            if !matches {
                return Err(ApiError::new(ErrorCode::Forbidden, "The old password is wrong."));
            }
        }
        user.password_hash = Some(hash(&new_password)?);
    }
    finish(errors)?;
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&user).await?;
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    require_manager(&ctx)?;
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "DELETE needs @users/<id>."))?;
    load_user(&ctx, &id).await?;
    if matches!(&ctx.principal, Principal::User(u) if u.id == id) {
        return Err(ApiError::new(ErrorCode::BadRequest, "You cannot delete yourself."));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(&id).await?;
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
