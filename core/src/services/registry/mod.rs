//! `@registry` on the site root: the declared registry records (Manage portal), read (GET)
//! and changed (PATCH). Server secrets share the storage table but are never declared, so
//! they can be neither read nor written here.

pub mod get;
pub mod patch;
