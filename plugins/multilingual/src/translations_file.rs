//! plone.exportimport's `translations.json`, read by `wcs import-plone` once a moved site's
//! content is in and written by `wcs export-plone`: each entry is a translation group, its
//! `canonical` object and the uid of its translation in each other language. Objects keep
//! their uids both ways, so the uids name them here. On import each group is linked as
//! `@translations` links (plone.app.multilingual's `register_translation`); a member already
//! linked is left as it is, so an import run again changes nothing.

use crate::store::{link, members_in};
use serde_json::{Map, Value, json};
use sqlx::Row;
use std::collections::BTreeMap;
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::i18n::SITE_LANGUAGE;
use wcs_core::service::{ExportedFile, ImportOutcome, SiteFile};

/// The file.
pub static TRANSLATIONS: SiteFile = SiteFile {
    file: "translations.json",
    entries: "translation groups",
    import: |app, file| Box::pin(import(app, file)),
    export: |app| Box::pin(export(app)),
};

/// Every group of two or more objects out of the trash. Plone's canonical object is the
/// original a group was made from; groups here do not keep which one that was, so the member
/// in the site language stands for it (else the first by language), which is what a site
/// translated from its default language had.
async fn export(app: &App) -> ApiResult<ExportedFile> {
    let rows = sqlx::query(
        "SELECT t.tg, t.content_uid, t.language FROM translation t JOIN content c ON c.uid = t.content_uid \
         WHERE c.trashed = 0 ORDER BY t.tg, t.language",
    )
    .fetch_all(app.store.pool())
    .await?;
    let site_language = app.record_value(&SITE_LANGUAGE).await?;
    let site_language = site_language.as_str().unwrap_or_default();
    let mut groups: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for row in &rows {
        groups.entry(row.try_get(0)?).or_default().push((row.try_get(2)?, row.try_get(1)?));
    }
    let mut entries: Vec<(String, Map<String, Value>)> = Vec::new();
    for members in groups.into_values().filter(|m| m.len() > 1) {
        let canonical = members.iter().position(|(language, _)| language == site_language).unwrap_or(0);
        let translations = members
            .iter()
            .enumerate()
            .filter(|(index, _)| *index != canonical)
            .map(|(_, (language, uid))| (language.clone(), Value::from(uid.clone())))
            .collect();
        entries.push((members[canonical].1.clone(), translations));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let count = entries.len();
    let file = entries
        .into_iter()
        .map(|(canonical, translations)| json!({"canonical": canonical, "translations": translations}));
    Ok(ExportedFile { json: Value::Array(file.collect()), entries: count })
}

async fn import(app: &App, file: &Value) -> ApiResult<ImportOutcome> {
    let groups = file.as_array().ok_or_else(|| {
        ApiError::new(ErrorCode::BadRequest, "translations.json must hold a list of translation groups.")
    })?;
    let mut outcome = ImportOutcome::default();
    for (index, group) in groups.iter().enumerate() {
        let (Some(canonical), Some(translations)) =
            (group.get("canonical").and_then(Value::as_str), group.get("translations").and_then(Value::as_object))
        else {
            outcome.skipped.push(format!("group {index}: it needs 'canonical' and 'translations'"));
            continue;
        };
        match link_group(app, canonical, translations, &mut outcome.skipped).await? {
            true => outcome.imported += 1,
            false => outcome.skipped.push(format!("group of {canonical}: no member could be linked")),
        }
    }
    Ok(outcome)
}

/// Links one group's members to its canonical object in one transaction; `true` when the
/// group holds at least one translation afterwards.
async fn link_group(
    app: &App,
    canonical: &str,
    translations: &Map<String, Value>,
    skipped: &mut Vec<String>,
) -> ApiResult<bool> {
    let mut uids = vec![canonical.to_owned()];
    uids.extend(translations.values().filter_map(Value::as_str).map(str::to_owned));
    let objects = app.store.content_by_uids(&uids).await?;
    let find = |uid: &str| objects.iter().find(|o| o.uid == uid);
    let Some(original) = find(canonical) else {
        skipped.push(format!("group of {canonical}: that object is not on this site"));
        return Ok(false);
    };
    let mut tx = app.store.begin().await?;
    let mut linked = 0;
    for (language, uid) in translations {
        let Some(translation) = uid.as_str().and_then(find) else {
            skipped.push(format!("group of {canonical}: its {language} translation {uid} is not on this site"));
            continue;
        };
        if let Some(problem) = mismatch(original, translation, language) {
            skipped.push(format!("group of {canonical}: {problem}"));
            continue;
        }
        let members = members_in(&mut tx, &original.uid).await?;
        if members.iter().any(|m| m.uid == translation.uid && m.language == language.as_str()) {
            linked += 1;
            continue;
        }
        match link(&mut tx, original, translation).await {
            Ok(()) => linked += 1,
            Err(refused) => skipped.push(format!("group of {canonical}, {language}: {}", refused.message)),
        }
    }
    tx.commit().await?;
    Ok(linked > 0)
}

/// Why `translation` cannot be `original`'s translation into `language`, if it cannot.
fn mismatch(original: &ContentObject, translation: &ContentObject, language: &str) -> Option<String> {
    match translation.language() {
        _ if original.language() == Some(language) => {
            Some(format!("'{}' is in {language} itself (Plone skips such a link too)", original.id))
        }
        Some(own) if own == language => None,
        own => {
            Some(format!("'{}' is listed as {language} but is in {}", translation.path, own.unwrap_or("no language")))
        }
    }
}
