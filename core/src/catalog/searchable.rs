//! What a search can find at all, whoever asks: every live object of the tree, the site root
//! and working copies included (Plone's catalog holds both, and Volto's contents view lists a
//! working copy beside its baseline), except layout blocks, whose text counts toward the page
//! they belong to. The SQL catalog writes the same rule into its statements
//! ([`super::SearchSql`]'s `trashed = 0` and `portal_type NOT IN` the block types); a search
//! engine indexes what this lets through.

use crate::content::{ContentObject, Types};

/// Whether `object` can be a search result (storage never hands out the trash as live content).
pub fn is_searchable(types: &Types, object: &ContentObject) -> bool {
    !types.is_block_type(&object.portal_type)
}
