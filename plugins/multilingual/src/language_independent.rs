//! Language independent fields (a field whose profile says `language_independent = true`,
//! such as an event's dates): a change to one translation is copied to the others in the same
//! transaction, as plone.app.multilingual's `LanguageIndependentFieldsManager` does. Only
//! translations whose type has the field, also language independent, take the value.

use crate::store::members_in;
use wcs_core::content::ContentObject;
use wcs_core::http::ApiResult;
use wcs_core::service::UpdateHook;
use wcs_core::site::Site;
use wcs_core::store::Tx;

/// The hook.
pub static COPY_TO_TRANSLATIONS: UpdateHook = UpdateHook {
    name: "multilingual-language-independent-fields",
    run: |site, tx, before, after| Box::pin(copy_to_translations(site, tx, before, after)),
};

async fn copy_to_translations(
    site: &Site,
    tx: &mut Tx,
    before: &ContentObject,
    after: &ContentObject,
) -> ApiResult<()> {
    let Some(profile) = site.types.get(&after.portal_type) else { return Ok(()) };
    let changed: Vec<&str> = profile
        .fields
        .iter()
        .filter(|field| field.language_independent && before.fields.get(&field.name) != after.fields.get(&field.name))
        .map(|field| field.name.as_str())
        .collect();
    if changed.is_empty() {
        return Ok(());
    }
    for member in members_in(tx, &after.uid).await? {
        let Some(translation) = tx.content_by_uid(&member.uid).await? else { continue };
        let Some(theirs) = site.types.get(&translation.portal_type) else { continue };
        let mut copied = translation.clone();
        for name in &changed {
            if !theirs.field(name).is_some_and(|field| field.language_independent) {
                continue;
            }
            match after.fields.get(*name) {
                Some(value) => copied.fields.insert((*name).to_owned(), value.clone()),
                None => copied.fields.remove(*name),
            };
        }
        if copied != translation {
            copied.modified = after.modified.max(translation.modified + chrono::Duration::microseconds(1));
            tx.update_content(&translation, &copied).await?;
        }
    }
    Ok(())
}
