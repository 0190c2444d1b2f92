//! Users and groups as stored; the security layer turns them into principals.

use super::rows::{page_clause, placeholders, with_text_binds};
use super::{Store, Tx};
use sqlx::{AssertSqlSafe, Row};

/// A user or group row, with the groups it belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredPrincipal {
    /// The id.
    pub id: String,
    /// `user` or `group`.
    pub kind: String,
    /// The login name (users only).
    pub login: Option<String>,
    /// The password hash (argon2 PHC, or a Zope scheme a moved site brought until its first
    /// login); it leaves the server only in a site export, as Plone's own export writes them.
    pub password_hash: Option<String>,
    /// The display name (a group's title).
    pub fullname: String,
    /// E-mail address.
    pub email: String,
    /// Free text.
    pub description: String,
    /// Where the user is.
    pub location: String,
    /// A URL.
    pub home_page: String,
    /// Global roles given directly.
    pub roles: Vec<String>,
    /// Groups this principal is a member of.
    pub groups: Vec<String>,
    /// What the user's tokens must name to be valid; renewed on logout, on every new password
    /// and for every new account.
    pub token_generation: String,
}

const PRINCIPAL_COLUMNS: &str = "p.id, p.kind, p.login, p.password_hash, p.fullname, p.email, p.description, p.location, p.home_page, p.roles, \
     p.token_generation";

fn principal_from_row(row: &sqlx::any::AnyRow) -> Result<StoredPrincipal, sqlx::Error> {
    let roles: String = row.try_get(9)?;
    Ok(StoredPrincipal {
        id: row.try_get(0)?,
        kind: row.try_get(1)?,
        login: row.try_get(2)?,
        password_hash: row.try_get(3)?,
        fullname: row.try_get(4)?,
        email: row.try_get(5)?,
        description: row.try_get(6)?,
        location: row.try_get(7)?,
        home_page: row.try_get(8)?,
        roles: serde_json::from_str(&roles).unwrap_or_default(),
        groups: Vec::new(),
        token_generation: row.try_get(10)?,
    })
}

/// What a principal listing matches: a kind and a case-insensitive search term.
#[derive(Clone, Debug, Default)]
pub struct PrincipalQuery {
    /// `user`, `group`, or `None` for both.
    pub kind: Option<&'static str>,
    /// Matched against id, login and full name (and e-mail address with `match_email`).
    pub search: Option<String>,
    /// Whether the search also matches e-mail addresses: only for those who may read them, or
    /// searching would tell whose address it is.
    pub match_email: bool,
    /// Only members of any of these groups (none: everyone).
    pub in_groups: Vec<String>,
}

impl PrincipalQuery {
    fn where_clause(&self) -> (String, Vec<String>) {
        let mut clauses = vec!["1 = 1".to_owned()];
        let mut binds = Vec::new();
        if let Some(kind) = self.kind {
            binds.push(kind.to_owned());
            clauses.push(format!("p.kind = ${}", binds.len()));
        }
        if let Some(term) = self.search.as_deref().filter(|t| !t.is_empty()) {
            let escaped = term.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            binds.push(format!("%{escaped}%"));
            let n = binds.len();
            let email =
                if self.match_email { format!(" OR LOWER(p.email) LIKE ${n} ESCAPE '\\'") } else { String::new() };
            clauses.push(format!(
                "(LOWER(p.id) LIKE ${n} ESCAPE '\\' OR LOWER(COALESCE(p.login, '')) LIKE ${n} ESCAPE '\\' \
                 OR LOWER(p.fullname) LIKE ${n} ESCAPE '\\'{email})"
            ));
        }
        if !self.in_groups.is_empty() {
            let first = binds.len() + 1;
            binds.extend(self.in_groups.iter().cloned());
            clauses.push(format!(
                "p.id IN (SELECT member_id FROM membership WHERE group_id IN ({}))",
                placeholders(first, self.in_groups.len())
            ));
        }
        (clauses.join(" AND "), binds)
    }
}

/// The groups of `count` principals (`$1…`): `(member_id, group_id)` rows. A group inside a
/// group passes the outer group on to its members, however deep, as Plone's recursive groups
/// do; UNION drops repeats, so a cycle ends.
fn groups_sql(count: usize) -> String {
    format!(
        "WITH RECURSIVE up(member_id, group_id) AS ( \
             SELECT member_id, group_id FROM membership WHERE member_id IN ({}) \
           UNION \
             SELECT up.member_id, m.group_id FROM up JOIN membership m ON m.member_id = up.group_id) \
         SELECT member_id, group_id FROM up WHERE group_id <> member_id ORDER BY group_id",
        placeholders(1, count)
    )
}

impl Tx {
    /// The groups of `member`, however deeply nested, as the transaction sees them.
    pub async fn groups_of(&mut self, member: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(AssertSqlSafe(groups_sql(1))).bind(member).fetch_all(self.own_tables()).await?;
        rows.iter().map(|row| row.try_get(1)).collect()
    }
}

