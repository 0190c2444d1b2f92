//! `principals.json`: groups, then users, then who is in which group, in one transaction.
//! Passwords keep the hash Zope stored; this server checks Zope's schemes and replaces such a
//! hash by argon2 at the user's first login. A user or group this site has already is left as
//! it is (an import run again changes nothing); a hash in a scheme this server cannot check is
//! left out, and that user sets a new password.

use crate::error::{ImportError, Stopped};
use crate::format::Principals;
use crate::notes::Notes;
use crate::source::ExportDir;
use std::collections::HashSet;
use wcs_core::app::App;
use wcs_core::security::{Role, is_supported_password};
use wcs_core::store::StoredPrincipal;

const FILE: &str = "principals.json";

/// How many users and groups were written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct People {
    /// Users.
    pub users: usize,
    /// Groups.
    pub groups: usize,
    /// Memberships.
    pub memberships: usize,
}

/// Writes the users and groups of the export.
pub async fn import(app: &App, export: &ExportDir, dry_run: bool, notes: &mut Notes) -> Result<People, Stopped> {
    let principals: Principals = export.json(FILE).map_err(Stopped::checking_one)?.unwrap_or_default();
    check(&principals)?;
    let mut people = People::default();
    if dry_run {
        people.users = principals.members.len();
        people.groups = principals.groups.len();
        return Ok(people);
    }
    let fail = |e: sqlx::Error| Stopped::writing(ImportError::new(FILE, e.to_string()));
    let mut tx = app.store.begin().await.map_err(fail)?;
    let mut present = HashSet::new();
    for group in &principals.groups {
        present.insert(group.groupid.clone());
        if app.store.principal_exists(&group.groupid).await.map_err(fail)? {
            notes.left_out("groups this site has already (kept as they are)");
            continue;
        }
        let stored = StoredPrincipal {
            id: group.groupid.clone(),
            kind: "group".into(),
            fullname: group.title.clone().unwrap_or_default(),
            email: group.email.clone().unwrap_or_default(),
            description: group.description.clone().unwrap_or_default(),
            roles: own_roles(&group.roles),
            ..StoredPrincipal::default()
        };
        tx.insert_principal(&stored).await.map_err(fail)?;
        people.groups += 1;
    }
    for member in &principals.members {
        present.insert(member.username.clone());
        if app.store.principal_exists(&member.username).await.map_err(fail)? {
            notes.left_out("users this site has already (kept as they are)");
            continue;
        }
        let password_hash = member.password.clone().filter(|hash| !hash.is_empty());
        let password_hash = match password_hash {
            Some(hash) if !is_supported_password(&hash) => {
                notes.left_out("passwords in a scheme this server cannot check (those users set a new one)");
                None
            }
            hash => hash,
        };
        let stored = StoredPrincipal {
            id: member.username.clone(),
            kind: "user".into(),
            login: Some(member.username.clone()),
            password_hash,
            fullname: member.fullname.clone().unwrap_or_default(),
            email: member.email.clone().unwrap_or_default(),
            description: member.description.clone().unwrap_or_default(),
            location: member.location.clone().unwrap_or_default(),
            home_page: member.home_page.clone().unwrap_or_default(),
            roles: own_roles(&member.roles),
            ..StoredPrincipal::default()
        };
        tx.insert_principal(&stored).await.map_err(fail)?;
        people.users += 1;
    }
    // Gathered before the loop: an iterator of closures held across its awaits would keep the
    // import's future from being `Send` (what `@import` needs).
    let mut memberships: Vec<(String, String)> = Vec::new();
    for member in &principals.members {
        memberships.extend(member.groups.iter().map(|group| (group.clone(), member.username.clone())));
    }
    for group in &principals.groups {
        memberships.extend(group.principals.iter().map(|member| (group.groupid.clone(), member.clone())));
    }
    for (group, member) in memberships {
        let known = |id: &str| present.contains(id);
        if !(known(&group) || app.store.principal_exists(&group).await.map_err(fail)?)
            || !(known(&member) || app.store.principal_exists(&member).await.map_err(fail)?)
        {
            notes.left_out("group memberships of users or groups not in the export (LDAP and the like)");
            continue;
        }
        tx.set_membership(&group, &member, true).await.map_err(fail)?;
        people.memberships += 1;
    }
    tx.commit().await.map_err(|e| Stopped::writing(ImportError::new(FILE, e.message)))?;
    Ok(people)
}

/// Roles a principal holds itself: Zope's automatic ones are nobody's to hold.
fn own_roles(roles: &[String]) -> Vec<String> {
    roles.iter().filter(|r| **r != Role::ANONYMOUS && **r != Role::AUTHENTICATED).cloned().collect()
}

fn check(principals: &Principals) -> Result<(), Stopped> {
    let mut ids = HashSet::new();
    let mut problems = Vec::new();
    for id in principals.groups.iter().map(|g| &g.groupid).chain(principals.members.iter().map(|m| &m.username)) {
        if id.is_empty() || id.len() > 100 || id.chars().any(char::is_control) {
            problems.push(ImportError::new(FILE, format!("{id:?} is not a user or group id")));
        } else if !ids.insert(id.clone()) {
            problems.push(ImportError::new(FILE, format!("{id} is there twice (a user and a group share ids)")));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(Stopped::checking(problems)) }
}
