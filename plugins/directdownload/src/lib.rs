//! Direct download for wcs-backend: while the record `wcs.backend.api.directdownload` is true,
//! an anonymous API GET of a `File` answers the file itself instead of its JSON, so public
//! links to files work from a JSON-only front end. Audio and video stay JSON (players stream
//! them through `@@download`, which seeks with Range), `?json=true` asks for the JSON anyway,
//! and every other caller gets the JSON object.

mod hook;
mod panel;

use wcs_core::plugin::Registrar;

pub use hook::DIRECT_DOWNLOAD;

/// The plugin's id, as named in `--disable-plugins` and the manifest.
pub const PLUGIN_ID: &str = "directdownload";

fn build(r: &mut Registrar) {
    r.record(&hook::DIRECT_DOWNLOAD);
    r.control_panel(&panel::DIRECT_DOWNLOAD_PANEL);
    r.request_hook(&hook::FILE_ITSELF);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
