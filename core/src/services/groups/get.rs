//! `GET @groups[?query=]` and `GET @groups/<id>`. The listing is a plain array, as
//! plone.restapi gives it (at most the largest batch); with `b_start` or `b_size` it is batched
//! like `@users`.

use super::load_group;
use crate::app::SITE_TYPE;
use crate::http::{ApiResult, Ctx, MAX_BATCH_SIZE, json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::{group_json, principal_listing, principal_segment, search_text};
use crate::store::PrincipalQuery;
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// Lists groups, or reads one with its members.
pub static GROUPS_GET: Service = Service {
    method: Method::GET,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "List groups (?query=; a plain array, batched with b_start/b_size) or read one with its members \
              (@groups/<id>)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site = ctx.site_url();
    if let Some(id) = principal_segment(&ctx)? {
        let group = load_group(&ctx, &id).await?;
        let members = if id == AUTHENTICATED_GROUP { Vec::new() } else { ctx.app.store.group_members(&id).await? };
        let mut body = group_json(&site, &group);
        body["users"] = json!({"@id": format!("{site}/@groups/{id}"), "items_total": members.len(), "items": members});
        return Ok(json(&body));
    }
    let batched = ctx.request.query.iter().any(|(key, _)| key == "b_start" || key == "b_size");
    if !batched {
        // plone.restapi lists groups as a plain array, which Volto's group forms filter.
        let query = PrincipalQuery { kind: Some("group"), search: search_text(&ctx) };
        let groups = ctx.app.store.principals(&query, 0, MAX_BATCH_SIZE).await?;
        return Ok(json(&Value::Array(groups.iter().map(|g| group_json(&site, g)).collect())));
    }
    Ok(json(&principal_listing(&ctx, "group", "@groups", group_json).await?))
}
