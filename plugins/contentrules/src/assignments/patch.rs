//! `PATCH @content-rules`: enable, disable, apply to sub-folders or not (`form.button.*` with
//! `rule_ids`), or move one assignment up or down (`operation` with `rule_id`).

use super::{python_list, rule_ids};
use crate::permissions::MANAGE_RULES;
use crate::store;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::Value;
use wcs_core::endpoint;
use wcs_core::http::schema::{array_of, boolean, object, string};
use wcs_core::http::{ApiError, ApiResult, Ctx, Json, Message, Shape, shape_schema};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Changes the object's assignments.
pub static PATCH: Service = Service {
    method: Method::PATCH,
    name: "@content-rules",
    kind: ContentKind::Folderish,
    guard: Guard::Has(MANAGE_RULES),
    csrf: Csrf::Cookie,
    routes: &[Route {
        request: Some(shape_schema::<AssignmentChangeShape>),
        ..Route::new("", "Enable, disable, apply to sub-folders, or move assignments", endpoint!(patch))
    }],
};

/// What a change names.
struct AssignmentChangeShape;

impl Shape for AssignmentChangeShape {
    const NAME: &'static str = "ContentRuleAssignmentChange";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "One of: form.button.Enable, form.button.Disable, form.button.Bubble (apply to sub-folders, enabling) or \
             form.button.NoBubble with rule_ids; or operation (move_up, move_down) with rule_id",
            vec![
                ("rule_ids", array_of(string())),
                ("rule_id", string()),
                ("operation", string()),
                ("form.button.Enable", boolean()),
                ("form.button.Disable", boolean()),
                ("form.button.Bubble", boolean()),
                ("form.button.NoBubble", boolean()),
            ],
            &[],
        )
    }
}

async fn patch(ctx: Ctx) -> ApiResult<Json<Message>> {
    let body = ctx.json_body()?;
    let uid = &ctx.context.uid;
    let store = &ctx.app.store;
    if let Some(operation) = body.get("operation") {
        let rule_id = body
            .get("rule_id")
            .and_then(Value::as_str)
            .ok_or_else(|| ApiError::invalid_parameter("rule_id", "The rule to move is missing."))?;
        let mut order: Vec<String> =
            store::assignments_on(store, &[uid.as_str()]).await?.into_iter().map(|a| a.rule_id).collect();
        let idx = order.iter().position(|id| id == rule_id).ok_or_else(|| {
            ApiError::invalid_parameter("rule_id", format!("The rule {rule_id} is not assigned here."))
        })?;
        let operation = operation.as_str().unwrap_or_default();
        match operation {
            "move_up" if idx > 0 => order.swap(idx, idx - 1),
            "move_down" if idx + 1 < order.len() => order.swap(idx, idx + 1),
            "move_up" | "move_down" => {}
            other => {
                return Err(ApiError::invalid_parameter(
                    "operation",
                    format!("'{other}' is no operation; use move_up or move_down."),
                ));
            }
        }
        store::reorder(store, uid, &order).await?;
        return Ok(Json(Message { message: format!("Successfully applied the {operation}") }));
    }
    let ids = rule_ids(&body)?;
    let pressed = |button: &str| body.get(button).is_some_and(|v| v != &Value::Bool(false) && !v.is_null());
    let (enabled, bubbles, message) = if pressed("form.button.Enable") {
        (Some(true), None, format!("Successfully enabled rules {}", python_list(&ids)))
    } else if pressed("form.button.Disable") {
        (Some(false), None, format!("Successfully disabled rules {}", python_list(&ids)))
    } else if pressed("form.button.Bubble") {
        (Some(true), Some(true), format!("Successfully applied {} to subfolders", python_list(&ids)))
    } else if pressed("form.button.NoBubble") {
        (None, Some(false), format!("Disabled apply to subfolders for {}", python_list(&ids)))
    } else {
        return Err(ApiError::invalid_parameter(
            "form.button.Enable",
            "Name what to do: form.button.Enable, Disable, Bubble or NoBubble, or an operation.",
        ));
    };
    store::edit_assignments(store, uid, &ids, enabled, bubbles).await?;
    Ok(Json(Message { message }))
}
