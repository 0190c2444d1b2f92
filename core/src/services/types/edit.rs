//! One edit of a content type, as every write of `@types` and of the Content Types panel
//! makes it: in a transaction that first counts the edit (so edits of several requests or
//! instances queue rather than overwrite each other), from the type as stored, checked whole
//! against the registry and against the values objects already hold, then stored and applied
//! at once on this instance (the others notice within [`crate::site::TYPE_EDITS_POLL`]).

use crate::content::type_edits::{TypeEdit, made_through_the_web, merge};
use crate::content::values::stored_value_misfit;
use crate::content::{FieldDef, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::http::Ctx;
use crate::store::Tx;
use std::sync::Arc;

/// How many objects a refused change names; the message counts the rest.
const NAMED_OBJECTS: usize = 10;

/// Edits type `id` with `change`, which gets the type as last saved; answers the type as now
/// served.
pub async fn edit_type(
    ctx: &Ctx,
    id: &str,
    change: impl FnOnce(&mut TypeProfile, Origin) -> ApiResult<()>,
) -> ApiResult<Arc<TypeProfile>> {
    let mut tx = ctx.app.store.begin().await?;
    tx.bump_type_edits_revision().await?;
    let (created, mut profile) = match tx.type_edit(id).await? {
        Some(edit) => (edit.created, edit.profile),
        None => {
            let profile = ctx.app.types.profiles().get(id).ok_or_else(|| unknown_type(id))?;
            (false, TypeProfile::clone(profile))
        }
    };
    let before = profile.clone();
    let origin = if created { Origin::ThroughTheWeb } else { Origin::Profile };
    change(&mut profile, origin)?;
    let served = checked(ctx, &profile, created)?;
    check_stored_values(ctx, &mut tx, &before, &served).await?;
    tx.put_type_edit(&TypeEdit { created, profile }).await?;
    tx.commit().await?;
    ctx.app.refresh_types().await?;
    ctx.app.types.get(id).ok_or_else(|| ApiError::internal(format!("type '{id}' is missing after its edit")))
}

/// Stores a type made through the web.
pub async fn create_type(ctx: &Ctx, mut profile: TypeProfile) -> ApiResult<Arc<TypeProfile>> {
    let id = profile.id.clone();
    let mut tx = ctx.app.store.begin().await?;
    tx.bump_type_edits_revision().await?;
    if ctx.app.types.profiles().get(&id).is_some() || tx.type_edit(&id).await?.is_some() {
        return Err(ApiError::new(ErrorCode::Conflict, format!("A content type '{id}' exists already.")));
    }
    profile.extend = false;
    checked(ctx, &profile, true)?;
    tx.put_type_edit(&TypeEdit { created: true, profile }).await?;
    tx.commit().await?;
    ctx.app.refresh_types().await?;
    ctx.app.types.get(&id).ok_or_else(|| ApiError::internal(format!("type '{id}' is missing after its creation")))
}

/// Deletes a type made through the web, which no object may be of any longer.
pub async fn delete_type(ctx: &Ctx, id: &str) -> ApiResult<()> {
    let mut tx = ctx.app.store.begin().await?;
    tx.bump_type_edits_revision().await?;
    let created = tx.type_edit(id).await?.is_some_and(|edit| edit.created);
    if !created {
        return Err(match ctx.app.types.profiles().get(id) {
            Some(_) => ApiError::new(
                ErrorCode::BadRequest,
                format!("The content type '{id}' comes from a profile and cannot be deleted; it can be edited."),
            ),
            None => unknown_type(id),
        });
    }
    let objects = tx.count_of_type(id).await?;
    if objects > 0 {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            format!("{objects} objects are of type '{id}'; delete them or move their content first."),
        ));
    }
    tx.delete_type_edit(id).await?;
    tx.commit().await?;
    ctx.app.refresh_types().await
}

/// Where the edited type comes from, which decides what may change.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A profile defines it: its own fields keep their kinds and cannot be removed.
    Profile,
    /// It was made through the web: everything may change.
    ThroughTheWeb,
}

/// The 404 of a type that does not exist, in upstream's words.
pub fn unknown_type(id: &str) -> ApiError {
    ApiError::new(ErrorCode::NotFound, format!("Type '{id}' could not be found."))
}

/// The type as it would be served, or the 400 saying why it cannot be.
fn checked(ctx: &Ctx, profile: &TypeProfile, created: bool) -> ApiResult<TypeProfile> {
    let registry = ctx.app.types.snapshot();
    let mut served = match ctx.app.types.profiles().get(&profile.id) {
        Some(base) if !created => merge(base, profile),
        _ => made_through_the_web(profile),
    };
    registry.prepare(&mut served).map_err(|message| ApiError::new(ErrorCode::BadRequest, message))?;
    let known = |t: &String| registry.get(t).is_some() || *t == served.id;
    let named = served.allowed_types.iter().flatten().chain(served.fields.iter().flat_map(|f| &f.target_types));
    if let Some(unknown) = named.into_iter().find(|t| !known(t)) {
        return Err(ApiError::new(ErrorCode::BadRequest, format!("There is no content type '{unknown}'.")));
    }
    for workflow in &served.workflow {
        if ctx.app.workflows.get(workflow).is_none() {
            return Err(ApiError::new(ErrorCode::BadRequest, format!("There is no workflow '{workflow}'.")));
        }
    }
    Ok(served)
}

/// Refuses a change of a field's kind or limits that values objects hold would no longer fit,
/// naming those objects (values of removed fields stay stored, unchecked, as in Plone). Read in
/// the edit's transaction, so a write queued before it in the same commit is seen too.
async fn check_stored_values(ctx: &Ctx, tx: &mut Tx, before: &TypeProfile, after: &TypeProfile) -> ApiResult<()> {
    let registry = ctx.app.types.snapshot();
    let mut before = before.clone();
    // The kinds of the stored profile are names only until resolved.
    if registry.prepare(&mut before).is_err() {
        return Ok(());
    }
    for new in &after.fields {
        let Some(old) = before.field(&new.name) else { continue };
        if !constrains_differently(old, new) {
            continue;
        }
        let values = tx.values_of_field(&after.id, &new.name).await?;
        let misfits: Vec<(String, String)> = values
            .iter()
            .filter_map(|(_, path, value)| stored_value_misfit(old, new, value).map(|why| (path.clone(), why)))
            .collect();
        if let Some((_, why)) = misfits.first() {
            let site_path = format!("/{}", ctx.app.settings.site_id);
            let named: Vec<String> = misfits
                .iter()
                .take(NAMED_OBJECTS)
                .map(|(path, _)| path.strip_prefix(&site_path).unwrap_or(path).to_owned())
                .collect();
            let more = misfits.len().saturating_sub(NAMED_OBJECTS);
            let rest = if more > 0 { format!(" and {more} more") } else { String::new() };
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "The values of field '{}' that {} hold{} would no longer fit ({why}); change or clear them first.",
                    new.name,
                    named.join(", "),
                    rest
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a value valid for `old` may be invalid for `new`.
fn constrains_differently(old: &FieldDef, new: &FieldDef) -> bool {
    old.kind != new.kind
        || old.vocabulary != new.vocabulary
        || old.max_length != new.max_length
        || old.min_length != new.min_length
        || old.pattern != new.pattern
}
