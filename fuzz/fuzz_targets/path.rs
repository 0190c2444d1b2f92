//! A request target (`/path?query`) as the server takes it apart before any database work:
//! the virtual-hosting path of a proxy, the traversal path, the query string. All of it comes
//! from the client, so every shape must end in an answer (a 400 or 404), never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wcs_core::http::{parse_query, parse_virtual_host};
use wcs_core::traverse::parse_path;

/// The deepest path traversal takes (`MAX_SEGMENTS` in core, private there).
const MAX_SEGMENTS: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(target) = std::str::from_utf8(data) else { return };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));

    let rewritten = match parse_virtual_host(path) {
        Ok(rewritten) => rewritten,
        // A malformed virtual-hosting path is a 400.
        Err(_) => return,
    };
    let physical = match &rewritten {
        Some(rewritten) => {
            let host = &rewritten.host;
            assert!(host.base.starts_with("http://") || host.base.starts_with("https://"), "{host:?}");
            assert!(rewritten.path.starts_with('/'), "{rewritten:?}");
            // Bodies and answers are rewritten between the virtual and the physical root.
            let _ = host.outbound(query);
            let _ = host.inbound(query);
            rewritten.path.as_str()
        }
        None => path,
    };

    if let Ok(parsed) = parse_path(physical) {
        assert!(parsed.segments.len() <= MAX_SEGMENTS, "{parsed:?}");
        for segment in &parsed.segments {
            // Traversal joins segments with `/` and looks the result up as a physical path: a
            // segment that is empty, holds a `/` or walks up would name another object.
            assert!(!segment.is_empty() && !segment.contains('/'), "{parsed:?}");
            assert!(segment != "." && segment != ".." && segment != "++api++", "{parsed:?}");
        }
    }

    for (key, value) in parse_query(query) {
        assert!(!key.contains('&') || query.contains("%26"), "{key:?}={value:?}");
    }
});
