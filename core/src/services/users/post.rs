//! `POST @users`: create a user (Manage users, or anyone while self-registration is on, who
//! then gets a Member account without further roles); `POST @users/<id>/reset-password` resets
//! a password (see [`super::reset_password`]), which visitors may ask for, so the service
//! itself is open and creating checks its permission here.

use super::reset_password::{PasswordReset, reset};
use super::{UserItem, hash, password, user_item};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, Json, body_schema};
use crate::security::{Csrf, Permission, Role};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::{apply_text, check_id, check_role_changes, finish, parse_roles};
use crate::services::principal_items::ListOrSwitches;
use crate::store::StoredPrincipal;
use poem::http::Method;
use poem_openapi::{ApiResponse, Object};
use serde_json::{Value, json};

/// `POST @users {username, password, email, fullname, roles…}` and `POST
/// @users/<id>/reset-password`.
pub static USERS_POST: Service = Service {
    method: Method::POST,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            request: Some(body_schema::<NewUser>),
            ..Route::new("", "Create a user (Manage users, or anyone while self-registration is on)", endpoint!(create))
        },
        Route {
            request: Some(body_schema::<PasswordReset>),
            body_required: false,
            ..Route::new(
                "{id}/reset-password",
                "Without a body: mail a reset link; {reset_token, new_password}: set the password with the \
                 link's token; {old_password, new_password}: change it",
                endpoint!(reset),
            )
        },
    ],
};

/// A new user. `username` (or `id`) is required, and `password` unless `sendPasswordReset`.
#[derive(Object)]
pub struct NewUser {
    /// The user id, also the login name.
    pub username: Option<String>,
    /// Taken for `username` when that is missing.
    pub id: Option<String>,
    /// At least 8 characters.
    pub password: Option<String>,
    /// Instead of a password: mail the user a link to choose one (needs `email`).
    #[oai(rename = "sendPasswordReset")]
    pub send_password_reset: Option<bool>,
    /// The e-mail address.
    pub email: Option<String>,
    /// The full name.
    pub fullname: Option<String>,
    /// Free text about the user.
    pub description: Option<String>,
    /// Where the user is.
    pub location: Option<String>,
    /// The user's web site.
    pub home_page: Option<String>,
    /// Global roles (Manage users only): a list, or `{"<role>": true}`; `Member` when left
    /// out.
    pub roles: Option<ListOrSwitches>,
}

/// 201 with the new user.
#[derive(ApiResponse)]
pub enum UserCreated {
    /// Created; `Location` is the user's URL.
    #[oai(status = 201)]
    Created(Json<UserItem>, #[oai(header = "Location")] String),
}

async fn create(ctx: Ctx) -> ApiResult<UserCreated> {
    if !ctx.allows(Permission::MANAGE_USERS) && !self_registration(&ctx).await? {
        ctx.check(Permission::MANAGE_USERS)?;
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
        Some(value) => parse_roles(value, &[], &mut errors).unwrap_or_default(),
        None => vec![Role::MEMBER.into()],
    };
    let password = password(&body, &mut errors);
    // Plone's `sendPasswordReset`: the user gets no password but a mail to choose one.
    let send_reset = body.get("sendPasswordReset").and_then(Value::as_bool).unwrap_or(false);
    if send_reset && user.email.trim().is_empty() {
        errors.push(FieldError::new("email", "An e-mail address is needed to send the password reset."));
    }
    if password.is_none() && !send_reset && !errors.iter().any(|e| e.field == "password") {
        errors.push(FieldError::new("password", "Send a password, or sendPasswordReset to mail the user a link."));
    }
    finish(errors)?;
    check_role_changes(&ctx, &[], &user.roles)?;
    if ctx.app.store.principal_exists(&id).await? {
        return Err(ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken by a user or group.")));
    }
    user.password_hash = match &password {
        Some(password) => Some(hash(password).await?),
        None => None,
    };
    let mut tx = ctx.app.store.begin().await?;
    tx.insert_principal(&user).await.map_err(|e| {
        if crate::store::is_unique_violation(&e) {
            ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken."))
        } else {
            ApiError::internal(e)
        }
    })?;
    tx.append_audit(&ctx.audit("user.create", &id, json!({"roles": user.roles}))).await?;
    if send_reset {
        tx.queue_mail("reset-password", &super::reset_password::reset_mail(&ctx, &user)).await?;
    }
    tx.commit().await?;
    let site = ctx.site_url();
    Ok(UserCreated::Created(Json(user_item(&site, &ctx.request.request_url(), &user)), format!("{site}/@users/{id}")))
}

/// Whether visitors may register themselves (the security panel's setting).
async fn self_registration(ctx: &Ctx) -> ApiResult<bool> {
    let value = ctx.app.record_value(&crate::security::settings::ENABLE_SELF_REG).await?;
    Ok(value.as_bool().unwrap_or(false))
}
