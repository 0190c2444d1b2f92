//! The `wcs` binary: the command line of the `wcs` library with the shipped plugins.

/// mimalloc, tuned by [`wcs::tune_allocator`].
#[global_allocator]
static ALLOCATOR: wcs::Allocator = wcs::Allocator;

fn main() -> anyhow::Result<()> {
    // Before the runtime's threads start, so every arena follows the tuned parameters.
    wcs::tune_allocator();
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(wcs::run())
}
