//! `GET <site>/@trash`.

use crate::app::SITE_TYPE;
use crate::content::values::format_time;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::serialize::summary;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// Lists the trash of the site: the objects trashed themselves, not those that went with them.
pub static TRASH_LIST: Service = Service {
    method: Method::GET,
    name: "@trash",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any("List the objects in the trash", crate::untyped!(|ctx| Box::pin(list(ctx))))],
};

async fn list(ctx: Ctx) -> ApiResult<Response> {
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
    Ok(json(
        &json!({"@id": format!("{}/@trash", ctx.url_of(&ctx.context)), "items_total": items.len(), "items": items}),
    ))
}
