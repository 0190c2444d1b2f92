//! Running the HTTP server on a bound listener, with graceful shutdown.

use crate::app::App;
use crate::http::SiteEndpoint;
use poem::listener::TcpAcceptor;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// How long in-flight requests may take to finish after shutdown is requested.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` resolves, then lets running requests finish.
pub async fn serve(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let acceptor = TcpAcceptor::from_tokio(listener)?;
    poem::Server::new_with_acceptor(acceptor)
        .run_with_graceful_shutdown(SiteEndpoint::new(app.clone()), shutdown, Some(SHUTDOWN_GRACE))
        .await?;
    app.store.close().await;
    Ok(())
}
