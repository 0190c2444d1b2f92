//! The summary of an import: what was written, and what was left out and why.

use crate::notes::Notes;
use std::fmt;

/// What an import did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Objects written (or, on a dry run, that would be).
    pub objects: usize,
    /// Objects an earlier run wrote.
    pub already_there: usize,
    /// Files written.
    pub files: usize,
    /// Users and groups written.
    pub users: usize,
    /// Groups written.
    pub groups: usize,
    /// Group memberships written.
    pub memberships: usize,
    /// Default pages set.
    pub default_pages: usize,
    /// Relations set.
    pub relations: usize,
    /// Redirects added.
    pub redirects: usize,
    /// What plugins read from the export's other files: the file, what its entries are and
    /// how many were taken.
    pub plugin_files: Vec<(String, String, usize)>,
    /// The languages the site was given (a multilingual export), site language first.
    pub languages: Vec<String>,
    /// What was left out, counted.
    pub notes: Notes,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} objects with {} files", self.objects, self.files)?;
        if self.already_there > 0 {
            writeln!(f, "{} objects were there from an earlier run", self.already_there)?;
        }
        writeln!(f, "{} users, {} groups, {} group memberships", self.users, self.groups, self.memberships)?;
        writeln!(
            f,
            "{} default pages, {} relations, {} redirects",
            self.default_pages, self.relations, self.redirects
        )?;
        for (file, entries, count) in &self.plugin_files {
            writeln!(f, "{count} {entries} from {file}")?;
        }
        if !self.languages.is_empty() {
            writeln!(f, "languages: {} (the first is the site language)", self.languages.join(", "))?;
        }
        write!(f, "{}", self.notes)
    }
}
