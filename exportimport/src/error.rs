//! What stops an import: always naming the file of the export at fault.

use std::fmt;

/// A problem with the export (or with writing it), and the file it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The file, relative to the export's directory (empty for the export as a whole).
    pub file: String,
    /// What is wrong.
    pub problem: String,
}

impl ImportError {
    /// A problem in `file`.
    pub fn new(file: impl Into<String>, problem: impl Into<String>) -> ImportError {
        ImportError { file: file.into(), problem: problem.into() }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() { f.write_str(&self.problem) } else { write!(f, "{}: {}", self.file, self.problem) }
    }
}

impl std::error::Error for ImportError {}

/// Why an import stopped: the problems found while checking the export, before anything was
/// written (all of them, so one run lists them), or the one that stopped the writing, after
/// which the same command goes on where it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    /// What is wrong.
    pub problems: Vec<ImportError>,
    /// Whether batches were written before it stopped.
    pub after_writing: bool,
}

impl Stopped {
    /// Problems found while checking.
    pub fn checking(problems: Vec<ImportError>) -> Stopped {
        Stopped { problems, after_writing: false }
    }

    /// One problem found while checking.
    pub fn checking_one(problem: ImportError) -> Stopped {
        Stopped::checking(vec![problem])
    }

    /// A problem while writing.
    pub fn writing(problem: ImportError) -> Stopped {
        Stopped { problems: vec![problem], after_writing: true }
    }
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.after_writing {
            writeln!(f, "the import stopped; what was written stays, and the same command goes on from there:")?;
        } else {
            writeln!(f, "the export has {} problem(s); nothing was written:", self.problems.len())?;
        }
        for problem in &self.problems {
            writeln!(f, "  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Stopped {}
