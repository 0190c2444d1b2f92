//! Events: their dates must make sense together, and `ics_view` hands them to calendars.

use crate::support::{TestServer, assert_error};
use reqwest::Method;
use serde_json::json;

async fn ics(server: &TestServer, path: &str, anonymous: bool) -> (u16, String, String) {
    let request = if anonymous { server.anonymous(Method::GET, path) } else { server.admin(Method::GET, path) };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

#[tokio::test]
async fn an_event_cannot_end_before_it_starts() {
    let server = TestServer::start().await;
    let backwards = json!({"@type": "Event", "id": "fest", "title": "Fest",
                           "start": "2027-07-12T18:00:00+02:00", "end": "2027-07-12T17:00:00+02:00"});
    let error =
        assert_error(server.admin(Method::POST, "").json(&backwards).send().await.unwrap(), 400, "validation_failed")
            .await;
    assert_eq!(error["errors"][0]["field"], "end");
    let event = json!({"@type": "Event", "id": "fest", "title": "Fest",
                       "start": "2027-07-12T18:00:00+02:00", "end": "2027-07-12T23:00:00+02:00"});
    server.create("", event).await;
    let earlier = json!({"end": "2027-07-11T10:00:00+02:00"});
    let response = server.admin(Method::PATCH, "fest").json(&earlier).send().await.unwrap();
    assert_error(response, 400, "validation_failed").await;
    let (_, fest) = server.get_json("fest").await;
    assert_eq!(fest["end"], "2027-07-12T21:00:00+00:00", "nothing was written");
}

#[tokio::test]
async fn events_are_offered_as_icalendar_files() {
    let server = TestServer::start().await;
    server.create("", json!({"@type": "Folder", "id": "termine", "title": "Termine"})).await;
    server.transition("termine", "publish").await;
    let fest = json!({"@type": "Event", "id": "fest", "title": "Sommerfest; mit Musik, Tanz",
                      "description": "Im Hof\nab 18 Uhr", "location": "Rathaus",
                      "start": "2027-07-12T18:00:00+02:00", "end": "2027-07-12T23:00:00+02:00",
                      "recurrence": "RRULE:FREQ=YEARLY;COUNT=3"});
    server.create("termine", fest).await;
    server.transition("termine/fest", "publish").await;
    let markt = json!({"@type": "Event", "id": "markt", "title": "Markt", "whole_day": true,
                       "start": "2027-05-01T00:00:00+00:00", "end": "2027-05-02T00:00:00+00:00"});
    server.create("termine", markt).await;

    let (status, kind, text) = ics(&server, "termine/fest/ics_view", true).await;
    assert_eq!((status, kind.as_str()), (200, "text/calendar; charset=utf-8"));
    for line in [
        "BEGIN:VCALENDAR",
        "BEGIN:VEVENT",
        "DTSTART:20270712T160000Z",
        "DTEND:20270712T210000Z",
        "SUMMARY:Sommerfest\\; mit Musik\\, Tanz",
        "LOCATION:Rathaus",
        "RRULE:FREQ=YEARLY;COUNT=3",
        "END:VCALENDAR",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert!(text.contains("DESCRIPTION:Im Hof\\nab 18 Uhr"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 76), "lines are folded: {text}");

    // A folder's file holds the events the caller may see, soonest first.
    let (_, _, public) = ics(&server, "termine/ics_view", true).await;
    assert_eq!(public.matches("BEGIN:VEVENT").count(), 1, "the private market stays hidden: {public}");
    let (_, _, all) = ics(&server, "termine/ics_view", false).await;
    assert_eq!(all.matches("BEGIN:VEVENT").count(), 2);
    let (markt_at, fest_at) =
        (all.find("SUMMARY:Markt").unwrap_or(usize::MAX), all.find("SUMMARY:Sommerfest").unwrap_or(0));
    assert!(markt_at < fest_at, "soonest first");
    assert!(all.contains("DTSTART;VALUE=DATE:20270501") && all.contains("DTEND;VALUE=DATE:20270503"), "{all}");

    // A link is no calendar (folderish pages are, as in Plone); a private event is not given away.
    server
        .create("", json!({"@type": "Link", "id": "link", "title": "Link", "remoteUrl": "https://example.org"}))
        .await;
    assert_eq!(ics(&server, "link/ics_view", false).await.0, 404);
    assert_eq!(ics(&server, "termine/markt/ics_view", true).await.0, 401);
}
