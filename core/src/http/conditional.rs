//! What happens to an answer built in memory on its way out: a weak `ETag` on successful GETs,
//! so a client that sends it back in `If-None-Match` gets 304 without the body, and
//! compression (brotli or gzip, as `Accept-Encoding` asks) of bodies of 1 KB or more.
//!
//! The tag is a hash of the body itself, so it can never be stale: whatever changed the
//! answer (a write, another caller's permissions, a plugin switched off) changes the tag.
//! Files keep their own tags and are never compressed here (their ranges address the stored
//! bytes).

use super::preconditions::Revision;
use bytes::Bytes;
use poem::http::header::{
    ACCEPT_ENCODING, ACCEPT_RANGES, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use poem::http::{HeaderMap, HeaderValue, Method, StatusCode};
use poem::{Body, Response};
use std::hash::{DefaultHasher, Hasher};
use std::io::Write;
use std::sync::OnceLock;

/// Bodies smaller than this are sent as they are: compressing them saves less than it costs.
const COMPRESS_FROM: usize = 1024;

/// An answer's body as built in memory, with its tag and its compressed forms, each made at
/// most once however often it is delivered (the answer cache delivers one many times).
pub struct Representation {
    body: Bytes,
    tag: Option<HeaderValue>,
    brotli: OnceLock<Option<Bytes>>,
    gzip: OnceLock<Option<Bytes>>,
}

impl Representation {
    /// `body`, tagged when it is a successful GET's; `revision` names the state of the
    /// object it shows, when it shows one.
    pub fn new(body: Bytes, tagged: bool, revision: Option<&Revision>) -> Self {
        let tag = tagged.then(|| tag_of(&body, revision));
        Representation { body, tag, brotli: OnceLock::new(), gzip: OnceLock::new() }
    }

    /// The length of its plain body.
    pub fn body_len(&self) -> usize {
        self.body.len()
    }

    fn encoded(&self, encoding: Encoding) -> Option<Bytes> {
        let form = match encoding {
            Encoding::Brotli => &self.brotli,
            Encoding::Gzip => &self.gzip,
        };
        form.get_or_init(|| compress(encoding, &self.body).map(Bytes::from)).clone()
    }
}

/// Takes the body of an answer built in memory; `None` (the answer untouched) for files and
/// what is encoded already.
pub async fn representation(method: &Method, response: &mut Response) -> Option<Representation> {
    if !in_memory_text(response) {
        return None;
    }
    let body = response.take_body().into_bytes().await.ok()?;
    let tagged = *method == Method::GET && response.status() == StatusCode::OK;
    Some(Representation::new(body, tagged, response.extensions().get::<Revision>()))
}

/// Completes `response` (status and headers) with `representation` as the request allows:
/// 304 when `If-None-Match` names its tag, else the body in the encoding asked for.
pub fn deliver(request: &HeaderMap, mut response: Response, representation: &Representation) -> Response {
    if let Some(tag) = &representation.tag {
        if matches(request, tag) {
            return not_modified(&response, tag.clone());
        }
        response.headers_mut().insert(ETAG, tag.clone());
    }
    let body = &representation.body;
    let encoding = if body.len() >= COMPRESS_FROM { accepted_encoding(request) } else { None };
    response.headers_mut().append(VARY, HeaderValue::from_static("Accept-Encoding"));
    match encoding.and_then(|encoding| representation.encoded(encoding).map(|packed| (encoding, packed))) {
        Some((encoding, packed)) => {
            response.headers_mut().insert(CONTENT_ENCODING, HeaderValue::from_static(encoding.name()));
            response.headers_mut().remove(CONTENT_LENGTH);
            response.set_body(Body::from_bytes(packed));
        }
        None => response.set_body(Body::from_bytes(body.clone())),
    }
    response
}

/// JSON, HTML and text our services built in memory; not files, not what is encoded already.
fn in_memory_text(response: &Response) -> bool {
    let headers = response.headers();
    let media = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let text = media.starts_with("application/json") || media.contains("+json") || media.starts_with("text/");
    text && !headers.contains_key(CONTENT_ENCODING) && !headers.contains_key(ACCEPT_RANGES)
}

/// A weak tag: the same body in another encoding is the same representation to a cache.
fn tag_of(body: &[u8], revision: Option<&Revision>) -> HeaderValue {
    let mut hasher = DefaultHasher::new();
    hasher.write(body);
    let state = revision.map(|r| format!("{}.", r.0)).unwrap_or_default();
    let tag = format!("W/\"{state}{:016x}{:08x}\"", hasher.finish(), body.len());
    HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("W/\"0\""))
}

