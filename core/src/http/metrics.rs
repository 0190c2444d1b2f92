//! Prometheus metrics at `/metrics`, for the operators of an instance: requests and their
//! latency per service, open connections, the database pool, and how far the change feed's
//! slowest consumer (the search index) trails it. Only trusted proxies (loopback by default,
//! `--trusted-proxies`) may read them: they describe the traffic; anyone else gets 404.
//!
//! Labels come from bounded sets only (service names from the registry, known methods,
//! status classes), so no request can make the registry grow.

use crate::app::App;
use poem::Response;
use poem::http::{Method, StatusCode};
use prometheus::core::Collector;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};

/// The service whose handler made a response, for its metrics label (`content` for the
/// object itself).
#[derive(Clone, Copy, Debug)]
pub struct ServedBy(pub &'static str);

/// The label of what answered without a service: traversal errors, redirects, probes.
const NO_SERVICE: &str = "none";

/// This instance's metrics.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    connections: IntGauge,
    pool_size: IntGauge,
    pool_idle: IntGauge,
    feed_lag: IntGauge,
    password_checks: IntCounter,
}

/// Counts an open connection until dropped.
pub struct OpenConnection(IntGauge);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.dec();
    }
}

impl Metrics {
    /// Registers every metric.
    pub fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new("wcs_requests_total", "Requests answered, by service, method and status class"),
            &["service", "method", "status"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new("wcs_request_duration_seconds", "Time from the request to its answer, by service")
                .buckets(vec![0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0]),
            &["service"],
        )?;
        let connections = IntGauge::new("wcs_open_connections", "Client connections open now")?;
        let pool_size = IntGauge::new("wcs_db_pool_connections", "Database connections in the pool")?;
        let pool_idle = IntGauge::new("wcs_db_pool_idle_connections", "Database connections in the pool not in use")?;
        let feed_lag = IntGauge::new(
            "wcs_change_feed_lag",
            "Change-feed entries the slowest consumer (the search index) has not taken in yet",
        )?;
        let password_checks = IntCounter::new(
            "wcs_password_checks_total",
            "Password hashes checked (logins and Basic credentials not remembered), unknown users included",
        )?;
        let collectors: [Box<dyn Collector>; 7] = [
            Box::new(requests.clone()),
            Box::new(latency.clone()),
            Box::new(connections.clone()),
            Box::new(pool_size.clone()),
            Box::new(pool_idle.clone()),
            Box::new(feed_lag.clone()),
            Box::new(password_checks.clone()),
        ];
        for collector in collectors {
            registry.register(collector)?;
        }
        Ok(Metrics { registry, requests, latency, connections, pool_size, pool_idle, feed_lag, password_checks })
    }

    /// Counts one answered request.
    pub fn observe(&self, served_by: Option<ServedBy>, method: &Method, status: StatusCode, seconds: f64) {
        let service = served_by.map_or(NO_SERVICE, |s| s.0);
        let method = match *method {
            Method::GET
            | Method::HEAD
            | Method::POST
            | Method::PUT
            | Method::PATCH
            | Method::DELETE
            | Method::OPTIONS => method.as_str(),
            _ => "other",
        };
        let class = match status.as_u16() {
            100..=199 => "1xx",
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        };
        self.requests.with_label_values(&[service, method, class]).inc();
        self.latency.with_label_values(&[service]).observe(seconds);
    }

    /// A connection opened; it counts until the guard is dropped.
    pub fn connection_opened(&self) -> OpenConnection {
        self.connections.inc();
        OpenConnection(self.connections.clone())
    }

    /// The metrics in Prometheus' text format, the pool and the feed read now.
    pub async fn answer(&self, app: &App) -> Response {
        let (size, idle) = app.store.pool_usage();
        self.pool_size.set(i64::from(size));
        self.pool_idle.set(i64::try_from(idle).unwrap_or(i64::MAX));
        let checks = app.security.password_checks();
        self.password_checks.inc_by(checks.saturating_sub(self.password_checks.get()));
        match app.store.feed_lag().await {
            Ok(lag) => self.feed_lag.set(lag),
            Err(err) => tracing::warn!(%err, "metrics: the change feed could not be read"),
        }
        let mut text = Vec::new();
        if let Err(err) = TextEncoder::new().encode(&self.registry.gather(), &mut text) {
            tracing::warn!(%err, "metrics could not be encoded");
        }
        Response::builder()
            .content_type("text/plain; version=0.0.4; charset=utf-8")
            .header("Cache-Control", "no-store")
            .body(text)
    }
}
