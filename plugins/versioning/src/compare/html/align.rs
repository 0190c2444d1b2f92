//! Aligning the compared atoms of both sides: a Myers diff over interned keys with a
//! deadline, then a cleanup that keeps whole phrases together instead of confetti.

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};
use std::time::Instant;

/// One step of the alignment, as indexes into the compared sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Equal(usize, usize),
    Delete(usize),
    Insert(usize),
}

/// Punctuation-only stretches at most this long between two changes are folded into them:
/// "A, B" → "C, D" reads as one replaced phrase, not as two with a kept comma.
const GLUE: usize = 2;

/// Aligns `old` and `new`; `None` when the deadline passed first.
pub(super) fn align(old: &[u32], new: &[u32], weighty: &[bool], deadline: Instant) -> Option<Vec<Step>> {
    let ops = capture_diff_slices_deadline(Algorithm::Myers, old, new, Some(deadline));
    if Instant::now() >= deadline {
        return None;
    }
    let mut steps = Vec::with_capacity(old.len().max(new.len()));
    for op in ops {
        match op {
            DiffOp::Equal { old_index, new_index, len } => {
                steps.extend((0..len).map(|i| Step::Equal(old_index + i, new_index + i)));
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                steps.extend((old_index..old_index + old_len).map(Step::Delete))
            }
            DiffOp::Insert { new_index, new_len, .. } => {
                steps.extend((new_index..new_index + new_len).map(Step::Insert))
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                steps.extend((old_index..old_index + old_len).map(Step::Delete));
                steps.extend((new_index..new_index + new_len).map(Step::Insert));
            }
        }
    }
    Some(tidy(&steps, |key| weighty.get(key as usize).copied().unwrap_or(true), old))
}

/// Folds short punctuation-only equal runs between changes into the changes, and puts each
/// stretch of changes in reading form: everything removed first, then everything added.
fn tidy(steps: &[Step], weighty: impl Fn(u32) -> bool, old: &[u32]) -> Vec<Step> {
    let mut out = Vec::with_capacity(steps.len());
    let (mut deleted, mut inserted) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < steps.len() {
        match steps[i] {
            Step::Delete(_) => deleted.push(steps[i]),
            Step::Insert(_) => inserted.push(steps[i]),
            Step::Equal(..) => {
                let start = i;
                while i + 1 < steps.len() && matches!(steps[i + 1], Step::Equal(..)) {
                    i += 1;
                }
                let run = &steps[start..=i];
                let between_changes = start > 0 && i + 1 < steps.len();
                let only_punctuation =
                    run.iter().all(|s| matches!(s, Step::Equal(o, _) if !old.get(*o).is_some_and(|k| weighty(*k))));
                if between_changes && run.len() <= GLUE && only_punctuation {
                    for step in run {
                        if let Step::Equal(o, n) = *step {
                            deleted.push(Step::Delete(o));
                            inserted.push(Step::Insert(n));
                        }
                    }
                } else {
                    out.append(&mut deleted);
                    out.append(&mut inserted);
                    out.extend_from_slice(run);
                }
            }
        }
        i += 1;
    }
    out.append(&mut deleted);
    out.append(&mut inserted);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn punctuation_between_changes_joins_them_and_removals_come_first() {
        // keys: 0 A, 1 ",", 2 B, 3 C, 4 D, 5 end; comma is punctuation.
        let weighty = [true, false, true, true, true, true];
        let later = Instant::now() + Duration::from_secs(5);
        let steps = align(&[0, 1, 2, 5], &[3, 1, 4, 5], &weighty, later).unwrap_or_default();
        assert_eq!(
            steps,
            [
                Step::Delete(0),
                Step::Delete(1),
                Step::Delete(2),
                Step::Insert(0),
                Step::Insert(1),
                Step::Insert(2),
                Step::Equal(3, 3)
            ]
        );
    }

    #[test]
    fn a_passed_deadline_gives_no_alignment() {
        assert_eq!(align(&[0], &[1], &[true, true], Instant::now()), None);
    }
}
