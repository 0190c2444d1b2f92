//! `GET <form>/@submissions`: the stored submissions, batched (`b_start`, `b_size`), for those
//! who may download saved input; `@submissions/csv` gives them all as CSV, one column per form
//! field (in the form's order), after the number and the time.

use crate::serializer::form_fields;
use crate::storage::{Submission, page};
use poem_openapi::Object;
use poem_openapi::registry::{MetaHeader, MetaResponses, MetaSchema};
use serde_json::Value;
use wcs_core::endpoint;
use wcs_core::http::schema::string;
use wcs_core::http::{
    ApiError, ApiResult, B_SIZE, B_START, Batch, BatchLinksShape, Ctx, Json, Raw, RawMeta, Shaped, batch_links,
    media_response,
};
use wcs_core::poem_reexports::{Method, Response};
use wcs_core::security::{Csrf, Permission, Role};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// collective.easyform's permission for reading what was submitted.
pub const DOWNLOAD_SAVED_INPUT: Permission = Permission::new("collective.easyform: Download Saved Input");

/// Who may, unless local roles say more: the form's owner and those who administer the site,
/// as collective.easyform and PloneFormGen have it. Submissions hold what citizens typed
/// (names, addresses); an Editor of the site's pages is not given them by default.
pub const DOWNLOAD_ROLES: &[Role] = &[Role::MANAGER, Role::SITE_ADMINISTRATOR, Role::OWNER];

/// The most rows one CSV export holds; the rest is reached through the batched listing.
const MAX_CSV_ROWS: i64 = 100_000;

/// The service.
pub static SUBMISSIONS: Service = Service {
    method: Method::GET,
    name: "@submissions",
    kind: ContentKind::Type("EasyForm"),
    guard: Guard::Has(DOWNLOAD_SAVED_INPUT),
    csrf: Csrf::Cookie,
    routes: &[
        Route {
            query: &[B_START, B_SIZE],
            ..Route::new("", "A form's stored submissions, oldest first, batched", endpoint!(listing))
        },
        Route::new("csv", "Every submission as CSV (at most 100,000 rows), for a spreadsheet", endpoint!(csv_export)),
    ],
};

/// `GET @submissions`: a page of submissions.
#[derive(Object)]
struct SubmissionList {
    /// The request's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The page's submissions, oldest first.
    items: Vec<SubmissionEntry>,
    /// How many submissions the form has.
    items_total: i64,
    /// Links to the other pages, when there are any.
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
}

/// One stored submission.
#[derive(Object)]
struct SubmissionEntry {
    /// Its number.
    id: i64,
    /// When it arrived (RFC 3339).
    created: String,
    /// The values by form field name, as validated.
    data: Value,
}

/// `GET @submissions/csv`: a file download.
struct CsvExport;

impl RawMeta for CsvExport {
    fn meta() -> MetaResponses {
        let mut response = media_response(
            200,
            "The submissions as CSV: id, created, then one column per form field (in the form's order)",
            Some(("text/csv", MetaSchema::new("string"))),
        );
        response.headers.push(MetaHeader {
            name: "Content-Disposition".into(),
            description: Some("`attachment; filename=\"<form id>.csv\"`".into()),
            required: true,
            deprecated: false,
            schema: string(),
        });
        MetaResponses { responses: vec![response] }
    }
}

async fn listing(ctx: Ctx) -> ApiResult<Json<SubmissionList>> {
    let batch = Batch::from_query(&ctx.request.query)?;
    let (rows, total) = page(&ctx.app.store, &ctx.context.uid, batch.start, batch.size).await?;
    let items = rows.into_iter().map(|s| SubmissionEntry { id: s.id, created: s.created, data: s.data }).collect();
    Ok(Json(SubmissionList {
        batching: batch_links(&ctx.request.service_url, &ctx.request.query, batch, total),
        url: ctx.request.service_url.clone(),
        items,
        items_total: total,
    }))
}

async fn csv_export(ctx: Ctx) -> ApiResult<Raw<CsvExport>> {
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
    Ok(Raw::new(
        Response::builder()
            .content_type("text/csv; charset=utf-8")
            .header("Content-Disposition", format!("attachment; filename=\"{filename}\""))
            .body(bytes),
    ))
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
