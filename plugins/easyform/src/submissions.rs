//! `GET <form>/@submissions`: the stored submissions, batched (`b_start`, `b_size`), for those
//! who may download saved input; `@submissions/csv` gives them all as CSV, one column per form
//! field (in the form's order), after the number and the time.

use crate::serializer::form_fields;
use crate::storage::{Submission, page};
use serde_json::{Value, json};
use wcs_core::http::{ApiError, ApiResult, Batch, Ctx, batching_links, json};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Service};

/// collective.easyform's permission for reading what was submitted.
pub const DOWNLOAD_SAVED_INPUT: Permission = Permission::new("collective.easyform: Download Saved Input");

/// Who may, unless local roles say more.
pub const DOWNLOAD_ROLES: &[&str] = &["Manager", "Site Administrator", "Editor", "Owner"];

/// The most rows one CSV export holds; the rest is reached through the batched listing.
const MAX_CSV_ROWS: i64 = 100_000;

/// The service.
pub static SUBMISSIONS: Service = Service {
    method: Method::GET,
    name: "@submissions",
    kind: ContentKind::Type("EasyForm"),
    permission: DOWNLOAD_SAVED_INPUT,
    csrf: Csrf::Cookie,
    routes: &[wcs_core::service::Route::any(
        "A form's stored submissions, batched; /csv for a CSV download",
        wcs_core::untyped!(|ctx| Box::pin(submissions(ctx))),
    )],
};

async fn submissions(ctx: Ctx) -> ApiResult<Response> {
    match ctx.subpath.as_slice() {
        [] => listing(&ctx).await,
        [format] if format == "csv" => csv_export(&ctx).await,
        _ => Err(ApiError::not_found(&ctx.request.service_url)),
    }
}

async fn listing(ctx: &Ctx) -> ApiResult<Response> {
    let batch = Batch::from_query(&ctx.request.query)?;
    let (rows, total) = page(&ctx.app.store, &ctx.context.uid, batch.start, batch.size).await?;
    let items: Vec<Value> =
        rows.into_iter().map(|s| json!({"id": s.id, "created": s.created, "data": s.data})).collect();
    let mut body = json!({"@id": ctx.request.service_url, "items": items, "items_total": total});
    if let Some(links) = batching_links(&ctx.request.service_url, &ctx.request.query, batch, total) {
        body["batching"] = links;
    }
    Ok(json(&body))
}

async fn csv_export(ctx: &Ctx) -> ApiResult<Response> {
    let fields = form_fields(&ctx.context);
    let (rows, _) = page(&ctx.app.store, &ctx.context.uid, 0, MAX_CSV_ROWS).await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["id".to_owned(), "created".to_owned()];
    header.extend(fields.iter().map(|f| f.title.clone()));
    writer.write_record(&header).map_err(ApiError::internal)?;
    for Submission { id, created, data } in rows {
        let mut record = vec![id.to_string(), created];
        record.extend(fields.iter().map(|f| cell(data.get(&f.name))));
        writer.write_record(&record).map_err(ApiError::internal)?;
    }
    let bytes = writer.into_inner().map_err(ApiError::internal)?;
    let filename = format!("{}.csv", ctx.context.id);
    Ok(Response::builder()
        .content_type("text/csv; charset=utf-8")
        .header("Content-Disposition", format!("attachment; filename=\"{filename}\""))
        .body(bytes))
}

/// A value as spreadsheet text; lists joined. Cells a spreadsheet would run as a formula
/// (`=`, `+`, `-`, `@` first) get a leading apostrophe, since anyone can submit a form.
fn cell(value: Option<&Value>) -> String {
    let text = match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned)).collect::<Vec<_>>().join(", ")
        }
        Some(other) => other.to_string(),
    };
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text }
}

#[cfg(test)]
mod tests {
    use super::cell;
    use serde_json::json;

    #[test]
    fn formulas_are_defused_and_lists_joined() {
        assert_eq!(cell(Some(&json!("=HYPERLINK(\"x\")"))), "'=HYPERLINK(\"x\")");
        assert_eq!(cell(Some(&json!(["a", "b"]))), "a, b");
        assert_eq!(cell(Some(&json!(42))), "42");
        assert_eq!(cell(None), "");
    }
}
