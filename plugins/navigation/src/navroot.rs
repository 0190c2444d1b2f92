//! `@navroot`: the navigation root (the site root, or the language root folder of a
//! multilingual site) serialized whole, without `@components`.

use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Json, Shaped};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::serialize::{Component, ContentShape, SerializeCtx, Subject, serialize_content};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The navigation root of the object.
pub static NAVROOT: Service = Service {
    method: Method::GET,
    name: "@navroot",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "The navigation root of this object, serialized without @components", endpoint!(get))
        .cacheable()],
};

/// `@components.navroot`; expanded only on the requested object, like every component.
pub static NAVROOT_COMPONENT: Component = Component {
    name: "navroot",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| {
        Box::pin(async move { Ok(navroot(ctx, subject).await?.to_json().unwrap_or_default().into()) })
    },
};

/// `GET @navroot`.
#[derive(Object)]
struct Navroot {
    /// The endpoint's URL on the object.
    #[oai(rename = "@id")]
    url: String,
    /// The navigation root as `GET` answers it, without `@components`.
    navroot: Shaped<ContentShape>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<Navroot>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.listing_visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(navroot(&sctx, ctx.subject()).await?))
}

async fn navroot(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Navroot> {
    let index = ctx.access.navigation_root_index(ctx.site);
    let chain = ctx.access.chain();
    let root = chain.get(index).ok_or_else(|| ApiError::internal("traversal chain without a site root"))?;
    let parent = index.checked_sub(1).and_then(|i| chain.get(i)).map(|p| &**p);
    let options = ctx.options.for_nested_item();
    let nested = SerializeCtx { options: &options, ..*ctx };
    let mut body = serialize_content(&nested, root, parent).await?.into_map();
    body.remove("@components");
    Ok(Navroot { url: format!("{}/@navroot", subject.object.url(ctx.base_url)), navroot: Shaped::new(body) })
}
