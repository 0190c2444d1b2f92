//! The `translation` table: which objects are one another's translations. A group is written
//! in the caller's transaction and read whole (it holds one object per language).

use serde_json::json;
use sqlx::Row;
use wcs_core::content::ContentObject;
use wcs_core::events::{Event, EventKind, PluginEvent};
use wcs_core::http::{ApiError, ApiResult, ErrorCode};
use wcs_core::store::{Migration, Store, Tx};

/// The plugin's migrations.
pub static MIGRATIONS: [Migration; 1] = [Migration {
    version: 1,
    description: "translation groups",
    sqlite: include_str!("../migrations/sqlite/0001_translation.sql"),
    postgres: include_str!("../migrations/postgres/0001_translation.sql"),
}];

/// An object was linked as a translation of another (plone.app.multilingual's
/// `TranslationRegisteredEvent`); told on the translation, the detail naming the original.
pub static TRANSLATION_LINKED: EventKind = EventKind { name: "translation_linked" };
/// An object's translation in a language was unlinked (`TranslationRemovedEvent`); told on
/// the object asked, the detail naming the language and the object unlinked.
pub static TRANSLATION_UNLINKED: EventKind = EventKind { name: "translation_unlinked" };

/// One member of a translation group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The object.
    pub uid: String,
    /// Its language.
    pub language: String,
}

/// The other members of a translation group, but for those in the trash (which give their
/// place up); `$1` is a member's uid.
const OTHER_MEMBERS: &str = "SELECT t.content_uid, t.language FROM translation t \
     JOIN translation mine ON mine.tg = t.tg JOIN content c ON c.uid = t.content_uid \
     WHERE mine.content_uid = $1 AND t.content_uid <> $1 AND c.trashed = 0 ORDER BY t.language";

/// The other members of `uid`'s translation group (none when it is in no group).
pub async fn translations_of(store: &Store, uid: &str) -> Result<Vec<Member>, sqlx::Error> {
    members(sqlx::query(OTHER_MEMBERS).bind(uid).fetch_all(store.pool()).await?)
}

/// [`translations_of`], read in `tx`.
pub(crate) async fn members_in(tx: &mut Tx, uid: &str) -> Result<Vec<Member>, sqlx::Error> {
    members(sqlx::query(OTHER_MEMBERS).bind(uid).fetch_all(tx.own_tables()).await?)
}

fn members(rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<Member>, sqlx::Error> {
    rows.iter().map(|row| Ok(Member { uid: row.try_get(0)?, language: row.try_get(1)? })).collect()
}

/// Links `translation` into `original`'s group (plone.app.multilingual's
/// `register_translation`): it leaves the group it was in, if any. Both need a language, and
/// the group may hold only one object per language.
pub async fn link(tx: &mut Tx, original: &ContentObject, translation: &ContentObject) -> ApiResult<()> {
    let Some(from) = original.language() else {
        return Err(refused(format!("'{}' has no language, so it has no translations.", original.id)));
    };
    let Some(to) = translation.language() else {
        return Err(refused(format!("'{}' has no language: set one before linking it.", translation.id)));
    };
    if original.uid == translation.uid || from == to {
        return Err(refused(format!("Already translated into language {to}.")));
    }
    let group: Option<String> = sqlx::query_scalar("SELECT tg FROM translation WHERE content_uid = $1")
        .bind(&original.uid)
        .fetch_optional(tx.own_tables())
        .await?;
    // A new group gets an id of its own: never an object's uid, which a group it left would
    // still carry.
    let tg = match group {
        Some(tg) => tg,
        None => {
            let tg = wcs_core::ops::new_uid();
            insert(tx, &original.uid, &tg, from).await?;
            tg
        }
    };
    let members = members_in(tx, &original.uid).await?;
    if members.iter().any(|m| m.language == to && m.uid != translation.uid) {
        return Err(refused(format!("Already translated into language {to}.")));
    }
    // A translation in the trash gives its place up to the new one.
    sqlx::query(
        "DELETE FROM translation WHERE content_uid = $1 OR (tg = $2 AND language = $3 \
         AND content_uid IN (SELECT uid FROM content WHERE trashed <> 0))",
    )
    .bind(&translation.uid)
    .bind(&tg)
    .bind(to)
    .execute(tx.own_tables())
    .await?;
    insert(tx, &translation.uid, &tg, to).await?;
    let detail = json!({"translation_of": original.uid, "language": to});
    tx.emit(Event::Plugin(PluginEvent { kind: &TRANSLATION_LINKED, uid: translation.uid.clone(), detail }));
    Ok(())
}

async fn insert(tx: &mut Tx, uid: &str, tg: &str, language: &str) -> ApiResult<()> {
    sqlx::query("INSERT INTO translation (content_uid, tg, language) VALUES ($1, $2, $3)")
        .bind(uid)
        .bind(tg)
        .bind(language)
        .execute(tx.own_tables())
        .await?;
    Ok(())
}

/// Takes the member in `language` out of `object`'s group; it stays, untranslated.
pub async fn unlink(tx: &mut Tx, object: &ContentObject, language: &str) -> ApiResult<()> {
    let member = members_in(tx, &object.uid).await?.into_iter().find(|m| m.language == language);
    let Some(member) = member else {
        return Err(refused(format!("This object is not translated into {language}.")));
    };
    sqlx::query("DELETE FROM translation WHERE content_uid = $1").bind(&member.uid).execute(tx.own_tables()).await?;
    let detail = json!({"language": language, "translation": member.uid});
    tx.emit(Event::Plugin(PluginEvent { kind: &TRANSLATION_UNLINKED, uid: object.uid.clone(), detail }));
    Ok(())
}

/// Forgets the objects that are gone (deleted for good) from their groups.
pub async fn drop_orphans(tx: &mut Tx) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM translation WHERE NOT EXISTS (SELECT 1 FROM content c WHERE c.uid = translation.content_uid)",
    )
    .execute(tx.own_tables())
    .await?;
    Ok(())
}

/// Follows a change of language of `objects` (uid and new code): an object keeps its group
/// under its new language, unless the group has that language already, or it has none now,
/// when it leaves the group.
pub async fn relanguage(tx: &mut Tx, objects: &[(String, String)]) -> Result<(), sqlx::Error> {
    for (uid, language) in objects {
        let taken: Option<String> = sqlx::query_scalar(
            "SELECT t.content_uid FROM translation t JOIN translation mine ON mine.tg = t.tg \
             WHERE mine.content_uid = $1 AND t.content_uid <> $1 AND t.language = $2",
        )
        .bind(uid)
        .bind(language)
        .fetch_optional(tx.own_tables())
        .await?;
        let query = if language.is_empty() || taken.is_some() {
            sqlx::query("DELETE FROM translation WHERE content_uid = $1").bind(uid)
        } else {
            sqlx::query("UPDATE translation SET language = $2 WHERE content_uid = $1").bind(uid).bind(language)
        };
        query.execute(tx.own_tables()).await?;
    }
    Ok(())
}

fn refused(message: String) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}
