//! What one principal may do on one object: computed from the object's chain of containers
//! and the local roles along it, loaded once per request.

use super::policy::permission_roles;
use super::{Permission, Principal};
use crate::content::ContentObject;
use crate::error::ApiResult;
use crate::site::Site;
use crate::store::LocalRole;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The group every authenticated user is a member of.
pub const AUTHENTICATED_GROUP: &str = "AuthenticatedUsers";

/// A principal's standing on an object and its containers.
#[derive(Clone, Debug)]
pub struct Access {
    principal: Principal,
    chain: Vec<Arc<ContentObject>>,
    local: Vec<LocalRole>,
}

impl Access {
    /// Loads the local roles of `chain` (site root first, the object last) for `principal`.
    pub async fn load(site: &Site, principal: &Principal, chain: Vec<Arc<ContentObject>>) -> ApiResult<Access> {
        let local = match principal {
            Principal::User(_) => {
                let uids: Vec<String> = chain.iter().map(|o| o.uid.clone()).collect();
                let ids = principal.ids();
                site.store.local_roles(&uids).await?.into_iter().filter(|r| ids.contains(&r.principal_id)).collect()
            }
            Principal::Anonymous => Vec::new(),
        };
        Ok(Access { principal: principal.clone(), chain, local })
    }

    /// Builds an access from a chain and local roles already loaded (roles of other principals
    /// are ignored), so checking many objects of one subtree costs no further queries.
    pub fn from_parts(principal: &Principal, chain: Vec<Arc<ContentObject>>, local: &[LocalRole]) -> Access {
        let ids = principal.ids();
        let local = local.iter().filter(|r| ids.contains(&r.principal_id)).cloned().collect();
        Access { principal: principal.clone(), chain, local }
    }

    /// The caller's local roles along the chain.
    pub fn local_roles(&self) -> &[LocalRole] {
        &self.local
    }

    /// Loads the chain of `object` and then its access.
    pub async fn for_object(site: &Site, principal: &Principal, object: &ContentObject) -> ApiResult<Access> {
        let mut chain = site.store.ancestors(object).await?;
        chain.push(Arc::new(object.clone()));
        Self::load(site, principal, chain).await
    }

    /// The object.
    pub fn object(&self) -> Option<&Arc<ContentObject>> {
        self.chain.last()
    }

    /// The object's container, when there is one.
    pub fn parent(&self) -> Option<&ContentObject> {
        self.chain.len().checked_sub(2).and_then(|i| self.chain.get(i)).map(|parent| &**parent)
    }

    /// The chain from the site root to the object.
    pub fn chain(&self) -> &[Arc<ContentObject>] {
        &self.chain
    }

    /// The place in the chain of the object's navigation root: the nearest of the object and
    /// its containers whose type is a navigation root, else the site root (0).
    pub fn navigation_root_index(&self, site: &Site) -> usize {
        let is_root = |object: &ContentObject| {
            site.types.get(&object.portal_type).is_some_and(|profile| profile.is_navigation_root())
        };
        self.chain.iter().rposition(|object| is_root(object)).unwrap_or(0)
    }

    /// The object's navigation root (see [`Access::navigation_root_index`]).
    pub fn navigation_root(&self, site: &Site) -> Option<&ContentObject> {
        self.chain.get(self.navigation_root_index(site)).map(|object| &**object)
    }

    /// The principal's roles on `chain[index]`: global ones and inherited local ones.
    pub fn roles_at(&self, index: usize) -> BTreeSet<String> {
        let mut roles: BTreeSet<String> = self.principal.global_roles().into_iter().collect();
        for position in (0..=index.min(self.chain.len().saturating_sub(1))).rev() {
            let Some(object) = self.chain.get(position) else { break };
            roles.extend(self.local.iter().filter(|r| r.content_uid == object.uid).map(|r| r.role.clone()));
            if object.block_local_roles {
                break;
            }
        }
        roles
    }

    /// The principal's roles on the object.
    pub fn roles(&self) -> BTreeSet<String> {
        self.roles_at(self.chain.len().saturating_sub(1))
    }

    /// Whether the principal holds the permission (by name) on `chain[index]`.
    pub fn allows_named_at(&self, site: &Site, index: usize, permission: &str) -> bool {
        if self.principal.bypasses_security() {
            return true;
        }
        let end = (index + 1).min(self.chain.len());
        let needed = permission_roles(site, self.chain[..end].iter().rev().map(|o| &**o), permission);
        let roles = self.roles_at(index);
        needed.iter().any(|r| roles.contains(r))
    }

    /// Whether the principal holds `permission` on the object.
    pub fn allows(&self, site: &Site, permission: Permission) -> bool {
        self.allows_named(site, permission.name())
    }

    /// Whether the principal holds the permission (by name) on the object.
    pub fn allows_named(&self, site: &Site, permission: &str) -> bool {
        self.allows_named_at(site, self.chain.len().saturating_sub(1), permission)
    }

    /// Whether the principal holds `permission` on the container.
    pub fn allows_on_parent(&self, site: &Site, permission: Permission) -> bool {
        self.chain.len() >= 2 && self.allows_named_at(site, self.chain.len() - 2, permission.name())
    }

    /// Whether the principal may view the container.
    pub fn may_view_parent(&self, site: &Site) -> bool {
        self.chain.len() >= 2 && self.allows_named_at(site, self.chain.len() - 2, Permission::VIEW.name())
    }
}
