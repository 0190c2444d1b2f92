//! `POST @content-rules/<rule>`: assign a rule here (enabled, not applying to sub-folders).

use crate::permissions::MANAGE_RULES;
use crate::store;
use wcs_core::endpoint;
use wcs_core::http::{ApiError, ApiResult, Ctx, Json, Message};
use wcs_core::poem_reexports::Method;
use wcs_core::security::Csrf;
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// Assigns a rule.
pub static POST: Service = Service {
    method: Method::POST,
    name: "@content-rules",
    kind: ContentKind::Folderish,
    guard: Guard::Has(MANAGE_RULES),
    csrf: Csrf::Cookie,
    routes: &[
        Route { body_required: false, ..Route::new("{rule_id}", "Assign the rule here", endpoint!(assign)) },
        Route { body_required: false, ..Route::new("", "Refused: the rule id is missing", endpoint!(missing)) },
    ],
};

async fn assign(ctx: Ctx) -> ApiResult<Json<Message>> {
    let rule_id = ctx.param("rule_id");
    let rule = store::rule(&ctx.app.store, rule_id, &ctx.request.service_url).await?;
    store::assign(&ctx.app.store, &ctx.context.uid, &rule.id).await?;
    Ok(Json(Message { message: format!("Successfully assigned the rule {}", rule.id) }))
}

async fn missing(_: Ctx) -> ApiResult<Json<Message>> {
    Err(ApiError::invalid_parameter("rule_id", "Missing parameter rule_id"))
}
