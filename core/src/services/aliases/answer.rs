//! What `GET @aliases` answers: the JSON list, or, for a client that asks for `text/csv`, the
//! same aliases as the CSV file Plone's redirects panel exports (and `POST @aliases` reads
//! back): `old path,new path,datetime,manual`.

use super::get::AliasList;
use crate::error::ApiError;
use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};

/// The list as JSON or CSV.
pub enum AliasAnswer {
    /// `application/json`.
    Json(AliasList),
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

impl AliasAnswer {
    /// The CSV of a list: Plone's columns, dates as Plone writes them.
    pub fn csv(list: &AliasList) -> Result<AliasAnswer, ApiError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(["old path", "new path", "datetime", "manual"]).map_err(ApiError::internal)?;
        for item in &list.items {
            let when = chrono::DateTime::parse_from_rfc3339(&item.datetime)
                .map_or_else(|_| item.datetime.clone(), |t| t.format("%Y/%m/%d %H:%M:%S GMT+0").to_string());
            let manual = if item.manual { "True" } else { "False" };
            writer
                .write_record([item.path.as_str(), item.redirect_to.as_str(), when.as_str(), manual])
                .map_err(ApiError::internal)?;
        }
        Ok(AliasAnswer::Csv(writer.into_inner().map_err(ApiError::internal)?))
    }
}

impl IntoResponse for AliasAnswer {
    fn into_response(self) -> Response {
        match self {
            AliasAnswer::Json(list) => {
                Response::builder().status(StatusCode::OK).content_type("application/json").body(list.to_json_string())
            }
            AliasAnswer::Csv(bytes) => {
                Response::builder().status(StatusCode::OK).content_type("text/csv; charset=utf-8").body(bytes)
            }
        }
    }
}

impl ApiResponse for AliasAnswer {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "The aliases, as JSON or (with `Accept: text/csv`) as Plone's CSV export",
                status: Some(200),
                status_range: None,
                content: vec![
                    MetaMediaType { content_type: "application/json", schema: AliasList::schema_ref() },
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
        AliasList::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use super::wants_csv;

    #[test]
    fn csv_is_chosen_only_when_asked_for() {
        assert!(wants_csv(Some("text/csv")));
        assert!(wants_csv(Some("text/csv; charset=utf-8, application/json;q=0.5")));
        assert!(!wants_csv(Some("application/json")));
        assert!(!wants_csv(None));
    }
}
