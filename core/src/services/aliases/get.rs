//! `GET <obj>/@aliases` and `@components.aliases`: the old paths that redirect to an object,
//! as plone.restapi lists them. On the site root, every alias of the site with where it leads
//! and whether an editor added it, batched. Editors manage URLs, so the list needs `Modify
//! portal content` on the object; others get an empty list in `@components`.

use crate::endpoint;
use crate::http::{ApiResult, Batch, Ctx, Json, batching_links};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::Alias;
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use serde_json::Value;

/// The service.
pub static ALIASES: Service = Service {
    method: Method::GET,
    name: "@aliases",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::MODIFY_PORTAL_CONTENT),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[
            QueryParam::new("b_start", ParamKind::Integer, "The index of the page's first alias"),
            QueryParam::new("b_size", ParamKind::Integer, "Aliases per page (25 unless given)"),
        ],
        ..Route::new(
            "",
            "The old paths that redirect to this object (on the site root: every alias of the site)",
            endpoint!(get),
        )
    }],
};

/// `@components.aliases`; expanded, the same body as the endpoint.
pub static ALIASES_COMPONENT: Component = Component {
    name: "aliases",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(expanded(ctx, subject)),
};

/// A page of aliases.
#[derive(Object)]
pub struct AliasList {
    /// The list's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The aliases on this page.
    pub items: Vec<AliasEntry>,
    /// How many there are, on all pages.
    pub items_total: i64,
    /// Links to the first, last, previous and next pages; only when there is more than one.
    #[oai(skip_serializing_if_is_none)]
    pub batching: Option<Value>,
}

/// An alias; on the site root with where it leads, when and how it was made.
#[derive(Object)]
#[oai(skip_serializing_if_is_none)]
pub struct AliasEntry {
    /// The old path, inside the site.
    pub path: String,
    /// Site root only: the path it leads to, inside the site.
    #[oai(rename = "redirect-to")]
    pub redirect_to: Option<String>,
    /// Site root only: when it was made (ISO 8601).
    pub datetime: Option<String>,
    /// Site root only: whether an editor added it (rather than a move or rename).
    pub manual: Option<bool>,
}

async fn get(ctx: Ctx) -> ApiResult<Json<AliasList>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(aliases(&sctx, ctx.subject()).await?))
}

async fn expanded(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let list = if ctx.access.allows(ctx.site, Permission::MODIFY_PORTAL_CONTENT) {
        aliases(ctx, subject).await?
    } else {
        let url = format!("{}/@aliases", subject.object.url(ctx.base_url));
        AliasList { url, items: Vec::new(), items_total: 0, batching: None }
    };
    Ok(list.to_json().unwrap_or_default())
}

async fn aliases(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<AliasList> {
    let object = subject.object;
    let site_root = object.is_site_root();
    let batch = Batch::from_query(ctx.query)?;
    let site_path = format!("/{}", object.site_id());
    let target = (!site_root).then_some(object.uid.as_str());
    let (found, total) = ctx.site.store.aliases(&site_path, target, batch.start, batch.size).await?;
    let in_site = |path: &str| path.strip_prefix(&site_path).unwrap_or(path).to_owned();
    let items = found
        .iter()
        .map(|Alias { old_path, target_path, created, manual }| AliasEntry {
            path: in_site(old_path),
            redirect_to: site_root.then(|| in_site(target_path)),
            datetime: site_root.then(|| created.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            manual: site_root.then_some(*manual),
        })
        .collect();
    let url = format!("{}/@aliases", object.url(ctx.base_url));
    let batching = batching_links(&url, ctx.query, batch, total);
    Ok(AliasList { url, items, items_total: total, batching })
}
