//! Black-box tests of the whole server over real HTTP. Each test starts its own server on an
//! ephemeral port over a fresh database: SQLite, or PostgreSQL with `WCS_TEST_DATABASE_URL`.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

// The example third-party plugin is linked into this test binary like any plugin crate.
use wcs_example_hello as _;
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

mod aliases;
mod answer_cache;
mod api_mode;
mod auth;
mod backup;
#[cfg(feature = "site-profile")]
mod block_pages;
mod change_feed_order;
mod collections;
#[cfg(feature = "comments")]
mod comments;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "versioning", feature = "site-profile"))]
mod comparison_embedded;
mod concurrency;
mod connections;
mod content;
#[cfg(feature = "contentrules")]
mod content_rules;
#[cfg(feature = "navigation")]
mod context_navigation;
mod controlpanels;
#[cfg(feature = "directdownload")]
mod directdownload;
#[cfg(feature = "easyform")]
mod easyform;
mod email;
mod errors;
#[cfg(feature = "es-search")]
mod es_search;
#[cfg(feature = "es-search")]
mod es_search_stop;
mod escalation;
mod event_calendar;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "versioning", feature = "site-profile"))]
mod events;
#[cfg(all(feature = "versioning", feature = "easyform", feature = "site-profile"))]
mod export_import;
mod export_plone;
mod files;
mod folders;
mod images;
mod import_plone;
mod inherit;
mod link_integrity;
mod locking;
mod login_hardening;
mod metrics;
mod move_copy;
#[cfg(feature = "multilingual")]
mod multilingual;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "navigation", feature = "site-profile"))]
mod navigation;
mod object_memory;
mod other_instances;
mod password_reset;
mod permission_matrix;
mod plone_client;
mod plone_shapes;
mod plugins;
mod portraits;
mod principals;
mod publication_window;
mod querystring;
#[cfg(feature = "es-search")]
mod raw_es_search;
mod redirects;
mod registry_vocabularies;
mod relations;
mod relations_query;
mod relations_write;
mod request_hooks;
mod role_matrix;
mod round_trip;
mod search;
#[cfg(feature = "es-search")]
mod search_cluster;
mod security_panel;
mod sharing_trash;
mod site_actions;
mod summary_metadata;
mod support;
mod system_pages;
mod translated_titles;
mod tus;
mod types_dir;
mod types_through_the_web;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "versioning", feature = "site-profile"))]
mod version_comparison;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "versioning", feature = "site-profile"))]
mod versioning;
// The site profile's pages, topics and blocks are what these tests version and navigate.
#[cfg(all(feature = "versioning", feature = "site-profile"))]
mod versioning_rules;
mod virtual_hosting;
mod volto_blocks;
mod workflow;
mod working_copies;
