//! `POST <form>/@submit`: checks a submission against the form's fields, stores it and queues
//! the mail; `{success: true}`, or 400 with an error per field and nothing stored. CSRF is off
//! (forms are posted from anywhere), anonymous callers may submit to forms they may view, and
//! each client's submissions per minute are limited.

use crate::limiter::{Limiter, SUBMISSIONS_PER_MINUTE};
use crate::model::{FieldType, FormField};
use crate::serializer::form_fields;
use crate::storage::store;
use crate::validate::validate;
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, Registry};
use serde_json::{Map, Value};
use wcs_core::content::ContentObject;
use wcs_core::endpoint;
use wcs_core::http::schema::{any, object};
use wcs_core::http::{ApiError, ApiResult, Ctx, ErrorCode, Json, Shape, shape_schema};
use wcs_core::mail::Mail;
use wcs_core::poem_reexports::Method;
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, Route, Service};

/// The largest submission body, in bytes (the server's own limit is far larger, for uploads).
const MAX_BODY: usize = 256 * 1024;

/// The service.
pub static SUBMIT: Service = Service {
    method: Method::POST,
    name: "@submit",
    kind: ContentKind::Type("EasyForm"),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Exempt,
    routes: &[Route {
        request: Some(shape_schema::<SubmissionShape>),
        ..Route::new("", "Submit a form; 400 with an error per field and nothing stored", endpoint!(submit))
    }],
};

/// A submission: the form's fields decide its keys.
struct SubmissionShape;

impl Shape for SubmissionShape {
    const NAME: &'static str = "FormSubmission";

    fn schema(_: &mut Registry) -> MetaSchema {
        MetaSchema {
            additional_properties: Some(Box::new(any())),
            ..object(
                "The values by `form.widgets.<field>`, of the types the form's `form_fields` declare; other keys \
                 are refused; at most 256 KiB",
                vec![],
                &[],
            )
        }
    }
}

/// The answer to a submission that was taken.
#[derive(Object)]
struct SubmitResult {
    /// Always true: a refused submission is an error.
    success: bool,
}

async fn submit(ctx: Ctx) -> ApiResult<Json<SubmitResult>> {
    if ctx.body.len() > MAX_BODY {
        return Err(ApiError::new(ErrorCode::PayloadTooLarge, format!("A submission is at most {MAX_BODY} bytes.")));
    }
    if let (Some(client), Some(limiter)) = (ctx.request.client, ctx.app.extensions.get::<Limiter>()) {
        let limit = ctx.app.record_value(&SUBMISSIONS_PER_MINUTE).await?.as_u64().unwrap_or(0);
        limiter.0.check(client, u32::try_from(limit).unwrap_or(u32::MAX), "submissions")?;
    }
    // Read as every JSON body is: a repeated key or a NUL character is refused here too.
    let body: Map<String, Value> = ctx.json_body()?;
    let form = &ctx.context;
    let fields = form_fields(form);
    let honeypot = text(form, "honeypot_field").filter(|h| !h.is_empty());
    let values = validate(&fields, &body, honeypot).map_err(ApiError::validation)?;
    if let Some(trap) = honeypot {
        let filled = [trap.to_owned(), format!("form.widgets.{trap}")]
            .iter()
            .any(|key| body.get(key).is_some_and(|v| !v.is_null() && v != ""));
        if filled {
            // Answered like a success, so a robot learns nothing; nothing is kept.
            tracing::info!(form = form.path, "honeypot field filled; submission dropped");
            return Ok(Json(SubmitResult { success: true }));
        }
    }
    let mail = mail(form, &fields, &values);
    store(&ctx.app, form, &values, mail).await?;
    Ok(Json(SubmitResult { success: true }))
}

fn text<'a>(form: &'a ContentObject, field: &str) -> Option<&'a str> {
    form.fields.get(field).and_then(Value::as_str)
}

/// The mail action: to the form's `recipients`, else the Mailer's `recipient_email` of an
/// imported `actions_model`; none without either.
fn mail(form: &ContentObject, fields: &[FormField], values: &Map<String, Value>) -> Option<Mail> {
    let listed: Vec<String> = form
        .fields
        .get("recipients")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let recipients = if listed.is_empty() {
        text(form, "actions_model").and_then(mailer_recipient).into_iter().collect()
    } else {
        listed
    };
    if recipients.is_empty() {
        return None;
    }
    let reply_to = fields
        .iter()
        .find(|f| f.kind == FieldType::Email)
        .and_then(|f| values.get(&f.name))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut body = String::new();
    for field in fields {
        if let Some(value) = values.get(&field.name) {
            let shown = match value {
                Value::String(s) => s.clone(),
                Value::Array(items) => items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "),
                other => other.to_string(),
            };
            body.push_str(&format!("{}: {shown}\n", field.title));
        }
    }
    Some(Mail {
        recipients: recipients.join(", "),
        reply_to,
        subject: format!("Form submission: {}", form.title),
        body,
    })
}

/// `recipient_email` of the first Mailer action in collective.easyform's actions model.
fn mailer_recipient(actions_model: &str) -> Option<String> {
    let model = crate::xml_tree::parse_tree(actions_model).ok()?;
    let mailer =
        model.child("schema")?.children.iter().find(|action| {
            action.name == "field" && action.attribute("type").is_some_and(|t| t.ends_with(".Mailer"))
        })?;
    let address = mailer.child_text("recipient_email")?;
    crate::validate::is_email(address).then(|| address.to_owned())
}

#[cfg(test)]
mod tests {
    use super::mailer_recipient;

    #[test]
    fn the_mailers_recipient_is_found() {
        let model = r#"<model><schema><field name="mailer" type="collective.easyform.actions.Mailer">
            <recipient_email>info@gemeinde.example</recipient_email></field></schema></model>"#;
        assert_eq!(mailer_recipient(model).as_deref(), Some("info@gemeinde.example"));
        assert_eq!(mailer_recipient("<model/>"), None);
        let other_action = r#"<model><schema><field name="s" type="collective.easyform.actions.SaveData">
            <recipient_email>nein@example.org</recipient_email></field></schema></model>"#;
        assert_eq!(mailer_recipient(other_action), None, "only a Mailer's recipient");
    }
}
