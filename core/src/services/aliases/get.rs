//! `GET <obj>/@aliases` and `@components.aliases`: the old paths that redirect to an object,
//! as plone.restapi lists them; on the site root, every alias of the site. Each with where it
//! leads, since when and whether an editor added it; batched, and narrowed by `query` as
//! Plone's redirects panel narrows them. Editors manage URLs, so the list needs `Modify portal
//! content` on the object; others get an empty list in `@components`.

use crate::endpoint;
use crate::http::{ApiResult, Batch, Ctx, JsonOrCsv, batching_links, csv_file, wants_csv};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::{Alias, AliasQuery};
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use serde_json::Value;

/// The most aliases a CSV export holds.
const MAX_CSV_ALIASES: i64 = 100_000;

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
            QueryParam::new(
                "query",
                ParamKind::String,
                "Only old paths starting with this text when it starts with `/` (inside the site), else containing it",
            ),
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
    expand: |ctx, subject| Box::pin(async move { Ok(expanded(ctx, subject).await?.into()) }),
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

/// An alias, with where it leads, when and how it was made.
#[derive(Object)]
pub struct AliasEntry {
    /// The old path, inside the site.
    pub path: String,
    /// The path it leads to, inside the site.
    #[oai(rename = "redirect-to")]
    pub redirect_to: String,
    /// When it was made (ISO 8601).
    pub datetime: String,
    /// Whether an editor added it (rather than a move or rename).
    pub manual: bool,
}

async fn get(ctx: Ctx) -> ApiResult<JsonOrCsv<AliasList>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    if wants_csv(ctx.request.header("accept")) {
        // A file holds every alias (up to a bound), not a page of them.
        let everything = Batch { start: 0, size: MAX_CSV_ALIASES };
        Ok(JsonOrCsv::Csv(csv_export(&aliases(&sctx, ctx.subject(), everything).await?)?))
    } else {
        Ok(JsonOrCsv::Json(aliases(&sctx, ctx.subject(), Batch::from_query(&ctx.request.query)?).await?))
    }
}

/// Plone's redirects export: `old path,new path,datetime,manual`, dates as Plone writes them.
fn csv_export(list: &AliasList) -> ApiResult<Vec<u8>> {
    let rows = list.items.iter().map(|item| {
        let when = chrono::DateTime::parse_from_rfc3339(&item.datetime)
            .map_or_else(|_| item.datetime.clone(), |t| t.format("%Y/%m/%d %H:%M:%S GMT+0").to_string());
        let manual = if item.manual { "True" } else { "False" };
        vec![item.path.clone(), item.redirect_to.clone(), when, manual.to_owned()]
    });
    csv_file(&["old path", "new path", "datetime", "manual"], rows)
}

async fn expanded(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let list = if ctx.access.allows(ctx.site, Permission::MODIFY_PORTAL_CONTENT) {
        aliases(ctx, subject, Batch::from_query(ctx.query)?).await?
    } else {
        let url = format!("{}/@aliases", subject.object.url(ctx.base_url));
        AliasList { url, items: Vec::new(), items_total: 0, batching: None }
    };
    Ok(list.to_json().unwrap_or_default())
}

async fn aliases(ctx: &SerializeCtx<'_>, subject: Subject<'_>, batch: Batch) -> ApiResult<AliasList> {
    let object = subject.object;
    let site_root = object.is_site_root();
    let site_path = format!("/{}", object.site_id());
    let text =
        ctx.query.iter().find(|(k, _)| k == "query" || k == "q").map(|(_, v)| v.trim()).filter(|v| !v.is_empty());
    let query = AliasQuery { target: (!site_root).then_some(object.uid.as_str()), text };
    let (found, total) = ctx.site.store.aliases(&site_path, query, batch.start, batch.size).await?;
    let in_site = |path: &str| path.strip_prefix(&site_path).unwrap_or(path).to_owned();
    let items = found
        .iter()
        .map(|Alias { old_path, target_path, created, manual }| AliasEntry {
            path: in_site(old_path),
            redirect_to: in_site(target_path),
            datetime: created.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            manual: *manual,
        })
        .collect();
    let url = format!("{}/@aliases", object.url(ctx.base_url));
    let batching = batching_links(&url, ctx.query, batch, total);
    Ok(AliasList { url, items, items_total: total, batching })
}
