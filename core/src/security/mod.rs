//! Security: who is calling (authentication), what they may do (roles and permissions on
//! the tree), and the tokens that keep listings and CSRF safe.
//!
//! Permissions come from the object's workflow state or are acquired from its container up
//! to the site role map; roles are global (own and from groups) plus local roles inherited
//! down the tree. Every check passes through [`Access`] or [`Visibility`].

mod access;
mod basic;
pub mod csrf;
pub mod delegation;
mod jwt;
mod legacy_password;
mod password;
mod permission;
mod policy;
mod principal;
mod reset_token;
mod role;
pub mod settings;
mod single_flight;
mod throttle;
mod tokens;

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::store::Store;
pub use crate::store::Visibility;
pub use access::{AUTHENTICATED_GROUP, Access};
pub use csrf::Csrf;
pub use jwt::TOKEN_LIFETIME_SECS;
pub use legacy_password::{is_legacy as is_legacy_password, is_supported as is_supported_password};
pub use password::{hash_in_turn, hash_password, verify_password};
pub use permission::{Permission, Refusal};
use poem::http::HeaderMap;
pub use policy::Policy;
pub use principal::{Principal, User};
pub use role::Role;
use std::net::IpAddr;
use std::time::Instant;

/// How the caller proved who they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthMethod {
    /// No credentials.
    None,
    /// `Authorization: Basic`.
    Basic,
    /// `Authorization: Bearer <jwt>`.
    Bearer,
    /// The `auth_token` cookie (browser views); unsafe requests then need a CSRF token.
    Cookie,
}

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller {
    /// Who.
    pub principal: Principal,
    /// How they authenticated.
    pub method: AuthMethod,
}

/// The server secrets, generated at first start and stored, so every instance sharing the
/// database signs and checks the same way.
#[derive(Clone)]
pub struct Secrets {
    /// Signs JWTs.
    pub jwt: Vec<u8>,
    /// Keys CSRF tokens.
    pub csrf: Vec<u8>,
}

/// The name of the cookie that carries a JWT for browser views.
pub const AUTH_COOKIE: &str = "auth_token";

/// Authenticates requests, issues tokens and turns denials into the right status.
pub struct Security {
    credentials: basic::CredentialCache,
    secrets: Secrets,
    throttle: throttle::LoginThrottle,
    tokens: jwt::VerifiedTokens,
}

impl Security {
    /// A security layer over the stored secrets.
    pub fn new(secrets: Secrets) -> Self {
        Security {
            credentials: basic::CredentialCache::default(),
            secrets,
            throttle: Default::default(),
            tokens: Default::default(),
        }
    }

    /// How many password hashes were checked since start (for `/metrics`).
    pub fn password_checks(&self) -> u64 {
        self.credentials.password_checks()
    }

    /// Resolves the caller. Wrong Basic or Bearer credentials are a 401 rather than a silent
    /// downgrade, so clients notice at once; a stale cookie only makes the caller anonymous.
    /// `client` is the connection's peer, for the login throttle.
    pub async fn authenticate(&self, store: &Store, headers: &HeaderMap, client: Option<IpAddr>) -> ApiResult<Caller> {
        if let Some(value) = headers.get("authorization") {
            let value = value.to_str().map_err(|_| bad_credentials())?;
            let (scheme, token) = value.split_once(' ').ok_or_else(bad_credentials)?;
            if scheme.eq_ignore_ascii_case("basic") {
                let (login, password) = basic::decode(token.trim()).ok_or_else(bad_credentials)?;
                let user = match self.credentials.cached(&login, &password) {
                    Some(user) => user,
                    None => self.login(store, &login, &password, client).await?.ok_or_else(bad_credentials)?,
                };
                return Ok(Caller { principal: Principal::User(user), method: AuthMethod::Basic });
            }
            if scheme.eq_ignore_ascii_case("bearer") {
                let user = self.user_of_token(store, token.trim()).await?.ok_or_else(bad_token)?;
                return Ok(Caller { principal: Principal::User(user), method: AuthMethod::Bearer });
            }
            return Err(bad_credentials());
        }
        if let Some(token) = cookie(headers, AUTH_COOKIE)
            && let Some(user) = self.user_of_token(store, &token).await?
        {
            return Ok(Caller { principal: Principal::User(user), method: AuthMethod::Cookie });
        }
        Ok(Caller { principal: Principal::Anonymous, method: AuthMethod::None })
    }

