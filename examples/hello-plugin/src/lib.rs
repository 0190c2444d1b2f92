//! A third-party plugin for wcs-backend, built only on the public registration API: a
//! content type (`Greeting`) with a serializer layer, a field kind of its own (`Color`) and its
//! own rendering of a core field kind (`Datetime` as a date), a
//! service (`@hello`) with a permission of its own and a view (`hello_view`), a registry record
//! (`wcs.example.hello.greeting`), a request hook that answers a plain-text GET of a greeting
//! before the default view does, and a table of its own (`hello_stats`, with its migrations)
//! that an event subscriber keeps inside each write's transaction.
//!
//! To ship it in a server, depend on this crate and name it once so the linker keeps it:
//! `use wcs_example_hello as _;`. The walk-through is `examples/README.md`.

mod delivery;
mod greeting;
mod hello;
mod hello_view;
mod hook;
mod stats;

pub use hello::GREETING_WORD;
use wcs_core::plugin::Registrar;

/// The plugin's id.
pub const PLUGIN_ID: &str = "example-hello";

fn build(r: &mut Registrar) {
    r.migrations(&stats::MIGRATIONS);
    r.subscriber(&stats::COUNT_ADDED);
    r.field_kind(&greeting::COLOR);
    r.field_serializer(&greeting::COLOR_FIELD);
    r.field_serializer(&delivery::DELIVERY_DATE);
    r.content_type(include_str!("greeting.toml"));
    r.content_serializer(&greeting::GREETING_SERIALIZER);
    r.permission(hello::SAY_HELLO, hello::SAY_HELLO_ROLES);
    r.service(&hello::HELLO);
    r.service(&hello_view::HELLO_VIEW);
    r.record(&hello::GREETING_WORD);
    r.request_hook(&hook::GREETING_AS_TEXT);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
