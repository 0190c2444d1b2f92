//! The `allowed` tokens: for each object, the roles that may view it and the users and groups
//! whose local roles let them view it. Listings filter on them inside the SQL query, so no
//! invisible object is ever loaded, and counts and batches stay right.

use super::policy::permission_roles;
use super::{Access, Permission, Principal, Role};
use crate::content::ContentObject;
use crate::error::ApiResult;
use crate::events::Event;
use crate::future::BoxFuture;
use crate::site::Site;
use crate::store::{DerivedFacts, LocalRole, Tx, Visibility, ancestor_paths};
use chrono::Utc;
use std::collections::{BTreeMap, BTreeSet, HashMap};

impl Visibility {
    /// What `principal` may see, by security alone.
    pub fn of(principal: &Principal) -> Visibility {
        let tokens = (!principal.bypasses_security()).then(|| principal.tokens());
        Visibility { tokens, active_at: None }
    }

    /// The same, for a listing (folder items, navigation, search) on an object where the
    /// caller's standing is `access`. As Plone's catalog does, a listing leaves out content
    /// outside its publication window (an embargo not yet over, or expired) for callers without
    /// `Access inactive content`; the object itself stays readable by its URL.
    pub fn in_listings(&self, site: &Site, access: &Access) -> Visibility {
        let active_at = (!access.allows(site, Permission::ACCESS_INACTIVE_CONTENT)).then(Utc::now);
        Visibility { tokens: self.tokens.clone(), active_at }
    }
}

/// The site keeps every object's tokens: whatever a transaction creates, moves, moves through
/// the workflow, re-shares or checks in gets its tokens, and its subtree's, again before the
/// transaction commits (a plugin's writes, such as restoring a version, tell these events too).
impl DerivedFacts for Site {
    fn update<'a>(&'a self, tx: &'a mut Tx, events: &'a [Event]) -> BoxFuture<'a, ApiResult<()>> {
        Box::pin(async move {
            for root in changed_roots(tx, events).await? {
                recompute_allowed(self, tx, &root).await?;
            }
            Ok(())
        })
    }
}

/// The roots of the subtrees whose tokens `events` may have changed, none inside another.
async fn changed_roots(tx: &mut Tx, events: &[Event]) -> Result<Vec<String>, sqlx::Error> {
    let mut paths = Vec::new();
    let mut uids = Vec::new();
    for event in events {
        match event {
            Event::Added { path, .. } => paths.push(path.clone()),
            Event::Moved { to, .. } => paths.push(to.clone()),
            Event::WorkflowChanged { uid, .. } | Event::LocalRolesChanged { uid } | Event::CheckedIn { uid, .. } => {
                uids.push(uid.clone())
            }
            _ => {}
        }
    }
    paths.extend(tx.paths_of(&uids).await?);
    // Shorter paths first, so an ancestor is a root before its descendants are looked at.
    paths.sort_by_key(|path| path.len());
    let mut roots: BTreeSet<String> = BTreeSet::new();
    for path in paths {
        if !ancestor_paths(&path).iter().any(|above| roots.contains(above)) {
            roots.insert(path);
        }
    }
    Ok(roots.into_iter().collect())
}

/// Recomputes the tokens of the object at `path` and its whole subtree, inside `tx`.
async fn recompute_allowed(site: &Site, tx: &mut Tx, path: &str) -> Result<(), sqlx::Error> {
    let above = tx.content_at_paths_with_trash(&ancestor_paths(path)).await?;
    let subtree = tx.subtree_with_trash(path).await?;
    let uids: Vec<String> = above.iter().chain(&subtree).map(|o| o.uid.clone()).collect();
    let local = tx.local_roles(&uids).await?;
    let mut by_uid: HashMap<&str, Vec<&LocalRole>> = HashMap::new();
    for role in &local {
        by_uid.entry(role.content_uid.as_str()).or_default().push(role);
    }
    let mut inherited: HashMap<String, Assignments> = HashMap::new();
    let mut parent_assignments = Assignments::default();
    for object in &above {
        parent_assignments = parent_assignments.descend(object, by_uid.get(object.uid.as_str()));
    }
    let root_parent_path = above.last().map(|o| o.path.clone()).unwrap_or_default();
    inherited.insert(root_parent_path, parent_assignments);
    let mut results = Vec::with_capacity(subtree.len());
    let mut paths: HashMap<&str, &ContentObject> = HashMap::new();
    for object in &subtree {
        let parent_path = object.path.rsplit_once('/').map(|(p, _)| p.to_owned()).unwrap_or_default();
        let assignments =
            inherited.get(&parent_path).cloned().unwrap_or_default().descend(object, by_uid.get(object.uid.as_str()));
        let upward = std::iter::once(object)
            .chain(
                ancestor_paths(&object.path)
                    .iter()
                    .rev()
                    .filter_map(|p| paths.get(p.as_str()).copied())
                    .collect::<Vec<_>>(),
            )
            .chain(above.iter().rev());
        let view_roles = permission_roles(site, upward, "View");
        results.push((object.uid.clone(), assignments.tokens(view_roles)));
        inherited.insert(object.path.clone(), assignments);
        paths.insert(object.path.as_str(), object);
    }
    tx.replace_allowed(&results).await
}

/// Local role assignments in force on an object: principal → roles.
#[derive(Clone, Debug, Default)]
struct Assignments(BTreeMap<String, BTreeSet<String>>);

impl Assignments {
    /// The assignments of a child: inherited ones (unless it blocks them) plus its own.
    fn descend(&self, object: &ContentObject, own: Option<&Vec<&LocalRole>>) -> Assignments {
        let mut next = if object.block_local_roles { Assignments::default() } else { self.clone() };
        for role in own.into_iter().flatten() {
            next.0.entry(role.principal_id.clone()).or_default().insert(role.role.clone());
        }
        next
    }

    fn tokens(&self, view_roles: &[String]) -> Vec<String> {
        let mut tokens: BTreeSet<String> = view_roles.iter().cloned().collect();
        tokens.insert(Role::MANAGER.into());
        for (principal, roles) in &self.0 {
            if roles.iter().any(|r| view_roles.contains(r)) {
                tokens.insert(format!("user:{principal}"));
            }
        }
        tokens.into_iter().collect()
    }
}
