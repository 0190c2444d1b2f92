//! EasyForm for wcs-backend: a content type `EasyForm` whose fields are a zope.schema model
//! (collective.easyform's `fields_model` XML, or the same as JSON), `form_action` and
//! `form_fields` in its JSON, `POST <form>/@submit` with validation, submissions kept in the
//! plugin's own table (`@submissions`, also as CSV) and mails queued in the server's outbox.
//! Submitting is bounded:
//! body size, per-field lengths, an optional honeypot field and a per-client rate limit.

mod limiter;
mod model;
mod model_field;
mod model_xml;
mod serializer;
mod storage;
mod submissions;
mod submit;
mod validate;
mod xml_tree;

use std::sync::Arc;
use wcs_core::plugin::Registrar;
use wcs_core::service::StartHook;

/// The plugin's id, as named in `--disable-plugins` and the manifest.
pub const PLUGIN_ID: &str = "easyform";

fn build(r: &mut Registrar) {
    r.migrations(&storage::MIGRATIONS);
    r.field_kind(&model_field::FORM_MODEL);
    r.field_serializer(&model_field::FORM_MODEL_FIELD);
    r.content_type(include_str!("easyform.toml"));
    r.content_serializer(&serializer::EASYFORM_SERIALIZER);
    r.service(&submit::SUBMIT);
    r.permission(submissions::DOWNLOAD_SAVED_INPUT, submissions::DOWNLOAD_ROLES);
    r.service(&submissions::SUBMISSIONS);
    r.record(&limiter::SUBMISSIONS_PER_MINUTE);
    r.on_start(&START);
}

/// Gives the application its submission limiter.
static START: StartHook = StartHook {
    name: "easyform",
    run: |app| {
        Box::pin(async move {
            app.extensions.insert(Arc::new(limiter::Limiter::default()));
            Ok(())
        })
    },
};

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