/// Whether `If-None-Match` names `tag` (weak comparison, as GET allows) or is `*`.
fn matches(request: &HeaderMap, tag: &HeaderValue) -> bool {
    let Ok(tag) = tag.to_str() else { return false };
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || bare(t) == bare(tag))
}

/// 304 with the headers the full answer would have had (CORS, caching, security), less those
/// that describe its body.
fn not_modified(response: &Response, tag: HeaderValue) -> Response {
    let mut answer = Response::builder().status(StatusCode::NOT_MODIFIED).finish();
    for (name, value) in response.headers() {
        if name != CONTENT_TYPE && name != CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer.headers_mut().insert(ETAG, tag);
    answer.headers_mut().append(VARY, HeaderValue::from_static("Accept-Encoding"));
    answer
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
}

impl Encoding {
    fn name(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }
}

/// Brotli if the client takes it, else gzip, else nothing (`q=0` refuses a coding).
fn accepted_encoding(request: &HeaderMap) -> Option<Encoding> {
    let accepted: Vec<String> = request
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|entry| {
            let mut parts = entry.split(';');
            let name = parts.next()?.trim().to_ascii_lowercase();
            let refused = parts.any(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()) == Some(0.0));
            (!refused).then_some(name)
        })
        .collect();
    [Encoding::Brotli, Encoding::Gzip].into_iter().find(|e| accepted.iter().any(|a| a == e.name()))
}

fn compress(encoding: Encoding, body: &[u8]) -> Option<Vec<u8>> {
    match encoding {
        Encoding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(body).ok()?;
            encoder.finish().ok()
        }
        Encoding::Brotli => {
            let mut packed = Vec::new();
            // Quality 4: most of brotli's gain at a fraction of its top levels' time.
            let mut writer = brotli::CompressorWriter::new(&mut packed, 4096, 4, 22);
            writer.write_all(body).ok()?;
            drop(writer);
            Some(packed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs.iter().map(|(k, v)| (poem::http::HeaderName::from_static(k), HeaderValue::from_static(v))).collect()
    }

    #[test]
    fn encodings_are_negotiated() {
        assert_eq!(accepted_encoding(&headers(&[("accept-encoding", "gzip, deflate, br")])), Some(Encoding::Brotli));
        assert_eq!(accepted_encoding(&headers(&[("accept-encoding", "gzip;q=0.5, br;q=0")])), Some(Encoding::Gzip));
        assert_eq!(accepted_encoding(&headers(&[("accept-encoding", "identity")])), None);
        assert_eq!(accepted_encoding(&HeaderMap::new()), None);
    }

    #[test]
    fn tags_match_weakly_and_by_star() {
        let tag = tag_of(b"{}", None);
        let sent = |v: &'static str| headers(&[("if-none-match", v)]);
        assert!(matches(&sent("*"), &tag));
        assert!(!matches(&sent("\"other\""), &tag));
        let value: &'static str = Box::leak(format!("\"x\", {}", tag.to_str().unwrap_or_default()).into_boxed_str());
        assert!(matches(&sent(value), &tag));
        assert_ne!(tag_of(b"{}", None), tag_of(b"{ }", None));
    }
}
