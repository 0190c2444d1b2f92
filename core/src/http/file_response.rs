//! A stored file as an HTTP response: the bytes streamed in chunks (memory stays flat), with
//! `Content-Type`, `Content-Length`, `Content-Disposition`, an `ETag` (the content hash) and
//! `Last-Modified` (the object's), a single `Range` (so audio and video can seek) and
//! conditional GETs (`If-None-Match`, `If-Modified-Since`) answered with 304. `@@download`
//! and plugins that hand out files (directdownload) answer the same way.

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::store::{BlobMeta, BlobRange, Store};
use chrono::{DateTime, Utc};
use poem::http::StatusCode;
use poem::{Body, Response};
use tokio::io::AsyncWriteExt;

/// What a file answer may be: the bytes, a range of them, or "not modified".
pub struct FileMeta;

impl super::RawMeta for FileMeta {
    fn meta() -> poem_openapi::registry::MetaResponses {
        use super::media_response;
        use poem_openapi::registry::MetaSchema;
        let bytes = || Some(("application/octet-stream", MetaSchema::new_with_format("string", "binary")));
        poem_openapi::registry::MetaResponses {
            responses: vec![
                media_response(200, "The file, with its own Content-Type", bytes()),
                media_response(206, "The range asked for", bytes()),
                media_response(304, "Not modified since the ETag or date sent", None),
            ],
        }
    }
}

/// Bytes read per database round trip while streaming.
const CHUNK: i64 = 1024 * 1024;

/// The file in `field` of the context object; 404 when it holds none.
pub async fn file_response(ctx: &Ctx, field: &str) -> ApiResult<super::Raw<FileMeta>> {
    Ok(super::Raw::new(file_answer(ctx, field).await?))
}

async fn file_answer(ctx: &Ctx, field: &str) -> ApiResult<Response> {
    let meta = ctx
        .app
        .store
        .blob_meta(&ctx.context.uid, field)
        .await?
        .ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?;
    let etag = format!("\"{}\"", meta.sha256);
    let last_modified = http_date(ctx.context.modified);
    if not_modified(ctx, &etag, ctx.context.modified) {
        return Ok(Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .header("ETag", etag)
            .header("Last-Modified", last_modified)
            .finish());
    }
    let range = match ctx.request.header("range") {
        Some(header)
            if range_still_applies(ctx.request.header("if-range"), &etag, ctx.context.modified, Utc::now()) =>
        {
            parse_range(header, meta.size)?
        }
        _ => None,
    };
    let (status, span) = match range {
        Some(span) => (StatusCode::PARTIAL_CONTENT, span),
        None => (StatusCode::OK, BlobRange { offset: 0, length: meta.size }),
    };
    let mut builder = Response::builder()
        .status(status)
        .content_type(meta.content_type.as_str())
        .header("Content-Length", span.length.to_string())
        .header("Content-Disposition", content_disposition(&meta.filename))
        .header("Accept-Ranges", "bytes")
        .header("ETag", etag)
        .header("Last-Modified", last_modified)
        .header("X-Content-Type-Options", "nosniff");
    if status == StatusCode::PARTIAL_CONTENT {
        let end = span.offset + span.length - 1;
        builder = builder.header("Content-Range", format!("bytes {}-{end}/{}", span.offset, meta.size));
    }
    let body = if span.length <= CHUNK {
        Body::from_vec(ctx.app.store.blob_bytes(&ctx.context.uid, field, span).await?)
    } else {
        stream(ctx.app.store.clone(), ctx.context.uid.clone(), field.to_owned(), span)
    };
    Ok(builder.body(body))
}

/// The stored facts of the file in `field` of the context object, if it holds one.
pub async fn file_meta(ctx: &Ctx, field: &str) -> ApiResult<Option<BlobMeta>> {
    Ok(ctx.app.store.blob_meta(&ctx.context.uid, field).await?)
}

/// Whether the client's copy is current: `If-None-Match` decides when present (RFC 9110
/// 13.2.2), else `If-Modified-Since` (at whole-second precision, as HTTP dates have).
fn not_modified(ctx: &Ctx, etag: &str, modified: DateTime<Utc>) -> bool {
    if let Some(tags) = ctx.request.header("if-none-match") {
        return tags.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == "*" || t == etag);
    }
    ctx.request
        .header("if-modified-since")
        .and_then(|since| DateTime::parse_from_rfc2822(since).ok())
        .is_some_and(|since| modified.timestamp() <= since.timestamp())
}

/// Whether a `Range` holds for the file as it is now (RFC 9110 13.1.5): without `If-Range`
/// always; with it, only when it names the current entity tag (compared strongly: a weak tag
/// never matches) or the exact `Last-Modified` date while that date is a strong validator (a
/// second or more in the past, RFC 9110 8.8.2.2: two changes within one second share it).
/// Otherwise the client is resuming an older version and gets the whole file, so it never
/// splices two versions together.
fn range_still_applies(if_range: Option<&str>, etag: &str, modified: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    match if_range.map(str::trim) {
        None => true,
        Some(validator) if validator.starts_with('"') => validator == etag,
        Some(validator) => validator == http_date(modified) && now.timestamp() > modified.timestamp(),
    }
}

