//! Which roles hold which permission where: workflow state maps, acquisition from the
//! container, and the site role map at the top.

use super::Role;
use crate::content::ContentObject;
use crate::site::Site;
use std::collections::HashMap;

/// Site-wide permission defaults (the role map), plus plugin permissions.
#[derive(Clone, Debug)]
pub struct Policy {
    site_roles: HashMap<String, Vec<String>>,
}

impl Policy {
    /// The built-in role map.
    pub fn load() -> Result<Policy, String> {
        let site_roles: HashMap<String, Vec<String>> =
            toml::from_str(include_str!("rolemap.toml")).map_err(|e| format!("rolemap: {e}"))?;
        Ok(Policy { site_roles })
    }

    /// Adds a plugin permission's default roles (unless the map already names it).
    pub fn add_default(&mut self, permission: &str, roles: &[Role]) {
        self.site_roles.entry(permission.to_owned()).or_insert_with(|| roles.iter().map(|r| (*r).into()).collect());
    }

    fn site(&self, permission: &str) -> &[String] {
        self.site_roles.get(permission).map(Vec::as_slice).unwrap_or_default()
    }
}

/// The roles that hold `permission` on an object, given the object and then its containers
/// (`upward`). The object's workflow state decides if it manages the permission; otherwise
/// the container does, up to the site role map.
pub fn permission_roles<'a, 'o>(
    site: &'a Site,
    upward: impl IntoIterator<Item = &'o ContentObject>,
    permission: &str,
) -> &'a [String] {
    for object in upward {
        if let Some(roles) = state_roles(site, object, permission) {
            return roles;
        }
    }
    site.policy.site(permission)
}

fn state_roles<'a>(site: &'a Site, object: &ContentObject, permission: &str) -> Option<&'a [String]> {
    let profile = site.types.get(&object.portal_type)?;
    let workflow = site.workflows.get(profile.workflow.first()?)?;
    let state = workflow.state(object.review_state.as_deref()?)?;
    state.permissions.get(permission).map(Vec::as_slice)
}
