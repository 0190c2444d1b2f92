//! plone.app.discussion's thread order: each top-level comment, oldest first, followed by its
//! replies, depth first, each level oldest first.

use crate::store::Comment;
use std::collections::{BTreeMap, HashSet};

/// The comments in thread order. A reply whose parent is missing (it cannot be, as deleting
/// a comment deletes its replies) is placed at the top rather than lost.
pub fn in_thread_order(comments: Vec<Comment>) -> Vec<Comment> {
    let ids: HashSet<i64> = comments.iter().map(|c| c.id).collect();
    let mut children: BTreeMap<Option<i64>, Vec<Comment>> = BTreeMap::new();
    for comment in comments {
        let parent = comment.in_reply_to.filter(|p| ids.contains(p));
        children.entry(parent).or_default().push(comment);
    }
    for replies in children.values_mut() {
        replies.sort_by_key(|c| c.id);
        replies.reverse(); // popped from the end: oldest first
    }
    let mut ordered = Vec::with_capacity(ids.len());
    // An explicit stack: a long chain of replies must not exhaust the call stack.
    let mut stack: Vec<Comment> = children.remove(&None).unwrap_or_default();
    while let Some(comment) = stack.pop() {
        if let Some(replies) = children.remove(&Some(comment.id)) {
            stack.extend(replies);
        }
        ordered.push(comment);
    }
    ordered
}

/// The ids of comments somebody replied to.
pub fn answered(comments: &[Comment]) -> HashSet<i64> {
    comments.iter().filter_map(|c| c.in_reply_to).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn comment(id: i64, in_reply_to: Option<i64>) -> Comment {
        Comment {
            id,
            in_reply_to,
            author_username: None,
            author_name: None,
            author_email: None,
            text: String::new(),
            mime_type: "text/plain".into(),
            created: Utc::now(),
            modified: Utc::now(),
        }
    }

    #[test]
    fn replies_follow_their_comment_depth_first() {
        let all =
            vec![comment(1, None), comment(2, None), comment(3, Some(1)), comment(4, Some(3)), comment(5, Some(1))];
        let order: Vec<i64> = in_thread_order(all).iter().map(|c| c.id).collect();
        assert_eq!(order, [1, 3, 4, 5, 2]);
    }

    #[test]
    fn a_long_chain_of_replies_is_ordered_without_recursion() {
        let all: Vec<Comment> = (1..=100_000).map(|id| comment(id, (id > 1).then(|| id - 1))).collect();
        let order = in_thread_order(all);
        assert_eq!(order.len(), 100_000);
        assert_eq!(order.last().map(|c| c.id), Some(100_000));
    }
}
