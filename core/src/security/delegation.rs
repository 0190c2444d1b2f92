//! Who may hand out which role: the rules against escalation, in one place for `@users`,
//! `@groups` and `@sharing`.
//!
//! - Global roles. Plone keeps the Manager role to Managers (Products.CMFPlone's
//!   `TestSiteAdministratorRoleFunctional`). We keep both administrative roles to them: a
//!   Site Administrator holds `Manage users`, so one who could make others Site Administrators
//!   could multiply their own account beyond anyone's reach. Every other role is within the
//!   powers of a Site Administrator, the only other holder of `Manage users`.
//! - Accounts and groups that carry an administrative role (directly or through a group) are
//!   changed, deleted and joined by Managers only, so an account of lesser power can neither
//!   take one over (a new password, an e-mail address for the reset link) nor lock it out.
//!   Everyone may still change their own account, as `@users` allows.
//! - Local roles (`@sharing`) follow plone.app.workflow: each delegatable role has its own
//!   delegation permission, and a role one may not delegate can be neither given nor taken.
//!   Reviewer is delegated only by Managers, Site Administrators and Reviewers, so an Editor
//!   cannot make themselves, or everyone, reviewers of their own drafts.

use super::{Permission, Principal, Role};

/// The roles that administer the site itself.
pub const ADMINISTRATIVE_ROLES: [Role; 2] = [Role::MANAGER, Role::SITE_ADMINISTRATOR];

/// The roles the sharing page delegates: the role, its label, and the permission delegating it
/// needs on the object.
pub const DELEGATABLE_ROLES: [(Role, &str, Permission); 4] = [
    (Role::CONTRIBUTOR, "Can add", Permission::DELEGATE_CONTRIBUTOR_ROLE),
    (Role::EDITOR, "Can edit", Permission::DELEGATE_EDITOR_ROLE),
    (Role::READER, "Can view", Permission::DELEGATE_READER_ROLE),
    (Role::REVIEWER, "Can review", Permission::DELEGATE_REVIEWER_ROLE),
];

/// Whether `role` administers the site.
pub fn is_administrative(role: &str) -> bool {
    ADMINISTRATIVE_ROLES.iter().any(|r| *r == role)
}

/// Whether `caller` (who holds `Manage users`) may give or take the global role `role`.
pub fn may_assign(caller: &Principal, role: &str) -> bool {
    caller.has_role(Role::MANAGER) || !is_administrative(role)
}

/// Whether `caller` may change, delete or change the memberships of the user or group `id`,
/// which holds `roles` (its own and those of its groups).
pub fn may_manage(caller: &Principal, id: &str, roles: &[String]) -> bool {
    caller.has_role(Role::MANAGER) || caller.user_id() == Some(id) || !roles.iter().any(|role| is_administrative(role))
}

/// The permission that delegating the local role `role` needs, if it may be delegated at all.
pub fn delegation_permission(role: &str) -> Option<Permission> {
    DELEGATABLE_ROLES.iter().find(|(name, _, _)| *name == role).map(|(_, _, permission)| *permission)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::User;

    fn user(id: &str, roles: &[&str]) -> Principal {
        Principal::User(User {
            id: id.to_owned(),
            fullname: id.to_owned(),
            roles: roles.iter().map(|r| (*r).to_owned()).collect(),
            groups: Vec::new(),
            token_generation: String::new(),
        })
    }

    #[test]
    fn only_managers_hand_out_or_touch_administration() {
        let (manager, siteadm) = (user("m", &["Manager"]), user("s", &["Site Administrator"]));
        for role in ADMINISTRATIVE_ROLES {
            assert!(may_assign(&manager, role.name()));
            assert!(!may_assign(&siteadm, role.name()), "{role}");
        }
        assert!(may_assign(&siteadm, "Editor") && may_assign(&siteadm, "Reviewer"));
        let admin_roles = vec!["Manager".to_owned()];
        assert!(!may_manage(&siteadm, "admin", &admin_roles));
        assert!(!may_manage(&siteadm, "other-siteadm", &["Site Administrator".to_owned()]));
        assert!(may_manage(&siteadm, "s", &["Site Administrator".to_owned()]), "one's own account");
        assert!(may_manage(&siteadm, "editor", &["Editor".to_owned()]));
        assert!(may_manage(&manager, "admin", &admin_roles));
    }

    #[test]
    fn every_delegatable_role_has_its_permission() {
        assert_eq!(delegation_permission("Reviewer"), Some(Permission::DELEGATE_REVIEWER_ROLE));
        assert_eq!(delegation_permission("Manager"), None);
        assert_eq!(delegation_permission("Owner"), None);
    }
}
