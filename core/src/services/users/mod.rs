//! `@users` on the site root: list, read, create, update and delete users, one method per
//! file. Users may read and change themselves; everything else needs `Manage users`.

pub mod delete;
pub mod get;
pub mod patch;
pub mod post;
mod reset_password;

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError};
use crate::security::{Permission, hash_password};
use crate::store::StoredPrincipal;
use serde_json::{Map, Value};

const MIN_PASSWORD: usize = 8;

async fn load_user(ctx: &Ctx, id: &str) -> ApiResult<StoredPrincipal> {
    ctx.app
        .store
        .principal(id)
        .await?
        .filter(|p| p.kind == "user")
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("User '{id}' could not be found.")))
}

/// The check narrower than the services' `Set own properties`: one's own account, or
/// `Manage users` (refused with that permission's name, 401 or 403 as the dispatcher would).
fn require_self_or_manager(ctx: &Ctx, id: &str) -> ApiResult<()> {
    if ctx.principal.user_id() == Some(id) { Ok(()) } else { ctx.check(Permission::MANAGE_USERS) }
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
