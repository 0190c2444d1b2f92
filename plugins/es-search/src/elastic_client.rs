//! The connection to an Elasticsearch cluster, from the URL an integrator gives: the site's
//! engine and `wcs search eval --engine` connect the same way.

use crate::engine::EngineError;
use elasticsearch::Elasticsearch;
use elasticsearch::auth::Credentials;
use elasticsearch::http::Url;
use elasticsearch::http::transport::{SingleNodeConnectionPool, TransportBuilder};
use std::time::Duration;

/// How long one call to the cluster may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A client for the cluster at `url` (credentials in the URL become Basic auth), and the index
/// the URL's path names, if any.
pub fn cluster_client(url: &str) -> Result<(Elasticsearch, Option<String>), EngineError> {
    let mut url = Url::parse(url).map_err(|e| EngineError::new(format!("--search {url}: {e}")))?;
    let named = url.path().trim_matches('/').to_owned();
    if named.contains('/') || named.chars().any(|c| c.is_uppercase()) {
        return Err(EngineError::new(format!("--search: [{named}] is no index name (lowercase, no '/')")));
    }
    url.set_path("");
    let credentials = (!url.username().is_empty())
        .then(|| Credentials::Basic(url.username().to_owned(), url.password().unwrap_or_default().to_owned()));
    let _ = url.set_username("");
    let _ = url.set_password(None);
    let mut builder = TransportBuilder::new(SingleNodeConnectionPool::new(url)).timeout(CALL_TIMEOUT);
    if let Some(credentials) = credentials {
        builder = builder.auth(credentials);
    }
    let transport = builder.build().map_err(|e| EngineError::new(e.to_string()))?;
    Ok((Elasticsearch::new(transport), (!named.is_empty()).then_some(named)))
}
