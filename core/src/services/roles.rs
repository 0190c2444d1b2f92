//! `GET <obj>/@roles`: the global roles users and groups may be given, as Volto's user and
//! group control panels list them (plone.restapi's shape, sorted by id).

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use crate::services::principal_forms::ASSIGNABLE_ROLES;
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static ROLES: Service = Service {
    method: Method::GET,
    name: "@roles",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The roles users and groups may be given",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let site = ctx.site_url();
    let mut roles = ASSIGNABLE_ROLES.to_vec();
    roles.sort_unstable();
    let listed: Vec<Value> = roles
        .into_iter()
        .map(|role| json!({"@id": format!("{site}/@roles/{role}"), "@type": "role", "id": role, "title": role}))
        .collect();
    Ok(json(&Value::Array(listed)))
}
