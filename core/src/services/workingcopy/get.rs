//! `GET <obj>/@workingcopy`.

use crate::content::values::format_time;
use crate::endpoint;
use crate::http::schema::Nullable;
use crate::http::{ApiResult, Ctx, Json};
use crate::ops::working_copy::{WorkingCopyPair, pair_of};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// Shows the baseline / working copy pair the object belongs to.
pub static INFO: Service = Service {
    method: Method::GET,
    name: "@workingcopy",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "Working copy and baseline of this object (both null when none, or for non-editors)",
        endpoint!(get),
    )],
};

/// The baseline / working copy pair, as content serializations carry it too.
#[derive(Object)]
pub struct WorkingCopyInfo {
    /// The working copy; null when nothing is checked out.
    pub working_copy: Nullable<WorkingCopyItem>,
    /// The original it was checked out from; null when nothing is checked out.
    pub working_copy_of: Nullable<WorkingCopyBaseline>,
}

/// A working copy.
#[derive(Object)]
pub struct WorkingCopyItem {
    /// Its URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its title.
    pub title: String,
    /// When it was checked out (ISO 8601).
    pub created: String,
    /// Who checked it out: the full name, else the user id.
    pub creator_name: String,
    /// Their author page.
    pub creator_url: String,
}

/// The original of a working copy.
#[derive(Object)]
pub struct WorkingCopyBaseline {
    /// Its URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its title.
    pub title: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<WorkingCopyInfo>> {
    // As in content serializations, only editors learn about working copies.
    let pair =
        if ctx.allows(Permission::MODIFY_PORTAL_CONTENT) { pair_of(&ctx.app, &ctx.context).await? } else { None };
    let Some(WorkingCopyPair { baseline, working_copy }) = pair else {
        return Ok(Json(WorkingCopyInfo { working_copy: Nullable(None), working_copy_of: Nullable(None) }));
    };
    let creator = ctx.app.store.principal(&working_copy.creator).await?;
    let creator_name = creator.map(|p| p.fullname).filter(|n| !n.is_empty()).unwrap_or(working_copy.creator.clone());
    let copy = WorkingCopyItem {
        url: ctx.url_of(&working_copy),
        title: working_copy.title.clone(),
        created: format_time(working_copy.created),
        creator_name,
        creator_url: format!("{}/author/{}", ctx.site_url(), working_copy.creator),
    };
    let original = WorkingCopyBaseline { url: ctx.url_of(&baseline), title: baseline.title };
    Ok(Json(WorkingCopyInfo { working_copy: Nullable(Some(copy)), working_copy_of: Nullable(Some(original)) }))
}
