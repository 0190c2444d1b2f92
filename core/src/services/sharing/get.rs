//! `GET <obj>/@sharing`.

use super::DELEGATABLE_ROLES;
use crate::content::ContentObject;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{AUTHENTICATED_GROUP, Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::authenticated_group;
use crate::store::{LocalRole, PrincipalQuery};
use poem::Response;
use poem::http::Method;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// Who holds which local role here, inherited or not.
pub static SHARING_GET: Service = Service {
    method: Method::GET,
    name: "@sharing",
    kind: ContentKind::Any,
    permission: Permission::CHANGE_LOCAL_ROLES,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Local roles on this object (?search= adds matching principals)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// Local roles set here and inherited from containers (inheritance stops at a block).
fn split_roles(
    chain: &[ContentObject],
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

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let chain = ctx.access.chain();
    let uids: Vec<String> = chain.iter().map(|o| o.uid.clone()).collect();
    let local = ctx.app.store.local_roles(&uids).await?;
    let (own, inherited) = split_roles(chain, &local);
    let mut ids: BTreeSet<String> = own.keys().chain(inherited.keys()).cloned().collect();
    ids.remove(AUTHENTICATED_GROUP);
    let mut principals = ctx.app.store.principals_by_ids(&ids.into_iter().collect::<Vec<_>>()).await?;
    if let Some(term) = ctx.request.query_value("search").filter(|t| !t.trim().is_empty()) {
        let query = PrincipalQuery { kind: None, search: Some(term.trim().to_owned()) };
        for found in ctx.app.store.principals(&query, 0, 50).await? {
            if !principals.iter().any(|p| p.id == found.id) {
                principals.push(found);
            }
        }
    }
    principals.insert(0, authenticated_group());
    let entries: Vec<Value> = principals
        .iter()
        .map(|p| {
            let roles: Map<String, Value> = DELEGATABLE_ROLES
                .iter()
                .map(|(role, _)| {
                    let state = if own.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!(true)
                    } else if inherited.get(&p.id).is_some_and(|r| r.contains(*role)) {
                        json!("acquired")
                    } else if p.roles.iter().any(|r| r == role) {
                        json!("global")
                    } else {
                        json!(false)
                    };
                    ((*role).to_owned(), state)
                })
                .collect();
            json!({
                "id": p.id,
                "title": if p.fullname.is_empty() { p.id.clone() } else { p.fullname.clone() },
                "type": p.kind,
                "login": p.login,
                "disabled": false,
                "roles": roles,
            })
        })
        .collect();
    let available: Vec<Value> = DELEGATABLE_ROLES.iter().map(|(id, title)| json!({"id": id, "title": title})).collect();
    Ok(json(&json!({"available_roles": available, "entries": entries, "inherit": !ctx.context.block_local_roles})))
}
