//! Answers kept in memory, so that a page many readers ask for is built once, not once per
//! reader.
//!
//! Only routes that declare themselves [`cacheable`](crate::service::Route::cacheable) are
//! kept, and only their 200 answers. An answer is found again only by a request that matches
//! it in everything that could change it: method, path and query, every request header that a
//! service could read (credentials included), and whether the peer is a trusted proxy.
//!
//! It is never served stale on the instance that made a change: an entry belongs to the
//! store's [`generation`](crate::store::Store::generation) it was built in, and every commit
//! (and every search-index batch) moves the generation on. What no commit of this process
//! tells, another instance's write, a publication date or a lock running out, shows within
//! the maximum age (one second by default).

use super::conditional::Representation;
use poem::http::{HeaderMap, Method, StatusCode};
use poem::{Request, Response};
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How much the cache keeps, and for how long.
#[derive(Clone, Copy, Debug)]
pub struct CacheSettings {
    /// The longest an answer is served from memory; zero switches the cache off.
    pub max_age: Duration,
    /// The bytes of answers (bodies, headers and keys) kept at most.
    pub capacity_bytes: u64,
}

impl Default for CacheSettings {
    fn default() -> Self {
        CacheSettings { max_age: Duration::from_secs(1), capacity_bytes: 16 * 1024 * 1024 }
    }
}

/// The marker a dispatched response carries when its route is cacheable.
#[derive(Clone, Copy)]
pub struct MayBeKept;

/// Request headers that change nothing in an answer's body or in the headers kept with it:
/// transport, caching and compression (negotiated again on every delivery), CORS (added on
/// every delivery), tracing.
const IGNORED_HEADERS: &[&str] = &[
    "accept-encoding",
    "cache-control",
    "connection",
    "dnt",
    "if-modified-since",
    "if-none-match",
    "keep-alive",
    "origin",
    "pragma",
    "priority",
    "referer",
    "te",
    "upgrade-insecure-requests",
    "user-agent",
    "x-request-id",
];

/// An answer too large for this share of the capacity is not kept: one page must not push
/// out everything else.
const LARGEST_SHARE: u64 = 16;

/// Answers kept in memory; see the module documentation.
pub struct AnswerCache {
    entries: Option<Cache<u64, Arc<Entry>, EntryWeight>>,
    hasher: RandomState,
    settings: CacheSettings,
}

/// One kept answer.
pub struct Entry {
    key: String,
    generation: u64,
    stored: Instant,
    status: StatusCode,
    headers: HeaderMap,
    representation: Arc<Representation>,
    /// The service that made it, for the metrics of the requests it answers.
    served_by: Option<super::ServedBy>,
    /// Fixed when kept, as the cache requires: the body counts twice, to leave room for its
    /// compressed forms, made when first asked for.
    weight: u64,
}

impl Entry {
    /// The answer's status and headers, to be completed with its representation.
    pub fn head(&self) -> Response {
        let mut response = Response::builder().status(self.status).finish();
        *response.headers_mut() = self.headers.clone();
        if let Some(served_by) = self.served_by {
            response.extensions_mut().insert(served_by);
        }
        response
    }

    /// Its body, tag and compressed forms.
    pub fn representation(&self) -> Arc<Representation> {
        self.representation.clone()
    }
}

#[derive(Clone)]
struct EntryWeight;

impl Weighter<u64, Arc<Entry>> for EntryWeight {
    fn weight(&self, _key: &u64, entry: &Arc<Entry>) -> u64 {
        entry.weight.max(1)
    }
}

impl AnswerCache {
    /// A cache with these limits.
    pub fn new(settings: CacheSettings) -> Self {
        let on = !settings.max_age.is_zero() && settings.capacity_bytes > 0;
        // Sized for answers of about 8 KB, a page with its blocks.
        let estimated_items = (settings.capacity_bytes / 8192).clamp(16, 1 << 20) as usize;
        let entries = on.then(|| Cache::with_weighter(estimated_items, settings.capacity_bytes, EntryWeight));
        AnswerCache { entries, hasher: RandomState::new(), settings }
    }

    /// The key a request's answer is kept under, or `None` when it may not be answered from
    /// memory: not a GET, a body, or credentials that run out on their own (a bearer token or
    /// the login cookie: those callers, editors mostly, are always answered afresh).
    pub fn key_of(&self, request: &Request, proxied: bool) -> Option<String> {
        self.entries.as_ref()?;
        if request.method() != Method::GET {
            return None;
        }
        let headers = request.headers();
        if headers.contains_key("content-length") || headers.contains_key("transfer-encoding") {
            return None;
        }
        let bearer = headers.get_all("authorization").iter().any(|v| !v.as_bytes().starts_with(b"Basic "));
        let cookie = headers.get_all("cookie").iter().any(|v| v.to_str().map_or(true, |v| v.contains("auth_token")));
        if bearer || cookie {
            return None;
        }
        let mut named: Vec<(&str, &[u8])> = headers
            .iter()
            .filter(|(name, _)| !IGNORED_HEADERS.contains(&name.as_str()))
            .map(|(name, value)| (name.as_str(), value.as_bytes()))
            .collect();
        named.sort_unstable();
        let mut key = String::with_capacity(256);
        key.push_str(if proxied { "proxied " } else { "direct " });
        key.push_str(request.uri().path());
        if let Some(query) = request.uri().query() {
            key.push('?');
            key.push_str(query);
        }
        for (name, value) in named {
            key.push('\n');
            key.push_str(name);
            key.push(':');
            key.push_str(&String::from_utf8_lossy(value));
        }
        Some(key)
    }

