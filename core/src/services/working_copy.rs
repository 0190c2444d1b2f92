//! `@workingcopy` (plone.app.iterate): check out, show, check in and cancel working copies.
//! Improvement over upstream: `POST` answers with `Location` set to the working copy (upstream
//! sends the baseline's URL there), and conflicts are 409 `locked` rather than 403.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, json, json_with_status};
use crate::ops::working_copy::{WorkingCopyPair, cancel, check_in, check_out, pair_of};
use crate::security::{Csrf, Permission};
use crate::serialize::working_copy_info as info;
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::{Method, StatusCode};
use serde_json::json;

/// Checks out a working copy next to the object.
pub static CHECK_OUT: Service = Service {
    method: Method::POST,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    summary: "Check out a working copy (needs Modify here and Add on the container); 201 {@id}",
    request_schema: None,
    response_schema: Some(super::schemas::at_id),
    handler: |ctx| Box::pin(post(ctx)),
};

/// Shows the baseline / working copy pair the object belongs to.
pub static INFO: Service = Service {
    method: Method::GET,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Working copy and baseline of this object ({working_copy, working_copy_of}, null when none)",
    request_schema: None,
    response_schema: Some(super::schemas::working_copy),
    handler: |ctx| Box::pin(get(ctx)),
};

/// Checks the working copy in onto its baseline.
pub static CHECK_IN: Service = Service {
    method: Method::PATCH,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::MODIFY_PORTAL_CONTENT,
    csrf: Csrf::Cookie,
    summary: "Check in: copy fields and blocks onto the baseline and remove the working copy (204)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(patch(ctx)),
};

/// Cancels the working copy.
pub static CANCEL: Service = Service {
    method: Method::DELETE,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    summary: "Cancel the check-out: delete the working copy (204; needs Delete objects on it)",
    request_schema: None,
    response_schema: None,
    handler: |ctx| Box::pin(delete(ctx)),
};

async fn post(ctx: Ctx) -> ApiResult<Response> {
    let container =
        ctx.parent().ok_or_else(|| ApiError::new(ErrorCode::BadRequest, "The site root cannot be checked out."))?;
    if !ctx.access.allows_on_parent(&ctx.app, Permission::ADD_PORTAL_CONTENT) {
        return Err(Permission::ADD_PORTAL_CONTENT.refuse(&ctx.principal));
    }
    let copy = check_out(&ctx.app, &ctx.context, container, ctx.principal.actor()).await?;
    let url = ctx.url_of(&copy);
    let mut response = json_with_status(StatusCode::CREATED, &json!({"@id": url}));
    if let Ok(location) = url.parse() {
        response.headers_mut().insert("location", location);
    }
    Ok(response)
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    // As in content serializations, only editors learn about working copies.
    let pair =
        if ctx.allows(Permission::MODIFY_PORTAL_CONTENT) { pair_of(&ctx.app, &ctx.context).await? } else { None };
    Ok(json(&info(&sctx, pair.as_ref()).await?))
}

/// The pair `ctx` must act on, or 404 when nothing is checked out.
async fn checked_out(ctx: &Ctx) -> ApiResult<WorkingCopyPair> {
    pair_of(&ctx.app, &ctx.context)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, "This object is not checked out."))
}

async fn patch(ctx: Ctx) -> ApiResult<Response> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.baseline, Permission::MODIFY_PORTAL_CONTENT).await?;
    ctx.check_on(&pair.working_copy, Permission::MODIFY_PORTAL_CONTENT).await?;
    check_in(&ctx.app, &pair).await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}

async fn delete(ctx: Ctx) -> ApiResult<Response> {
    let pair = checked_out(&ctx).await?;
    ctx.check_on(&pair.working_copy, Permission::DELETE_OBJECTS).await?;
    cancel(&ctx.app, &pair).await?;
    Ok(Response::builder().status(StatusCode::NO_CONTENT).finish())
}
