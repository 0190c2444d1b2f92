//! `POST @users`: create a user (Manage users, or anyone while self-registration is on, who
//! then gets a Member account without further roles), or (Manage users) one per line of a CSV
//! file (see [`super::import`]); `POST @users/<id>/reset-password` resets
//! a password (see [`super::reset_password`]), which visitors may ask for, so the service
//! itself is open and creating checks its permission here.

use super::created::UserCreated;
use super::reset_password::{PasswordReset, reset};
use super::{hash, password, user_item};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::events::{USER_CREATED, user_event};
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, body_schema};
use crate::security::{Csrf, Permission, Role};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::csv_upload::csv_text;
use crate::services::principal_forms::{apply_text, check_id, check_role_changes, finish, parse_roles};
use crate::services::principal_items::ListOrSwitches;
use crate::store::StoredPrincipal;
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Map, Value, json};

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
            other_media: &["multipart/form-data", "text/csv"],
            ..Route::new(
                "",
                "Create a user (Manage users, or anyone while self-registration is on); a CSV file (Manage \
                 users) creates one per line",
                endpoint!(create),
            )
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
    /// The registration form's confirmation: must repeat `password`.
    pub password_ctl: Option<String>,
    /// The registration form's `sendPasswordReset`.
    pub mail_me: Option<bool>,
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

async fn create(ctx: Ctx) -> ApiResult<UserCreated> {
    let content_type = ctx.request.header("content-type").unwrap_or_default().to_owned();
    if let Some(file) = csv_text(&content_type, &ctx.body).await? {
        return super::import::import(&ctx, &file).await;
    }
    if !ctx.allows(Permission::MANAGE_USERS) && !self_registration(&ctx).await? {
        ctx.check(Permission::MANAGE_USERS)?;
    }
    let body = ctx.json_body()?;
    let mut prepared = [prepare(&ctx, &body, ctx.allows(Permission::MANAGE_USERS))?];
    store(&ctx, &mut prepared).await?;
    let [Prepared { user, .. }] = prepared;
    let site = ctx.site_url();
    let location = format!("{site}/@users/{}", user.id);
    Ok(UserCreated::One(Box::new(user_item(&site, &ctx.request.request_url(), &user)), location))
}

/// A new user, checked, before it is stored.
pub struct Prepared {
    /// The account (its password hash is set by [`store`]).
    pub user: StoredPrincipal,
    password: Option<String>,
    send_reset: bool,
}

/// Checks a new user's fields (`may_give_roles`: whether the caller may give roles).
pub fn prepare(ctx: &Ctx, body: &Map<String, Value>, may_give_roles: bool) -> ApiResult<Prepared> {
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
    apply_text(body, &mut user, &mut errors);
    user.roles = match body.get("roles") {
        Some(_) if !may_give_roles => {
            errors.push(FieldError::new("roles", "Roles are given by those who manage users."));
            Vec::new()
        }
        Some(value) => parse_roles(value, &[], &mut errors).unwrap_or_default(),
        None => vec![Role::MEMBER.into()],
    };
    let password = password(body, &mut errors);
    // The registration form's confirmation must repeat the password.
    if let Some(repeated) = body.get("password_ctl").filter(|v| !v.is_null())
        && repeated.as_str() != password.as_deref()
    {
        errors.push(FieldError::new("password_ctl", "The passwords do not match."));
    }
    // Plone's `sendPasswordReset`, and the registration form's `mail_me`: a mail with a link
    // to choose a password.
    let flag = |key: &str| body.get(key).and_then(Value::as_bool).unwrap_or(false);
    let send_reset = flag("sendPasswordReset") || flag("mail_me");
    if send_reset && user.email.trim().is_empty() {
        errors.push(FieldError::new("email", "An e-mail address is needed to send the password reset."));
    }
    if password.is_none() && !send_reset && !errors.iter().any(|e| e.field == "password") {
        errors.push(FieldError::new("password", "Send a password, or sendPasswordReset to mail the user a link."));
    }
    finish(errors)?;
    check_role_changes(ctx, &[], &user.roles)?;
    Ok(Prepared { user, password, send_reset })
}

/// Stores new users in one transaction: all of them, or (an id taken) none.
pub async fn store(ctx: &Ctx, prepared: &mut [Prepared]) -> ApiResult<()> {
    let taken =
        |id: &str| ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken by a user or group."));
    for new in prepared.iter_mut() {
        if ctx.app.store.principal_exists(&new.user.id).await? {
            return Err(taken(&new.user.id));
        }
        new.user.password_hash = match &new.password {
            Some(password) => Some(hash(password).await?),
            None => None,
        };
    }
    let root = ctx.app.site_root().await?.uid;
    let mut tx = ctx.app.store.begin().await?;
    for Prepared { user, send_reset, .. } in prepared.iter() {
        tx.emit(user_event(&USER_CREATED, &root, &user.id));
        tx.insert_principal(user)
            .await
            .map_err(|e| if crate::store::is_unique_violation(&e) { taken(&user.id) } else { ApiError::internal(e) })?;
        tx.append_audit(&ctx.audit("user.create", &user.id, json!({"roles": user.roles}))).await?;
        if *send_reset {
            tx.queue_mail("reset-password", &super::reset_password::reset_mail(ctx, user)).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Whether visitors may register themselves (the security panel's setting).
async fn self_registration(ctx: &Ctx) -> ApiResult<bool> {
    let value = ctx.app.record_value(&crate::security::settings::ENABLE_SELF_REG).await?;
    Ok(value.as_bool().unwrap_or(false))
}
