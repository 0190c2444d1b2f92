//! `POST @users`: create a user (Manage users, or anyone while self-registration is on, who
//! then gets a Member account without further roles); `POST @users/<id>/reset-password` resets
//! a password (see [`super::reset_password`]), which visitors may ask for, so the service
//! itself is open and creating checks its permission here.

use super::{hash, password};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, json_with_status};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{apply_text, check_id, finish, parse_roles, user_json};
use crate::store::StoredPrincipal;
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::Value;

/// `POST @users {username, password, email, fullname, roles…}`.
pub static USERS_POST: Service = Service {
    method: Method::POST,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Create a user (Manage users); POST @users/<id>/reset-password: mail a reset link (no body), \
              set a password with {reset_token, new_password} or change it with {old_password, new_password}",
        crate::untyped!(|ctx| Box::pin(post(ctx))),
    )],
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    match ctx.subpath.as_slice() {
        [] if ctx.allows(Permission::MANAGE_USERS) => {}
        [] if self_registration(&ctx).await? => {}
        [] => ctx.check(Permission::MANAGE_USERS)?,
        [id, action] if action == "reset-password" => return super::reset_password::reset(&ctx, id).await,
        _ => return Err(ApiError::not_found(&ctx.request.service_url)),
    }
    let may_give_roles = ctx.allows(Permission::MANAGE_USERS);
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
        Some(_) if !may_give_roles => {
            errors.push(FieldError::new("roles", "Roles are given by those who manage users."));
            Vec::new()
        }
        Some(value) => parse_roles(&ctx, value, &[], &mut errors).unwrap_or_default(),
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
    let site = ctx.site_url();
    let mut response = json_with_status(StatusCode::CREATED, &user_json(&site, &user));
    if let Ok(location) = format!("{site}/@users/{id}").parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}

/// Whether visitors may register themselves (the security panel's setting).
async fn self_registration(ctx: &Ctx) -> ApiResult<bool> {
    let value = ctx.app.record_value(&crate::security::settings::ENABLE_SELF_REG).await?;
    Ok(value.as_bool().unwrap_or(false))
}
