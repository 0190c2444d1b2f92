//! The plugin `exportimport`: plone.exportimport's `POST @export` (the site as a ZIP) and
//! `POST @import` (a ZIP of an export, as the multipart field `file`), for site owners moving
//! a site over the web rather than with `wcs export-plone` and `wcs import-plone`.
//!
//! Both take a permission of their own that only Managers hold by default, where Plone gives
//! them to Site Administrators too: an export carries every user's password hash (a Manager's
//! among them), and an import may make users with any role, so either would let a Site
//! Administrator reach what only a Manager may.

mod export_post;
mod import_post;

use wcs_core::plugin::Registrar;
use wcs_core::security::{Permission, Role};

/// The plugin's id, as named in `--disable-plugins`.
pub const PLUGIN_ID: &str = "exportimport";

/// Who may download the whole site, users and password hashes included.
pub const EXPORT_SITE: Permission = Permission::new("plone.exportimport: Export");
/// Who may load an export into the site, users and their roles included.
pub const IMPORT_SITE: Permission = Permission::new("plone.exportimport: Import");

fn build(r: &mut Registrar) {
    r.permission(EXPORT_SITE, &[Role::MANAGER]);
    r.permission(IMPORT_SITE, &[Role::MANAGER]);
    r.service(&export_post::EXPORT);
    r.service(&import_post::IMPORT);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
