//! How a full memory makes room. Its keys come from requests, so it must stay bounded; but
//! starting over drops the entries asked for most along with all the rest, and a walk over more
//! objects than the memory holds then reads nearly everything again. So what is too old to be
//! recalled goes first, and only while the memory is still more than half full does every
//! other entry go too. Each pass leaves at most half the budget taken, so its cost is shared
//! by the entries that fill the other half, and an entry asked for often is soon read back.

use std::collections::HashMap;

/// Drops entries until what is left weighs at most half of `budget`, those that are no longer
/// `fresh` first, and returns what is left's weight.
pub(super) fn make_room<K, E>(
    entries: &mut HashMap<K, E>,
    budget: usize,
    weight: impl Fn(&E) -> usize,
    fresh: impl Fn(&K, &E) -> bool,
) -> usize {
    entries.retain(|key, entry| fresh(key, entry));
    let mut left: usize = entries.values().map(&weight).sum();
    while left > budget / 2 {
        // Starting with a drop: a single entry heavier than half the budget goes too.
        let mut keep = true;
        entries.retain(|_, entry| {
            keep = !keep;
            if !keep {
                left -= weight(entry);
            }
            keep
        });
    }
    left
}

#[cfg(test)]
mod tests {
    use super::make_room;
    use std::collections::HashMap;

    #[test]
    fn stale_entries_go_first_and_the_fresh_ones_only_down_to_half() {
        let mut entries: HashMap<u32, (usize, bool)> = (0..10).map(|n| (n, (1, n < 4))).collect();
        let left = make_room(&mut entries, 10, |entry| entry.0, |_, entry| entry.1);
        assert_eq!(left, 4, "the six stale entries went, the four fresh ones fit in half");
        assert!(entries.keys().all(|n| *n < 4));

        let mut entries: HashMap<u32, (usize, bool)> = (0..10).map(|n| (n, (1, true))).collect();
        let left = make_room(&mut entries, 10, |entry| entry.0, |_, entry| entry.1);
        assert_eq!((left, entries.len()), (5, 5), "every other fresh entry went");

        let mut entries = HashMap::from([(1, (8, true))]);
        assert_eq!(make_room(&mut entries, 10, |entry| entry.0, |_, entry| entry.1), 0, "too heavy alone");
        assert!(entries.is_empty());
    }
}
