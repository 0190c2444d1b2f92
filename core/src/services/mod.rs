//! Core's standard endpoints, registered as the plugin `core` through the same API every
//! plugin uses. One file per endpoint, named after it; an endpoint with several methods is a
//! folder with one file per method and its shared helpers in `mod.rs`.

mod actions;
mod aliases;
mod audit_log;
mod authenticator;
mod breadcrumbs;
mod content_delete;
mod content_get;
mod content_languages;
mod content_patch;
mod content_post;
mod content_put;
mod content_query;
mod content_write;
mod controlpanels;
mod copy;
mod csv_upload;
mod download;
mod email;
mod groups;
mod ics_view;
mod images;
mod inherit;
mod linkintegrity;
mod lock;
mod login;
mod login_form;
mod login_renew;
mod logout;
mod move_copy_sources;
pub use csv_upload::form_file;
pub use move_copy_sources::reference_key;
pub use site::AVAILABLE_LANGUAGES;
mod move_to;
mod openapi;
mod plugins;
pub mod portrait;
mod principal_forms;
mod principal_items;
mod principal_search;
mod querystring;
pub mod records_save;
mod registry;
mod relations;
mod relations_query;
mod relations_write;
mod resolveuid;
mod roles;
mod search;
mod sharing;
mod site;
mod system;
mod trash;
mod tus;
mod types;
mod untrash;
mod users;
mod userschema;
mod view;
mod vocabularies;
mod workflow;
mod workflow_set_state;
mod workingcopy;

use crate::plugin::Registrar;
use crate::serialize;
// `@querystring-search`'s parser of untrusted criteria, public for the fuzz targets.
pub use querystring::{QueryPlace, to_search_pairs as querystring_search_pairs};

fn build(r: &mut Registrar) {
    services(r);
    r.subscriber(&crate::store::change_feed::CHANGE_FEED);
    for kind in [&crate::events::USER_LOGGED_IN, &crate::events::USER_LOGGED_OUT, &crate::events::USER_CREATED] {
        r.event_kind(kind);
    }
    serializers(r);
    content(r);
}

/// Core's endpoints, one per file.
fn services(r: &mut Registrar) {
    r.service(&content_get::GET);
    r.service(&view::VIEW);
    r.service(&content_post::POST);
    r.service(&content_patch::PATCH);
    r.service(&content_put::PUT);
    r.service(&tus::TUS_UPLOAD);
    r.service(&tus::TUS_REPLACE);
    r.service(&tus::TUS_STATUS);
    r.service(&tus::TUS_WRITE);
    r.service(&content_delete::DELETE);
    r.service(&move_to::MOVE);
    r.service(&copy::COPY);
    r.service(&download::DOWNLOAD);
    r.service(&types::TYPES);
    r.service(&types::TYPES_POST);
    r.service(&types::TYPES_PATCH);
    r.service(&types::TYPES_PUT);
    r.service(&types::TYPES_DELETE);
    r.service(&search::SEARCH);
    r.service(&workflow::get::WORKFLOW_GET);
    r.service(&workflow::post::WORKFLOW_POST);
    r.service(&workflow_set_state::SET_STATE);
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
    r.service(&audit_log::AUDIT_LOG);
    r.service(&relations::RELATIONS);
    r.service(&relations_write::RELATIONS_POST);
    r.service(&relations_write::RELATIONS_DELETE);
    r.service(&registry::get::REGISTRY_GET);
    r.service(&registry::patch::REGISTRY_PATCH);
    r.service(&vocabularies::VOCABULARIES);
    r.service(&resolveuid::RESOLVEUID);
    r.service(&images::IMAGES);
    r.service(&ics_view::ICS_VIEW);
    r.service(&portrait::PORTRAIT);
    r.service(&sharing::get::SHARING_GET);
    r.service(&sharing::post::SHARING_POST);
    r.service(&trash::post::TRASH);
    r.service(&untrash::UNTRASH);
    r.service(&trash::get::TRASH_LIST);
    r.service(&workingcopy::post::CHECK_OUT);
    r.service(&workingcopy::get::INFO);
    r.service(&workingcopy::patch::CHECK_IN);
    r.service(&workingcopy::delete::CANCEL);
    r.service(&breadcrumbs::BREADCRUMBS);
    r.service(&inherit::INHERIT);
    r.service(&site::SITE);
    r.vocabulary(&content_languages::SUPPORTED_LANGUAGES);
    r.service(&actions::ACTIONS);
    r.service(&lock::get::LOCK_GET);
    r.service(&lock::post::LOCK_POST);
    r.service(&lock::patch::LOCK_PATCH);
    r.service(&lock::delete::LOCK_DELETE);
    r.service(&roles::ROLES);
    r.service(&userschema::USER_SCHEMA);
    r.service(&controlpanels::CONTROLPANELS);
    r.service(&controlpanels::DEXTERITY_TYPES_GET);
    r.service(&controlpanels::DEXTERITY_TYPES_POST);
    r.service(&controlpanels::DEXTERITY_TYPES_PATCH);
    r.service(&controlpanels::DEXTERITY_TYPES_DELETE);
    r.service(&plugins::PLUGINS);
    r.service(&openapi::OPENAPI);
    for service in [
        &system::SYSTEM,
        &system::DATABASE,
        &system::ADDONS,
        &system::ADDONS_POST,
        &system::UPGRADE,
        &system::UPGRADE_RUN,
        &system::TRANSACTIONS,
        &system::TRANSACTIONS_UNDO,
    ] {
        r.service(service);
    }
    r.service(&controlpanels::CONTROLPANEL_PATCH);
    for panel in [
        &controlpanels::SITE_PANEL,
        &controlpanels::LANGUAGE_PANEL,
        &controlpanels::DATE_AND_TIME_PANEL,
        &controlpanels::CONTENT_TYPES_PANEL,
        &crate::mail::MAIL_PANEL,
        &crate::security::settings::SECURITY_PANEL,
        &crate::security::settings::USERGROUP_PANEL,
    ] {
        r.control_panel(panel);
    }
    r.record(&crate::security::settings::ENABLE_SELF_REG);
    r.record(&crate::security::settings::USE_EMAIL_AS_LOGIN);
    r.record(&crate::security::settings::MANY_USERS);
    r.record(&crate::security::settings::MANY_GROUPS);
    for record in crate::mail::MAIL_RECORDS {
        r.record(record);
    }
    r.record(&email::CONTACT_PER_MINUTE);
    r.record(&crate::plugin::SWITCHED_OFF_PLUGINS);
    r.service(&email::EMAIL_SEND);
    r.service(&email::EMAIL_NOTIFICATION);
    r.on_start(&MAIL_SENDER);
    r.service(&linkintegrity::LINK_INTEGRITY);
    r.service(&aliases::ALIASES);
    r.service(&aliases::ALIASES_POST);
    r.service(&aliases::ALIASES_DELETE);
    r.service(&querystring::config::QUERYSTRING);
    let querystring_records = querystring::records::FIELD_RECORDS.iter().flatten();
    for record in querystring_records.chain(querystring::records::OPERATION_RECORDS.iter().flatten()) {
        r.record(record);
    }
    r.service(&querystring::search::QUERYSTRING_SEARCH_POST);
    r.service(&querystring::search::QUERYSTRING_SEARCH_GET);
}

