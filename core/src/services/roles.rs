//! `GET <obj>/@roles`: the global roles users and groups may be given, as Volto's user and
//! group control panels list them: plone.restapi's shape and order (by id, Manager last, as
//! Plone's role map lists them).

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission, Role};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::principal_forms::ASSIGNABLE_ROLES;
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static ROLES: Service = Service {
    method: Method::GET,
    name: "@roles",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The roles users and groups may be given, by id with Manager last", endpoint!(get))],
};

/// A global role that may be given to users and groups.
#[derive(Object)]
pub struct GlobalRole {
    /// The role's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Always `role`.
    #[oai(rename = "@type")]
    pub kind: String,
    /// The role's name.
    pub id: String,
    /// The role's name again (roles have no titles of their own).
    pub title: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Vec<GlobalRole>>> {
    let site = ctx.site_url();
    let mut roles = ASSIGNABLE_ROLES.map(Role::name).to_vec();
    roles.sort_unstable_by_key(|role| (*role == Role::MANAGER.name(), *role));
    Ok(Json(
        roles
            .into_iter()
            .map(|role| GlobalRole {
                url: format!("{site}/@roles/{role}"),
                kind: "role".to_owned(),
                id: role.to_owned(),
                title: role.to_owned(),
            })
            .collect(),
    ))
}
