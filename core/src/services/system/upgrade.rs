//! `GET`/`POST <site>/@upgrade`: storage migrations run when the server starts, so there is
//! never an upgrade waiting; a POST says so.

use super::VERSION;
use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::json;

/// What is pending (nothing).
pub static UPGRADE: Service = Service {
    method: Method::GET,
    name: "@upgrade",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Pending upgrade steps: none, since migrations run at start",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// Runs the upgrade (there is nothing to run).
pub static UPGRADE_RUN: Service = Service {
    method: Method::POST,
    name: "@upgrade",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::MANAGE_PORTAL,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "Run pending upgrade steps: there are none; answers with the report",
        crate::untyped!(|ctx| Box::pin(run(ctx))),
    )],
};

fn url(ctx: &Ctx) -> String {
    format!("{}/@upgrade", ctx.site_url())
}

async fn get(ctx: Ctx) -> ApiResult<Response> {
    Ok(json(&json!({"@id": url(&ctx), "upgrade_steps": {}, "versions": {"fs": VERSION, "instance": VERSION}})))
}

async fn run(ctx: Ctx) -> ApiResult<Response> {
    let report = "Storage migrations run when the server starts; no upgrade is pending.";
    Ok(json(
        &json!({"@id": url(&ctx), "report": report, "upgraded": false, "versions": {"fs": VERSION, "instance": VERSION}}),
    ))
}