/// How content becomes JSON: the layers, the field serializers and the components.
fn serializers(r: &mut Registrar) {
    r.component(&types::TYPES_COMPONENT);
    r.component(&breadcrumbs::BREADCRUMBS_COMPONENT);
    r.component(&inherit::INHERIT_COMPONENT);
    r.component(&actions::ACTIONS_COMPONENT);
    r.component(&workflow::get::WORKFLOW_COMPONENT);
    r.component(&aliases::ALIASES_COMPONENT);
    r.content_serializer(&serialize::CORE_BASE);
    r.content_serializer(&serialize::CORE_FOLDER);
    r.content_serializer(&querystring::collection::COLLECTION_ITEMS);
    r.content_serializer(&serialize::BLOCK_PAGE);
    r.content_serializer(&serialize::BLOCK);
    r.field_serializer(&serialize::RICH_TEXT_FIELD);
    r.field_serializer(&serialize::BLOCKS_FIELD);
    r.field_serializer(&serialize::FILE_FIELD);
    r.field_serializer(&serialize::IMAGE_FIELD);
    r.field_serializer(&serialize::LINK_FIELD);
    r.field_serializer(&serialize::LANGUAGE_FIELD);
    r.field_serializer(&serialize::URI_LINK_FIELD);
    r.field_serializer(&serialize::RELATION_CHOICE_FIELD);
    r.field_serializer(&serialize::RELATION_LIST_FIELD);
}

/// `start`: when an event begins, as Plone's catalog indexes it (listing blocks' "upcoming
/// events", `sort_on=start`).
static EVENT_START: crate::catalog::FieldIndex = crate::catalog::FieldIndex { name: "start", field: "start" };
/// `end`: when an event ends.
static EVENT_END: crate::catalog::FieldIndex = crate::catalog::FieldIndex { name: "end", field: "end" };

/// Core's content types (Plone's standard ones), workflows and records.
fn content(r: &mut Registrar) {
    r.field_kind(&crate::content::QUERY);
    for profile in [
        include_str!("../../types/plone_site.toml"),
        include_str!("../../types/folder.toml"),
        include_str!("../../types/document.toml"),
        include_str!("../../types/file.toml"),
        include_str!("../../types/image.toml"),
        include_str!("../../types/link.toml"),
        include_str!("../../types/news_item.toml"),
        include_str!("../../types/event.toml"),
        include_str!("../../types/collection.toml"),
    ] {
        r.content_type(profile);
    }
    r.catalog_index(&EVENT_START);
    r.catalog_index(&EVENT_END);
    r.record(&crate::i18n::SITE_LANGUAGE);
    for record in [&site::SITE_LOGO, &site::AVAILABLE_LANGUAGES, &site::PORTAL_TIMEZONE, &site::ROBOTS_TXT] {
        r.record(record);
    }
    r.workflow(include_str!("../../workflows/simple_publication_workflow.toml"));
    r.workflow(include_str!("../../workflows/one_state_workflow.toml"));
}

crate::plugin!(id: "core", depends_on: [], build: build);

/// Starts sending the mail outbox.
static MAIL_SENDER: crate::service::StartHook = crate::service::StartHook {
    name: "mail sender",
    run: |app| {
        Box::pin(async move {
            crate::mail::spawn(&app);
            Ok(())
        })
    },
};
