//! The one interface through which every permission check and every authentication passes.
//!
//! The current policy is deliberately small: Basic auth for stored users, the `Manager` role
//! holds every permission and anonymous callers may only view. The security model issue
//! replaces the policy inside [`Security`] without changing its callers.

mod basic;
mod password;
mod permission;
mod principal;

pub use password::{hash_password, verify_password};
pub use permission::Permission;
pub use principal::{Principal, User};

use crate::content::ContentObject;
use crate::http::{ApiError, ApiResult, ErrorCode};
use crate::store::Store;
use poem::http::HeaderMap;

/// Authenticates requests and decides permissions.
pub struct Security {
    credentials: basic::CredentialCache,
}

impl Default for Security {
    fn default() -> Self {
        Self::new()
    }
}

impl Security {
    /// A security layer with an empty credential cache.
    pub fn new() -> Self {
        Security { credentials: basic::CredentialCache::default() }
    }

    /// Resolves the caller from the request headers. Wrong credentials are a 401 rather than
    /// a silent downgrade to anonymous, so clients notice a bad password at once.
    pub async fn authenticate(&self, store: &Store, headers: &HeaderMap) -> ApiResult<Principal> {
        let Some(value) = headers.get("authorization") else {
            return Ok(Principal::Anonymous);
        };
        let value = value.to_str().map_err(|_| bad_credentials())?;
        let Some((scheme, token)) = value.split_once(' ') else {
            return Err(bad_credentials());
        };
        if !scheme.eq_ignore_ascii_case("basic") {
            return Err(bad_credentials());
        }
        let (login, password) = basic::decode(token.trim()).ok_or_else(bad_credentials)?;
        match self.credentials.verify(store, &login, &password).await? {
            Some(user) => Ok(Principal::User(user)),
            None => Err(bad_credentials()),
        }
    }

    /// Whether `principal` holds `permission` on `object`.
    pub fn allows(&self, principal: &Principal, permission: Permission, _object: &ContentObject) -> bool {
        principal.has_role("Manager") || permission == Permission::VIEW
    }

    /// Like [`Security::allows`], as an error: 401 for anonymous callers (they may log in),
    /// 403 for authenticated ones (logging in again will not help).
    pub fn check(&self, principal: &Principal, permission: Permission, object: &ContentObject) -> ApiResult<()> {
        if self.allows(principal, permission, object) {
            return Ok(());
        }
        let message = format!("You are not allowed to do this: missing '{}' permission.", permission.name());
        Err(match principal {
            Principal::Anonymous => {
                ApiError::new(ErrorCode::Unauthorized, message).with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
            }
            Principal::User(_) => ApiError::new(ErrorCode::Forbidden, message),
        })
    }

    /// Forgets cached credentials, e.g. after a password change.
    pub fn forget_credentials(&self) {
        self.credentials.clear();
    }
}

fn bad_credentials() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Wrong login and/or password.")
        .with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
}
