//! Resumable uploads, as plone.restapi speaks the TUS protocol (1.0.0, extensions `creation`
//! and `expiration`): `POST <folder>/@tus-upload` starts an upload that creates an object,
//! `POST <object>/@tus-replace` one that replaces the object's file; then `PATCH
//! <context>/@tus-upload/<id>` sends the bytes in chunks (`Upload-Offset`, body
//! `application/offset+octet-stream`), `HEAD` says how far it got, and the last chunk makes or
//! changes the object (`Location`). Large files need no base64 JSON and survive a broken
//! connection, and a restart of the server.
//!
//! No CSRF token is asked for: every request must carry `Tus-Resumable`, which no form or
//! other request a foreign page can send without a CORS preflight has, and it is checked first.

mod headers;
mod replace;
mod start;
mod status;
mod upload;
mod uploads;
mod write;

pub use replace::TUS_REPLACE;
pub use status::TUS_STATUS;
pub use upload::TUS_UPLOAD;
pub use write::TUS_WRITE;
