//! `GET <obj>/@translations` and `@components.translations`: the object's translations. This
//! server keeps one language per site, so there are none; Volto asks all the same.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::serialize::Component;
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use serde_json::Value;

/// The service.
pub static TRANSLATIONS: Service = Service {
    method: Method::GET,
    name: "@translations",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The object's translations (none: one language per site)", endpoint!(get))],
};

/// `@components.translations`; expanded, the same body as the endpoint.
pub static TRANSLATIONS_COMPONENT: Component = Component {
    name: "translations",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| {
        Box::pin(async move { Ok(body(&subject.object.url(ctx.base_url)).to_json().unwrap_or_default()) })
    },
};

/// `GET @translations`, in plone.restapi's shape.
#[derive(Object)]
struct Translations {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The translations: always none, as a site has one language.
    items: Vec<Value>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Translations>> {
    Ok(Json(body(&ctx.url_of(&ctx.context))))
}

fn body(object_url: &str) -> Translations {
    Translations { url: format!("{object_url}/@translations"), items: Vec::new() }
}