    /// The answer kept under `key`, if it is still good.
    pub fn get(&self, key: &str, generation: u64) -> Option<Arc<Entry>> {
        let entry = self.entries.as_ref()?.get(&self.hasher.hash_one(key))?;
        let fresh = entry.generation == generation && entry.stored.elapsed() < self.settings.max_age;
        (fresh && entry.key == key).then_some(entry)
    }

    /// Keeps `response` (its body already taken into `representation`) under `key`, if its
    /// route allows and it is a plain success; `generation` is the store's when the request
    /// began, so a change that landed while it was served makes the entry stale at once.
    pub fn keep(&self, key: String, generation: u64, response: &Response, representation: &Arc<Representation>) {
        let Some(entries) = &self.entries else { return };
        let allowed = response.extensions().get::<MayBeKept>().is_some()
            && response.status() == StatusCode::OK
            && !response.headers().contains_key("set-cookie")
            && (representation.body_len() as u64) <= self.settings.capacity_bytes / LARGEST_SHARE;
        if !allowed {
            return;
        }
        let hash = self.hasher.hash_one(&key);
        let headers: usize = response.headers().iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
        let weight = (key.len() + headers + 2 * representation.body_len()) as u64;
        let entry = Entry {
            key,
            generation,
            stored: Instant::now(),
            status: response.status(),
            headers: response.headers().clone(),
            representation: representation.clone(),
            served_by: response.extensions().get::<super::ServedBy>().copied(),
            weight,
        };
        entries.insert(hash, Arc::new(entry));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn request(pairs: &[(&'static str, &'static str)]) -> Request {
        let mut builder = Request::builder().uri_str("/Plone/page?b=1");
        for (name, value) in pairs {
            builder = builder.header(*name, *value);
        }
        builder.finish()
    }

    fn kept(cache: &AnswerCache, key: &str, generation: u64) {
        let mut response = Response::builder().status(StatusCode::OK).finish();
        response.extensions_mut().insert(MayBeKept);
        let representation = Arc::new(Representation::new(Bytes::from_static(b"{}"), true, None));
        cache.keep(key.to_owned(), generation, &response, &representation);
    }

    #[test]
    fn keys_follow_what_could_change_the_answer() {
        let cache = AnswerCache::new(CacheSettings::default());
        let plain = cache.key_of(&request(&[("accept", "application/json")]), false);
        let other_agent = cache.key_of(&request(&[("accept", "application/json"), ("user-agent", "x")]), false);
        assert!(plain.is_some());
        assert_eq!(plain, other_agent, "the user agent changes nothing");
        let html = cache.key_of(&request(&[("accept", "text/html")]), false);
        assert_ne!(plain, html, "Accept changes the answer");
        let proxied = cache.key_of(&request(&[("accept", "application/json")]), true);
        assert_ne!(plain, proxied, "a trusted proxy's headers are believed");
        let basic = cache.key_of(&request(&[("authorization", "Basic YTpi")]), false);
        assert!(basic.is_some_and(|key| key.contains("YTpi")), "Basic credentials are part of the key");
        assert_eq!(cache.key_of(&request(&[("authorization", "Bearer x.y.z")]), false), None);
        assert_eq!(cache.key_of(&request(&[("cookie", "auth_token=x")]), false), None);
    }

    #[test]
    fn entries_go_stale_with_the_generation_and_with_age() {
        let cache = AnswerCache::new(CacheSettings::default());
        kept(&cache, "k", 7);
        assert!(cache.get("k", 7).is_some());
        assert!(cache.get("k", 8).is_none(), "a commit since makes it stale");
        assert!(cache.get("other", 7).is_none());
        let short = AnswerCache::new(CacheSettings { max_age: Duration::from_millis(1), ..CacheSettings::default() });
        kept(&short, "k", 1);
        std::thread::sleep(Duration::from_millis(5));
        assert!(short.get("k", 1).is_none(), "older than the maximum age");
    }

    #[test]
    fn only_marked_successes_are_kept_and_a_zero_age_turns_it_off() {
        let cache = AnswerCache::new(CacheSettings::default());
        let representation = Arc::new(Representation::new(Bytes::from_static(b"{}"), true, None));
        let unmarked = Response::builder().status(StatusCode::OK).finish();
        cache.keep("a".into(), 1, &unmarked, &representation);
        assert!(cache.get("a", 1).is_none());
        let off = AnswerCache::new(CacheSettings { max_age: Duration::ZERO, ..CacheSettings::default() });
        assert_eq!(off.key_of(&request(&[]), false), None);
    }
}
