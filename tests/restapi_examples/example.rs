//! plone.restapi's recorded examples: `NAME.req` (a raw HTTP request) and `NAME.resp` (the
//! answer a real Plone gave), as its documentation tests wrote them.

use std::path::Path;

/// A recorded request.
pub struct Request {
    pub method: String,
    /// The path with its query, as recorded (`/plone/folder?x=1`).
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

/// A recorded answer.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A header's value, case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
}

/// The head lines and the body of a recorded message (the body follows the first empty line).
fn split(bytes: &[u8]) -> (Vec<String>, Option<Vec<u8>>) {
    let mut lines = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = bytes[at..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |i| at + i);
        let line = String::from_utf8_lossy(&bytes[at..end]).trim_end_matches('\r').to_owned();
        at = (end + 1).min(bytes.len());
        if line.is_empty() {
            return (lines, Some(bytes[at..].to_vec()));
        }
        lines.push(line);
    }
    (lines, None)
}

fn headers(lines: &[String]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter_map(|line| line.split_once(':').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())))
        .collect()
}

pub fn read_request(path: &Path) -> Request {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (lines, body) = split(&bytes);
    let mut first = lines.first().map(String::as_str).unwrap_or_default().split(' ');
    let method = first.next().unwrap_or_default().to_owned();
    let target = first.next().unwrap_or_default().to_owned();
    Request { method, target, headers: headers(&lines[1..]), body: body.filter(|b| !b.is_empty()) }
}

pub fn read_response(path: &Path) -> Option<Response> {
    let bytes = std::fs::read(path).ok()?;
    let (lines, body) = split(&bytes);
    let status = lines.first()?.split(' ').nth(1)?.parse().ok()?;
    Some(Response { status, headers: headers(&lines[1..]), body: body.unwrap_or_default() })
}