/// An HTTP date (IMF-fixdate).
fn http_date(time: DateTime<Utc>) -> String {
    time.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// Feeds the response from a task that reads one chunk at a time, so memory stays flat.
fn stream(store: Store, uid: String, field: String, span: BlobRange) -> Body {
    let (mut writer, reader) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        let end = span.offset + span.length;
        let mut offset = span.offset;
        while offset < end {
            let length = CHUNK.min(end - offset);
            let bytes = match store.blob_bytes(&uid, &field, BlobRange { offset, length }).await {
                Ok(bytes) if !bytes.is_empty() => bytes,
                Ok(_) => break,
                Err(e) => {
                    tracing::error!(%e, uid, field, "reading blob failed mid-stream");
                    break;
                }
            };
            if writer.write_all(&bytes).await.is_err() {
                break;
            }
            offset += length;
        }
    });
    Body::from_async_read(reader)
}

/// Parses a single `bytes=` range. `None` means serve everything (absent, multi-range or
/// another unit); an unsatisfiable range is a 416.
fn parse_range(header: &str, size: i64) -> ApiResult<Option<BlobRange>> {
    let Some(spec) = header.trim().strip_prefix("bytes=") else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let unsatisfiable = || {
        ApiError::new(
            ErrorCode::RangeNotSatisfiable,
            format!("The range '{header}' is outside the file of {size} bytes."),
        )
        .with_header("Content-Range", format!("bytes */{size}"))
    };
    let (start, end) = spec.split_once('-').ok_or_else(unsatisfiable)?;
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| unsatisfiable());
    let (first, last) = match (start.trim(), end.trim()) {
        ("", "") => return Err(unsatisfiable()),
        ("", suffix) => {
            let suffix = parse(suffix)?;
            if suffix == 0 {
                return Err(unsatisfiable());
            }
            ((size - suffix).max(0), size - 1)
        }
        (start, "") => (parse(start)?, size - 1),
        (start, end) => (parse(start)?, parse(end)?.min(size - 1)),
    };
    if first < 0 || first >= size || last < first {
        return Err(unsatisfiable());
    }
    Ok(Some(BlobRange { offset: first, length: last - first + 1 }))
}

/// `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266).
fn content_disposition(filename: &str) -> String {
    let ascii: String = filename
        .chars()
        .map(|c| if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' { c } else { '_' })
        .collect();
    let encoded = percent_encoding::utf8_percent_encode(filename, crate::http::QUERY_COMPONENT);
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let r = |h| parse_range(h, 100).ok().flatten().map(|r| (r.offset, r.length));
        assert_eq!(r("bytes=0-9"), Some((0, 10)));
        assert_eq!(r("bytes=90-"), Some((90, 10)));
        assert_eq!(r("bytes=-5"), Some((95, 5)));
        assert_eq!(r("bytes=95-200"), Some((95, 5)));
        assert_eq!(r("bytes=0-1,5-6"), None);
        assert!(parse_range("bytes=100-", 100).is_err());
        assert!(parse_range("bytes=5-2", 100).is_err());
        assert!(parse_range("bytes=x-2", 100).is_err());
    }

    #[test]
    fn if_range_holds_only_for_the_current_file() {
        let etag = "\"abc\"";
        let modified = DateTime::parse_from_rfc3339("2026-03-01T08:05:09.5Z").unwrap().with_timezone(&Utc);
        let later = modified + chrono::Duration::seconds(5);
        let date = "Sun, 01 Mar 2026 08:05:09 GMT";
        let holds = |validator: Option<&str>, now| range_still_applies(validator, etag, modified, now);
        assert!(holds(None, later));
        assert!(holds(Some("\"abc\""), later));
        assert!(!holds(Some("\"old\""), later));
        assert!(!holds(Some("W/\"abc\""), later), "weak tags never match");
        assert!(holds(Some(date), later));
        assert!(!holds(Some(date), modified), "a date of this very second is no strong validator");
        assert!(!holds(Some("Sat, 28 Feb 2026 08:05:09 GMT"), later));
        assert!(!holds(Some("garbage"), later));
    }

    #[test]
    fn http_dates_are_imf_fixdates() {
        let time = DateTime::parse_from_rfc3339("2026-03-01T08:05:09Z").unwrap().with_timezone(&Utc);
        assert_eq!(http_date(time), "Sun, 01 Mar 2026 08:05:09 GMT");
        let back = DateTime::parse_from_rfc2822(&http_date(time)).unwrap();
        assert_eq!(back.timestamp(), time.timestamp());
    }

    #[test]
    fn disposition_keeps_utf8_names() {
        assert_eq!(
            content_disposition("Bericht ä.pdf"),
            "attachment; filename=\"Bericht _.pdf\"; filename*=UTF-8''Bericht%20%C3%A4.pdf"
        );
    }
}
