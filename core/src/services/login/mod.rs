//! `@login`: the options a client may log in with (GET) and logging in with login and
//! password for a JWT (POST).

pub mod get;
pub mod post;

use poem_openapi::Object;

/// A fresh authentication token, as `@login` and `@login-renew` answer.
#[derive(Object)]
pub struct AuthToken {
    /// The JWT, for `Authorization: Bearer`.
    pub token: String,
}