    async fn user_of_token(&self, store: &Store, token: &str) -> ApiResult<Option<User>> {
        let Some((user_id, generation)) = self.tokens.verify(&self.secrets.jwt, token) else {
            return Ok(None);
        };
        let user = self.credentials.user(store, &user_id).await?;
        Ok(user.filter(|user| user.token_generation == generation))
    }

    /// Checks a login and password (Basic credentials, `@login`, the login form), within the
    /// limits of the login throttle: 429 with `Retry-After` once the account or the client
    /// has failed too often.
    pub async fn login(
        &self,
        store: &Store,
        login: &str,
        password: &str,
        client: Option<IpAddr>,
    ) -> ApiResult<Option<User>> {
        self.throttle.admit(login, client, Instant::now())?;
        let user = self.credentials.verify(store, login, password).await?;
        match &user {
            Some(_) => self.throttle.succeeded(login),
            None => self.throttle.failed(login, client, Instant::now()),
        }
        Ok(user)
    }

    /// Checks the current password of an account before it is changed (`old_password`), within
    /// the login throttle's limits, whose counts it shares: guessing it is as slow as guessing
    /// at the login form, and a locked-out guess costs no hashing.
    pub async fn check_password(
        &self,
        login: &str,
        password_hash: Option<&str>,
        password: &str,
        client: Option<IpAddr>,
    ) -> ApiResult<bool> {
        self.throttle.admit(login, client, Instant::now())?;
        let matches = self.credentials.check(password_hash, password).await?;
        match matches {
            true => self.throttle.succeeded(login),
            false => self.throttle.failed(login, client, Instant::now()),
        }
        Ok(matches)
    }

    /// A signed token for `user`.
    pub fn issue_token(&self, user: &User) -> ApiResult<String> {
        jwt::issue(&self.secrets.jwt, &user.id, &user.fullname, &user.token_generation).map_err(ApiError::internal)
    }

    /// The CSRF token of `principal`.
    pub fn csrf_token(&self, principal: &Principal) -> String {
        csrf::token(&self.secrets.csrf, principal.actor())
    }

    /// Whether `candidate` is the CSRF token of `principal`.
    pub fn verify_csrf(&self, principal: &Principal, candidate: &str) -> bool {
        csrf::verify(&self.secrets.csrf, principal.actor(), candidate)
    }

    /// A password-reset token for a user with `password_hash` (empty for none), valid until
    /// `expires` (Unix seconds).
    pub fn reset_token(&self, user_id: &str, password_hash: &str, expires: i64) -> String {
        reset_token::issue(&self.secrets.jwt, user_id, password_hash, expires)
    }

    /// Whether `token` resets the password of a user who has `password_hash` now.
    pub fn verify_reset_token(&self, user_id: &str, password_hash: &str, token: &str, now: i64) -> bool {
        reset_token::verify(&self.secrets.jwt, user_id, password_hash, token, now)
    }

    /// Forgets cached users and credentials, after any change to principals.
    pub fn forget_credentials(&self) {
        self.credentials.clear();
    }
}

/// The error for a missing permission: 401 for anonymous callers (they may log in), 403 for
/// authenticated ones (logging in again will not help).
pub fn denied(principal: &Principal, permission: &str) -> ApiError {
    let message = format!("You are not allowed to do this: missing '{permission}' permission.");
    match principal {
        Principal::Anonymous => {
            ApiError::new(ErrorCode::Unauthorized, message).with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
        }
        Principal::User(_) => ApiError::new(ErrorCode::Forbidden, message),
    }
}

fn bad_credentials() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Wrong login and/or password.")
        .with_header("WWW-Authenticate", "Basic realm=\"wcs\"")
}

fn bad_token() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "Invalid or expired authentication token.")
        .with_header("WWW-Authenticate", "Bearer realm=\"wcs\"")
}

/// The value of a cookie.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim_matches('"').to_owned())
}
