//! The manifest of shipped plugins. Naming a crate here is what links it: `inventory` only
//! sees crates the binary names, so a plugin missing from this list would vanish silently.
//! Start-up compares this list with the plugins actually found and fails loudly on a gap.

use wcs_exportimport as _;
#[cfg(feature = "comments")]
use wcs_plugin_comments as _;
#[cfg(feature = "contentrules")]
use wcs_plugin_contentrules as _;
#[cfg(feature = "directdownload")]
use wcs_plugin_directdownload as _;
#[cfg(feature = "easyform")]
use wcs_plugin_easyform as _;
#[cfg(feature = "es-search")]
use wcs_plugin_es_search as _;
#[cfg(feature = "multilingual")]
use wcs_plugin_multilingual as _;
#[cfg(feature = "navigation")]
use wcs_plugin_navigation as _;
#[cfg(feature = "site-profile")]
use wcs_plugin_site_profile as _;
#[cfg(feature = "versioning")]
use wcs_plugin_versioning as _;

/// Plugins this binary was built with (by cargo feature), besides `core`.
pub const SHIPPED_PLUGINS: &[&str] = &[
    #[cfg(feature = "comments")]
    wcs_plugin_comments::PLUGIN_ID,
    #[cfg(feature = "contentrules")]
    wcs_plugin_contentrules::PLUGIN_ID,
    #[cfg(feature = "directdownload")]
    wcs_plugin_directdownload::PLUGIN_ID,
    #[cfg(feature = "easyform")]
    wcs_plugin_easyform::PLUGIN_ID,
    #[cfg(feature = "es-search")]
    wcs_plugin_es_search::PLUGIN_ID,
    wcs_exportimport::PLUGIN_ID,
    #[cfg(feature = "multilingual")]
    wcs_plugin_multilingual::PLUGIN_ID,
    #[cfg(feature = "navigation")]
    wcs_plugin_navigation::PLUGIN_ID,
    #[cfg(feature = "site-profile")]
    wcs_plugin_site_profile::PLUGIN_ID,
    #[cfg(feature = "versioning")]
    wcs_plugin_versioning::PLUGIN_ID,
];

/// Checks that every manifest plugin was linked and built (unless disabled by configuration).
pub fn check_linked(built: &[&str], disabled: &[String]) -> Result<(), wcs_core::plugin::StartupError> {
    for plugin in std::iter::once(&"core").chain(SHIPPED_PLUGINS) {
        if !built.contains(plugin) && !disabled.iter().any(|d| d == plugin) {
            return Err(wcs_core::plugin::StartupError::NotLinked((*plugin).to_owned()));
        }
    }
    Ok(())
}