impl Store {
    async fn with_groups(&self, mut principals: Vec<StoredPrincipal>) -> Result<Vec<StoredPrincipal>, sqlx::Error> {
        if principals.is_empty() {
            return Ok(principals);
        }
        self.count();
        let ids: Vec<&str> = principals.iter().map(|p| p.id.as_str()).collect();
        let mut query = sqlx::query(AssertSqlSafe(groups_sql(ids.len())));
        for id in &ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let member: String = row.try_get(0)?;
            let group: String = row.try_get(1)?;
            if let Some(p) = principals.iter_mut().find(|p| p.id == member) {
                p.groups.push(group);
            }
        }
        Ok(principals)
    }

    /// A user by login name, with groups.
    pub async fn principal_by_login(&self, login: &str) -> Result<Option<StoredPrincipal>, sqlx::Error> {
        self.count();
        let sql = format!("SELECT {PRINCIPAL_COLUMNS} FROM principal p WHERE p.login = $1 AND p.kind = 'user'");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(login).fetch_optional(&self.pool).await?;
        let found = row.as_ref().map(principal_from_row).transpose()?;
        Ok(self.with_groups(found.into_iter().collect()).await?.pop())
    }

    /// The one user with this e-mail address (any case), with groups; `None` when none or
    /// several have it, since a login must name one account.
    pub async fn principal_by_email(&self, email: &str) -> Result<Option<StoredPrincipal>, sqlx::Error> {
        self.count();
        let sql = format!(
            "SELECT {PRINCIPAL_COLUMNS} FROM principal p WHERE LOWER(p.email) = LOWER($1) AND p.kind = 'user' LIMIT 2"
        );
        let rows = sqlx::query(AssertSqlSafe(sql)).bind(email).fetch_all(&self.pool).await?;
        if rows.len() != 1 || email.trim().is_empty() {
            return Ok(None);
        }
        let found = rows.iter().map(principal_from_row).collect::<Result<Vec<_>, _>>()?;
        Ok(self.with_groups(found).await?.pop())
    }

    /// A user or group by id, with groups.
    pub async fn principal(&self, id: &str) -> Result<Option<StoredPrincipal>, sqlx::Error> {
        self.count();
        let sql = format!("SELECT {PRINCIPAL_COLUMNS} FROM principal p WHERE p.id = $1");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(id).fetch_optional(&self.pool).await?;
        let found = row.as_ref().map(principal_from_row).transpose()?;
        Ok(self.with_groups(found.into_iter().collect()).await?.pop())
    }

    /// Whether a principal with this id exists.
    pub async fn principal_exists(&self, id: &str) -> Result<bool, sqlx::Error> {
        Ok(self.principal(id).await?.is_some())
    }

    /// One page of principals matching `query`, by id, with groups.
    pub async fn principals(
        &self,
        query: &PrincipalQuery,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<StoredPrincipal>, sqlx::Error> {
        self.count();
        let (clause, binds) = query.where_clause();
        let sql = format!(
            "SELECT {PRINCIPAL_COLUMNS} FROM principal p WHERE {clause} ORDER BY p.id {}",
            page_clause(binds.len())
        );
        let rows = with_text_binds(sql, &binds).bind(limit).bind(offset).fetch_all(&self.pool).await?;
        let found = rows.iter().map(principal_from_row).collect::<Result<Vec<_>, _>>()?;
        self.with_groups(found).await
    }

    /// How many principals match `query`.
    pub async fn count_principals(&self, query: &PrincipalQuery) -> Result<i64, sqlx::Error> {
        self.count();
        let (clause, binds) = query.where_clause();
        let sql = format!("SELECT COUNT(*) FROM principal p WHERE {clause}");
        with_text_binds(sql, &binds).fetch_one(&self.pool).await?.try_get(0)
    }

    /// The members of each of `group_ids`, in one statement (a listing of groups).
    pub async fn members_of_groups(
        &self,
        group_ids: &[String],
    ) -> Result<std::collections::HashMap<String, Vec<String>>, sqlx::Error> {
        let mut members: std::collections::HashMap<String, Vec<String>> = std::collections::HashMap::new();
        if group_ids.is_empty() {
            return Ok(members);
        }
        self.count();
        let sql = format!(
            "SELECT group_id, member_id FROM membership WHERE group_id IN ({}) ORDER BY group_id, member_id",
            placeholders(1, group_ids.len())
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in group_ids {
            query = query.bind(id);
        }
        for row in query.fetch_all(&self.pool).await? {
            members.entry(row.try_get(0)?).or_default().push(row.try_get(1)?);
        }
        Ok(members)
    }

    /// The ids of a group's members, sorted.
    pub async fn group_members(&self, group_id: &str) -> Result<Vec<String>, sqlx::Error> {
        self.count();
        sqlx::query("SELECT member_id FROM membership WHERE group_id = $1 ORDER BY member_id")
            .bind(group_id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect()
    }
}

impl Store {
    /// The principals with any of `ids` (missing ones are left out).
    pub async fn principals_by_ids(&self, ids: &[String]) -> Result<Vec<StoredPrincipal>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.count();
        let sql = format!(
            "SELECT {PRINCIPAL_COLUMNS} FROM principal p WHERE p.id IN ({}) ORDER BY p.id",
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(id.as_str());
        }
        query.fetch_all(&self.pool).await?.iter().map(principal_from_row).collect()
    }

    /// The global roles each of `ids` holds, its own and its groups', in three statements
    /// however many there are (missing ids are left out).
    pub async fn effective_roles(&self, ids: &[String]) -> Result<Vec<(String, Vec<String>)>, sqlx::Error> {
        let principals = self.with_groups(self.principals_by_ids(ids).await?).await?;
        let mut group_ids: Vec<String> = principals.iter().flat_map(|p| p.groups.iter().cloned()).collect();
        group_ids.sort();
        group_ids.dedup();
        let groups = self.principals_by_ids(&group_ids).await?;
        Ok(principals
            .into_iter()
            .map(|principal| {
                let mut roles = principal.roles;
                for group in groups.iter().filter(|g| g.kind == "group" && principal.groups.contains(&g.id)) {
                    roles.extend(group.roles.iter().cloned());
                }
                (principal.id, roles)
            })
            .collect())
    }

    /// The global roles given to any of `group_ids`.
    pub async fn group_roles(&self, group_ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        let groups = self.principals_by_ids(group_ids).await?;
        Ok(groups.into_iter().filter(|g| g.kind == "group").flat_map(|g| g.roles).collect())
    }
}
