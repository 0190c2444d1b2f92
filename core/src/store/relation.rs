//! The relation index: rows mirroring relation field values, for back-relations and
//! `@relations` lookups that run as one statement each.

use super::Visibility;
use super::content::visibility_filter_on;
use super::rows::placeholders;
use super::{Store, Tx};
use sqlx::{AssertSqlSafe, Row};

/// What a relation lookup matches; empty lists match everything.
#[derive(Clone, Debug, Default)]
pub struct RelationQuery {
    /// Source uids.
    pub sources: Vec<String>,
    /// Target uids.
    pub targets: Vec<String>,
    /// The relation (field) name.
    pub field: Option<String>,
    /// Only relations whose target is gone or in the trash.
    pub only_broken: bool,
    /// The most rows returned.
    pub limit: i64,
}

/// One stored relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationRow {
    /// The object holding the relation field.
    pub source_uid: String,
    /// The field name, which is the relation name.
    pub field: String,
    /// The object pointed at (may no longer exist).
    pub target_uid: String,
}

impl Store {
    /// The relations matching `query` whose source is live and, unless broken ones are asked
    /// for, whose target is live; both ends must be visible under `visibility` (a broken
    /// target has nothing to see). Ordered by source path, field and position.
    pub async fn find_relations(
        &self,
        query: &RelationQuery,
        visibility: &Visibility,
    ) -> Result<Vec<RelationRow>, sqlx::Error> {
        let mut sql = String::from(
            "SELECT r.source_uid, r.field, r.target_uid FROM relation r \
             JOIN content s ON s.uid = r.source_uid AND s.trashed = 0 \
             LEFT JOIN content t ON t.uid = r.target_uid WHERE 1 = 1",
        );
        let mut binds: Vec<String> = Vec::new();
        let mut next = 1;
        let field = query.field.as_slice();
        for (column, values) in
            [("r.source_uid", &query.sources[..]), ("r.target_uid", &query.targets[..]), ("r.field", field)]
        {
            if !values.is_empty() {
                sql.push_str(&format!(" AND {column} IN ({})", placeholders(next, values.len())));
                next += values.len();
                binds.extend(values.iter().cloned());
            }
        }
        sql.push_str(if query.only_broken {
            " AND (t.uid IS NULL OR t.trashed = 1)"
        } else {
            " AND t.uid IS NOT NULL AND t.trashed = 0"
        });
        let (source_filter, tokens) = visibility_filter_on("s", visibility, next);
        sql.push_str(&source_filter);
        next += tokens.len();
        binds.extend(tokens);
        if !query.only_broken {
            let (target_filter, tokens) = visibility_filter_on("t", visibility, next);
            sql.push_str(&target_filter);
            next += tokens.len();
            binds.extend(tokens);
        }
        sql.push_str(&format!(" ORDER BY s.path, r.field, r.position LIMIT ${next}"));
        self.count();
        let mut statement = sqlx::query(AssertSqlSafe(sql));
        for bind in &binds {
            statement = statement.bind(bind.as_str());
        }
        statement
            .bind(query.limit)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| {
                Ok(RelationRow { source_uid: row.try_get(0)?, field: row.try_get(1)?, target_uid: row.try_get(2)? })
            })
            .collect()
    }
}

impl Store {
    /// How many relations each relation name has, `(valid, broken)`: valid ones with both
    /// ends visible under `visibility`, broken ones (target gone or trashed) with a visible
    /// source. Live sources only.
    pub async fn relation_counts(
        &self,
        visibility: &Visibility,
    ) -> Result<(Vec<(String, i64)>, Vec<(String, i64)>), sqlx::Error> {
        let mut counts = Vec::new();
        for broken in [false, true] {
            let mut sql = String::from(
                "SELECT r.field, COUNT(*) FROM relation r JOIN content s ON s.uid = r.source_uid AND s.trashed = 0 \
                 LEFT JOIN content t ON t.uid = r.target_uid WHERE ",
            );
            sql.push_str(if broken {
                "(t.uid IS NULL OR t.trashed = 1)"
            } else {
                "t.uid IS NOT NULL AND t.trashed = 0"
            });
            let (source_filter, mut binds) = visibility_filter_on("s", visibility, 1);
            sql.push_str(&source_filter);
            if !broken {
                let (target_filter, tokens) = visibility_filter_on("t", visibility, 1 + binds.len());
                sql.push_str(&target_filter);
                binds.extend(tokens);
            }
            sql.push_str(" GROUP BY r.field ORDER BY r.field");
            self.count();
            let mut statement = sqlx::query(AssertSqlSafe(sql));
            for bind in &binds {
                statement = statement.bind(bind.as_str());
            }
            let rows = statement.fetch_all(&self.pool).await?;
            counts.push(
                rows.iter()
                    .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?,
            );
        }
        let broken = counts.pop().unwrap_or_default();
        let valid = counts.pop().unwrap_or_default();
        Ok((valid, broken))
    }
}

impl Tx {
    /// Replaces the index rows of one source object's relation fields with `fields`: (field
    /// name, targets in order), every relation field of its type named. Relations made under
    /// names that are no field (plone.api's free relations) stay.
    pub async fn replace_relations(
        &mut self,
        source_uid: &str,
        fields: &[(&str, Vec<String>)],
    ) -> Result<(), sqlx::Error> {
        if fields.is_empty() {
            return Ok(());
        }
        self.count();
        let sql =
            format!("DELETE FROM relation WHERE source_uid = $1 AND field IN ({})", placeholders(2, fields.len()));
        let mut delete = sqlx::query(AssertSqlSafe(sql)).bind(source_uid);
        for (field, _) in fields {
            delete = delete.bind(*field);
        }
        delete.execute(&mut *self.inner).await?;
        for (field, targets) in fields {
            for (position, target) in targets.iter().enumerate() {
                self.count();
                sqlx::query("INSERT INTO relation (source_uid, field, position, target_uid) VALUES ($1, $2, $3, $4)")
                    .bind(source_uid)
                    .bind(*field)
                    .bind(position as i64)
                    .bind(target.as_str())
                    .execute(&mut *self.inner)
                    .await?;
            }
        }
        Ok(())
    }

    /// Adds a relation under a name that is no field of the source (plone.api's free
    /// relations), after the source's others of that name; nothing when it is there already.
    pub async fn add_free_relation(
        &mut self,
        source_uid: &str,
        name: &str,
        target_uid: &str,
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query(
            "INSERT INTO relation (source_uid, field, position, target_uid) \
             SELECT $1, $2, next.position, $3 FROM \
             (SELECT COALESCE(MAX(position) + 1, 0) AS position FROM relation WHERE source_uid = $1 AND field = $2) next \
             WHERE NOT EXISTS (SELECT 1 FROM relation WHERE source_uid = $1 AND field = $2 AND target_uid = $3)",
        )
        .bind(source_uid)
        .bind(name)
        .bind(target_uid)
        .execute(&mut *self.inner)
        .await?;
        Ok(())
    }

    /// Removes a relation made under a name that is no field of the source.
    pub async fn remove_free_relation(
        &mut self,
        source_uid: &str,
        name: &str,
        target_uid: &str,
    ) -> Result<(), sqlx::Error> {
        self.count();
        sqlx::query("DELETE FROM relation WHERE source_uid = $1 AND field = $2 AND target_uid = $3")
            .bind(source_uid)
            .bind(name)
            .bind(target_uid)
            .execute(&mut *self.inner)
            .await?;
        Ok(())
    }
}
