//! What a content write tells in its `Modified` event: the names of what changed.

use crate::content::ContentObject;

/// What a container's `Modified` event names when the order of its children changed.
pub const ORDERING: &str = "ordering";

/// The names of what differs between two states of an object: its columns by field name,
/// and its stored fields.
pub(super) fn changed_fields(before: &ContentObject, after: &ContentObject) -> Vec<String> {
    let mut changed: Vec<String> = Vec::new();
    let columns = [
        ("title", before.title != after.title),
        ("description", before.description != after.description),
        ("review_state", before.review_state != after.review_state),
        ("modified", before.modified != after.modified),
        ("effective", before.effective != after.effective),
        ("expires", before.expires != after.expires),
    ];
    changed.extend(columns.iter().filter(|(_, differs)| *differs).map(|(name, _)| (*name).to_owned()));
    let names = before.fields.keys().chain(after.fields.keys().filter(|k| !before.fields.contains_key(*k)));
    changed.extend(names.filter(|name| before.fields.get(*name) != after.fields.get(*name)).cloned());
    changed
}
