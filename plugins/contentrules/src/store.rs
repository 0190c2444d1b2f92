//! The plugin's tables: rules and their assignments. Rules are few (a site has tens), so a
//! rule is read whole, with its conditions and actions as JSON.

use crate::model::{Assignment, Element, Rule};
use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::store::{Migration, Store, Tx};

/// The plugin's migrations.
pub static MIGRATIONS: [Migration; 2] = [
    Migration {
        version: 1,
        description: "content rules",
        sqlite: include_str!("../migrations/sqlite/0001_content_rules.sql"),
        postgres: include_str!("../migrations/postgres/0001_content_rules.sql"),
    },
    Migration {
        version: 2,
        description: "the workflow transition of a queued event",
        sqlite: include_str!("../migrations/sqlite/0002_job_transition.sql"),
        postgres: include_str!("../migrations/postgres/0002_job_transition.sql"),
    },
];

/// The most rules a site keeps: every write with a trigger reads those it names.
pub const MAX_RULES: i64 = 500;
/// The most conditions or actions one rule has.
pub const MAX_ELEMENTS: usize = 50;

const RULE_COLUMNS: &str = "id, title, description, event, enabled, stop, cascading, conditions, actions, revision";

fn elements(text: &str) -> Result<Vec<Element>, sqlx::Error> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| sqlx::Error::Decode(format!("a rule's elements: {e}").into()))?;
    Ok(value.as_array().map(|items| items.iter().filter_map(Element::from_json).collect()).unwrap_or_default())
}

fn elements_text(elements: &[Element]) -> String {
    Value::Array(elements.iter().map(Element::to_json).collect()).to_string()
}

fn rule_from_row(row: &AnyRow) -> Result<Rule, sqlx::Error> {
    Ok(Rule {
        id: row.try_get(0)?,
        title: row.try_get(1)?,
        description: row.try_get(2)?,
        event: row.try_get(3)?,
        enabled: row.try_get::<i64, _>(4)? != 0,
        stop: row.try_get::<i64, _>(5)? != 0,
        cascading: row.try_get::<i64, _>(6)? != 0,
        conditions: elements(&row.try_get::<String, _>(7)?)?,
        actions: elements(&row.try_get::<String, _>(8)?)?,
        revision: row.try_get(9)?,
    })
}

/// Every rule, in the order they were made.
pub async fn rules(store: &Store) -> ApiResult<Vec<Rule>> {
    let sql = format!("SELECT {RULE_COLUMNS} FROM content_rule ORDER BY position");
    let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(store.pool()).await?;
    Ok(rows.iter().map(rule_from_row).collect::<Result<_, _>>()?)
}

/// One rule; 404 (naming `url`) when there is none such.
pub async fn rule(store: &Store, id: &str, url: &str) -> ApiResult<Rule> {
    let sql = format!("SELECT {RULE_COLUMNS} FROM content_rule WHERE id = $1");
    let row = sqlx::query(AssertSqlSafe(sql)).bind(id).fetch_optional(store.pool()).await?;
    match row {
        Some(row) => Ok(rule_from_row(&row)?),
        None => Err(ApiError::not_found(url)),
    }
}

/// Adds a rule with the next free id (`rule-<n>`); gives the id.
pub async fn insert_rule(store: &Store, rule: &Rule) -> ApiResult<String> {
    let mut tx = store.begin().await?;
    let (count, last): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MAX(position) FROM content_rule").fetch_one(tx.connection()).await?;
    if count >= MAX_RULES {
        return Err(ApiError::new(ErrorCode::BadRequest, format!("A site keeps at most {MAX_RULES} content rules.")));
    }
    let ids: Vec<(String,)> = sqlx::query_as("SELECT id FROM content_rule").fetch_all(tx.connection()).await?;
    let next = ids.iter().filter_map(|(id,)| id.strip_prefix("rule-")?.parse::<i64>().ok()).max().unwrap_or(0) + 1;
    let id = format!("rule-{next}");
    sqlx::query(
        "INSERT INTO content_rule (id, position, title, description, event, enabled, stop, cascading, conditions, actions) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&id)
    .bind(last.unwrap_or(0) + 1)
    .bind(&rule.title)
    .bind(&rule.description)
    .bind(&rule.event)
    .bind(i64::from(rule.enabled))
    .bind(i64::from(rule.stop))
    .bind(i64::from(rule.cascading))
    .bind(elements_text(&rule.conditions))
    .bind(elements_text(&rule.actions))
    .execute(tx.connection())
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Saves a changed rule; 409 when it changed since it was read (its revision moved on).
pub async fn update_rule(store: &Store, rule: &Rule) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    let updated = sqlx::query(
        "UPDATE content_rule SET title = $1, description = $2, event = $3, enabled = $4, stop = $5, cascading = $6, \
         conditions = $7, actions = $8, revision = revision + 1 WHERE id = $9 AND revision = $10",
    )
    .bind(&rule.title)
    .bind(&rule.description)
    .bind(&rule.event)
    .bind(i64::from(rule.enabled))
    .bind(i64::from(rule.stop))
    .bind(i64::from(rule.cascading))
    .bind(elements_text(&rule.conditions))
    .bind(elements_text(&rule.actions))
    .bind(&rule.id)
    .bind(rule.revision)
    .execute(tx.connection())
    .await?;
    if updated.rows_affected() != 1 {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            format!("The rule {} was changed or deleted meanwhile; read it again and repeat the change.", rule.id),
        ));
    }
    tx.commit().await?;
    Ok(())
}

