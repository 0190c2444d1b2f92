//! The server edge's own state, which the application knows nothing of: the cross-origin
//! policy, the answers kept in memory, the metrics, which peers are trusted proxies, the public
//! URL, and the limits on connections and bodies.

use super::{AnswerCache, CacheSettings, CorsPolicy, Metrics, Timeouts, TrustedProxies};

/// How the edge is set up (flags and `WCS_*` variables of `wcs serve`).
#[derive(Clone, Debug)]
pub struct EdgeConfig {
    /// Origins allowed to call the API from a browser.
    pub cors_origins: Vec<String>,
    /// The largest accepted request body, in bytes.
    pub max_body_bytes: usize,
    /// Proxies (addresses or networks) whose forwarded headers and virtual-hosting paths are
    /// believed; `None` for loopback only.
    pub trusted_proxies: Option<Vec<String>>,
    /// The URL clients reach the server at (`https://www.example.org`), on which every link
    /// is built; `None` takes the host a trusted proxy forwards, else the connection's address.
    pub public_url: Option<String>,
    /// How many answers are kept in memory, for how long.
    pub answer_cache: CacheSettings,
    /// How long idle connections and slow bodies may keep the server waiting.
    pub timeouts: Timeouts,
}

impl Default for EdgeConfig {
    fn default() -> Self {
        EdgeConfig {
            cors_origins: Vec::new(),
            max_body_bytes: 64 * 1024 * 1024,
            trusted_proxies: None,
            public_url: None,
            answer_cache: CacheSettings::default(),
            timeouts: Timeouts::default(),
        }
    }
}

/// The edge's state, built once per server.
pub struct Edge {
    /// Cross-origin policy.
    pub cors: CorsPolicy,
    /// Answers kept in memory for cacheable routes.
    pub answers: AnswerCache,
    /// Requests, connections, the pool and the change feed, for `/metrics`.
    pub metrics: Metrics,
    /// Proxies whose forwarded headers and virtual-hosting paths are believed.
    pub trusted_proxies: TrustedProxies,
    /// `scheme://host[:port]` of every link, when configured.
    pub public_url: Option<String>,
    /// The largest accepted request body.
    pub max_body_bytes: usize,
    /// How long idle connections and slow bodies may keep the server waiting.
    pub timeouts: Timeouts,
}

impl Edge {
    /// The edge `config` describes; a malformed setting is named in the error.
    pub fn new(config: &EdgeConfig) -> Result<Edge, String> {
        let trusted_proxies = match &config.trusted_proxies {
            None => TrustedProxies::loopback(),
            Some(entries) => TrustedProxies::parse(entries)?,
        };
        Ok(Edge {
            cors: CorsPolicy::new(config.cors_origins.clone()),
            answers: AnswerCache::new(config.answer_cache),
            metrics: Metrics::new().map_err(|e| format!("metrics: {e}"))?,
            trusted_proxies,
            public_url: config.public_url.as_deref().map(public_url).transpose()?,
            max_body_bytes: config.max_body_bytes,
            timeouts: config.timeouts,
        })
    }
}

/// Checks a configured public URL: `http` or `https`, a host, an optional port, no path (a
/// site below a path prefix is served through a proxy's virtual-hosting paths). Returned
/// without a trailing slash, ready to put paths after.
fn public_url(url: &str) -> Result<String, String> {
    let trimmed = url.trim().trim_end_matches('/');
    let problem = || format!("--public-url '{url}' must be http(s)://host[:port] without a path");
    let (scheme, host) = trimmed.split_once("://").ok_or_else(problem)?;
    let well_formed = matches!(scheme, "http" | "https")
        && !host.is_empty()
        && host.len() <= 255
        && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if well_formed { Ok(trimmed.to_owned()) } else { Err(problem()) }
}
