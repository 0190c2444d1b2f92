//! `GET <obj>/@aliases` and `@components.aliases`: the old paths that redirect to an object,
//! as plone.restapi lists them. On the site root, every alias of the site with where it leads
//! and whether an editor added it, batched. Editors manage URLs, so the list needs `Modify
//! portal content` on the object; others get an empty list in `@components`.

use crate::http::{ApiResult, Batch, Ctx, batching_links, json};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Service};
use crate::store::Alias;
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static ALIASES: Service = Service {
    method: Method::GET,
    name: "@aliases",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The old paths that redirect to this object (on the site root: every alias of the site)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.aliases`; expanded, the same body as the endpoint.
pub static ALIASES_COMPONENT: Component =
    Component { name: "aliases", kind: ContentKind::Any, expand: |ctx, subject| Box::pin(expanded(ctx, subject)) };

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&aliases(&sctx, ctx.subject()).await?))
}

async fn expanded(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    if !ctx.access.allows(ctx.app, Permission::MODIFY_PORTAL_CONTENT) {
        let url = format!("{}/@aliases", subject.object.url(ctx.base_url));
        return Ok(json!({"@id": url, "items": [], "items_total": 0}));
    }
    aliases(ctx, subject).await
}

async fn aliases(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let object = subject.object;
    let site_root = object.is_site_root();
    let batch = Batch::from_query(ctx.query)?;
    let site_path = format!("/{}", object.site_id());
    let target = (!site_root).then_some(object.uid.as_str());
    let (found, total) = ctx.app.store.aliases(&site_path, target, batch.start, batch.size).await?;
    let in_site = |path: &str| path.strip_prefix(&site_path).unwrap_or(path).to_owned();
    let items: Vec<Value> = found
        .iter()
        .map(|Alias { old_path, target_path, created, manual }| {
            if site_root {
                json!({"path": in_site(old_path), "redirect-to": in_site(target_path),
                       "datetime": created.to_rfc3339_opts(chrono::SecondsFormat::Secs, true), "manual": manual})
            } else {
                json!({"path": in_site(old_path)})
            }
        })
        .collect();
    let url = format!("{}/@aliases", object.url(ctx.base_url));
    let mut body = json!({"@id": url, "items": items, "items_total": total});
    if let Some(links) = batching_links(&url, ctx.query, batch, total) {
        body["batching"] = links;
    }
    Ok(body)
}
