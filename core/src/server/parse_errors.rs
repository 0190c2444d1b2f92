//! hyper answers a request it cannot parse (a URL beyond the 64 KB it reads, headers beyond
//! its buffer, bytes that are not HTTP) itself, before any service runs, with a bare status
//! line: no body, no `Content-Type`. Every other error carries the catalogue's JSON body, so
//! clients and proxies read one shape; this adapter on the connection gives hyper's automatic
//! answers that body too.
//!
//! It recognises them exactly: a 400, 414 or 431 whose only headers are `content-length: 0`,
//! `date` and `connection: close`. Every answer of the server's own carries more headers (the request id, the
//! security headers), so none is ever taken for one. hyper closes the connection after such
//! an answer, so the one rewritten is always the last.

use crate::http::{ApiError, ErrorCode};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose automatic parse-error answers get the JSON error body.
pub struct JsonParseErrors<S> {
    inner: S,
    /// The rewritten answer still being written, and how much of it is.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> JsonParseErrors<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        JsonParseErrors { inner, pending: None }
    }
}

impl<S: AsyncWrite + Unpin> JsonParseErrors<S> {
    /// Writes what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written >= bytes.len() {
                self.pending = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(answer) = rewritten(buf) {
            self.pending = Some((answer, 0));
            // hyper has handed over its answer whole: it counts as written, and what is left
            // of ours goes out on the next write, flush or shutdown.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The answer to send instead of `head`, when `head` is one of hyper's automatic ones.
fn rewritten(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let head = text.strip_suffix("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let status = status_line.strip_prefix("HTTP/1.1 ")?.get(..3)?;
    let (code, message) = match status {
        "400" => (ErrorCode::BadRequest, "The request could not be read as HTTP."),
        "414" => (ErrorCode::UriTooLong, "The URL is longer than the server reads."),
        "431" => (ErrorCode::HeaderFieldsTooLarge, "The request's headers are larger than the server reads."),
        _ => return None,
    };
    let mut date = None;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        match (name.trim().to_ascii_lowercase().as_str(), value.trim()) {
            ("content-length", "0") | ("connection", "close") => {}
            ("date", value) => date = Some(value),
            _ => return None,
        }
    }
    let body = ApiError::new(code, message).body().to_string();
    let mut answer = format!(
        "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    if let Some(date) = date {
        answer.push_str(&format!("date: {date}\r\n"));
    }
    answer.push_str("\r\n");
    answer.push_str(&body);
    Some(answer.into_bytes())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::rewritten;

    #[test]
    fn only_hypers_bare_answers_are_rewritten() {
        let bare = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 21:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(rewritten(bare).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\n"), "{answer}");
        assert!(answer.contains("date: Thu, 26 Nov 2026 21:00:00 GMT\r\n"));
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["code"], "uri_too_long");
        assert!(rewritten(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n").is_some());
        let closing = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert!(rewritten(closing).is_some());
        for own in [
            &b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\nx-request-id: 1\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
        ] {
            assert!(rewritten(own).is_none(), "{}", String::from_utf8_lossy(own));
        }
    }
}
