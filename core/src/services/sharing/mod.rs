//! `@sharing` on any object: local roles per user and group, their inheritance from
//! containers, and blocking that inheritance; read (GET) and changed (POST), which
//! recomputes the security of the subtree.

pub mod get;
pub mod post;

use crate::http::Ctx;
use crate::security::delegation::DELEGATABLE_ROLES;

/// The roles the caller may delegate here, with their labels: each needs its delegation
/// permission on the object (see [`crate::security::delegation`]).
fn delegatable_here(ctx: &Ctx) -> Vec<(&'static str, &'static str)> {
    DELEGATABLE_ROLES
        .iter()
        .filter(|(_, _, permission)| ctx.allows(*permission))
        .map(|(role, label, _)| (role.name(), *label))
        .collect()
}
