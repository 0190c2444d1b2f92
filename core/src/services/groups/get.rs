//! `GET @groups[?query=]` and `GET @groups/<id>`. The listing is a plain array, as
//! plone.restapi gives it (at most the largest batch); with `b_start` or `b_size` it is batched
//! like `@users`.

use super::{GroupItem, group_item, load_group};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::schema::{array_of, of};
use crate::http::{ApiResult, Ctx, Dyn, Json, MAX_BATCH_SIZE, Shape};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::search_text;
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
    /// The group.
    #[oai(flatten)]
    pub group: GroupItem,
    /// Its members.
    pub users: GroupMembers,
}

/// The members of a group.
#[derive(Object)]
pub struct GroupMembers {
    /// The group's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// How many there are.
    pub items_total: usize,
    /// Their ids; none for the virtual AuthenticatedUsers.
    pub items: Vec<String>,
}

async fn list(ctx: Ctx) -> ApiResult<Dyn<GroupListing>> {
    let batched = ctx.request.query.iter().any(|(key, _)| key == "b_start" || key == "b_size");
    let site = ctx.site_url();
    if batched {
        return Ok(Dyn::new(
            principal_list(&ctx, "group", "@groups", |group| group_item(&site, group))
                .await?
                .to_json()
                .unwrap_or_default(),
        ));
    }
    // plone.restapi lists groups as a plain array, which Volto's group forms filter.
    let query = PrincipalQuery { kind: Some("group"), search: search_text(&ctx), match_email: true };
    let groups = ctx.app.store.principals(&query, 0, MAX_BATCH_SIZE).await?;
    let items: Vec<GroupItem> = groups.iter().map(|g| group_item(&site, g)).collect();
    Ok(Dyn::new(items.to_json().unwrap_or_default()))
}

async fn one(ctx: Ctx) -> ApiResult<Json<GroupDetail>> {
    let id = ctx.param("id");
    let site = ctx.site_url();
    let group = load_group(&ctx, id).await?;
    let members = if id == AUTHENTICATED_GROUP { Vec::new() } else { ctx.app.store.group_members(id).await? };
    Ok(Json(GroupDetail {
        group: group_item(&site, &group),
        users: GroupMembers { url: format!("{site}/@groups/{id}"), items_total: members.len(), items: members },
    }))
}
