//! `@login`: the options a client may log in with (GET) and logging in with login and
//! password for a JWT (POST).

pub mod get;
pub mod post;
