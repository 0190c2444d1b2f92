//! Dates as a mapping's `format` reads them: Elasticsearch's named formats (`strict_date_optional_time`,
//! `strict_date`, `epoch_millis`, …) and Java patterns (`yyyy/MM/dd HH:mm:ss`), several joined
//! with `||`, the first that reads the text winning. Without a format the default,
//! `strict_date_optional_time||epoch_millis`, applies. Dates are kept in milliseconds (UTC).

use serde_json::Value;

/// Elasticsearch's default date format.
pub const DEFAULT_FORMAT: &str = "strict_date_optional_time||epoch_millis";

/// The longest format accepted (each part is tried on every value).
const MAX_FORMAT: usize = 256;

/// Whether `format` is one this module reads; a mapping with any other is refused.
pub fn known(format: &str) -> bool {
    format.len() <= MAX_FORMAT && format.split("||").all(|part| named(part).is_some() || java_pattern(part).is_some())
}

/// A date value (a number of milliseconds, or text in `format`) in milliseconds.
pub fn millis(value: &Value, format: Option<&str>) -> Option<i64> {
    let format = format.unwrap_or(DEFAULT_FORMAT);
    match value {
        // Numbers are epoch times whatever the format says, as in Elasticsearch.
        Value::Number(n) => {
            let seconds = format.split("||").any(|p| p == "epoch_second") && !format.contains("epoch_millis");
            let n = n.as_i64().or_else(|| n.as_f64().map(|f| f as i64))?;
            Some(if seconds { n.saturating_mul(1000) } else { n })
        }
        Value::String(text) if text == "now" => Some(chrono::Utc::now().timestamp_millis()),
        Value::String(text) => format.split("||").find_map(|part| parse(text.trim(), part)),
        _ => None,
    }
}

/// A named format's reading, `None` for a name this module does not know.
fn named(name: &str) -> Option<fn(&str) -> Option<i64>> {
    Some(match name {
        "strict_date_optional_time" | "date_optional_time" | "strict_date_optional_time_nanos" | "iso8601" => iso,
        "strict_date_time" | "date_time" => |t: &str| t.contains('T').then(|| iso(t)).flatten(),
        "strict_date" | "date" | "year_month_day" | "strict_year_month_day" => {
            |t: &str| (t.len() == 10).then(|| iso(t)).flatten()
        }
        "epoch_millis" => |t: &str| t.parse::<f64>().ok().map(|f| f as i64),
        "epoch_second" => |t: &str| t.parse::<f64>().ok().map(|f| (f * 1000.0) as i64),
        _ => return None,
    })
}

fn parse(text: &str, part: &str) -> Option<i64> {
    if let Some(read) = named(part) {
        return read(text);
    }
    let pattern = java_pattern(part)?;
    if let Ok(at) = chrono::NaiveDateTime::parse_from_str(text, &pattern) {
        return Some(at.and_utc().timestamp_millis());
    }
    let day = chrono::NaiveDate::parse_from_str(text, &pattern).ok()?;
    Some(day.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis())
}

/// A Java `DateTimeFormatter` pattern (`yyyy/MM/dd HH:mm:ss.SSS`, `'T'` quoted literals) as a
/// chrono format; `None` for letters it does not map.
fn java_pattern(pattern: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            for literal in chars.by_ref() {
                if literal == '\'' {
                    break;
                }
                out.push(literal);
            }
            continue;
        }
        if !c.is_ascii_alphabetic() {
            if c == '%' {
                out.push('%');
            }
            out.push(c);
            continue;
        }
        let mut run = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            run += 1;
        }
        out.push_str(match (c, run) {
            ('y' | 'u', 4) => "%Y",
            ('y' | 'u', 2) => "%y",
            ('M', 2) => "%m",
            ('M', 1) => "%-m",
            ('d', 2) => "%d",
            ('d', 1) => "%-d",
            ('H', 2) => "%H",
            ('m', 2) => "%M",
            ('s', 2) => "%S",
            ('S', 3) => "%3f",
            ('Z' | 'X', _) => "%z",
            _ => return None,
        });
    }
    Some(out)
}

