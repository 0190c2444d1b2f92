//! plone.exportimport's `translations.json`, read by `wcs import-plone` once a moved site's
//! content is in: each entry is a translation group, its `canonical` object and the uid of its
//! translation in each other language. Imported objects keep their uids, so the uids name
//! them here. Each group is linked as `@translations` links (plone.app.multilingual's
//! `register_translation`); a member already linked is left as it is, so an import run again
//! changes nothing.

use crate::store::{link, members_in};
use serde_json::{Map, Value};
use wcs_core::app::App;
use wcs_core::content::ContentObject;
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::service::{ImportOutcome, ImportStep};

/// The step.
pub static IMPORT_TRANSLATIONS: ImportStep = ImportStep {
    file: "translations.json",
    entries: "translation groups",
    run: |app, file| Box::pin(import(app, file)),
};

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
