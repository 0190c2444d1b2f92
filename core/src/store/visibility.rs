//! What a read may return to its caller: the filter every listing, search and lookup applies
//! in its own statement. Who gets which is security's to say (`security::tokens`).

use chrono::{DateTime, Utc};

/// Which objects a caller may find: in listings, navigation, search, relations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visibility {
    /// An object must carry one of these `allowed` tokens; `None` lets every object through
    /// (Managers).
    pub tokens: Option<Vec<String>>,
    /// When set, an object must also be in its publication window at this moment: effective
    /// (or without an effective date) and not expired.
    pub active_at: Option<DateTime<Utc>>,
}

impl Visibility {
    /// Everything, for the server's own reads.
    pub const ALL: Visibility = Visibility { tokens: None, active_at: None };

    /// What a value derived under this visibility and kept between requests ([`Kept`]) depends
    /// on: the tokens, and whether the publication window applies, not the moment (a kept value
    /// lives no longer than the memory's maximum age, which bounds how late a date that passes
    /// shows).
    ///
    /// [`Kept`]: super::Kept
    pub fn memory_key(&self) -> String {
        format!("{:?}:{}", self.tokens, self.active_at.is_some())
    }
}
