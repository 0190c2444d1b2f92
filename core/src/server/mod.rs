//! Running the HTTP server on a bound listener, with graceful shutdown.
//!
//! hyper serves the connections itself, rather than through poem's `Server`, because only
//! hyper's own settings bound how long a client may take to send its headers: poem's idle
//! timeout lets a request whose headers stopped midway hold its connection for ever.
//!
//! HTTP/1.1 only: hyper bounds neither the protocol detection of its automatic mode nor an
//! idle HTTP/2 connection (whose pings keep it open), so cleartext HTTP/2 would let a client
//! hold connections without limit. Browsers reach the server through a proxy or over HTTP/1.1.

mod parse_errors;

use crate::app::App;
use crate::http::{Edge, SiteEndpoint};
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use poem::http::uri::Scheme;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Endpoint, Request};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long in-flight requests may take to finish after shutdown is requested.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// After a failed accept (out of file descriptors, say), how long to wait before the next.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Serves `app` at `edge` on `listener` until `shutdown` resolves, then lets running requests
/// finish.
pub async fn serve(
    app: Arc<App>,
    edge: Edge,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let edge = Arc::new(edge);
    let endpoint = Arc::new(SiteEndpoint::new(app.clone(), edge.clone()));
    let local = listener.local_addr()?;
    let idle = edge.timeouts.idle;
    let mut builder = auto::Builder::new(TokioExecutor::new()).http1_only();
    // Headers must arrive in full within the idle timeout; an idle keep-alive connection waits
    // as long for its next request's headers, then closes.
    builder.http1().timer(TokioTimer::new()).header_read_timeout(idle);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::warn!(%err, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let open = edge.metrics.connection_opened();
        let service = hyper::service::service_fn({
            let endpoint = endpoint.clone();
            move |request: hyper::Request<Incoming>| {
                let endpoint = endpoint.clone();
                async move { Ok::<_, Infallible>(answer(&endpoint, request, local, peer).await) }
            }
        });
        let builder = builder.clone();
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // The header timeout starts with the first byte: a client that connects and sends
            // nothing is closed after the idle timeout here.
            let mut first = [0u8; 1];
            if !matches!(tokio::time::timeout(idle, stream.peek(&mut first)).await, Ok(Ok(1..))) {
                return;
            }
            let stream = TokioIo::new(parse_errors::JsonParseErrors::new(stream));
            let connection = builder.serve_connection_with_upgrades(stream, service);
            if let Err(err) = watcher.watch(connection.into_owned()).await {
                tracing::debug!(%err, %peer, "connection ended with an error");
            }
            drop(open);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::warn!("requests still running after the shutdown grace period are left behind");
    }
    if tokio::time::timeout(SHUTDOWN_GRACE, app.stop()).await.is_err() {
        tracing::warn!("the plugins' stop hooks did not finish within the grace period");
    }
    // A request left behind may hold a database connection; closing waits for it no longer
    // than the grace period (SQLite's WAL is then checkpointed at the next start).
    if tokio::time::timeout(SHUTDOWN_GRACE, app.store.close()).await.is_err() {
        tracing::warn!("the database pool did not close within the grace period");
    }
    Ok(())
}

async fn answer(
    endpoint: &SiteEndpoint,
    request: hyper::Request<Incoming>,
    local: SocketAddr,
    peer: SocketAddr,
) -> hyper::Response<BoxBody<Bytes, std::io::Error>> {
    let request: Request =
        (request, LocalAddr(Addr::SocketAddr(local)), RemoteAddr(Addr::SocketAddr(peer)), Scheme::HTTP).into();
    endpoint.get_response(request).await.into()
}
