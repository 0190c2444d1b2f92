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
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::store::ContentLock;
pub use crate::store::{LockInfo, unlocked};

/// Plone's default: ten minutes.
pub const DEFAULT_TIMEOUT: i64 = 600;
/// The longest a lock may be asked for: a day.
pub const MAX_TIMEOUT: i64 = 86_400;

/// The lock of the object that still holds, if any.
pub async fn current_lock(app: &App, uid: &str) -> ApiResult<Option<ContentLock>> {
    let now = chrono::Utc::now().timestamp();
    Ok(app.store.lock_of(uid).await?.filter(|lock| lock.holds_at(now)))
}

/// The lock as the caller sees it: the token only for its holder.
pub fn lock_info(ctx: &Ctx, lock: &ContentLock) -> LockInfo {
    lock.info(&ctx.site_url(), ctx.principal.user_id())
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
