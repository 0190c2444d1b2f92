//! Navigation for wcs-backend: `@navigation` (portal tabs and a tree of
//! `expand.navigation.depth` levels), `@contextnavigation` (the section around the object, as
//! Plone's navigation portlet) and `@navroot`, each also an `@components` entry.
//!
//! Beyond upstream, an object with the `main_topics` behaviour (a `SubTopic`) appears under
//! every topic its `main_topics` relation names, not only under its physical parent.
//! `nav_title` overrides the title, `exclude_from_nav` hides an item (unless the request is
//! on or below it), items carry an icon name and
//! a `thumb` scale URL when they have an image, links to Link targets are resolved, and no item
//! links straight to a download.

mod context_navigation;
mod navigation;
mod navroot;
mod panel;
mod tree;

use wcs_core::content::ContentObject;
use wcs_core::plugin::Registrar;
use wcs_core::service::CrumbTitle;

/// The plugin's id, as named in `--disable-plugin` and the manifest.
pub const PLUGIN_ID: &str = "navigation";

/// An object's `nav_title`, when it has a non-empty one: the title navigation, the portlet and
/// breadcrumbs show instead of its own.
fn nav_title(object: &ContentObject) -> Option<&str> {
    object.fields.get("nav_title").and_then(|t| t.as_str()).filter(|t| !t.is_empty())
}

/// The title navigation shows for `object`.
fn shown_title(object: &ContentObject) -> &str {
    nav_title(object).unwrap_or(&object.title)
}

/// Breadcrumbs show an object's `nav_title` when it has one.
static NAV_TITLE: CrumbTitle = CrumbTitle { name: "nav_title", title: nav_title };

fn build(r: &mut Registrar) {
    r.crumb_title(&NAV_TITLE);
    r.service(&navigation::NAVIGATION);
    r.component(&navigation::NAVIGATION_COMPONENT);
    r.service(&context_navigation::CONTEXT_NAVIGATION);
    r.component(&context_navigation::CONTEXT_NAVIGATION_COMPONENT);
    r.service(&navroot::NAVROOT);
    r.component(&navroot::NAVROOT_COMPONENT);
    r.record(&tree::DISPLAYED_TYPES);
    r.control_panel(&panel::NAVIGATION_PANEL);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
