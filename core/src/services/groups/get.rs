//! `GET @groups[?query=]` and `GET @groups/<id>`. The listing is a plain array, as
//! plone.restapi gives it (at most the largest batch); with `b_start` or `b_size` it is batched
//! like `@users`.

use super::{GroupItem, GroupMembers, group_item, group_with_members, load_group, members_of};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::schema::{array_of, of};
use crate::http::{ApiResult, Ctx, Dyn, Json, MAX_BATCH_SIZE, Shape};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::{authenticated_group, search_text};
use crate::services::principal_items::{LISTING_QUERY, PrincipalList, principal_list};
use crate::store::PrincipalQuery;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, Registry};
use poem_openapi::types::ToJSON;

/// Lists groups, or reads one with its members.
pub static GROUPS_GET: Service = Service {
    method: Method::GET,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_USERS),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: LISTING_QUERY,
            ..Route::new("", "List groups (?query=): a plain array, batched with b_start/b_size", endpoint!(list))
        },
        Route::new("{id}", "Read a group with its members", endpoint!(one)),
    ],
};

/// The group listing: a plain array of groups, or with `b_start`/`b_size` a batched page.
pub struct GroupListing;

impl Shape for GroupListing {
    const NAME: &'static str = "GroupListing";

    fn schema(registry: &mut Registry) -> MetaSchema {
        MetaSchema {
            description: Some("A plain array of groups, or with b_start or b_size a batched page of them"),
            one_of: vec![array_of(of::<GroupItem>(registry)), of::<PrincipalList<GroupItem>>(registry)],
            ..MetaSchema::ANY
        }
    }
}

/// A group with its members.
#[derive(Object)]
pub struct GroupDetail {
    /// The group, with `members`.
    #[oai(flatten)]
    pub group: GroupItem,
    /// Its members again, under the name plone.restapi 8 gave them, for clients written then.
    pub users: GroupMembers,
}

async fn list(ctx: Ctx) -> ApiResult<Dyn<GroupListing>> {
    let batched = ctx.request.query.iter().any(|(key, _)| key == "b_start" || key == "b_size");
    let site = ctx.site_url();
    if batched {
        return Ok(Dyn::new(
            with_members(&ctx, principal_list(&ctx, "group", "@groups", |group| group_item(&site, group)).await?)
                .await?
                .to_json()
                .unwrap_or_default(),
        ));
    }
    // plone.restapi lists groups as a plain array, which Volto's group forms filter.
    let query =
        PrincipalQuery { kind: Some("group"), search: search_text(&ctx), match_email: true, in_groups: Vec::new() };
    let groups = ctx.app.store.principals(&query, 0, MAX_BATCH_SIZE).await?;
    if query.search.is_some() {
        // As plone.restapi: a search names the groups found, without their members.
        let items: Vec<GroupItem> = groups.iter().map(|g| group_item(&site, g)).collect();
        return Ok(Dyn::new(items.to_json().unwrap_or_default()));
    }
    let mut members = ctx.app.store.members_of_groups(&groups.iter().map(|g| g.id.clone()).collect::<Vec<_>>()).await?;
    let mut items: Vec<GroupItem> =
        groups.iter().map(|g| group_with_members(&ctx, g, members.remove(&g.id).unwrap_or_default())).collect();
    // The virtual group every logged-in user is in comes last, as Plone lists it.
    items.push(group_with_members(&ctx, &authenticated_group(), Vec::new()));
    Ok(Dyn::new(items.to_json().unwrap_or_default()))
}

/// A batched page of groups, each with its members (read in one statement).
async fn with_members(ctx: &Ctx, mut page: PrincipalList<GroupItem>) -> ApiResult<PrincipalList<GroupItem>> {
    let ids: Vec<String> = page.items.iter().map(|g| g.id.clone()).collect();
    let mut members = ctx.app.store.members_of_groups(&ids).await?;
    for item in &mut page.items {
        item.members = Some(members_of(ctx, members.remove(&item.id).unwrap_or_default()));
    }
    Ok(page)
}

async fn one(ctx: Ctx) -> ApiResult<Json<GroupDetail>> {
    let id = ctx.param("id");
    let site = ctx.site_url();
    let group = load_group(&ctx, id).await?;
    let members = if id == AUTHENTICATED_GROUP { Vec::new() } else { ctx.app.store.group_members(id).await? };
    let users =
        GroupMembers { url: format!("{site}/@groups/{id}"), items_total: members.len(), items: members.clone() };
    Ok(Json(GroupDetail { group: group_with_members(&ctx, &group, members), users }))
}
