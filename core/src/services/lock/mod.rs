//! `@lock`: editing locks, as plone.locking's. An editor takes one on entering an edit form
//! (`POST`), keeps it alive (`PATCH`), and gives it back on leaving (`DELETE`); meanwhile others'
//! changes, renames and deletions answer 409 `locked` unless they send the lock's token
//! (`Lock-Token`) or release a stealable lock first. A lock runs out after its timeout, so one
//! left behind by a closed browser does not block the page for long.

pub mod delete;
pub mod get;
pub mod patch;
pub mod post;

use crate::app::App;
use crate::content::values::format_time;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::store::ContentLock;
use poem_openapi::Object;

/// Plone's default: ten minutes.
pub const DEFAULT_TIMEOUT: i64 = 600;
/// The longest a lock may be asked for: a day.
pub const MAX_TIMEOUT: i64 = 86_400;

/// An object's lock in plone.restapi's shape; without one, only `locked` (false) and
/// `stealable` (true).
#[derive(Object)]
#[oai(skip_serializing_if_is_none)]
pub struct LockInfo {
    /// When it was taken or last refreshed (ISO 8601).
    pub created: Option<String>,
    /// The user id that holds it.
    pub creator: Option<String>,
    /// The holder's name.
    pub creator_name: Option<String>,
    /// The holder's author page.
    pub creator_url: Option<String>,
    /// Whether the object is locked.
    pub locked: bool,
    /// `plone.locking.stealable` or `plone.locking.nonstealable`.
    pub name: Option<String>,
    /// Whether others may release it.
    pub stealable: bool,
    /// `created` in seconds since the epoch.
    pub time: Option<i64>,
    /// For how many seconds after `created` it holds.
    pub timeout: Option<i64>,
    /// The secret that lets a request edit despite the lock (`Lock-Token`); for its holder
    /// only.
    pub token: Option<String>,
}

/// What a request shows of no lock.
pub fn unlocked() -> LockInfo {
    LockInfo {
        created: None,
        creator: None,
        creator_name: None,
        creator_url: None,
        locked: false,
        name: None,
        stealable: true,
        time: None,
        timeout: None,
        token: None,
    }
}

/// The lock of the object that still holds, if any.
pub async fn current_lock(app: &App, uid: &str) -> ApiResult<Option<ContentLock>> {
    let now = chrono::Utc::now().timestamp();
    Ok(app.store.lock_of(uid).await?.filter(|lock| lock.holds_at(now)))
}

/// The lock as the caller may see it: the token only for its holder.
pub fn lock_info(ctx: &Ctx, lock: &ContentLock) -> LockInfo {
    let site = ctx.site_url();
    let holder = ctx.principal.user_id() == Some(lock.creator.as_str());
    LockInfo {
        created: chrono::DateTime::from_timestamp(lock.created, 0).map(format_time),
        creator: Some(lock.creator.clone()),
        creator_name: Some(lock.creator.clone()),
        creator_url: Some(format!("{site}/author/{}", lock.creator)),
        locked: true,
        name: Some(if lock.stealable { "plone.locking.stealable" } else { "plone.locking.nonstealable" }.to_owned()),
        stealable: lock.stealable,
        time: Some(lock.created),
        timeout: Some(lock.timeout),
        token: holder.then(|| lock.token.clone()),
    }
}

/// Refuses a change of the context while someone else holds its lock, unless the request
/// carries the lock's token.
pub async fn check_edit_lock(ctx: &Ctx) -> ApiResult<()> {
    let Some(lock) = current_lock(&ctx.app, &ctx.context.uid).await? else { return Ok(()) };
    let holder = ctx.principal.user_id() == Some(lock.creator.as_str());
    if holder || ctx.request.header("lock-token") == Some(lock.token.as_str()) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::Locked,
        format!("This object is locked by {} for editing; ask them to finish, or unlock it first.", lock.creator),
    ))
}
