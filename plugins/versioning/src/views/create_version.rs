//! `POST <obj>/create_version`.

use super::{Page, form_value, see_other, view};
use crate::CREATE_VERSIONS;
use crate::store::create_version;
use wcs_core::endpoint;
use wcs_core::http::{ApiResult, Ctx, Raw, SeeOther};
use wcs_core::poem_reexports::Method;
use wcs_core::service::{FORM, Route, Service};

/// Creates a version from the form, then back to the list.
pub static CREATE_VERSION: Service = view(
    Method::POST,
    "create_version",
    CREATE_VERSIONS,
    &[Route {
        other_media: &[FORM],
        ..Route::new(
            "",
            "Form post (comment, _authenticator): create a version, then back to list_versions",
            endpoint!(create),
        )
    }],
);

async fn create(ctx: Ctx) -> ApiResult<Raw<SeeOther>> {
    let page = Page::new(&ctx).await?;
    let comment = form_value(&ctx, "comment").unwrap_or_default();
    create_version(&ctx.app, &ctx.context, &ctx.principal, &comment).await?;
    Ok(see_other(&format!("{}/list_versions", page.url())))
}
