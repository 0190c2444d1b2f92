//! Core's standard endpoints, one file per endpoint, registered as the plugin `core` through
//! the same API every plugin uses.

mod content_delete;
mod content_get;
mod content_post;
mod content_write;
mod download;
pub mod html_view;
mod move_copy;
mod schemas;
mod types;

use crate::plugin::Registrar;
use crate::serialize;

fn build(r: &mut Registrar) {
    r.service(&content_get::GET);
    r.service(&content_post::POST);
    r.service(&content_write::PATCH);
    r.service(&content_write::PUT);
    r.service(&content_delete::DELETE);
    r.service(&move_copy::MOVE);
    r.service(&move_copy::COPY);
    r.service(&download::DOWNLOAD);
    r.service(&types::TYPES);
    r.component(&types::TYPES_COMPONENT);
    r.content_serializer(&serialize::CORE_BASE);
    r.content_serializer(&serialize::CORE_FOLDER);
    r.field_serializer(&serialize::RICH_TEXT_FIELD);
    r.field_serializer(&serialize::FILE_FIELD);
    r.field_serializer(&serialize::IMAGE_FIELD);
    for profile in [
        include_str!("../../types/plone_site.toml"),
        include_str!("../../types/folder.toml"),
        include_str!("../../types/document.toml"),
        include_str!("../../types/file.toml"),
        include_str!("../../types/image.toml"),
        include_str!("../../types/link.toml"),
    ] {
        r.content_type(profile);
    }
    r.workflow(include_str!("../../workflows/simple_publication_workflow.toml"));
    r.workflow(include_str!("../../workflows/one_state_workflow.toml"));
}

crate::plugin!(id: "core", depends_on: [], build: build);
