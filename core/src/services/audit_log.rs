//! `GET <site>/@audit-log`: who changed roles, group memberships, passwords, accounts and
//! sharing, what, when and from where; newest first, batched, for Managers only.

use crate::app::SITE_TYPE;
use crate::content::values::format_time;
use crate::endpoint;
use crate::http::{ApiResult, Batch, Ctx, Json, batching_links};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::{AuditEntry, AuditQuery};
use poem::http::Method;
use poem_openapi::Object;
use serde_json::Value;

/// The service.
pub static AUDIT_LOG: Service = Service {
    method: Method::GET,
    name: "@audit-log",
    kind: ContentKind::Type(SITE_TYPE),
    guard: Guard::Has(Permission::READ_AUDIT_LOG),
    csrf: Csrf::Cookie,
    routes: &[Route {
        query: &[
            QueryParam::new("actor", ParamKind::String, "Only changes made by this user"),
            QueryParam::new("target", ParamKind::String, "Only changes to this user, group or object path"),
            QueryParam::new("action", ParamKind::String, "Only this kind of change, e.g. user.roles or sharing"),
            QueryParam::new("b_start", ParamKind::Integer, "The index of the page's first entry"),
            QueryParam::new("b_size", ParamKind::Integer, "Entries per page (25 unless given)"),
        ],
        ..Route::new(
            "",
            "The audit log of changes to roles, groups, passwords and sharing, newest first",
            endpoint!(get),
        )
    }],
};

/// A page of the audit log.
#[derive(Object)]
pub struct AuditLog {
    /// The log's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The entries on this page, newest first.
    pub items: Vec<AuditItem>,
    /// How many entries match, on all pages.
    pub items_total: i64,
    /// Links to the first, last, previous and next pages; only when there is more than one.
    #[oai(skip_serializing_if_is_none)]
    pub batching: Option<Value>,
}

/// One change.
#[derive(Object)]
pub struct AuditItem {
    /// Its place in the log, increasing.
    pub id: i64,
    /// When it happened (ISO 8601, UTC).
    pub at: String,
    /// Who made it (`Anonymous` for a password set with a mailed reset link).
    pub actor: String,
    /// What kind of change: `user.create`, `user.delete`, `user.roles`, `user.password`,
    /// `group.create`, `group.delete`, `group.roles`, `group.members` or `sharing`.
    pub action: String,
    /// The user or group id, or the object's path.
    pub target: String,
    /// The change: roles given and taken, members added and removed, how a password was set.
    pub details: Value,
    /// The client's address, when known.
    pub client: Option<String>,
}

impl From<AuditEntry> for AuditItem {
    fn from(entry: AuditEntry) -> Self {
        AuditItem {
            id: entry.id,
            at: format_time(entry.at),
            actor: entry.actor,
            action: entry.action,
            target: entry.target,
            details: entry.details,
            client: entry.client,
        }
    }
}

async fn get(ctx: Ctx) -> ApiResult<Json<AuditLog>> {
    let batch = Batch::from_query(&ctx.request.query)?;
    let text = |name: &str| ctx.request.query_value(name).map(str::to_owned);
    let query = AuditQuery { actor: text("actor"), target: text("target"), action: text("action") };
    let entries = ctx.app.store.audit_entries(&query, batch.start, batch.size).await?;
    let total = ctx.app.store.count_audit_entries(&query).await?;
    Ok(Json(AuditLog {
        url: ctx.request.service_url.clone(),
        items: entries.into_iter().map(AuditItem::from).collect(),
        items_total: total,
        batching: batching_links(&ctx.request.service_url, &ctx.request.query, batch, total),
    }))
}
