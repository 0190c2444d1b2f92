//! An event's dates must make sense together, as plone.app.event's invariant has it: an
//! event cannot end before it starts. Types with both `start` and `end` date-time fields
//! are events for this rule (core's Event, and integrators' types that copy it).

use super::values::parse_datetime;
use super::{ContentObject, FieldKind, TypeProfile};
use crate::error::{ApiError, ApiResult, FieldError};

/// Refuses `object` (as it would be stored) when it ends before it starts.
pub fn check_event_dates(profile: &TypeProfile, object: &ContentObject) -> ApiResult<()> {
    let is_datetime = |name: &str| profile.field(name).is_some_and(|f| f.kind == FieldKind::Datetime);
    if !(is_datetime("start") && is_datetime("end")) {
        return Ok(());
    }
    let time = |name: &str| object.fields.get(name).and_then(|v| v.as_str()).and_then(|t| parse_datetime(t).ok());
    match (time("start"), time("end")) {
        (Some(start), Some(end)) if end < start => {
            Err(ApiError::validation(vec![FieldError::new("end", "The event ends before it starts.")]))
        }
        _ => Ok(()),
    }
}
