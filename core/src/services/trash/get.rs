//! `GET <site>/@trash`.

use crate::app::SITE_TYPE;
use crate::content::values::format_time;
use crate::endpoint;
use crate::http::schema::{array_of, integer, object, string};
use crate::http::{ApiResult, Ctx, Dyn, Shape};
use crate::security::{Csrf, Permission};
use crate::serialize::{summary, summary_schema};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use serde_json::{Value, json};

/// Lists the trash of the site: the objects trashed themselves, not those that went with them.
pub static TRASH_LIST: Service = Service {
    method: Method::GET,
    name: "@trash",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "List the objects in the trash (not batched)", endpoint!(list))],
};

/// The trash: listing entries (their metadata depends on the type) with when each was trashed.
pub struct TrashListing;

impl Shape for TrashListing {
    const NAME: &'static str = "TrashListing";

    fn schema(registry: &mut Registry) -> MetaSchema {
        let entry = MetaSchema {
            description: Some("A trashed object: its listing entry with its UID and when it was trashed"),
            all_of: vec![
                summary_schema(registry),
                MetaSchemaRef::Inline(Box::new(object(
                    "What a trash entry adds",
                    vec![("UID", string()), ("trashed_at", string())],
                    &["UID", "trashed_at"],
                ))),
            ],
            ..MetaSchema::ANY
        };
        object(
            "The objects in the trash that were trashed themselves",
            vec![
                ("@id", string()),
                ("items_total", integer()),
                ("items", array_of(MetaSchemaRef::Inline(Box::new(entry)))),
            ],
            &["@id", "items_total", "items"],
        )
    }
}

async fn list(ctx: Ctx) -> ApiResult<Dyn<TrashListing>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let roots = ctx.app.store.trash_roots(&ctx.context.path).await?;
    let items: Vec<Value> = roots
        .iter()
        .map(|(object, at)| {
            let mut item = summary(&sctx, object, &["UID".to_owned()]);
            item.insert("trashed_at".into(), json!(format_time(*at)));
            Value::Object(item)
        })
        .collect();
    Ok(Dyn::new(
        json!({"@id": format!("{}/@trash", ctx.url_of(&ctx.context)), "items_total": items.len(), "items": items}),
    ))
}
