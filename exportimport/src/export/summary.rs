//! The summary of an export: what was written, and what was left out and why.

use crate::notes::Notes;
use std::fmt;

/// What an export wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    /// Objects, the site root among them.
    pub objects: usize,
    /// Files.
    pub files: usize,
    /// Users.
    pub users: usize,
    /// Groups.
    pub groups: usize,
    /// Relations.
    pub relations: usize,
    /// Redirects.
    pub redirects: usize,
    /// What plugins wrote: the file, what its entries are and how many.
    pub plugin_files: Vec<(String, String, usize)>,
    /// What was left out, counted.
    pub notes: Notes,
}

impl fmt::Display for ExportSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} objects with {} files", self.objects, self.files)?;
        writeln!(f, "{} users, {} groups", self.users, self.groups)?;
        writeln!(f, "{} relations, {} redirects", self.relations, self.redirects)?;
        for (file, entries, count) in &self.plugin_files {
            writeln!(f, "{count} {entries} in {file}")?;
        }
        write!(f, "{}", self.notes)
    }
}
