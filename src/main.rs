//! The `wcs` binary: the command line of the `wcs` library with the shipped plugins.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    wcs::run().await
}
