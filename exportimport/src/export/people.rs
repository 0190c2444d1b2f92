//! `principals.json`: the site's groups with their members and users with their password
//! hashes, as plone.exportimport writes Plone's. The account the server made for itself
//! (`admin`) stays behind, as Zope's own `admin` does in a Plone export: the site a moved
//! site lands in has its own.

use super::writer::Writer;
use crate::error::ImportError;
use crate::notes::Notes;
use serde_json::{Value, json};
use wcs_core::app::{ADMIN_USER, App};
use wcs_core::security::is_legacy_password;
use wcs_core::store::{PrincipalQuery, StoredPrincipal};

const FILE: &str = "principals.json";

/// How many were written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct People {
    /// Users.
    pub users: usize,
    /// Groups.
    pub groups: usize,
}

/// Writes `principals.json`.
pub async fn write(app: &App, writer: &Writer, notes: &mut Notes) -> Result<People, ImportError> {
    let fail = |e: sqlx::Error| ImportError::new(FILE, format!("reading the users: {e}"));
    let mut everyone: Vec<StoredPrincipal> = Vec::new();
    let page = 1000;
    loop {
        let offset = i64::try_from(everyone.len()).unwrap_or(i64::MAX);
        let found = app.store.principals(&PrincipalQuery::default(), offset, page).await.map_err(fail)?;
        let done = found.len() < usize::try_from(page).unwrap_or(usize::MAX);
        everyone.extend(found);
        if done {
            break;
        }
    }
    let (groups, users): (Vec<&StoredPrincipal>, Vec<&StoredPrincipal>) =
        everyone.iter().filter(|p| p.id != ADMIN_USER).partition(|p| p.kind == "group");
    let group_ids: Vec<String> = groups.iter().map(|g| g.id.clone()).collect();
    let members = app.store.members_of_groups(&group_ids).await.map_err(fail)?;
    let groups: Vec<Value> = groups
        .iter()
        .map(|group| {
            json!({
                "description": group.description,
                "email": group.email,
                "groupid": group.id,
                "groups": group.groups,
                "principals": members.get(&group.id).cloned().unwrap_or_default(),
                "roles": group.roles,
                "title": group.fullname,
            })
        })
        .collect();
    let users: Vec<Value> = users
        .iter()
        .map(|user| {
            let password = user.password_hash.clone().unwrap_or_default();
            if !password.is_empty() && !is_legacy_password(&password) {
                notes.left_out("passwords Plone cannot check (argon2): those users set a new one in Plone");
            }
            json!({
                "description": user.description,
                "email": user.email,
                "fullname": user.fullname,
                "groups": user.groups,
                "home_page": user.home_page,
                "location": user.location,
                "password": password,
                "roles": user.roles,
                "username": user.login.clone().unwrap_or_else(|| user.id.clone()),
            })
        })
        .collect();
    let people = People { users: users.len(), groups: groups.len() };
    writer.json(FILE, &json!({"groups": groups, "members": users}))?;
    Ok(people)
}
