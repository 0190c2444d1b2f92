//! `POST <obj>/restore_version`.

use super::{Page, form_value, see_other, view};
use crate::CREATE_VERSIONS;
use crate::restore::restore;
use crate::store::load_version;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Raw, SeeOther};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{FORM, Route, Service};

/// Restores a version from the form, then back to the object.
pub static RESTORE_VERSION: Service = view(
    Method::POST,
    "restore_version",
    CREATE_VERSIONS,
    &[Route {
        other_media: &[FORM],
        ..Route::new(
            "",
            "Form post (version_id, _authenticator): restore that version, then back to the object",
            endpoint!(restore_post),
        )
    }],
);

async fn restore_post(ctx: Ctx) -> ApiResult<Raw<SeeOther>> {
    let page = Page::new(&ctx).await?;
    let (_, chosen) = page.chosen(form_value(&ctx, "version_id").as_deref()).await?;
    let (info, snapshot) = load_version(&ctx.app, &ctx.context.uid, chosen.seq, &ctx.request.service_url).await?;
    restore(&ctx.app, &ctx.context, &info, &snapshot, &ctx.principal).await?;
    Ok(see_other(&page.url()))
}
