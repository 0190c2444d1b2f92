//! Requests per client and minute (form submissions, contact messages). Counted in this
//! instance's memory (a cluster behind a balancer multiplies the limit by its instances), by
//! the connection's peer address: headers naming a client can be forged, so behind a proxy the
//! proxy is the client.

use super::{ApiError, ApiResult, ErrorCode};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Clients tracked at most; past it, finished windows are dropped (and, under a flood of
/// addresses, all of them: the limit errs on letting through, never on growing).
const MAX_CLIENTS: usize = 100_000;

/// Per client: when its window started and how many requests it made in it. One per use and
/// running application (kept in its extensions), since tests run several in one process.
#[derive(Default)]
pub struct ClientLimiter {
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl ClientLimiter {
    /// Counts a request of `client`; `Err(seconds)` to wait when it is over `limit` (0: none).
    pub fn admit(&self, client: IpAddr, limit: u32, now: Instant) -> Result<(), u64> {
        admit(&mut self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner()), client, limit, now)
    }

    /// Counts a request of `client` now; over `limit`, the 429 naming `what` there were too
    /// many of, with `Retry-After`.
    pub fn check(&self, client: IpAddr, limit: u32, what: &str) -> ApiResult<()> {
        self.admit(client, limit, Instant::now()).map_err(|wait| {
            ApiError::new(ErrorCode::TooManyRequests, format!("Too many {what}; please try again later."))
                .with_header("Retry-After", wait.to_string())
        })
    }
}

fn admit(windows: &mut HashMap<IpAddr, (Instant, u32)>, client: IpAddr, limit: u32, now: Instant) -> Result<(), u64> {
    if limit == 0 {
        return Ok(());
    }
    if windows.len() >= MAX_CLIENTS {
        windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        if windows.len() >= MAX_CLIENTS {
            windows.clear();
        }
    }
    let (start, count) = windows.entry(client).or_insert((now, 0));
    if now.duration_since(*start) >= WINDOW {
        *start = now;
        *count = 0;
    }
    if *count >= limit {
        let wait = WINDOW.saturating_sub(now.duration_since(*start));
        return Err(wait.as_secs().max(1));
    }
    *count += 1;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_the_limit_waits_for_its_window() {
        let client: IpAddr = [192, 0, 2, 7].into();
        let other: IpAddr = [192, 0, 2, 8].into();
        let now = Instant::now();
        let limiter = ClientLimiter::default();
        assert!((0..3).all(|_| limiter.admit(client, 3, now).is_ok()));
        let wait = limiter.admit(client, 3, now + Duration::from_secs(20)).unwrap_err();
        assert_eq!(wait, 40);
        assert!(limiter.admit(other, 3, now).is_ok(), "others are not affected");
        assert!(limiter.admit(client, 3, now + WINDOW).is_ok(), "a new window");
        assert!(limiter.admit(client, 0, now).is_ok(), "0 is no limit");
    }
}
