//! `GET <obj>/@inherit?expand.inherit.behaviors=<name>,…` (plone.restapi 9): for each named
//! behaviour, the values of its fields on the nearest object, this one or an ancestor, whose
//! type has it, and which object that is. Front ends use it for settings a subtree shares (a
//! section's lead image, its navigation root). Only objects the caller may view are asked.
//! Expanded as the `inherit` component, which `@components` names only when it is expanded,
//! as in plone.restapi.

use crate::content::ContentObject;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Dyn, Shape, query_string};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject, serialize_content};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Map, Value, json};

/// The inherited behaviour values of the object.
pub static INHERIT: Service = Service {
    method: Method::GET,
    name: "@inherit",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The fields of the behaviours named in expand.inherit.behaviors, from the nearest object that has them",
        endpoint!(get),
    )],
};

/// `@components.inherit`, only when expanded.
pub static INHERIT_COMPONENT: Component = Component {
    name: "inherit",
    kind: ContentKind::Any,
    listed: false,
    expand: |ctx, subject| Box::pin(async move { Ok(inherited(ctx, subject).await?.into()) }),
};

/// The parameter naming the behaviours.
const BEHAVIORS: &str = "expand.inherit.behaviors";
/// The most behaviours one request may name.
const MAX_BEHAVIORS: usize = 20;

/// Plone's behaviours by name, with the fields each gives a type. A type has a behaviour when it
/// has all its fields; the navigation root is the site root.
const BEHAVIOUR_FIELDS: &[(&str, &[&str])] = &[
    ("plone.navigationroot", &[]),
    ("plone.basic", &["title", "description"]),
    ("plone.categorization", &["subjects", "language"]),
    ("plone.publication", &["effective", "expires"]),
    ("plone.ownership", &["rights"]),
    ("plone.excludefromnavigation", &["exclude_from_nav"]),
    ("plone.navigationtitle", &["nav_title"]),
    ("plone.relateditems", &["relatedItems"]),
    ("plone.richtext", &["text"]),
    ("plone.tableofcontents", &["table_of_contents"]),
    ("plone.leadimage", &["image", "image_caption"]),
    ("plone.versioning", &["changeNote", "versioning_enabled"]),
    ("volto.blocks", &["blocks", "blocks_layout"]),
    ("volto.preview_image_link", &["preview_image_link", "preview_caption_link"]),
];

/// `@inherit`'s body: `{@id, <behaviour>: {data, from: {@id, title}}}`.
struct Inherited;

impl Shape for Inherited {
    const NAME: &'static str = "Inherited";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            description: Some(
                "Per behaviour named: {data: its fields' values, from: {@id, title} of the object they come from}",
            ),
            ..MetaSchema::new("object")
        }
    }
}

async fn get(ctx: Ctx) -> ApiResult<Dyn<Inherited>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Dyn::new(inherited(&sctx, ctx.subject()).await?))
}

async fn inherited(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let url = subject.object.url(ctx.base_url);
    let named: Vec<&str> = ctx
        .query
        .iter()
        .filter(|(key, _)| key == BEHAVIORS)
        .flat_map(|(_, value)| value.split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .take(MAX_BEHAVIORS)
        .collect();
    let echoed: Vec<(String, String)> = ctx.query.iter().filter(|(key, _)| key == BEHAVIORS).cloned().collect();
    let mut out = Map::new();
    out.insert("@id".into(), json!(format!("{url}/@inherit?{}", query_string(&echoed))));
    // Nearest first: the object, then its ancestors the caller may view.
    let chain: Vec<&ContentObject> =
        super::breadcrumbs::visible_chain(ctx.site, ctx.access).into_iter().rev().map(|(_, o)| o).collect();
    for name in named {
        let Some((_, fields)) = BEHAVIOUR_FIELDS.iter().find(|(known, _)| *known == name) else {
            continue; // a behaviour this server does not know: nothing inherits it
        };
        let from = chain.iter().copied().find(|object| has_behaviour(ctx, object, name, fields));
        let Some(from) = from else { continue };
        let data = if fields.is_empty() {
            Map::new()
        } else {
            // Without expansions: an expanded `inherit` would ask for itself again.
            let options = ctx.options.for_nested_item();
            let nested = SerializeCtx { options: &options, ..*ctx };
            let serialized = Box::pin(serialize_content(&nested, from, None)).await?.into_map();
            fields.iter().filter_map(|field| serialized.get(*field).map(|v| ((*field).to_owned(), v.clone()))).collect()
        };
        out.insert(
            name.to_owned(),
            json!({"data": data, "from": {"@id": from.url(ctx.base_url), "title": from.title}}),
        );
    }
    Ok(Value::Object(out))
}

fn has_behaviour(ctx: &SerializeCtx<'_>, object: &ContentObject, name: &str, fields: &[&str]) -> bool {
    if name == "plone.navigationroot" {
        return object.is_site_root()
            || ctx.site.types.get(&object.portal_type).is_some_and(|profile| profile.is_navigation_root());
    }
    ctx.site.types.get(&object.portal_type).is_some_and(|profile| fields.iter().all(|f| profile.field(f).is_some()))
}
