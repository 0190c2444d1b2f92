//! The webhook outbox's settings, as registry records (Site Setup → Configuration Registry).

use serde_json::{Value, json};
use wcs_core::records::{RecordDef, RecordKind};

/// The pause before the first retry of a failed delivery; each further one doubles it.
pub static WEBHOOK_FIRST_PAUSE: RecordDef = RecordDef {
    name: "wcs.backend.contentrules.webhook_first_pause",
    title: "Webhook retry pause",
    description: "Seconds before a failed webhook delivery is tried again; each further pause doubles, up to an hour.",
    kind: RecordKind::Int,
    check: Some(seconds),
    default: || json!(30),
};

/// The attempts before a delivery is given up.
pub static WEBHOOK_MAX_ATTEMPTS: RecordDef = RecordDef {
    name: "wcs.backend.contentrules.webhook_max_attempts",
    title: "Webhook attempts",
    description: "How often a webhook delivery is tried before it is given up (and listed as failed).",
    kind: RecordKind::Int,
    check: Some(attempts),
    default: || json!(8),
};

fn seconds(value: &Value) -> Result<(), String> {
    match value.as_i64() {
        Some(1..=3600) => Ok(()),
        _ => Err("Use a number of seconds from 1 to 3600.".into()),
    }
}

fn attempts(value: &Value) -> Result<(), String> {
    match value.as_i64() {
        Some(1..=50) => Ok(()),
        _ => Err("Use a number from 1 to 50.".into()),
    }
}
