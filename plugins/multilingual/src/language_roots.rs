//! Multilingual mode, switched on in the language control panel: choosing two or more
//! available languages makes a language root folder for each (`/de`, `/fr`), published and
//! linked as one another's translations, and moves the content that was at the site root
//! into the site language's root folder, each old path redirecting to the new one. Choosing
//! another language later adds its root folder; taking one away leaves its folder and content
//! where they are (nothing is deleted by a setting).
//!
//! The work runs after the settings are saved, and again at every start, so that work a crash
//! interrupted is finished; each step finds what is done already and skips it.

use crate::languages::{is_language_root, root_path, site_languages};
use crate::store::{link, translations_of};
use crate::switcher::LANGUAGE_SWITCHER;
use serde_json::{Map, Value, json};
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::content::language::{autonym, codes, is_multilingual};
use wcs_core::content::values::{Mode, parse_changes};
use wcs_core::http::{ApiError, ApiResult, FieldError};
use wcs_core::i18n::SITE_LANGUAGE;
use wcs_core::ops::workflow::{TransitionRequest, transition};
use wcs_core::ops::{OnConflict, WriteOrigin, create_of_type, move_into, update};
use wcs_core::service::{SettingsHook, StartHook};
use wcs_core::services::AVAILABLE_LANGUAGES;
use wcs_core::site::Site;
use wcs_core::store::Visibility;

/// The most objects moved from the site root in one transaction.
const MOVE_BATCH: i64 = 500;

/// The hook on the language records.
pub static LANGUAGE_SETTINGS: SettingsHook = SettingsHook {
    name: "multilingual-language-roots",
    records: &[AVAILABLE_LANGUAGES.name, SITE_LANGUAGE.name],
    check: |app, values| Box::pin(check(app, values)),
    apply: |app, user| Box::pin(apply(app, user)),
};

/// Finishes at start-up what a save began.
pub static FINISH_AT_START: StartHook = StartHook {
    name: "multilingual-language-roots",
    run: |app| {
        Box::pin(async move {
            // Never a reason not to serve: what cannot be finished is logged, and tried again.
            let site_root = app.site_root().await.map_err(|e| e.to_string())?;
            if let Err(err) = apply(&app, &site_root.creator).await {
                tracing::error!(%err, "the language root folders could not be finished");
            }
            Ok(())
        })
    },
};

/// Refuses languages whose root folder's place is taken by other content, and a site
/// language that is not among the available ones.
async fn check(app: &App, values: &[(&str, Value)]) -> ApiResult<()> {
    let stored = site_languages(app).await?;
    let text = |v: &Value| v.as_str().map(str::to_owned);
    let default =
        values.iter().find(|(n, _)| *n == SITE_LANGUAGE.name).and_then(|(_, v)| text(v)).unwrap_or(stored.default);
    let available: Vec<String> = match values.iter().find(|(n, _)| *n == AVAILABLE_LANGUAGES.name) {
        Some((_, list)) => codes(list),
        None => stored.available,
    };
    if !is_multilingual(&app.types, &available) {
        return Ok(());
    }
    let mut errors = Vec::new();
    if !available.contains(&default) {
        errors.push(FieldError::new(
            "default_language",
            format!("The site language '{default}' must be one of the available languages of a multilingual site."),
        ));
    }
    let site_root = app.site_root().await?;
    let paths: Vec<String> = available.iter().map(|code| root_path(&site_root.path, code)).collect();
    let live = app.store.content_at_paths(&paths).await?;
    let ids = app.store.child_ids(&site_root.uid).await?;
    for code in available.iter().filter(|code| ids.contains(code) && !live.iter().any(|o| &o.id == *code)) {
        errors.push(FieldError::new(
            "available_languages",
            format!("'{code}' is taken by content in the trash: empty it or restore and rename that content first."),
        ));
    }
    for taken in live.iter().filter(|o| !is_language_root(app, o)) {
        errors.push(FieldError::new(
            "available_languages",
            format!(
                "'{}' is taken by a {} titled '{}': rename it before adding the language, whose root folder goes there.",
                taken.relative_path(),
                taken.portal_type,
                taken.title
            ),
        ));
    }
    if errors.is_empty() { Ok(()) } else { Err(ApiError::validation(errors)) }
}

