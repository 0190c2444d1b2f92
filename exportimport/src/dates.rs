//! Dates as plone.exportimport writes them: with an offset (`created`, `modified`, history
//! times) or naive (`effective`, `expires`, written in the exporting server's local time, which
//! the site owner names with `--timezone`).

use chrono::{DateTime, LocalResult, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;

/// `text` as a point in time; a naive time is read in `zone`.
pub fn parse(text: &str, zone: Tz) -> Result<DateTime<Utc>, String> {
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Ok(time.with_timezone(&Utc));
    }
    let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f"))
        .or_else(|_| NaiveDate::parse_from_str(text, "%Y-%m-%d").map(|d| d.and_hms_opt(0, 0, 0).unwrap_or_default()))
        .map_err(|_| format!("'{text}' is not a date"))?;
    match zone.from_local_datetime(&naive) {
        LocalResult::Single(time) | LocalResult::Ambiguous(time, _) => Ok(time.with_timezone(&Utc)),
        // A time the clocks skipped (the hour a summer time begins) is read an hour on.
        LocalResult::None => zone
            .from_local_datetime(&(naive + chrono::Duration::hours(1)))
            .earliest()
            .map(|time| time.with_timezone(&Utc))
            .ok_or_else(|| format!("'{text}' does not exist in {zone}")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn times_with_an_offset_keep_it_and_naive_ones_are_read_in_the_zone() {
        let utc = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(parse("2024-02-13T18:16:32+00:00", Tz::UTC).unwrap(), utc("2024-02-13T18:16:32Z"));
        // The fixture's server ran three hours behind UTC: its naive 17:23:20 is 20:23:20 UTC.
        let sao_paulo: Tz = "America/Sao_Paulo".parse().unwrap();
        assert_eq!(parse("2024-02-13T17:23:20", sao_paulo).unwrap(), utc("2024-02-13T20:23:20Z"));
        assert_eq!(parse("2024-02-13T17:23:20.5", Tz::UTC).unwrap(), utc("2024-02-13T17:23:20.5Z"));
        assert_eq!(parse("2024-02-13", Tz::UTC).unwrap(), utc("2024-02-13T00:00:00Z"));
    }

    #[test]
    fn what_is_no_date_is_refused_by_name() {
        assert_eq!(parse("soon", Tz::UTC).unwrap_err(), "'soon' is not a date");
    }
}
