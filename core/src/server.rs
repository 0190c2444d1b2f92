//! Running the HTTP server on a bound listener, with graceful shutdown.
//!
//! hyper serves the connections itself, rather than through poem's `Server`, because only
//! hyper's own settings bound how long a client may take to send its headers: poem's idle
//! timeout lets a request whose headers stopped midway hold its connection for ever.

use crate::app::App;
use crate::http::SiteEndpoint;
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

/// Serves `app` on `listener` until `shutdown` resolves, then lets running requests finish.
pub async fn serve(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let endpoint = Arc::new(SiteEndpoint::new(app.clone()));
    let local = listener.local_addr()?;
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // Headers must arrive in full within the idle timeout; an idle keep-alive connection waits
    // as long for its next request's headers, then closes.
    builder.http1().timer(TokioTimer::new()).header_read_timeout(app.settings.timeouts.idle);
    builder.http2().timer(TokioTimer::new()).keep_alive_interval(app.settings.timeouts.idle);
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
        let open = app.metrics.connection_opened();
        let service = hyper::service::service_fn({
            let endpoint = endpoint.clone();
            move |request: hyper::Request<Incoming>| {
                let endpoint = endpoint.clone();
                async move { Ok::<_, Infallible>(answer(&endpoint, request, local, peer).await) }
            }
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(%err, %peer, "connection ended with an error");
            }
            drop(open);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::warn!("requests still running after the shutdown grace period were cut off");
    }
    app.store.close().await;
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
