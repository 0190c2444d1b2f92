//! `POST @users/<id>/reset-password`, as plone.restapi has it:
//! - without a body (anyone, Volto's "forgot password"): mails the user a link with a token,
//!   valid for a day and for one reset; the answer is the same whether the user exists or not,
//!   so it tells nobody which accounts exist; limited per client;
//! - `{"reset_token", "new_password"}` (anyone holding the token): sets the password;
//! - `{"old_password", "new_password"}` (the user, with the right one; or someone who manages
//!   users and may manage this account, whatever it says): changes it.
//!
//! Every new password is written to the audit log.

use super::{MIN_PASSWORD, check_old_password, hash, require_self_or_manager};
use crate::http::{ApiError, ApiResult, ClientLimiter, Ctx, ErrorCode, FieldError, NoContent};
use crate::mail::Mail;
use crate::services::principal_forms::check_may_manage;
use crate::store::StoredPrincipal;
use poem_openapi::Object;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// How long a reset link works.
const VALID_FOR: i64 = 24 * 3600;
/// Reset mails one client may ask for per minute.
const REQUESTS_PER_MINUTE: u32 = 5;

/// The reset requests' own counts.
#[derive(Default)]
struct ResetLimiter(ClientLimiter);

/// The body of a reset request: none (or `{}`) to be mailed a link, else one of the two pairs.
#[derive(Object)]
pub struct PasswordReset {
    /// The token from the mailed link; with `new_password`.
    pub reset_token: Option<String>,
    /// The current password; with `new_password` (one who manages users and changes another
    /// account's may leave it wrong).
    pub old_password: Option<String>,
    /// The password to set, at least 8 characters.
    pub new_password: Option<String>,
}

/// Handles the three forms for the user `{id}`; each answers 204.
pub async fn reset(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    let body = ctx.optional_json_body()?;
    let user = ctx.app.store.principal(id).await?.filter(|p| p.kind == "user");
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_owned);
    match (text("reset_token"), text("old_password")) {
        (Some(token), _) => with_token(&ctx, user, &token, &body).await,
        (None, Some(old)) => with_old_password(&ctx, user, id, &old, &body).await,
        (None, None) => send_link(&ctx, user).await,
    }
}

fn new_password(body: &Map<String, Value>) -> ApiResult<String> {
    match body.get("new_password").and_then(Value::as_str) {
        Some(p) if p.chars().count() >= MIN_PASSWORD && p.len() <= 1000 => Ok(p.to_owned()),
        _ => Err(ApiError::validation(vec![FieldError::new(
            "new_password",
            format!("The new password must have at least {MIN_PASSWORD} characters."),
        )])),
    }
}

async fn save(ctx: &Ctx, mut user: StoredPrincipal, password: &str, how: &str) -> ApiResult<NoContent> {
    user.password_hash = Some(hash(password).await?);
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&user).await?;
    tx.append_audit(&ctx.audit("user.password", &user.id, json!({"with": how}))).await?;
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}

async fn with_token(
    ctx: &Ctx,
    user: Option<StoredPrincipal>,
    token: &str,
    body: &Map<String, Value>,
) -> ApiResult<NoContent> {
    let password = new_password(body)?;
    let now = chrono::Utc::now().timestamp();
    let valid = user.as_ref().is_some_and(|u| {
        ctx.app.security.verify_reset_token(&u.id, u.password_hash.as_deref().unwrap_or_default(), token, now)
    });
    match user {
        Some(user) if valid => save(ctx, user, &password, "reset_token").await,
        _ => Err(ApiError::validation(vec![FieldError::new(
            "reset_token",
            "This reset link is not valid (any more): ask for a new one.",
        )])),
    }
}

async fn with_old_password(
    ctx: &Ctx,
    user: Option<StoredPrincipal>,
    id: &str,
    old: &str,
    body: &Map<String, Value>,
) -> ApiResult<NoContent> {
    require_self_or_manager(ctx, id)?;
    let user = user.ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("User '{id}' could not be found.")))?;
    check_may_manage(ctx, std::slice::from_ref(&user.id)).await?;
    let password = new_password(body)?;
    let is_own = ctx.principal.user_id() == Some(id);
    if is_own && !check_old_password(ctx, &user, old).await? {
        return Err(ApiError::validation(vec![FieldError::new("old_password", "The old password is wrong.")]));
    }
    save(ctx, user, &password, if is_own { "old_password" } else { "user_manager" }).await
}

async fn send_link(ctx: &Ctx, user: Option<StoredPrincipal>) -> ApiResult<NoContent> {
    if let Some(client) = ctx.request.client {
        let limiter = ctx.app.extensions.get_or_insert_with(|| Arc::new(ResetLimiter::default()));
        limiter.0.check(client, REQUESTS_PER_MINUTE, "reset requests")?;
    }
    let Some(user) = user.filter(|u| !u.email.trim().is_empty()) else {
        return Ok(NoContent::NoContent);
    };
    let mail = reset_mail(ctx, &user);
    let mut tx = ctx.app.store.begin().await?;
    tx.queue_mail("reset-password", &mail).await?;
    tx.commit().await?;
    Ok(NoContent::NoContent)
}

/// The mail with a link that sets `user`'s password, valid for a day and one reset (also what
/// a user created without a password gets, to choose one).
pub fn reset_mail(ctx: &Ctx, user: &StoredPrincipal) -> Mail {
    let expires = chrono::Utc::now().timestamp() + VALID_FOR;
    let token = ctx.app.security.reset_token(&user.id, user.password_hash.as_deref().unwrap_or_default(), expires);
    // Front ends serve the reset form at their root's `passwordreset`: through a virtual host
    // that is the public site URL.
    let site = ctx.request.public_url(&ctx.site_url());
    let link = format!("{site}/passwordreset/{token}?userid={}", user.id);
    Mail {
        recipients: user.email.clone(),
        reply_to: None,
        subject: "Password reset".to_owned(),
        body: format!(
            "Someone asked to reset the password of '{}' at {site}.\n\nTo set a new password, open this link \
             within a day:\n{link}\n\nIf it was not you, ignore this message; your password stays as it is.",
            user.id
        ),
    }
}
