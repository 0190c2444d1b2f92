//! Calendar intervals of `date_histogram` (months, quarters, years, and the fixed units), which
//! tantivy's date histogram, of fixed intervals only, does not have: where a date's bucket
//! starts, where the next one starts, and Elasticsearch's `offset`s (`+1d`, `-2h`).

use chrono::{DateTime, Datelike, Months, NaiveDate, TimeDelta, Utc};

/// A calendar unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Calendar months.
    Month,
    /// Three months from January, April, July or October.
    Quarter,
    /// Calendar years.
    Year,
}

impl Unit {
    /// The unit `calendar_interval` names.
    pub fn named(name: &str) -> Option<Unit> {
        Some(match name {
            "month" | "1M" => Unit::Month,
            "quarter" | "1q" => Unit::Quarter,
            "year" | "1y" => Unit::Year,
            _ => return None,
        })
    }

    /// The start of the bucket holding `millis` (UTC).
    pub fn floor(self, millis: i64) -> Option<i64> {
        let at = DateTime::<Utc>::from_timestamp_millis(millis)?;
        let month = match self {
            Unit::Month => at.month(),
            Unit::Quarter => (at.month() - 1) / 3 * 3 + 1,
            Unit::Year => 1,
        };
        let start = NaiveDate::from_ymd_opt(at.year(), month, 1)?.and_hms_opt(0, 0, 0)?;
        Some(start.and_utc().timestamp_millis())
    }

    /// The start of the bucket after the one starting at `start`.
    pub fn next(self, start: i64) -> Option<i64> {
        let at = DateTime::<Utc>::from_timestamp_millis(start)?;
        let months = match self {
            Unit::Month => 1,
            Unit::Quarter => 3,
            Unit::Year => 12,
        };
        Some(at.checked_add_months(Months::new(months))?.timestamp_millis())
    }
}

/// An `offset` (`+1d`, `-2h`, `30m`, `10s`, `500ms`) in milliseconds.
pub fn offset(text: &str) -> Option<i64> {
    let text = text.trim();
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let amount: i64 = digits.parse().ok()?;
    let unit = match &rest[digits.len()..] {
        "ms" => TimeDelta::milliseconds(1),
        "s" => TimeDelta::seconds(1),
        "m" => TimeDelta::minutes(1),
        "h" => TimeDelta::hours(1),
        "d" => TimeDelta::days(1),
        _ => return None,
    };
    Some(sign * amount.checked_mul(unit.num_milliseconds())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn millis(day: &str) -> i64 {
        crate::date_formats::millis(&serde_json::json!(day), None).unwrap_or_default()
    }

    #[test]
    fn months_quarters_and_years_start_where_the_calendar_says() {
        assert_eq!(Unit::Month.floor(millis("2016-02-29T13:00:00Z")), Some(millis("2016-02-01")));
        assert_eq!(Unit::Month.next(millis("2016-01-01")), Some(millis("2016-02-01")));
        assert_eq!(Unit::Quarter.floor(millis("2016-05-03")), Some(millis("2016-04-01")));
        assert_eq!(Unit::Year.next(millis("2016-01-01")), Some(millis("2017-01-01")));
        assert_eq!(offset("+1d"), Some(86_400_000));
        assert_eq!(offset("-2h"), Some(-7_200_000));
        assert_eq!(offset("1x"), None);
    }
}