/// Makes the missing root folders, links them, and moves the site root's other content into
/// the site language's folder.
async fn apply(app: &App, user: &str) -> ApiResult<()> {
    let languages = site_languages(app).await?;
    if !languages.multilingual {
        return Ok(());
    }
    let site_root = app.site_root().await?;
    let ids = app.store.child_ids(&site_root.uid).await?;
    let mut roots = Vec::new();
    for code in &languages.available {
        match app.store.content_at_path(&root_path(&site_root.path, code)).await? {
            Some(existing) if is_language_root(app, &existing) => roots.push(existing),
            // Another object holds the place (the save's check refused that; content in the
            // trash may hold it since): the language waits for it.
            Some(_) => {}
            None if ids.contains(code) => {}
            None => roots.push(make_root(app, &site_root, code, user).await?),
        }
    }
    let Some(default_root) = roots.iter().find(|root| root.id == languages.default).cloned() else {
        return Ok(());
    };
    let linked = translations_of(&app.store, &default_root.uid).await?;
    let unlinked: Vec<&ContentObject> =
        roots.iter().filter(|root| root.uid != default_root.uid && !linked.iter().any(|m| m.uid == root.uid)).collect();
    if !unlinked.is_empty() {
        let mut tx = app.store.begin().await?;
        for root in unlinked {
            link(&mut tx, &default_root, root).await?;
        }
        tx.commit().await?;
    }
    // The content is moved once, when the site becomes multilingual (the site root's view is
    // switched last, so an interrupted move is finished at the next start); what editors put
    // at the site root afterwards stays there.
    if site_root.fields.get("layout").and_then(Value::as_str) == Some(LANGUAGE_SWITCHER) {
        return Ok(());
    }
    move_site_content(app, &site_root, &default_root).await?;
    switch_languages_at_the_site_root(app, &site_root).await
}

/// The site root's view becomes the language switcher (see [`crate::switcher`]), as
/// plone.app.multilingual sets it.
async fn switch_languages_at_the_site_root(app: &App, site_root: &ContentObject) -> ApiResult<()> {
    let profile =
        app.types.get(&site_root.portal_type).ok_or_else(|| ApiError::internal("the site root's type is missing"))?;
    let body = Map::from_iter([("layout".to_owned(), json!(LANGUAGE_SWITCHER))]);
    let changes = parse_changes(&profile, &body, Mode::Patch, &[], &[])?;
    update(app, site_root, &changes, None, OnConflict::Reapply).await?;
    Ok(())
}

async fn make_root(app: &App, site_root: &ContentObject, code: &str, user: &str) -> ApiResult<ContentObject> {
    // A title block, as a new page has: Volto shows the folder's heading from it.
    let title_block = wcs_core::ops::new_uid();
    let body: Map<String, Value> = json!({
        "@type": "LRF",
        "id": code,
        "title": autonym(code),
        "language": code,
        "exclude_from_nav": true,
        "blocks": {&title_block: {"@type": "title"}},
        "blocks_layout": {"items": [&title_block]},
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let profile = app.types.get("LRF").ok_or_else(|| ApiError::internal("the type LRF is missing"))?;
    let origin = WriteOrigin { base_url: "", visibility: &Visibility::ALL };
    let root = create_of_type(app, site_root, &profile, &body, None, user, false, &origin).await?;
    let request = TransitionRequest { comment: String::new(), effective: None, expires: None };
    transition(app, std::slice::from_ref(&root), "publish", user, &request).await?;
    Ok(app.store.content_at_path(&root.path).await?.unwrap_or(root))
}

/// Moves the site root's content into the site language's folder, batch by batch; objects of
/// a type a language root folder does not take stay where they are (logged).
async fn move_site_content(site: &Site, site_root: &ContentObject, default_root: &ContentObject) -> ApiResult<()> {
    let root_profile =
        site.types.get(&default_root.portal_type).ok_or_else(|| ApiError::internal("the type LRF is missing"))?;
    let fits = |child: &ContentObject| {
        site.types.get(&child.portal_type).is_some_and(|profile| site.types.allows_child(&root_profile, &profile))
    };
    let mut staying = 0;
    loop {
        let children = site.store.children(&site_root.uid, &Visibility::ALL, staying, MOVE_BATCH).await?;
        if children.is_empty() {
            return Ok(());
        }
        let (movable, kept): (Vec<ContentObject>, Vec<ContentObject>) =
            children.into_iter().partition(|child| !is_language_root(site, child) && fits(child));
        for object in kept.iter().filter(|object| !is_language_root(site, object)) {
            tracing::warn!(path = %object.path, portal_type = %object.portal_type, "stays at the site root: a language root folder does not take its type");
        }
        staying += i64::try_from(kept.len()).unwrap_or(MOVE_BATCH);
        if !movable.is_empty() {
            move_into(site, &movable, default_root).await?;
        }
    }
}
