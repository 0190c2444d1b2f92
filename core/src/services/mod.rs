//! Core's standard endpoints, one file per endpoint, registered as the plugin `core` through
//! the same API every plugin uses.

mod authenticator;
mod breadcrumbs;
mod content_delete;
mod content_get;
mod content_post;
mod content_write;
mod download;
mod groups;
mod images;
mod login;
mod login_form;
mod login_renew;
mod logout;
mod move_copy;
mod principal_forms;
mod principal_search;
mod registry;
mod relations;
mod resolveuid;
mod schemas;
mod search;
mod sharing;
mod trash;
mod types;
mod users;
mod view;
mod vocabularies;
mod workflow;
mod working_copy;

use crate::plugin::Registrar;
use crate::serialize;
pub use view::DEFAULT_VIEW;

fn build(r: &mut Registrar) {
    r.service(&content_get::GET);
    r.service(&view::VIEW);
    r.service(&content_post::POST);
    r.service(&content_write::PATCH);
    r.service(&content_write::PUT);
    r.service(&content_delete::DELETE);
    r.service(&move_copy::MOVE);
    r.service(&move_copy::COPY);
    r.service(&download::DOWNLOAD);
    r.service(&types::TYPES);
    r.service(&search::SEARCH);
    r.service(&workflow::WORKFLOW_GET);
    r.service(&workflow::WORKFLOW_POST);
    r.service(&workflow::SET_STATE);
    r.service(&login::post::LOGIN);
    r.service(&login::get::LOGIN_OPTIONS);
    r.service(&login_renew::LOGIN_RENEW);
    r.service(&logout::LOGOUT);
    r.service(&authenticator::AUTHENTICATOR);
    r.service(&login_form::get::LOGIN_FORM);
    r.service(&login_form::post::LOGIN_FORM_POST);
    r.service(&users::get::USERS_GET);
    r.service(&users::post::USERS_POST);
    r.service(&users::patch::USERS_PATCH);
    r.service(&users::delete::USERS_DELETE);
    r.service(&groups::get::GROUPS_GET);
    r.service(&groups::post::GROUPS_POST);
    r.service(&groups::patch::GROUPS_PATCH);
    r.service(&groups::delete::GROUPS_DELETE);
    r.service(&principal_search::PRINCIPALS);
    r.service(&relations::RELATIONS);
    r.service(&registry::REGISTRY_GET);
    r.service(&registry::REGISTRY_PATCH);
    r.service(&vocabularies::VOCABULARIES);
    r.service(&resolveuid::RESOLVEUID);
    r.service(&images::IMAGES);
    r.service(&sharing::SHARING_GET);
    r.service(&sharing::SHARING_POST);
    r.service(&trash::TRASH);
    r.service(&trash::UNTRASH);
    r.service(&trash::TRASH_LIST);
    for service in [&working_copy::CHECK_OUT, &working_copy::INFO, &working_copy::CHECK_IN, &working_copy::CANCEL] {
        r.service(service);
    }
    r.subscriber(&crate::events::feed::CHANGE_FEED);
    r.component(&types::TYPES_COMPONENT);
    r.service(&breadcrumbs::BREADCRUMBS);
    r.component(&breadcrumbs::BREADCRUMBS_COMPONENT);
    r.content_serializer(&serialize::CORE_BASE);
    r.content_serializer(&serialize::CORE_FOLDER);
    r.content_serializer(&serialize::BLOCK_PAGE);
    r.content_serializer(&serialize::BLOCK);
    r.content_serializer(&serialize::NEWS_LISTING_BLOCK);
    r.field_serializer(&serialize::RICH_TEXT_FIELD);
    r.field_serializer(&serialize::FILE_FIELD);
    r.field_serializer(&serialize::IMAGE_FIELD);
    r.field_serializer(&serialize::LINK_FIELD);
    r.field_serializer(&serialize::URI_LINK_FIELD);
    r.field_serializer(&serialize::RELATION_CHOICE_FIELD);
    r.field_serializer(&serialize::RELATION_LIST_FIELD);
    for profile in [
        include_str!("../../types/plone_site.toml"),
        include_str!("../../types/folder.toml"),
        include_str!("../../types/document.toml"),
        include_str!("../../types/file.toml"),
        include_str!("../../types/image.toml"),
        include_str!("../../types/link.toml"),
        include_str!("../../types/topic.toml"),
        include_str!("../../types/subtopic.toml"),
        include_str!("../../types/content_page.toml"),
        include_str!("../../types/chapter.toml"),
        include_str!("../../types/news_folder.toml"),
        include_str!("../../types/news.toml"),
        include_str!("../../types/text_block.toml"),
        include_str!("../../types/file_listing_block.toml"),
        include_str!("../../types/gallery_block.toml"),
        include_str!("../../types/video_block.toml"),
        include_str!("../../types/news_listing_block.toml"),
    ] {
        r.content_type(profile);
    }
    r.record(&crate::i18n::SITE_LANGUAGE);
    r.workflow(include_str!("../../workflows/simple_publication_workflow.toml"));
    r.workflow(include_str!("../../workflows/one_state_workflow.toml"));
}

crate::plugin!(id: "core", depends_on: [], build: build);
