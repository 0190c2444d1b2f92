//! The `flags` of `simple_query_string`: which parts of its syntax are operators (Lucene's
//! `SimpleQueryParser` bits), named as Elasticsearch names them (`OR|AND|PREFIX`, `ALL`,
//! `NONE`); a disabled operator is read as text.

use crate::dsl::QueryError;
use serde_json::Value;

/// The syntax `flags` enable (Lucene's bits).
pub const AND: u32 = 1;
pub const NOT: u32 = 1 << 1;
pub const OR: u32 = 1 << 2;
pub const PREFIX: u32 = 1 << 3;
pub const PHRASE: u32 = 1 << 4;
pub const PRECEDENCE: u32 = 1 << 5;
pub const ESCAPE: u32 = 1 << 6;
pub const WHITESPACE: u32 = 1 << 7;
pub const FUZZY: u32 = 1 << 8;
pub const NEAR: u32 = 1 << 9;

/// `flags`: `ALL` (the default), `NONE`, or names joined by `|`.
pub fn flags(value: Option<&Value>) -> Result<u32, QueryError> {
    let Some(value) = value else { return Ok(u32::MAX) };
    if let Some(bits) = value.as_u64() {
        return Ok(u32::try_from(bits).unwrap_or(u32::MAX));
    }
    let text = value.as_str().ok_or_else(|| QueryError::parsing("[simple_query_string] [flags] is a string"))?;
    text.split('|').map(str::trim).filter(|f| !f.is_empty()).try_fold(0, |bits, name| {
        Ok(bits
            | match name.to_ascii_uppercase().as_str() {
                "ALL" => u32::MAX,
                "NONE" => 0,
                "AND" => AND,
                "NOT" => NOT,
                "OR" => OR,
                "PREFIX" => PREFIX,
                "PHRASE" => PHRASE,
                "PRECEDENCE" => PRECEDENCE,
                "ESCAPE" => ESCAPE,
                "WHITESPACE" => WHITESPACE,
                "FUZZY" => FUZZY,
                "NEAR" | "SLOP" => NEAR,
                other => return Err(QueryError::illegal(format!("Unknown SimpleQueryStringFlag [{other}]"))),
            })
    })
}
