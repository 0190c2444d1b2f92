//! What a caller must hold for a service, or one of its routes, to run. The dispatcher checks
//! it before the handler and the OpenAPI document lists it, so a handler does not check in
//! secret what its declaration does not say.

use crate::context::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::security::Permission;

/// A service's or a route's guard.
#[derive(Clone, Copy, Debug)]
pub enum Guard {
    /// This permission on the context.
    Has(Permission),
    /// Any one of these permissions on the context; a caller with none is refused as the
    /// first would refuse them.
    AnyOf(&'static [Permission]),
    /// The user the route's `{id}` names (their own account), or this permission on the
    /// context. Only a route with an `{id}` parameter can name one.
    SelfOr(Permission),
}

impl Guard {
    /// Passes, or refuses the caller as the guard's permission does (401 or 403).
    pub fn check(&self, ctx: &Ctx) -> ApiResult<()> {
        match *self {
            Guard::Has(permission) => ctx.check(permission),
            Guard::AnyOf(permissions) => {
                if permissions.iter().any(|p| ctx.allows(*p)) {
                    return Ok(());
                }
                Err(match permissions.first() {
                    Some(first) => first.refuse(&ctx.principal),
                    None => ApiError::internal("a guard names no permission"),
                })
            }
            Guard::SelfOr(permission) => {
                let own = ctx.principal.user_id().is_some_and(|id| id == ctx.param("id"));
                if own { Ok(()) } else { ctx.check(permission) }
            }
        }
    }

    /// The permission the guard is listed under: its only one, or its first.
    pub fn permission(&self) -> Option<Permission> {
        match *self {
            Guard::Has(permission) | Guard::SelfOr(permission) => Some(permission),
            Guard::AnyOf(permissions) => permissions.first().copied(),
        }
    }

    /// The guard in words, for the OpenAPI document, when one permission does not say it all.
    pub fn describe(&self) -> Option<String> {
        match *self {
            Guard::Has(_) => None,
            Guard::AnyOf(permissions) => {
                let names: Vec<&str> = permissions.iter().map(|p| p.name()).collect();
                Some(format!("one of: {}", names.join(", ")))
            }
            Guard::SelfOr(permission) => Some(format!("the user {{id}} themselves, or {}", permission.name())),
        }
    }
}
