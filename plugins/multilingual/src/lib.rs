//! Multilingual sites for wcs-backend, as plone.app.multilingual has them and Volto's
//! multilingual mode expects: each language's content under its language root folder
//! (`/de`, `/fr`), which is its own navigation root, and translation groups that link an
//! object to its translations.
//!
//! A site owner switches it on in Site Setup → Language by choosing two or more available
//! languages (see [`language_roots`]). `@translations` lists, links and unlinks an object's
//! translations; `@translation-locator` says where a new translation belongs; a new object
//! with `translation_of` and `language` joins the group at once. Each translation is an
//! object of its own, with its own workflow state and local roles: callers see only the
//! translations they may view. Fields a profile marks language independent (an event's dates)
//! are copied to the translations whenever one of them changes. A moved site's translation
//! groups come in with `wcs import-plone` (plone.exportimport's `translations.json`).

mod language_independent;
mod language_roots;
mod languages;
mod store;
mod switcher;
mod target;
mod translation_locator;
mod translation_of;
mod translations_delete;
mod translations_file;
mod translations_get;
mod translations_post;

use wcs_core::events::Event;
use wcs_core::plugin::Registrar;
use wcs_core::store::{Phase, Subscriber};

/// The plugin's id, as named in `--disable-plugin` and the manifest.
pub const PLUGIN_ID: &str = "multilingual";

/// Keeps the groups true to the content in the writing transaction: an object deleted for
/// good leaves its group, and one whose language changes keeps its group under the new
/// language (or leaves it, when the group has that language already or it has none now).
static FOLLOW_CONTENT: Subscriber = Subscriber {
    name: "multilingual-follow-content",
    phase: Phase::InTransaction(|tx, events| {
        Box::pin(async move {
            if events.iter().any(|e| matches!(e, Event::Removed { .. })) {
                store::drop_orphans(tx).await?;
            }
            let mut relanguaged = Vec::new();
            for event in events {
                if let Event::Modified { uid, fields } = event
                    && fields.iter().any(|f| f == wcs_core::content::LANGUAGE_FIELD)
                    && let Some(object) = tx.content_by_uid(uid).await?
                {
                    relanguaged.push((uid.clone(), object.language().unwrap_or_default().to_owned()));
                }
            }
            store::relanguage(tx, &relanguaged).await?;
            Ok(())
        })
    }),
};

fn build(r: &mut Registrar) {
    r.migrations(&store::MIGRATIONS);
    r.content_type(include_str!("../types/lrf.toml"));
    r.service(&translations_get::GET);
    r.service(&translations_post::POST);
    r.service(&translations_delete::DELETE);
    r.service(&translation_locator::LOCATOR);
    r.component(&translations_get::COMPONENT);
    r.create_key(&translation_of::TRANSLATION_OF);
    r.on_update(&language_independent::COPY_TO_TRANSLATIONS);
    r.event_kind(&store::TRANSLATION_LINKED);
    r.event_kind(&store::TRANSLATION_UNLINKED);
    r.subscriber(&FOLLOW_CONTENT);
    r.request_hook(&switcher::SWITCHER);
    r.on_settings(&language_roots::LANGUAGE_SETTINGS);
    r.on_start(&language_roots::FINISH_AT_START);
    r.site_file(&translations_file::TRANSLATIONS);
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
