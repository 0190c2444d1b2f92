//! Query strings: decoded once into ordered pairs, and strict booleans as plone.restapi 10 has
//! them (anything else is a 400, never a silent false).

use crate::error::{ApiError, ApiResult};
use percent_encoding::percent_decode_str;

/// Decodes `a=1&b=x+y` into ordered pairs; `+` is a space, undecodable bytes are replaced.
pub fn parse_query(raw: &str) -> Vec<(String, String)> {
    raw.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

fn decode(text: &str) -> String {
    percent_decode_str(&text.replace('+', " ")).decode_utf8_lossy().into_owned()
}

/// Parses a query-string boolean; an empty value (bare `?flag`) is true.
pub fn parse_bool(name: &str, value: &str) -> ApiResult<bool> {
    match value {
        "" | "1" | "y" | "yes" | "t" | "true" | "True" | "active" | "enabled" | "on" => Ok(true),
        "0" | "n" | "no" | "f" | "false" | "False" | "inactive" | "disabled" | "off" => Ok(false),
        other => Err(ApiError::invalid_parameter(
            name,
            format!("Invalid boolean for '{name}': '{other}'. Use true or false."),
        )),
    }
}

/// Every value of a repeatable query parameter (`name` or Zope's `name:list`), comma lists
/// split.
pub fn query_values(query: &[(String, String)], name: &str) -> Vec<String> {
    query
        .iter()
        .filter(|(k, _)| k == name || k.strip_suffix(":list") == Some(name))
        .flat_map(|(_, v)| v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_pairs_in_order() {
        let pairs = parse_query("b_size=5&q=a+b%26c&flag");
        assert_eq!(
            pairs,
            vec![("b_size".into(), "5".into()), ("q".into(), "a b&c".into()), ("flag".into(), "".into()),]
        );
    }

    #[test]
    fn booleans_are_strict() {
        assert!(parse_bool("x", "on").unwrap_or(false));
        assert!(!parse_bool("x", "False").unwrap_or(true));
        assert!(parse_bool("x", "maybe").is_err());
    }
}
