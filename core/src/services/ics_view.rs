//! `GET <obj>/ics_view`: events as an iCalendar file (RFC 5545), as plone.app.event serves
//! them and Volto's event view links them ("ICS Download"). On an event, the event; on a
//! folder, the events inside it the caller may see, soonest first. The file is written with
//! the icalendar crate, which escapes text and folds lines as the RFC asks.

use crate::catalog::{SearchQuery, SearchSql};
use crate::content::values::parse_datetime;
use crate::content::{ContentObject, FieldKind, TypeProfile};
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, Raw, RawMeta, media_response};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use chrono::{DateTime, Duration, Utc};
use icalendar::{Calendar, Component, Event, EventLike};
use poem::Response;
use poem::http::Method;
use poem_openapi::registry::{MetaResponses, MetaSchema};
use serde_json::Value;

/// The most events one file holds.
const MAX_EVENTS: i64 = 1000;

/// The service.
pub static ICS_VIEW: Service = Service {
    method: Method::GET,
    name: "ics_view",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "iCalendar: the event, or the events in this folder the caller may see (at most 1,000)",
        endpoint!(ics),
    )],
};

/// A `text/calendar` file.
pub struct CalendarFile;

impl RawMeta for CalendarFile {
    fn meta() -> MetaResponses {
        let file = Some(("text/calendar", MetaSchema::new_with_format("string", "binary")));
        MetaResponses { responses: vec![media_response(200, "The events, RFC 5545", file)] }
    }
}

/// Whether objects of `profile` are events: they have a start and an end.
fn is_event(profile: &TypeProfile) -> bool {
    ["start", "end"].iter().all(|name| profile.field(name).is_some_and(|f| f.kind == FieldKind::Datetime))
}

async fn ics(ctx: Ctx) -> ApiResult<Raw<CalendarFile>> {
    let events = if is_event(&ctx.profile) {
        vec![ContentObject::clone(&ctx.context)]
    } else if ctx.profile.folderish {
        events_below(&ctx).await?
    } else {
        return Err(ApiError::not_found(&ctx.request.service_url));
    };
    let mut calendar = Calendar::new();
    calendar.name(&ctx.context.title);
    for event in &events {
        calendar.push(vevent(&ctx, event));
    }
    let filename = format!("{}.ics", ctx.context.id);
    let response = Response::builder()
        .content_type("text/calendar; charset=utf-8")
        .header("Content-Disposition", format!("attachment; filename=\"{filename}\""))
        .body(calendar.done().to_string());
    Ok(Raw::new(response))
}

/// The events below the context the caller may see, soonest first.
async fn events_below(ctx: &Ctx) -> ApiResult<Vec<ContentObject>> {
    let event_types: Vec<String> = ctx.app.types.all().filter(|t| is_event(t)).map(|t| t.id.clone()).collect();
    let mut pairs: Vec<(String, String)> =
        event_types.iter().map(|t| ("portal_type".to_owned(), (*t).to_owned())).collect();
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    pairs.push(("sort_on".to_owned(), "start".to_owned()));
    let site_path = format!("/{}", ctx.context.site_id());
    let query = SearchQuery::parse(&pairs, &site_path, ctx.app.catalog_indexes())?;
    let sql = SearchSql::build(&query, &ctx.search_scope(&ctx.context.path));
    Ok(ctx.app.store.search(&sql, 0, MAX_EVENTS).await?)
}

/// One event as a `VEVENT`.
fn vevent(ctx: &Ctx, object: &ContentObject) -> Event {
    let text = |name: &str| object.fields.get(name).and_then(Value::as_str).filter(|s| !s.is_empty());
    let flag = |name: &str| object.fields.get(name).and_then(Value::as_bool).unwrap_or(false);
    let time = |name: &str| text(name).and_then(|t| parse_datetime(t).ok());
    let mut event = Event::new();
    event
        .uid(&object.uid)
        .summary(&object.title)
        .url(&ctx.url_of(object))
        .timestamp(object.modified)
        .created(object.created)
        .last_modified(object.modified);
    if !object.description.is_empty() {
        event.description(&object.description);
    }
    set_dates(&mut event, time("start"), time("end"), flag("whole_day"), flag("open_end"));
    if let Some(location) = text("location") {
        event.location(location);
    }
    let contact: Vec<&str> = ["contact_name", "contact_email", "contact_phone"].into_iter().filter_map(text).collect();
    if !contact.is_empty() {
        event.add_property("CONTACT", contact.join(", "));
    }
    for (name, value) in text("recurrence").map(recurrence_lines).unwrap_or_default() {
        event.add_multi_property(name, value);
    }
    event.done()
}

/// DTSTART and DTEND: dates for a whole-day event (DTEND the day after, as RFC 5545 counts),
/// the end of the start's day for an open end, else the times in UTC.
fn set_dates(
    event: &mut Event,
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
    whole_day: bool,
    open_end: bool,
) {
    let Some(start) = start else { return };
    if whole_day {
        let last = end.filter(|e| !open_end && *e >= start).unwrap_or(start).date_naive();
        event.starts(start.date_naive()).ends(last + Duration::days(1));
        return;
    }
    let end = match end {
        Some(end) if !open_end && end >= start => end,
        _ => start.date_naive().and_hms_opt(23, 59, 59).map_or(start, |t| t.and_utc()),
    };
    event.starts(start).ends(end);
}

/// The recurrence rule's lines (`RRULE:…`, `RDATE:…`, `EXDATE:…`) as properties; anything
/// else, or a value with control characters, is left out.
fn recurrence_lines(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|line| line.trim().split_once(':'))
        .filter(|(name, _)| matches!(*name, "RRULE" | "RDATE" | "EXDATE"))
        .filter(|(_, value)| !value.is_empty() && !value.chars().any(char::is_control))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recurrence_takes_only_rule_lines() {
        let lines = recurrence_lines("RRULE:FREQ=WEEKLY;COUNT=3\nBEGIN:VALARM\nEXDATE:20270101T100000Z\nX:1");
        assert_eq!(lines, vec![("RRULE", "FREQ=WEEKLY;COUNT=3"), ("EXDATE", "20270101T100000Z")]);
    }

    #[test]
    fn whole_days_end_the_day_after() {
        let start = parse_datetime("2027-07-12T16:00:00+00:00").ok();
        let end = parse_datetime("2027-07-13T18:00:00+00:00").ok();
        let mut event = Event::new();
        set_dates(&mut event, start, end, true, false);
        let text = event.done().to_string();
        assert!(text.contains("DTSTART;VALUE=DATE:20270712") && text.contains("DTEND;VALUE=DATE:20270714"), "{text}");
    }
}
