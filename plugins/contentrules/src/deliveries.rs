//! `GET @content-rules-deliveries`: what the rules still owe or gave up on: webhook deliveries
//! waiting for a retry or failed for good, and rule runs whose actions failed, newest first,
//! with their errors. Manage portal, as the rules themselves.

use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Value, json};
use sqlx::Row;
use wcs_core::endpoint;
use wcs_core::http::schema::{any_object, array_of, object, string};
use wcs_core::http::{ApiResult, Ctx, Dyn, Shape};
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The most entries of each list.
const LIMIT: i64 = 200;

/// Lists pending and failed deliveries.
pub static GET: Service = Service {
    method: Method::GET,
    name: "@content-rules-deliveries",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new("", "Webhook deliveries pending or given up, and rule runs that failed", endpoint!(get))],
};

/// The answer.
struct DeliveriesShape;

impl Shape for DeliveriesShape {
    const NAME: &'static str = "ContentRuleDeliveries";

    fn schema(_: &mut Registry) -> MetaSchema {
        object(
            "webhooks: deliveries not yet made (state pending, with next_try) or given up (state failed), with \
             attempts and last_error; failed_runs: rule runs an action of which failed, with the error",
            vec![("@id", string()), ("webhooks", array_of(any_object())), ("failed_runs", array_of(any_object()))],
            &["@id", "webhooks", "failed_runs"],
        )
    }
}

async fn get(ctx: Ctx) -> ApiResult<Dyn<DeliveriesShape>> {
    let pool = ctx.app.store.pool();
    let webhooks = sqlx::query(
        "SELECT id, rule_id, url, created, attempts, next_try, failed, last_error FROM content_rule_webhook \
         WHERE sent IS NULL ORDER BY id DESC LIMIT $1",
    )
    .bind(LIMIT)
    .fetch_all(pool)
    .await?;
    let webhooks = webhooks
        .iter()
        .map(|row| {
            let failed: Option<String> = row.try_get(6)?;
            Ok(json!({
                "id": row.try_get::<i64, _>(0)?,
                "rule": row.try_get::<String, _>(1)?,
                "url": row.try_get::<String, _>(2)?,
                "created": row.try_get::<String, _>(3)?,
                "attempts": row.try_get::<i64, _>(4)?,
                "next_try": if failed.is_some() { Value::Null } else { json!(row.try_get::<String, _>(5)?) },
                "state": if failed.is_some() { "failed" } else { "pending" },
                "failed": failed,
                "last_error": row.try_get::<Option<String>, _>(7)?,
            }))
        })
        .collect::<Result<Vec<Value>, sqlx::Error>>()?;
    let runs = sqlx::query(
        "SELECT id, rule_ids, trigger, content_path, failed, last_error FROM content_rule_job \
         WHERE failed IS NOT NULL ORDER BY id DESC LIMIT $1",
    )
    .bind(LIMIT)
    .fetch_all(pool)
    .await?;
    let failed_runs = runs
        .iter()
        .map(|row| {
            let rules: Value = serde_json::from_str(&row.try_get::<String, _>(1)?).unwrap_or(Value::Null);
            Ok(json!({
                "id": row.try_get::<i64, _>(0)?,
                "rules": rules,
                "trigger": row.try_get::<String, _>(2)?,
                "path": row.try_get::<String, _>(3)?,
                "failed": row.try_get::<String, _>(4)?,
                "last_error": row.try_get::<Option<String>, _>(5)?,
            }))
        })
        .collect::<Result<Vec<Value>, sqlx::Error>>()?;
    Ok(Dyn::new(json!({"@id": ctx.request.service_url, "webhooks": webhooks, "failed_runs": failed_runs})))
}
