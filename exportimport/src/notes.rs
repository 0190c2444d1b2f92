//! What an import or export left out, counted by kind, for the summary: nothing is dropped
//! unseen.

use std::collections::BTreeMap;
use std::fmt;

/// Counts of what was left out, by what it was.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Notes {
    left_out: BTreeMap<String, usize>,
}

impl Notes {
    /// One more of `what` was left out.
    pub fn left_out(&mut self, what: &str) {
        *self.left_out.entry(what.to_owned()).or_default() += 1;
    }

    /// What was left out, with how many of each, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.left_out.iter().map(|(what, count)| (what.as_str(), *count))
    }

    /// Whether nothing was left out.
    pub fn is_empty(&self) -> bool {
        self.left_out.is_empty()
    }
}

/// The summary's last lines: what was left out, with how many of each.
impl fmt::Display for Notes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(f, "nothing was left out");
        }
        writeln!(f, "left out:")?;
        for (what, count) in self.iter() {
            writeln!(f, "  {count:>6}  {what}")?;
        }
        Ok(())
    }
}
