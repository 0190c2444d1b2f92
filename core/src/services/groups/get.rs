//! `GET @groups[?query=]` and `GET @groups/<id>`.

use super::load_group;
use crate::app::SITE_TYPE;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{group_json, principal_listing, principal_segment, site_url};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// Lists groups, or reads one with its members.
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

async fn get(ctx: Ctx) -> ApiResult<Response> {
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
