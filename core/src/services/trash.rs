//! The trash: `POST <obj>/@trash` hides an object with its subtree, `POST <obj>/@untrash`
//! brings it back, `GET <site>/@trash` lists what is in it (Managers), and `DELETE` on a
//! trashed object removes it for good.

use crate::app::SITE_TYPE;
use crate::content::values::format_time;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json};
use crate::security::{Csrf, Permission};
use crate::serialize::summary;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::{Value, json};

/// Moves the object and its subtree to the trash.
pub static TRASH: Service = Service {
    method: Method::POST,
    name: "@trash",
    kind: ContentKind::Any,
    permission: Permission::DELETE_OBJECTS,
    csrf: Csrf::Cookie,
    summary: "Move this object and its subtree to the trash",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(trash(ctx)),
};

/// Restores a trashed object with what trashing it hid.
pub static UNTRASH: Service = Service {
    method: Method::POST,
    name: "@untrash",
    kind: ContentKind::Any,
    permission: Permission::DELETE_OBJECTS,
    csrf: Csrf::Cookie,
    summary: "Restore this object from the trash",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(untrash(ctx)),
};

/// Lists the trash of the site.
pub static TRASH_LIST: Service = Service {
    method: Method::GET,
    name: "@trash",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    summary: "List the objects in the trash",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(list(ctx)),
};

fn no_content() -> Response {
    Response::builder().status(StatusCode::NO_CONTENT).finish()
}

async fn trash(ctx: Ctx) -> ApiResult<Response> {
    if ctx.context.is_site_root() {
        return Err(ApiError::new(ErrorCode::BadRequest, "The site root cannot be put in the trash."));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.trash(&ctx.context, chrono::Utc::now()).await?;
    tx.commit().await?;
    Ok(no_content())
}

async fn untrash(ctx: Ctx) -> ApiResult<Response> {
    let object = &ctx.context;
    match object.trash_root.as_deref() {
        None => return Err(ApiError::new(ErrorCode::BadRequest, "This object is not in the trash.")),
        Some(root) if root != object.uid => {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "This object went to the trash with a container; restore that container instead.",
            ));
        }
        Some(_) => {}
    }
    if ctx.parent().is_some_and(|p| p.is_trashed()) {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "The container of this object is in the trash; restore it first.",
        ));
    }
    let mut tx = ctx.app.store.begin().await?;
    tx.untrash(&object.uid).await?;
    tx.commit().await?;
    Ok(no_content())
}

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
