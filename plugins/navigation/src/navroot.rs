//! `@navroot`: the navigation root (the site root) serialized whole, without `@components`.

use serde_json::{Value, json};
use wcs_core::http::{ApiError, ApiResult, Ctx, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, SerializeCtx, Subject, serialize_content};
use wcs_core::service::{ContentKind, Service};

/// The navigation root of the object.
pub static NAVROOT: Service = Service {
    method: Method::GET,
    name: "@navroot",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "The navigation root of this object, serialized without @components",
        wcs_core::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.navroot`; expanded only on the requested object, like every component.
pub static NAVROOT_COMPONENT: Component =
    Component { name: "navroot", kind: ContentKind::Any, expand: |ctx, subject| Box::pin(navroot(ctx, subject)) };

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&navroot(&sctx, ctx.subject()).await?))
}

async fn navroot(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let root = ctx.access.chain().first().ok_or_else(|| ApiError::internal("traversal chain without a site root"))?;
    let options = ctx.options.for_nested_item();
    let nested = SerializeCtx { options: &options, ..*ctx };
    let mut body = serialize_content(&nested, root, None).await?;
    body.remove("@components");
    Ok(json!({"@id": format!("{}/@navroot", subject.object.url(ctx.base_url)), "navroot": body}))
}