/// Deletes a rule with its assignments (queued runs skip a rule that is gone).
pub async fn delete_rule(store: &Store, id: &str) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    for sql in ["DELETE FROM content_rule_assignment WHERE rule_id = $1", "DELETE FROM content_rule WHERE id = $1"] {
        sqlx::query(sql).bind(id).execute(tx.connection()).await?;
    }
    tx.commit().await?;
    Ok(())
}

fn assignment_from_row(row: &AnyRow) -> Result<Assignment, sqlx::Error> {
    Ok(Assignment {
        content_uid: row.try_get(0)?,
        rule_id: row.try_get(1)?,
        enabled: row.try_get::<i64, _>(2)? != 0,
        bubbles: row.try_get::<i64, _>(3)? != 0,
    })
}

const ASSIGNMENT_COLUMNS: &str = "content_uid, rule_id, enabled, bubbles";

/// The assignments on the objects `uids`, each object's in their order.
pub async fn assignments_on(store: &Store, uids: &[&str]) -> ApiResult<Vec<Assignment>> {
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {ASSIGNMENT_COLUMNS} FROM content_rule_assignment WHERE content_uid IN ({}) ORDER BY position",
        wcs_core::store::placeholders(1, uids.len())
    );
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for uid in uids {
        query = query.bind(*uid);
    }
    let rows = query.fetch_all(store.pool()).await?;
    Ok(rows.iter().map(assignment_from_row).collect::<Result<_, _>>()?)
}

/// Which rules are assigned anywhere.
pub async fn assigned_rule_ids(store: &Store) -> ApiResult<Vec<String>> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT DISTINCT rule_id FROM content_rule_assignment").fetch_all(store.pool()).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// The assignments of a rule with their objects' paths.
pub async fn assignments_of(store: &Store, rule_id: &str) -> ApiResult<Vec<(Assignment, String)>> {
    let rows = sqlx::query(
        "SELECT a.content_uid, a.rule_id, a.enabled, a.bubbles, c.path FROM content_rule_assignment a \
         JOIN content c ON c.uid = a.content_uid WHERE a.rule_id = $1 ORDER BY c.path",
    )
    .bind(rule_id)
    .fetch_all(store.pool())
    .await?;
    Ok(rows
        .iter()
        .map(|row| Ok((assignment_from_row(row)?, row.try_get::<String, _>(4)?)))
        .collect::<Result<_, sqlx::Error>>()?)
}

/// Assigns a rule to an object, last in its order, enabled and not bubbling (as Plone's
/// `assign_rule`); nothing changes when it is assigned there already.
pub async fn assign(store: &Store, content_uid: &str, rule_id: &str) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    let (last,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(position) FROM content_rule_assignment WHERE content_uid = $1")
            .bind(content_uid)
            .fetch_one(tx.connection())
            .await?;
    let exists: Option<(String,)> =
        sqlx::query_as("SELECT rule_id FROM content_rule_assignment WHERE content_uid = $1 AND rule_id = $2")
            .bind(content_uid)
            .bind(rule_id)
            .fetch_optional(tx.connection())
            .await?;
    if exists.is_none() {
        sqlx::query(
            "INSERT INTO content_rule_assignment (content_uid, rule_id, position, enabled, bubbles) \
             VALUES ($1, $2, $3, 1, 0)",
        )
        .bind(content_uid)
        .bind(rule_id)
        .bind(last.unwrap_or(0) + 1)
        .execute(tx.connection())
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Sets `enabled` and/or `bubbles` of the object's assignments of `rule_ids`.
pub async fn edit_assignments(
    store: &Store,
    content_uid: &str,
    rule_ids: &[String],
    enabled: Option<bool>,
    bubbles: Option<bool>,
) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    for rule_id in rule_ids {
        sqlx::query(
            "UPDATE content_rule_assignment SET enabled = COALESCE($1, enabled), bubbles = COALESCE($2, bubbles) \
             WHERE content_uid = $3 AND rule_id = $4",
        )
        .bind(enabled.map(i64::from))
        .bind(bubbles.map(i64::from))
        .bind(content_uid)
        .bind(rule_id)
        .execute(tx.connection())
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Removes the object's assignments of `rule_ids`.
pub async fn unassign(store: &Store, content_uid: &str, rule_ids: &[String]) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    for rule_id in rule_ids {
        sqlx::query("DELETE FROM content_rule_assignment WHERE content_uid = $1 AND rule_id = $2")
            .bind(content_uid)
            .bind(rule_id)
            .execute(tx.connection())
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Puts the object's assignments in the order `rule_ids`.
pub async fn reorder(store: &Store, content_uid: &str, rule_ids: &[String]) -> ApiResult<()> {
    let mut tx = store.begin().await?;
    for (position, rule_id) in rule_ids.iter().enumerate() {
        sqlx::query("UPDATE content_rule_assignment SET position = $1 WHERE content_uid = $2 AND rule_id = $3")
            .bind(position as i64 + 1)
            .bind(content_uid)
            .bind(rule_id)
            .execute(tx.connection())
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Drops the assignments of objects deleted for good, in the deleting transaction.
pub async fn drop_orphans(tx: &mut Tx) -> ApiResult<()> {
    sqlx::query("DELETE FROM content_rule_assignment WHERE content_uid NOT IN (SELECT uid FROM content)")
        .execute(tx.own_tables())
        .await?;
    Ok(())
}
