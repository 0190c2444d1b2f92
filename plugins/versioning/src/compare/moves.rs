//! Which matched blocks moved: those outside a longest increasing subsequence of their old
//! positions taken in the current order (the fewest blocks that, moved, explain the new
//! order). O(n log n).

/// For each entry of `old_positions` (in current order), whether it keeps its place.
pub(super) fn in_place(old_positions: &[usize]) -> Vec<bool> {
    // tails[k]: index of the smallest last element of an increasing run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; old_positions.len()];
    for (i, position) in old_positions.iter().enumerate() {
        let length = tails.partition_point(|t| old_positions[*t] < *position);
        previous[i] = length.checked_sub(1).map(|l| tails[l]);
        if length == tails.len() {
            tails.push(i);
        } else {
            tails[length] = i;
        }
    }
    let mut kept = vec![false; old_positions.len()];
    let mut at = tails.last().copied();
    while let Some(i) = at {
        kept[i] = true;
        at = previous[i];
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::in_place;

    #[test]
    fn one_block_moved_to_the_front_is_the_only_one_moved() {
        assert_eq!(in_place(&[3, 0, 1, 2]), [false, true, true, true]);
    }

    #[test]
    fn unchanged_order_moves_nothing() {
        assert_eq!(in_place(&[0, 1, 2]), [true, true, true]);
        assert!(in_place(&[]).is_empty());
    }

    #[test]
    fn two_swapped_blocks_count_as_one_move() {
        assert_eq!(in_place(&[1, 0, 2]).iter().filter(|k| !**k).count(), 1);
    }
}
