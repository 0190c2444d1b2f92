//! Shared by `@users` and `@groups`: the batched listing both answer and the two forms in
//! which their `roles` (and a group's `users`) may be changed, typed for the OpenAPI document.

use crate::http::schema::{array_of, boolean, map_of, string};
use crate::http::{ApiError, ApiResult, Batch, Ctx, MAX_BATCH_SIZE, batching_links};
use crate::service::{ParamKind, QueryParam};
use crate::services::principal_forms::{groups_filter, search_text};
use crate::store::{PrincipalQuery, StoredPrincipal};
use poem_openapi::Object;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;
use std::borrow::Cow;

/// The query parameters a principal listing reads.
pub const LISTING_QUERY: &[QueryParam] = USER_LISTING_QUERY.split_at(5).0;

/// The query parameters of the user listing: those of [`LISTING_QUERY`], and a group filter.
pub const USER_LISTING_QUERY: &[QueryParam] = &[
    QueryParam::new("query", ParamKind::String, "Words to look for in ids, logins, names and e-mail addresses"),
    QueryParam::new("search", ParamKind::String, "The same as query, as plone.restapi 8 (and Volto) sends it"),
    QueryParam::new("limit", ParamKind::Integer, "The most principals a page shows, 1 to 1000"),
    QueryParam::new("b_start", ParamKind::Integer, "The index of the page's first principal"),
    QueryParam::new("b_size", ParamKind::Integer, "Principals per page (25 unless given)"),
    QueryParam::new("groups-filter:list", ParamKind::StringList, "Only users in any of these groups (at most 50)"),
];

/// A page of users or groups, as plone.restapi batches them.
#[derive(Object)]
pub struct PrincipalList<T: ParseFromJSON + ToJSON> {
    /// The collection's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// The principals on this page.
    pub items: Vec<T>,
    /// How many match, on all pages.
    pub items_total: i64,
    /// Links to the first, last, previous and next pages; only when there is more than one.
    #[oai(skip_serializing_if_is_none)]
    pub batching: Option<Value>,
}

/// The batched `@users` or `@groups` collection, each principal shaped by `item`. `?query=`
/// (or `?search=`) searches; `?limit=` caps the page.
pub async fn principal_list<T: ParseFromJSON + ToJSON>(
    ctx: &Ctx,
    kind: &'static str,
    collection: &str,
    item: impl Fn(&StoredPrincipal) -> T,
) -> ApiResult<PrincipalList<T>> {
    let site = ctx.site_url();
    let mut batch = Batch::from_query(&ctx.request.query)?;
    if let Some(limit) = ctx.request.query_value("limit") {
        let limit = limit.parse::<i64>().ok().filter(|n| (1..=MAX_BATCH_SIZE).contains(n)).ok_or_else(|| {
            ApiError::invalid_parameter("limit", format!("'limit' must be a number from 1 to {MAX_BATCH_SIZE}."))
        })?;
        batch.size = batch.size.min(limit);
    }
    let in_groups = if kind == "user" { groups_filter(ctx)? } else { Vec::new() };
    let query = PrincipalQuery { kind: Some(kind), search: search_text(ctx), match_email: true, in_groups };
    let principals = ctx.app.store.principals(&query, batch.start, batch.size).await?;
    let total = ctx.app.store.count_principals(&query).await?;
    Ok(PrincipalList {
        url: format!("{site}/{collection}"),
        items: principals.iter().map(item).collect(),
        items_total: total,
        batching: batching_links(&ctx.request.service_url, &ctx.request.query, batch, total),
    })
}

/// A list of names, or `{"<name>": true|false}` switching single ones on or off: the two
/// forms in which `roles` (and a group's `users`) may be sent. Only documents the body: the
/// handlers read these keys themselves, for their precise messages.
pub struct ListOrSwitches(Value);

impl Type for ListOrSwitches {
    const IS_REQUIRED: bool = true;
    type RawValueType = Value;
    type RawElementValueType = Value;

    fn name() -> Cow<'static, str> {
        "ListOrSwitches".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            one_of: vec![array_of(string()), map_of(boolean())],
            ..MetaSchema::ANY
        }))
    }

    fn as_raw_value(&self) -> Option<&Value> {
        Some(&self.0)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Value> + 'a> {
        Box::new(std::iter::once(&self.0))
    }
}

impl ParseFromJSON for ListOrSwitches {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            Some(value @ (Value::Array(_) | Value::Object(_))) => Ok(ListOrSwitches(value)),
            other => Err(ParseError::expected_type(other.unwrap_or_default())),
        }
    }
}

impl ToJSON for ListOrSwitches {
    fn to_json(&self) -> Option<Value> {
        Some(self.0.clone())
    }
}
