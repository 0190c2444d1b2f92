//! What a database error is for the client: a collision to retry, a database out of reach
//! for the moment, or the server's own fault.

use super::{ApiError, ErrorCode};

impl From<sqlx::Error> for ApiError {
    /// A transaction PostgreSQL rolled back because it collided with a concurrent one
    /// (a deadlock, or a serialization failure) is the client's to retry: 409, not 500. A
    /// database that cannot be reached now (restarting, a lost connection, no connection free
    /// in time) is a 503 with `Retry-After`: the request did nothing it acknowledged, and the
    /// pool reconnects by itself.
    fn from(err: sqlx::Error) -> Self {
        ApiError::database(&err)
    }
}

impl ApiError {
    /// What a database error is for the client (see the `From` conversion); by reference for
    /// an error that several writers share, the failed commit of a write group.
    pub fn database(err: &sqlx::Error) -> ApiError {
        let collided =
            matches!(err, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("40001" | "40P01")));
        if collided {
            return ApiError::new(ErrorCode::Conflict, "A concurrent change got in the way; try again.");
        }
        if database_unavailable(err) {
            tracing::warn!(%err, "the database cannot be reached");
            return ApiError::new(
                ErrorCode::ServiceUnavailable,
                "The database cannot be reached right now; try again shortly.",
            )
            .with_header("Retry-After", "1");
        }
        ApiError::internal(err)
    }
}

/// Whether `err` says the database is out of reach for the moment rather than that the request
/// or the data is wrong: the connection broke or could not be made, PostgreSQL is shutting
/// down, starting or out of connections (SQLSTATE class 08, 57P01–57P03, 53300), or SQLite's
/// file is locked beyond the busy timeout.
fn database_unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Tls(_) | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db) => match db.code().as_deref() {
            Some(code) if code.starts_with("08") => true,
            Some("57P01" | "57P02" | "57P03" | "53300") => true,
            // SQLite's SQLITE_BUSY and SQLITE_LOCKED with their extended codes (PostgreSQL's
            // codes always have five characters).
            Some("5" | "6" | "261" | "262" | "517" | "518" | "773") => true,
            _ => false,
        },
        _ => false,
    }
}
