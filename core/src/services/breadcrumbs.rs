//! `GET <obj>/@breadcrumbs`: the path from the site to the object, each crumb with its
//! `portal_type`, titled as the registered rules say (the navigation plugin's `nav_title`).
//! Containers the caller may not view are left out, so their titles never leak.

use crate::app::App;
use crate::content::ContentObject;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Access, Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The breadcrumbs of the object.
pub static BREADCRUMBS: Service = Service {
    method: Method::GET,
    name: "@breadcrumbs",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Breadcrumbs from the site root to this object",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.breadcrumbs`; expanded, the same body as the endpoint.
pub static BREADCRUMBS_COMPONENT: Component = Component {
    name: "breadcrumbs",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(async move { Ok(crumbs(ctx, subject)) }),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&crumbs(&sctx, ctx.subject())))
}

/// The objects of the traversal chain (site root first, the object last) that the caller may
/// view, with their place in the chain: what breadcrumbs may name.
pub(super) fn visible_chain<'a>(app: &App, access: &'a Access) -> Vec<(usize, &'a ContentObject)> {
    access
        .chain()
        .iter()
        .enumerate()
        .filter(|(index, _)| access.allows_named_at(app, *index, Permission::VIEW.name()))
        .collect()
}

fn crumbs(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> Value {
    let chain = ctx.access.chain();
    let items: Vec<Value> = visible_chain(ctx.app, ctx.access)
        .into_iter()
        .filter(|(index, _)| *index > 0)
        .map(|(_, object)| {
            let title = ctx.app.registry.crumb_title(object);
            json!({"@id": object.url(ctx.base_url), "title": title, "portal_type": object.portal_type})
        })
        .collect();
    let root = chain.first().map(|site| site.url(ctx.base_url)).unwrap_or_default();
    json!({"@id": format!("{}/@breadcrumbs", subject.object.url(ctx.base_url)), "items": items, "root": root})
}
