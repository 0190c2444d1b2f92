//! A third party's server: everything `wcs` ships, plus the example plugin. Naming the plugin
//! crate links it; `inventory` then finds its descriptor like any shipped plugin's, and
//! `wcs::run` is the whole `wcs` command line (`serve`, `init`, `openapi`…).

use wcs_example_hello as _;

/// mimalloc, tuned by [`wcs::tune_allocator`].
#[global_allocator]
static ALLOCATOR: wcs::Allocator = wcs::Allocator;

fn main() -> anyhow::Result<()> {
    wcs::tune_allocator();
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(wcs::run())
}
