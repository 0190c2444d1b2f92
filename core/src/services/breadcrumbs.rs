//! `GET <obj>/@breadcrumbs`: the path from the site to the object, each crumb with its
//! `portal_type`, titled as the registered rules say (the navigation plugin's `nav_title`).
//! Containers the caller may not view are left out, so their titles never leak.

use crate::content::ContentObject;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Access, Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::site::Site;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;

/// The breadcrumbs of the object.
pub static BREADCRUMBS: Service = Service {
    method: Method::GET,
    name: "@breadcrumbs",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Breadcrumbs from the site root to this object", endpoint!(get)).cacheable()],
};

/// `@components.breadcrumbs`; expanded, the same body as the endpoint.
pub static BREADCRUMBS_COMPONENT: Component = Component {
    name: "breadcrumbs",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Ok(crumbs(ctx, subject).to_json().unwrap_or_default().into()) }),
};

async fn get(ctx: Ctx) -> ApiResult<Json<Breadcrumbs>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(crumbs(&sctx, ctx.subject())))
}

/// `GET @breadcrumbs`.
#[derive(Object)]
pub struct Breadcrumbs {
    /// Its URL.
    #[oai(rename = "@id")]
    url: String,
    /// The containers the caller may view below the navigation root, then the object.
    items: Vec<Crumb>,
    /// The navigation root's URL: the site root, or a language root folder.
    root: String,
}

/// One step of the breadcrumbs.
#[derive(Object)]
struct Crumb {
    /// Its URL.
    #[oai(rename = "@id")]
    url: String,
    /// The title it shows under (a navigation title where a plugin gives one).
    title: String,
    /// Its type.
    portal_type: String,
}

/// The objects of the traversal chain (site root first, the object last) that the caller may
/// view, with their place in the chain: what breadcrumbs may name.
pub(super) fn visible_chain<'a>(site: &Site, access: &'a Access) -> Vec<(usize, &'a ContentObject)> {
    access
        .chain()
        .iter()
        .enumerate()
        .filter(|(index, _)| access.allows_named_at(site, *index, Permission::VIEW.name()))
        .map(|(index, object)| (index, &**object))
        .collect()
}

fn crumbs(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> Breadcrumbs {
    let root_index = ctx.access.navigation_root_index(ctx.site);
    let items = visible_chain(ctx.site, ctx.access)
        .into_iter()
        .filter(|(index, _)| *index > root_index)
        .map(|(_, object)| Crumb {
            url: object.url(ctx.base_url),
            title: ctx.serializers.crumb_title(object).to_owned(),
            portal_type: object.portal_type.clone(),
        })
        .collect();
    let root = ctx.access.navigation_root(ctx.site).map(|root| root.url(ctx.base_url)).unwrap_or_default();
    Breadcrumbs { url: format!("{}/@breadcrumbs", subject.object.url(ctx.base_url)), items, root }
}
