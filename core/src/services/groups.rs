//! `@groups`: list (batched, like `@users`), read, create, update members, delete.

use super::principals::{
    apply_text, authenticated_group, check_id, finish, group_json, parse_roles, principal_listing, principal_segment,
    require_manager, site_url,
};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError, json, json_with_status};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::store::StoredPrincipal;
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Value, json};

/// `GET @groups[?query=]` or `GET @groups/<id>` (Manage users).
pub static GROUPS_GET: Service = Service {
    method: Method::GET,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    summary: "List groups (batched, ?query=) or read one with its members (@groups/<id>)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(get(ctx)),
};

/// `POST @groups {groupname, title, description, email, roles, users}`.
pub static GROUPS_POST: Service = Service {
    method: Method::POST,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    summary: "Create a group",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(post(ctx)),
};

/// `PATCH @groups/<id>`: details, roles, and `users: {"<id>": true|false}`.
pub static GROUPS_PATCH: Service = Service {
    method: Method::PATCH,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    summary: "Update a group and its members",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(patch(ctx)),
};

/// `DELETE @groups/<id>`.
pub static GROUPS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    summary: "Delete a group",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(delete(ctx)),
};

async fn load_group(ctx: &Ctx, id: &str) -> ApiResult<StoredPrincipal> {
    if id == AUTHENTICATED_GROUP {
        return Ok(authenticated_group());
    }
    ctx.app
        .store
        .principal(id)
        .await?
        .filter(|p| p.kind == "group")
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("Group '{id}' could not be found.")))
}

fn stored_only(id: &str) -> ApiResult<()> {
    if id == AUTHENTICATED_GROUP {
        return Err(ApiError::new(ErrorCode::BadRequest, "The virtual group AuthenticatedUsers cannot be changed."));
    }
    Ok(())
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    require_manager(&ctx)?;
    let site = site_url(&ctx);
    if let Some(id) = principal_segment(&ctx)? {
        let group = load_group(&ctx, &id).await?;
        let members = if id == AUTHENTICATED_GROUP { Vec::new() } else { ctx.app.store.group_members(&id).await? };
        let mut body = group_json(&site, &group);
        body["users"] = json!({"@id": format!("{site}/@groups/{id}"), "items_total": members.len(), "items": members});
        return Ok(json(&body));
    }
    Ok(json(&principal_listing(&ctx, "group", "@groups", group_json).await?))
}

/// Applies a `users` value: a list of ids to add, or `{"<id>": true|false}`.
async fn membership_changes(
    ctx: &Ctx,
    value: Option<&Value>,
    errors: &mut Vec<FieldError>,
) -> ApiResult<Vec<(String, bool)>> {
    let changes: Vec<(String, bool)> = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_str).map(|id| (id.to_owned(), true)).collect(),
        Some(Value::Object(map)) => map.iter().map(|(id, v)| (id.clone(), v.as_bool().unwrap_or(false))).collect(),
        Some(_) => {
            errors.push(FieldError::new("users", "Expected a list of user ids or {\"<id>\": true|false}."));
            return Ok(Vec::new());
        }
    };
    for (id, member) in &changes {
        if *member && !ctx.app.store.principal_exists(id).await? {
            errors.push(FieldError::new("users", format!("No user or group '{id}'.")));
        }
    }
    Ok(changes)
}

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
        group.roles = parse_roles(&ctx, roles, &mut errors).unwrap_or_default();
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
    let site = site_url(&ctx);
    let mut response = json_with_status(StatusCode::CREATED, &group_json(&site, &group));
    if let Ok(location) = format!("{site}/@groups/{id}").parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "PATCH needs @groups/<id>."))?;
    stored_only(&id)?;
    let body = ctx.json_body()?;
    let mut group = load_group(&ctx, &id).await?;
    let mut errors = Vec::new();
    apply_text(&body, &mut group, &mut errors);
    if let Some(roles) = body.get("roles") {
        group.roles = parse_roles(&ctx, roles, &mut errors).unwrap_or_default();
    }
    let members = membership_changes(&ctx, body.get("users"), &mut errors).await?;
    finish(errors)?;
    let mut tx = ctx.app.store.begin().await?;
    tx.update_principal(&group).await?;
    for (member, is_member) in &members {
        tx.set_membership(&id, member, *is_member).await?;
    }
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    let id = principal_segment(&ctx)?
        .ok_or_else(|| ApiError::new(ErrorCode::MethodNotAllowed, "DELETE needs @groups/<id>."))?;
    stored_only(&id)?;
    load_group(&ctx, &id).await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(&id).await?;
    tx.commit().await?;
    ctx.app.security.forget_credentials();
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
