//! `GET <obj>/@types`: the content types, and whether each may be added here.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// Lists types with `addable` for this context.
pub static TYPES: Service = Service {
    method: Method::GET,
    name: "@types",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "List content types and whether each can be added here",
    request_schema: None,
    response_schema: Some(super::schemas::types_list),
    handler: |ctx| Box::pin(types(ctx)),
};

/// `@components.types`; expanded, it is the same list.
pub static TYPES_COMPONENT: Component = Component {
    name: "types",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(async move { Ok(list(ctx, subject)) }),
};

async fn types(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    let subject = Subject { object: &ctx.context, parent: ctx.visible_parent(), profile: &ctx.profile };
    Ok(json(&list(&sctx, subject)))
}

fn list(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> Value {
    let site_url = format!("{}/{}", ctx.base_url, subject.object.site_id());
    let may_add = ctx.access.object().is_some_and(|o| o.uid == subject.object.uid)
        && ctx.access.allows(ctx.app, Permission::ADD_PORTAL_CONTENT);
    let types: Vec<Value> = ctx
        .app
        .types
        .all()
        .filter(|t| t.global_allow || subject.profile.allowed_types.as_ref().is_some_and(|a| a.contains(&t.id)))
        .map(|t| {
            let addable = may_add && ctx.app.types.allows_child(subject.profile, t);
            json!({
                "@id": format!("{site_url}/@types/{}", t.id),
                "id": t.id,
                "title": t.title,
                "addable": addable,
                "immediately_addable": addable,
            })
        })
        .collect();
    Value::Array(types)
}
