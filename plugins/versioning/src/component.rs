//! `@components.versions`: present only on content with the `versioning` behaviour. Expanded
//! (`expand=versions`) it is the version list; a caller who may not access versions gets only
//! the `@id`, so the content request itself still succeeds.

use crate::items::version_list;
use crate::{ACCESS_VERSIONS, CREATE_VERSIONS, VERSIONING};
use poem_openapi::types::ToJSON;
use serde_json::{Value, json};
use wcs_core::http::ApiResult;
use wcs_core::security::{Access, Permission};
use wcs_core::serialize::{Component, SerializeCtx, Subject};
use wcs_core::service::ContentKind;

/// The `versions` component.
pub static VERSIONS_COMPONENT: Component = Component {
    name: "versions",
    kind: ContentKind::Behaviour(VERSIONING),
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Ok(expand(ctx, subject).await?.into()) }),
};

async fn expand(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ApiResult<Value> {
    let url = subject.object.url(ctx.base_url);
    let stub = json!({"@id": format!("{url}/@versions")});
    // The request's access covers the requested object; anything else (a nested item) is
    // checked on its own.
    let own;
    let access = if ctx.access.object().is_some_and(|o| o.uid == subject.object.uid) {
        ctx.access
    } else {
        own = Access::for_object(ctx.site, ctx.principal, subject.object).await?;
        &own
    };
    let allowed = |permission: Permission| access.allows(ctx.site, permission);
    if !allowed(Permission::VIEW) || !allowed(ACCESS_VERSIONS) {
        return Ok(stub);
    }
    Ok(version_list(ctx.site, subject.object, &url, allowed(CREATE_VERSIONS)).await?.to_json().unwrap_or_default())
}
