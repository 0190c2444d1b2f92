//! `GET <obj>/@translations` and `@components.translations`: the object's translations. This
//! server keeps one language per site, so there are none; Volto asks all the same.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::serialize::Component;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static TRANSLATIONS: Service = Service {
    method: Method::GET,
    name: "@translations",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The object's translations (none: one language per site)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.translations`; expanded, the same body as the endpoint.
pub static TRANSLATIONS_COMPONENT: Component = Component {
    name: "translations",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(async move { Ok(body(&subject.object.url(ctx.base_url))) }),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    Ok(json(&body(&ctx.url_of(&ctx.context))))
}

fn body(object_url: &str) -> Value {
    json!({"@id": format!("{object_url}/@translations"), "items": []})
}
