//! `PATCH @users/<id>`: details, password, roles.

use super::portrait::{PortraitChange, portrait_change};
use super::{check_old_password, hash, load_user, password};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, NoContent, body_schema};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::portrait::portrait_url;
use crate::services::principal_forms::{
    apply_text, check_id, check_may_manage, check_role_changes, finish, parse_roles, role_changes,
};
use crate::services::principal_items::ListOrSwitches;
use crate::store::StoredPrincipal;
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Value, json};

/// Updates a user: details, password (`old_password` when changing one's own), roles (Manage
/// users only). The service declares `Set own properties`, the floor every caller needs; the
/// route narrows it to the user themselves or `Manage users`.
pub static USERS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@users",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::SET_OWN_PROPERTIES),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(body_schema::<UserChanges>),
        guard: Some(Guard::SelfOr(Permission::MANAGE_USERS)),
        ..Route::new("{id}", "Update a user: details, password, roles (Manage users)", endpoint!(patch))
    }],
};

/// What `PATCH @users/<id>` changes; what is left out stays. What `GET` answered may be sent
/// back as it is: `@id`, `id`, `groups`, an unchanged `username` and the portrait's own URL
/// are ignored.
#[derive(Object)]
pub struct UserChanges {
    /// The full name; null clears it.
    pub fullname: Option<String>,
    /// The e-mail address; null clears it.
    pub email: Option<String>,
    /// Free text about the user.
    pub description: Option<String>,
    /// Where the user is.
    pub location: Option<String>,
    /// The user's web site.
    pub home_page: Option<String>,
    /// A new password, at least 8 characters.
    pub password: Option<String>,
    /// The current password, needed when users change their own.
    pub old_password: Option<String>,
    /// A new login name (Manage users only); the user id stays.
    pub username: Option<String>,
    /// Global roles (Manage users only): a list replaces them, `{"<role>": true|false}`
    /// gives or takes single ones.
    pub roles: Option<ListOrSwitches>,
    /// A new portrait, `{"data": <base64>, "encoding": "base64", "filename", "content-type",
    /// "scale": true}` (a PNG, JPEG, GIF or WebP of at most 2 MiB; `scale` fits it into
    /// 200×200 pixels), or null to remove it.
    pub portrait: Option<Value>,
}

async fn patch(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    let body = ctx.json_body()?;
    let mut user = load_user(&ctx, id).await?;
    check_may_manage(&ctx, std::slice::from_ref(&user.id)).await?;
    let mut errors = Vec::new();
    for key in body.keys() {
        // What GET answers comes back from Volto's personal-information form: the read-only
        // keys are ignored.
        if matches!(key.as_str(), "@id" | "groups") {
            continue;
        }
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
                | "portrait"
                | "id"
        ) {
            errors.push(FieldError::new(key, format!("'{key}' cannot be changed.")));
        }
    }
    apply_text(&body, &mut user, &mut errors);
    let login_before = user.login.clone();
    if let Some(username) = body.get("username") {
        rename(&ctx, &mut user, username, &mut errors).await?;
    }
    let roles_before = user.roles.clone();
    if let Some(roles) = body.get("roles") {
        ctx.check(Permission::MANAGE_USERS)?;
        user.roles = parse_roles(roles, &user.roles, &mut errors).unwrap_or_default();
    }
    let new_password = password(&body, &mut errors);
    let portrait = portrait_change(body.get("portrait"), &portrait_url(&ctx.site_url(), id), &mut errors).await?;
    finish(errors)?;
    check_role_changes(&ctx, &roles_before, &user.roles)?;
    if let Some(new_password) = new_password {
        if ctx.principal.user_id() == Some(id) {
            let old = body.get("old_password").and_then(Value::as_str).unwrap_or_default();
            if !check_old_password(&ctx, &user, old).await? {
                return Err(ApiError::new(ErrorCode::Forbidden, "The old password is wrong."));
            }
        }
        user.password_hash = Some(hash(&new_password).await?);
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&user).await.map_err(|e| {
        // Another request took the login name meanwhile.
        if crate::store::is_unique_violation(&e) {
            ApiError::new(ErrorCode::Conflict, "The login name was taken meanwhile.")
        } else {
            ApiError::internal(e)
        }
    })?;
    match &portrait {
        PortraitChange::Keep => {}
        PortraitChange::Remove => tx.delete_portrait(id).await?,
        PortraitChange::Set(portrait) => tx.set_portrait(id, portrait).await?,
    }
    if user.roles != roles_before {
        tx.append_audit(&ctx.audit("user.roles", id, role_changes(&roles_before, &user.roles))).await?;
    }
    if user.login != login_before {
        tx.append_audit(&ctx.audit("user.username", id, json!({"from": login_before, "to": user.login}))).await?;
    }
    if body.contains_key("password") {
        tx.append_audit(&ctx.audit("user.password", id, json!({}))).await?;
    }
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}

/// Gives the user a new login name, as Plone's user panel does: only those who manage users,
/// and only a name no other user logs in with or is called.
async fn rename(
    ctx: &Ctx,
    user: &mut StoredPrincipal,
    username: &Value,
    errors: &mut Vec<FieldError>,
) -> ApiResult<()> {
    let Some(name) = username.as_str() else {
        errors.push(FieldError::new("username", "Expected a string."));
        return Ok(());
    };
    if name == user.login.as_deref().unwrap_or(&user.id) {
        return Ok(());
    }
    ctx.check(Permission::MANAGE_USERS)?;
    check_id("username", name, errors);
    let login_taken = ctx.app.store.principal_by_login(name).await?.is_some_and(|other| other.id != user.id);
    let id_taken = name != user.id && ctx.app.store.principal(name).await?.is_some();
    if login_taken || id_taken {
        errors.push(FieldError::new("username", format!("The login name '{name}' is taken.")));
    }
    user.login = Some(name.to_owned());
    Ok(())
}
