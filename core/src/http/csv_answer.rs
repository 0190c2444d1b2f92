//! Listings that answer CSV to a client that asks for it (`Accept: text/csv`), as Plone's
//! `@users` and `@aliases` do: the JSON listing otherwise.

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};

/// A listing as JSON, or the CSV file of it.
pub enum JsonOrCsv<T> {
    /// `application/json`.
    Json(T),
    /// `text/csv`: the file's bytes.
    Csv(Vec<u8>),
}

/// Whether the request's `Accept` asks for CSV rather than JSON.
pub fn wants_csv(accept: Option<&str>) -> bool {
    accept.is_some_and(|accept| {
        accept
            .split(',')
            .map(|m| m.split(';').next().unwrap_or_default().trim())
            .any(|m| m.eq_ignore_ascii_case("text/csv"))
    })
}

/// The CSV file of `rows` under `header`.
pub fn csv_file(
    header: &[&str],
    rows: impl IntoIterator<Item = Vec<String>>,
) -> Result<Vec<u8>, crate::error::ApiError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header).map_err(crate::error::ApiError::internal)?;
    for row in rows {
        writer.write_record(&row).map_err(crate::error::ApiError::internal)?;
    }
    writer.into_inner().map_err(crate::error::ApiError::internal)
}

impl<T: ToJSON + Send> IntoResponse for JsonOrCsv<T> {
    fn into_response(self) -> Response {
        match self {
            JsonOrCsv::Json(list) => {
                Response::builder().status(StatusCode::OK).content_type("application/json").body(list.to_json_string())
            }
            JsonOrCsv::Csv(bytes) => {
                Response::builder().status(StatusCode::OK).content_type("text/csv; charset=utf-8").body(bytes)
            }
        }
    }
}

impl<T: ToJSON + Type + Send> ApiResponse for JsonOrCsv<T> {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "The listing, as JSON or (with `Accept: text/csv`) as a CSV file",
                status: Some(200),
                status_range: None,
                content: vec![
                    MetaMediaType { content_type: "application/json", schema: T::schema_ref() },
                    MetaMediaType {
                        content_type: "text/csv",
                        schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
                    },
                ],
                headers: vec![],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use super::{csv_file, wants_csv};

    #[test]
    fn csv_is_chosen_only_when_asked_for() {
        assert!(wants_csv(Some("text/csv")));
        assert!(wants_csv(Some("text/csv; charset=utf-8, application/json;q=0.5")));
        assert!(!wants_csv(Some("application/json")));
        assert!(!wants_csv(None));
    }

    #[test]
    fn cells_are_quoted_where_needed() {
        let file = csv_file(&["a", "b"], [vec!["x".to_owned(), "Member, Editor".to_owned()]]).unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&file), "a,b\nx,\"Member, Editor\"\n");
    }
}
