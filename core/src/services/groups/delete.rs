//! `DELETE @groups/<id>`.

use super::{load_group, stored_only};
use crate::app::SITE_TYPE;
use crate::endpoint;
use crate::http::{ApiResult, Ctx, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Route, Service};
use poem::http::Method;

/// Deletes a stored group; the virtual AuthenticatedUsers cannot be.
pub static GROUPS_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@groups",
    kind: ContentKind::Type(SITE_TYPE),
    permission: Permission::MANAGE_USERS,
    csrf: Csrf::Cookie,
    routes: &[Route::new("{id}", "Delete a group", endpoint!(delete))],
};

async fn delete(ctx: Ctx) -> ApiResult<NoContent> {
    let id = ctx.param("id");
    stored_only(id)?;
    load_group(&ctx, id).await?;
    let mut tx = ctx.app.store.begin().await?;
    tx.delete_principal(id).await?;
    tx.commit().await?;
    ctx.app.credentials_changed();
    Ok(NoContent::NoContent)
}
