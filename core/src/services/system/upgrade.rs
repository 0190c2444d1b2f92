//! `GET`/`POST <site>/@upgrade`: storage migrations run when the server starts, so there is
//! never an upgrade waiting; a POST says so.

use super::VERSION;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// What is pending (nothing).
pub static UPGRADE: Service = Service {
    method: Method::GET,
    name: "@upgrade",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Pending upgrade steps: none, since migrations run at start", endpoint!(get))],
};

/// Runs the upgrade (there is nothing to run).
pub static UPGRADE_RUN: Service = Service {
    method: Method::POST,
    name: "@upgrade",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Run pending upgrade steps: there are none; answers with the report", endpoint!(run))],
};

/// `GET @upgrade`, in plone.restapi's shape.
#[derive(Object)]
struct UpgradeInfo {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// Pending steps by profile: always none.
    upgrade_steps: NoSteps,
    /// The stored and the built version: always the same.
    versions: UpgradeVersions,
}

/// An empty object: no profile has steps waiting.
#[derive(Object)]
struct NoSteps {}

/// The versions plone.restapi compares to tell whether an upgrade is due.
#[derive(Object)]
struct UpgradeVersions {
    /// The built server's version.
    fs: String,
    /// The version the storage was migrated to: the same, as migrations run at start.
    instance: String,
}

/// `POST @upgrade`: the report of a run that had nothing to do.
#[derive(Object)]
struct UpgradeReport {
    /// The endpoint's URL.
    #[oai(rename = "@id")]
    url: String,
    /// Why nothing ran.
    report: String,
    /// Always false.
    upgraded: bool,
    /// The stored and the built version.
    versions: UpgradeVersions,
}

fn url(ctx: &Ctx) -> String {
    format!("{}/@upgrade", ctx.site_url())
}

fn versions() -> UpgradeVersions {
    UpgradeVersions { fs: VERSION.to_owned(), instance: VERSION.to_owned() }
}

async fn get(ctx: Ctx) -> ApiResult<Json<UpgradeInfo>> {
    Ok(Json(UpgradeInfo { url: url(&ctx), upgrade_steps: NoSteps {}, versions: versions() }))
}

async fn run(ctx: Ctx) -> ApiResult<Json<UpgradeReport>> {
    Ok(Json(UpgradeReport {
        url: url(&ctx),
        report: "Storage migrations run when the server starts; no upgrade is pending.".to_owned(),
        upgraded: false,
        versions: versions(),
    }))
}
