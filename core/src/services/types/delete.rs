//! `DELETE @types/<type>/<field-or-fieldset>`: removes a field added through the web (objects
//! keep their values until next saved, as in Plone), or one of the type's own fieldsets (its
//! fields go back to the first tab). Fields the type's profile declares stay.

use super::edit::{Origin, edit_type};
use super::get::unknown_field;
use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, NoContent};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;

/// The service.
pub static TYPES_DELETE: Service = Service {
    method: Method::DELETE,
    name: "@types",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::MANAGE_PORTAL),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "{name}/{field}",
        "Remove a field added through the web, or a fieldset of the type's own",
        endpoint!(remove),
    )],
};

async fn remove(ctx: Ctx) -> ApiResult<NoContent> {
    let (name, field) = (ctx.param("name").to_owned(), ctx.param("field").to_owned());
    let declared = ctx.app.types.profiles().get(&name).is_some_and(|p| p.field(&field).is_some());
    edit_type(&ctx, &name, |profile, origin| {
        if let Some(at) = profile.fieldsets.iter().position(|f| f.id == field) {
            profile.fieldsets.remove(at);
            return Ok(());
        }
        if profile.field(&field).is_none() {
            return Err(unknown_field(&ctx));
        }
        if origin == Origin::Profile && declared {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("The field '{field}' comes from the type's profile and cannot be removed."),
            ));
        }
        profile.remove_field(&field);
        Ok(())
    })
    .await?;
    Ok(NoContent::NoContent)
}