/// ISO 8601 as Elasticsearch's `strict_date_optional_time` reads it: a year alone up to a full
/// time with fraction and zone.
fn iso(text: &str) -> Option<i64> {
    if let Ok(at) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(at.timestamp_millis());
    }
    let (date, time) = text.split_once('T').unwrap_or((text, ""));
    let mut parts = date.splitn(3, '-');
    let year: i32 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next().map_or(Some(1), |m| m.parse().ok())?;
    let day: u32 = parts.next().map_or(Some(1), |d| d.parse().ok())?;
    let day = chrono::NaiveDate::from_ymd_opt(year, month, day)?;
    let (clock, offset_millis) = split_zone(time)?;
    let mut fields = clock.splitn(3, ':');
    let hour: u32 = fields.next().filter(|h| !h.is_empty()).map_or(Some(0), |h| h.parse().ok())?;
    let minute: u32 = fields.next().map_or(Some(0), |m| m.parse().ok())?;
    let (second, fraction) = match fields.next() {
        Some(s) => {
            let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
            let fraction: String = fraction.chars().chain("000".chars()).take(3).collect();
            (whole.parse().ok()?, fraction.parse::<u32>().ok()?)
        }
        None => (0, 0),
    };
    let at = day.and_hms_milli_opt(hour, minute, second, fraction)?;
    Some(at.and_utc().timestamp_millis() - offset_millis)
}

/// `12:00:00Z` or `12:00+02:00` into the clock and the zone's offset in milliseconds.
fn split_zone(time: &str) -> Option<(&str, i64)> {
    if let Some(clock) = time.strip_suffix('Z') {
        return Some((clock, 0));
    }
    match time.rfind(['+', '-']) {
        Some(at) => {
            let (clock, zone) = time.split_at(at);
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let (hours, minutes) = zone[1..].split_once(':').unwrap_or((&zone[1..], "0"));
            let minutes: i64 = hours.parse::<i64>().ok()? * 60 + minutes.parse::<i64>().ok()?;
            Some((clock, sign * minutes * 60_000))
        }
        None => Some((time, 0)),
    }
}

/// Milliseconds as Elasticsearch writes a date by default (`2016-05-03T00:00:00.000Z`).
pub fn iso_text(millis: i64) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(millis).map(|at| at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dates_read_as_elasticsearch_reads_them() {
        let default = |v: Value| millis(&v, None);
        assert_eq!(default(json!("2020-01-01")), Some(1_577_836_800_000));
        assert_eq!(default(json!("2020-01-01T01:00:00Z")), Some(1_577_840_400_000));
        assert_eq!(default(json!("2020-01-01T03:00:00+02:00")), Some(1_577_840_400_000));
        assert_eq!(default(json!("2020-01-01T01:00:00.5")), Some(1_577_840_400_500));
        assert_eq!(default(json!("2020")), Some(1_577_836_800_000));
        assert_eq!(default(json!(1_577_836_800_000_i64)), Some(1_577_836_800_000));
        assert_eq!(default(json!("1577836800000")), Some(1_577_836_800_000));
        assert_eq!(default(json!("not a date")), None);
    }

    #[test]
    fn formats_of_a_mapping_are_read() {
        assert_eq!(millis(&json!("2017/01/02"), Some("yyyy/MM/dd")), Some(1_483_315_200_000));
        assert_eq!(millis(&json!("2017-01-02"), Some("yyyy/MM/dd")), None);
        let either = Some("strict_date_time||strict_date");
        assert_eq!(millis(&json!("2021-05-01T07:10:00Z"), either), Some(1_619_853_000_000));
        assert_eq!(millis(&json!("2021-05-01"), either), Some(1_619_827_200_000));
        assert_eq!(millis(&json!("1620000000"), Some("epoch_second")), Some(1_620_000_000_000));
        assert!(known("yyyy-MM-dd'T'HH:mm:ss") && known("epoch_millis||date") && !known("qqqq"));
        assert_eq!(iso_text(1_462_233_600_000).as_deref(), Some("2016-05-03T00:00:00.000Z"));
    }
}
