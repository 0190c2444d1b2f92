//! `@sharing` on any object: local roles per user and group, their inheritance from
//! containers, and blocking that inheritance; read (GET) and changed (POST), which
//! recomputes the security of the subtree.

pub mod get;
pub mod post;

/// Roles that may be delegated on the sharing page, with their labels.
pub const DELEGATABLE_ROLES: [(&str, &str); 4] =
    [("Contributor", "Can add"), ("Editor", "Can edit"), ("Reader", "Can view"), ("Reviewer", "Can review")];
