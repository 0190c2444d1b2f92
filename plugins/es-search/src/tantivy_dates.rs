//! tantivy keeps a date as nanoseconds in an `i64`, which spans the years 1677 to 2262, while
//! the dates documents and queries carry reach much further (Elasticsearch's run to the year
//! 292 million, chrono's to 262,143). Every tantivy date is made here and held to that span:
//! a date beyond it sorts and ranges at the edge, so a document keeps its place and a query
//! is answered, where the multiplication into nanoseconds would overflow.

use tantivy::DateTime;

const NANOS_PER_MILLI: i64 = 1_000_000;
const NANOS_PER_SECOND: i64 = 1_000_000_000;

/// A date given in milliseconds since the epoch.
pub fn from_millis(millis: i64) -> DateTime {
    DateTime::from_timestamp_nanos(millis.saturating_mul(NANOS_PER_MILLI))
}

/// A date given in seconds since the epoch.
pub fn from_seconds(seconds: i64) -> DateTime {
    DateTime::from_timestamp_nanos(seconds.saturating_mul(NANOS_PER_SECOND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_the_span_are_exact_and_dates_beyond_it_stop_at_its_edge() {
        assert_eq!(from_millis(1_500).into_timestamp_millis(), 1_500);
        assert_eq!(from_seconds(-86_400).into_timestamp_secs(), -86_400);
        let year_one = -62_135_596_800_000;
        assert_eq!(from_millis(year_one), DateTime::from_timestamp_nanos(i64::MIN));
        assert_eq!(from_seconds(i64::MAX), DateTime::from_timestamp_nanos(i64::MAX));
        assert!(from_millis(year_one) < from_millis(0));
    }
}
