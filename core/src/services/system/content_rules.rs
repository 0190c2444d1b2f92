//! `GET <obj>/@content-rules`: content rules cannot be configured on this server; the answer
//! says there are none, in plone.restapi's shape.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static CONTENT_RULES: Service = Service {
    method: Method::GET,
    name: "@content-rules",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The content rules of the object: none (rules are not configurable here)",
        endpoint!(get),
    )],
};

/// `GET @content-rules`, in plone.restapi's shape so Volto's rules panel renders.
#[derive(Object)]
struct ContentRules {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The rules: always none.
    #[oai(rename = "content-rules")]
    rules: RuleLists,
}

/// The rule lists plone.restapi answers; this server has no rules, so all are empty.
#[derive(Object)]
struct RuleLists {
    /// Rules inherited from above: none.
    acquired_rules: Vec<String>,
    /// Rules assigned here: none.
    assigned_rules: Vec<String>,
    /// Rules that could be assigned: none.
    assignable_rules: Vec<String>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<ContentRules>> {
    Ok(Json(ContentRules {
        url: format!("{}/@content-rules", ctx.url_of(&ctx.context)),
        rules: RuleLists { acquired_rules: Vec::new(), assigned_rules: Vec::new(), assignable_rules: Vec::new() },
    }))
}
