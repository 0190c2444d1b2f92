//! `GET <obj>/@sharing`.

use super::delegatable_here;
use crate::content::ContentObject;
use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::services::principal_forms::authenticated_group;
use crate::store::{LocalRole, PrincipalQuery, StoredPrincipal};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Who holds which local role here, inherited or not.
pub static SHARING_GET: Service = Service {
    method: Method::GET,
    name: "@sharing",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::CHANGE_LOCAL_ROLES),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[QueryParam::new("search", ParamKind::String, "Also list the users and groups these words find")],
        ..Route::new("", "Local roles on this object, set here or inherited", endpoint!(get))
    }],
};

/// The sharing page of an object.
#[derive(Object)]
pub struct SharingInfo {
    /// The roles the caller may delegate here.
    pub available_roles: Vec<SharingRole>,
    /// The principals holding roles here, first the virtual AuthenticatedUsers, then those a
    /// search found.
    pub entries: Vec<SharingEntry>,
    /// Whether the object inherits its containers' local roles.
    pub inherit: bool,
}

/// A role that may be delegated on the sharing page.
#[derive(Object)]
pub struct SharingRole {
    /// The role's name.
    pub id: String,
    /// What it lets one do, e.g. `Can edit`.
    pub title: String,
}

/// A principal's roles on the sharing page.
#[derive(Object)]
pub struct SharingEntry {
    /// The user or group id.
    pub id: String,
    /// The full name (or title), the id when none is set.
    pub title: String,
    /// `user` or `group`.
    #[oai(rename = "type")]
    pub kind: String,
    /// The login name (null for groups): on a search's finds always, on those holding roles
    /// here only when it differs from the title, as Plone's sharing page has it.
    #[oai(skip_serializing_if_is_none)]
    pub login: Option<Nullable<String>>,
    /// On those holding roles here: whether the entry is the caller's own, which the page
    /// keeps from being changed, so nobody locks themselves out by accident (Plone's rule).
    /// Absent on a search's finds.
    #[oai(skip_serializing_if_is_none)]
    pub disabled: Option<bool>,
    /// Per delegatable role: `"global"` (held site-wide), `"acquired"` (inherited from a
    /// container), `true` (given here) or `false`, the first that holds, in Plone's order.
    pub roles: BTreeMap<String, Value>,
}

/// Local roles set here and inherited from containers (inheritance stops at a block).
fn split_roles(
    chain: &[Arc<ContentObject>],
    local: &[LocalRole],
) -> (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, BTreeSet<String>>) {
    let (mut own, mut inherited): (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, BTreeSet<String>>) =
        Default::default();
    let Some((object, above)) = chain.split_last() else { return (own, inherited) };
    for role in local.iter().filter(|r| r.content_uid == object.uid) {
        own.entry(role.principal_id.clone()).or_default().insert(role.role.clone());
    }
    if !object.block_local_roles {
        for ancestor in above.iter().rev() {
            for role in local.iter().filter(|r| r.content_uid == ancestor.uid) {
                inherited.entry(role.principal_id.clone()).or_default().insert(role.role.clone());
            }
            if ancestor.block_local_roles {
                break;
            }
        }
    }
    (own, inherited)
}

async fn get(ctx: Ctx) -> ApiResult<Json<SharingInfo>> {
    let chain = ctx.access.chain();
    let uids: Vec<String> = chain.iter().map(|o| o.uid.clone()).collect();
    let local = ctx.app.store.local_roles(&uids).await?;
    let (own, inherited) = split_roles(chain, &local);
    let delegatable = delegatable_here(&ctx);
    // As Plone's sharing page: those holding a role it shows, here or above (an `Owner` alone
    // is not listed).
    let shown = |roles: &BTreeSet<String>| roles.iter().any(|r| delegatable.iter().any(|(d, _)| d == r));
    let mut ids: BTreeSet<String> =
        own.iter().chain(inherited.iter()).filter(|(_, roles)| shown(roles)).map(|(id, _)| id.clone()).collect();
    ids.remove(AUTHENTICATED_GROUP);
    let mut principals = ctx.app.store.principals_by_ids(&ids.into_iter().collect::<Vec<_>>()).await?;
    let holding: BTreeSet<String> =
        principals.iter().map(|p| p.id.clone()).chain([AUTHENTICATED_GROUP.to_owned()]).collect();
    if let Some(term) = ctx.request.query_value("search").filter(|t| !t.trim().is_empty()) {
        let query = PrincipalQuery {
            kind: None,
            search: Some(term.trim().to_owned()),
            match_email: false,
            in_groups: Vec::new(),
        };
        for found in ctx.app.store.principals(&query, 0, 50).await? {
            if !principals.iter().any(|p| p.id == found.id) {
                principals.push(found);
            }
        }
    }
    // The sharing page's name for the virtual group.
    principals.push(StoredPrincipal { fullname: "Logged-in users".to_owned(), ..authenticated_group() });
    let mut entries: Vec<SharingEntry> = principals
        .iter()
        .map(|p| {
            let roles: BTreeMap<String, Value> = delegatable
                .iter()
                .map(|(role, _)| {
                    let state = if p.roles.iter().any(|r| r == role) {
                        json!("global")
                    } else if inherited.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!("acquired")
                    } else if own.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!(true)
                    } else {
                        json!(false)
                    };
                    ((*role).to_owned(), state)
                })
                .collect();
            let title = if p.fullname.is_empty() { p.id.clone() } else { p.fullname.clone() };
            let holds_here = holding.contains(&p.id);
            let login = (!holds_here || p.login.as_deref() != Some(title.as_str())).then(|| Nullable(p.login.clone()));
            let disabled = holds_here.then(|| ctx.principal.user_id() == Some(p.id.as_str()));
            SharingEntry { id: p.id.clone(), title, kind: p.kind.clone(), login, disabled, roles }
        })
        .collect();
    // By title, as Plone's sharing page sorts them.
    entries.sort_by(|a, b| a.title.cmp(&b.title));
    let available_roles = delegatable
        .iter()
        .map(|(id, title)| SharingRole { id: (*id).to_owned(), title: (*title).to_owned() })
        .collect();
    Ok(Json(SharingInfo { available_roles, entries, inherit: !ctx.context.block_local_roles }))
}
