//! Submissions per client and minute (the mechanics are core's [`ClientLimiter`]).

use serde_json::json;
use wcs_core::http::ClientLimiter;
use wcs_core::records::{RecordDef, RecordKind};

/// The limit; 0 switches it off.
pub static SUBMISSIONS_PER_MINUTE: RecordDef = RecordDef {
    name: "wcs.backend.easyform.submissions_per_minute",
    title: "Form submissions per client and minute",
    description: "More submissions from one address within a minute are refused with 429 (0: no limit).",
    kind: RecordKind::Int,
    check: Some(wcs_core::record_checks::per_minute),
    default: || json!(10),
};

/// The form submissions' own counts, kept in the application's extensions.
#[derive(Default)]
pub struct Limiter(pub ClientLimiter);
