//! The writer's connection and what differs between the backends in using it.

use super::super::{Backend, TESTED_AFTER_IDLE};
use sqlx::{AnyConnection, AnyPool, Connection};
use std::time::Instant;

/// The most write transactions one commit covers on SQLite.
const MAX_MEMBERS: usize = 64;

/// The most on PostgreSQL: each member after the first is a subtransaction, and a transaction
/// with more than 64 of them makes every snapshot in the database look them up on disk.
const MAX_MEMBERS_POSTGRES: usize = 32;

/// The writer's connection, taken out of the pool for good (the pool opens another for
/// readers). On PostgreSQL a server restart may break it: it is tested and replaced as the
/// pool would.
pub(in crate::store) struct Link {
    conn: AnyConnection,
    pub(super) backend: Backend,
    /// Where a replacement comes from.
    pool: AnyPool,
    /// When it was last given work, so one that lay idle is tested first.
    used: Instant,
    /// Whether the last group failed, which may have been the connection breaking.
    doubtful: bool,
}

impl Link {
    /// One of `pool`'s connections, for the writer alone.
    pub(in crate::store) async fn take(pool: &AnyPool, backend: Backend) -> Result<Link, sqlx::Error> {
        let conn = pool.acquire().await?.detach();
        Ok(Link { conn, backend, pool: pool.clone(), used: Instant::now(), doubtful: false })
    }

    /// Before a group: a PostgreSQL connection that lay idle or whose last group failed is
    /// tested, and replaced by a new one if it is dead.
    pub(super) async fn make_ready(&mut self) -> Result<(), sqlx::Error> {
        if self.backend == Backend::Postgres && (self.doubtful || self.used.elapsed() >= TESTED_AFTER_IDLE) {
            if let Err(err) = self.conn.ping().await {
                tracing::warn!(%err, "the writer connection is gone; opening another");
                self.conn = self.pool.acquire().await?.detach();
            }
            self.doubtful = false;
        }
        self.used = Instant::now();
        Ok(())
    }

    /// Notes that a group failed, so the connection is tested before the next.
    pub(super) fn doubt(&mut self) {
        self.doubtful = true;
    }

    pub(super) fn begin_statement(&self) -> &'static str {
        match self.backend {
            // Takes the write lock now rather than at the first write, which could fail.
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }

    pub(super) fn max_members(&self) -> usize {
        match self.backend {
            Backend::Sqlite => MAX_MEMBERS,
            Backend::Postgres => MAX_MEMBERS_POSTGRES,
        }
    }
}

impl std::ops::Deref for Link {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Link {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }
}
