//! `POST <obj>/delete_version`.

use super::{Page, form_value, see_other, view};
use crate::CREATE_VERSIONS;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Raw, SeeOther};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{FORM, Route, Service};

/// Deletes a version from the form, then back to the list.
pub static DELETE_VERSION: Service = view(
    Method::POST,
    "delete_version",
    CREATE_VERSIONS,
    &[Route {
        other_media: &[FORM],
        ..Route::new(
            "",
            "Form post (version_id, _authenticator): delete that version, then back to list_versions",
            endpoint!(delete_post),
        )
    }],
);

async fn delete_post(ctx: Ctx) -> ApiResult<Raw<SeeOther>> {
    let page = Page::new(&ctx).await?;
    let (_, chosen) = page.chosen(form_value(&ctx, "version_id").as_deref()).await?;
    let mut tx = ctx.app.store.begin().await?;
    crate::tables::delete_version(&mut tx, &chosen.object_uid, chosen.seq).await?;
    tx.commit().await?;
    Ok(see_other(&format!("{}/list_versions", page.url())))
}
