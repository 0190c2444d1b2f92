//! `GET <site>/resolveuid/<uid>[/…]`: where stored internal links lead. Serializers resolve
//! them to URLs; this view serves the ones they could not (hidden or gone) and links from
//! outside, redirecting to the object's current URL.

use crate::endpoint;
use crate::http::{ApiError, ApiResult, Ctx, Found, PATH_SEGMENT, Raw};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::Response;
use poem::http::{Method, StatusCode, header};

/// Redirects to the object with the uid, keeping any further path segments.
pub static RESOLVEUID: Service = Service {
    method: Method::GET,
    name: "resolveuid",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("{uid}", "Redirect (302) to the current URL of the object with the UID", endpoint!(resolve)),
        Route::new("{uid}/{rest}", "Redirect (302) to a path below the object with the UID", endpoint!(resolve)),
    ],
};

async fn resolve(ctx: Ctx) -> ApiResult<Raw<Found>> {
    let not_found = || ApiError::not_found(&ctx.request.service_url);
    let (uid, rest) = ctx.subpath.split_first().ok_or_else(not_found)?;
    let visibility = ctx.visibility();
    let target = ctx
        .app
        .store
        .visible_content_by_uids(&[uid.to_ascii_lowercase()], &visibility)
        .await?
        .pop()
        .ok_or_else(not_found)?;
    let mut location = ctx.url_of(&target);
    for segment in rest {
        location.push('/');
        location.extend(percent_encoding::utf8_percent_encode(segment, PATH_SEGMENT));
    }
    Ok(Raw::new(Response::builder().status(StatusCode::FOUND).header(header::LOCATION, location).finish()))
}
