//! `DELETE @controlpanels/dexterity-types/<type>`: deletes a type made through the web once no
//! object is of it; types from profiles stay.

use crate::endpoint;
use crate::error::ApiResult;
use crate::http::{Ctx, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use crate::services::types::delete_type;
use poem::http::Method;

/// Deletes types.
pub static DELETE: Service = Service {
    method: Method::DELETE,
    name: "@controlpanels/dexterity-types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "{type}",
        "Delete a content type made through the web that no object is of",
        endpoint!(remove),
    )],
};

async fn remove(ctx: Ctx) -> ApiResult<NoContent> {
    delete_type(&ctx, ctx.param("type")).await?;
    Ok(NoContent::NoContent)
}
