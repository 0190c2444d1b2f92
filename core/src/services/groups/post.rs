//! `POST @groups`: create a group.

use super::membership_changes;
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json_with_status};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{apply_text, check_id, finish, group_json, parse_roles};
use crate::store::StoredPrincipal;
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::Value;

/// `POST @groups {groupname, title, description, email, roles, users}`.
pub static GROUPS_POST: Service = Service {
    method: Method::POST,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any("Create a group", crate::untyped!(|ctx| Box::pin(post(ctx))))],
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    if !ctx.subpath.is_empty() {
        return Err(ApiError::not_found(&ctx.request.service_url));
    }
    let body = ctx.json_body()?;
    let mut errors = Vec::new();
    let id = body.get("groupname").or_else(|| body.get("id")).and_then(Value::as_str).unwrap_or_default().to_owned();
    check_id("groupname", &id, &mut errors);
    let mut group =
        StoredPrincipal { id: id.clone(), kind: "group".into(), fullname: id.clone(), ..Default::default() };
    apply_text(&body, &mut group, &mut errors);
    if let Some(roles) = body.get("roles") {
        group.roles = parse_roles(&ctx, roles, &[], &mut errors).unwrap_or_default();
    }
    let members = membership_changes(&ctx, body.get("users"), &mut errors).await?;
    finish(errors)?;
    if ctx.app.store.principal_exists(&id).await? {
        return Err(ApiError::new(ErrorCode::Conflict, format!("The id '{id}' is already taken by a user or group.")));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.insert_principal(&group).await?;
    for (member, is_member) in &members {
        tx.set_membership(&id, member, *is_member).await?;
    }
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    let site = ctx.site_url();
    let mut response = json_with_status(StatusCode::CREATED, &group_json(&site, &group));
    if let Ok(location) = format!("{site}/@groups/{id}").parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}
