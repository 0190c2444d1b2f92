//! `GET <site>/@principals?search=`: users and groups matching a term, for sharing forms.
//! The virtual `AuthenticatedUsers` group is shown to Managers only.

use super::principal_forms::{authenticated_group, group_json};
use crate::app::SITE_TYPE;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::store::{PrincipalQuery, StoredPrincipal};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The most principals of each kind one search returns.
const LIMIT: i64 = 100;

/// Searches users and groups by id, login, full name or e-mail (authenticated callers).
pub static PRINCIPALS: Service = Service {
    method: Method::GET,
    name: "@principals",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Search users and groups (?search=)",
        crate::untyped!(|ctx| Box::pin(search(ctx))),
    )],
};

fn user_item(site: &str, user: &StoredPrincipal) -> Value {
    json!({
        "@id": format!("{site}/@principals/{}", user.id),
        "@type": "user",
        "id": user.id,
        "username": user.login.clone().unwrap_or_else(|| user.id.clone()),
        "fullname": user.fullname,
        "description": user.description,
        "location": user.location,
        "email": user.email,
        "home_page": if user.home_page.is_empty() { Value::Null } else { json!(user.home_page) },
        "portrait": null,
        "roles": user.roles,
    })
}

fn group_item(site: &str, group: &StoredPrincipal) -> Value {
    let mut item = group_json(site, group);
    item["@id"] = json!(format!("{site}/@principals/{}", group.id));
    item["@type"] = json!("group");
    item
}

async fn search(ctx: Ctx) -> ApiResult<Response> {
    if ctx.principal.user_id().is_none() {
        return Err(ApiError::new(ErrorCode::Unauthorized, "Log in to search users and groups.")
            .with_header("WWW-Authenticate", "Basic realm=\"wcs\""));
    }
    let term = ctx.request.query_value("search").unwrap_or_default().trim().to_owned();
    let site = ctx.site_url();
    let users_query = PrincipalQuery { kind: Some("user"), search: Some(term.clone()) };
    let groups_query = PrincipalQuery { kind: Some("group"), search: Some(term.clone()) };
    let users = ctx.app.store.principals(&users_query, 0, LIMIT).await?;
    let mut groups = ctx.app.store.principals(&groups_query, 0, LIMIT).await?;
    let mut total =
        ctx.app.store.count_principals(&users_query).await? + ctx.app.store.count_principals(&groups_query).await?;
    let virtual_group = authenticated_group();
    let matches_virtual = term.is_empty()
        || virtual_group.id.to_lowercase().contains(&term.to_lowercase())
        || virtual_group.fullname.to_lowercase().contains(&term.to_lowercase());
    if matches_virtual && ctx.principal.has_role("Manager") {
        groups.insert(0, virtual_group);
        total += 1;
    }
    groups.retain(|g| g.id != AUTHENTICATED_GROUP || ctx.principal.has_role("Manager"));
    let user_items: Vec<Value> = users.iter().map(|u| user_item(&site, u)).collect();
    let group_items: Vec<Value> = groups.iter().map(|g| group_item(&site, g)).collect();
    let items: Vec<Value> = user_items.iter().chain(&group_items).cloned().collect();
    Ok(json(&json!({
        "@id": format!("{site}/@principals"),
        "items": items,
        "items_total": total,
        "users": user_items,
        "groups": group_items,
    })))
}
