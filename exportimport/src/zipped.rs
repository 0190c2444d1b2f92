//! A ZIP of an export (what plone.exportimport's `POST @export` answers): unpacked into a
//! directory of its own that is removed afterwards, and packed from an export directory. Names
//! that would lead outside it are refused, and what is unpacked is bounded, entry by entry and
//! in all, by what the bytes really are rather than by what the archive claims.

use crate::error::ImportError;
use crate::source::CONTENT_DIR;
use std::io::Read;
use std::path::{Path, PathBuf};

/// An unpacked export: its directory (holding `content/`) lives as long as this does.
pub struct Unpacked {
    _dir: tempfile::TempDir,
    /// The export's directory.
    pub root: PathBuf,
}

/// Unpacks `archive`, at most `limit` bytes in all.
pub fn unpack(archive: &Path, limit: u64) -> Result<Unpacked, ImportError> {
    let shown = archive.display().to_string();
    let fail = |problem: String| ImportError::new(&shown, problem);
    let file = std::fs::File::open(archive).map_err(|e| fail(e.to_string()))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| fail(format!("is not a ZIP archive: {e}")))?;
    let dir = tempfile::Builder::new().prefix("wcs-import-").tempdir().map_err(|e| fail(e.to_string()))?;
    let mut left = limit;
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).map_err(|e| fail(e.to_string()))?;
        let Some(name) = entry.enclosed_name() else {
            return Err(fail(format!("its entry {:?} leads outside the archive", entry.name())));
        };
        let path = dir.path().join(name);
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(|e| fail(e.to_string()))?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(e.to_string()))?;
        }
        let mut out = std::fs::File::create(&path).map_err(|e| fail(e.to_string()))?;
        let written = std::io::copy(&mut (&mut entry).take(left + 1), &mut out).map_err(|e| fail(e.to_string()))?;
        if written > left {
            return Err(fail(format!("unpacks to more than {limit} bytes")));
        }
        left -= written;
    }
    let root = export_root(dir.path()).ok_or_else(|| fail(format!("holds no {CONTENT_DIR}/__metadata__.json")))?;
    Ok(Unpacked { _dir: dir, root })
}

/// Packs the export directory `dir` into `out`, its files in name order, deflated.
pub fn pack(dir: &Path, out: std::fs::File) -> Result<std::fs::File, ImportError> {
    let fail = |e: &dyn std::fmt::Display| ImportError::new("", format!("packing the export: {e}"));
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).map_err(|e| fail(&e))? {
            let path = entry.map_err(|e| fail(&e))?.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let name: Vec<String> =
                    relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                files.push((name.join("/"), path.clone()));
            }
        }
    }
    files.sort();
    let mut zip = zip::ZipWriter::new(out);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(true);
    for (name, path) in files {
        zip.start_file(name, options).map_err(|e| fail(&e))?;
        let mut file = std::fs::File::open(&path).map_err(|e| fail(&e))?;
        std::io::copy(&mut file, &mut zip).map_err(|e| fail(&e))?;
    }
    zip.finish().map_err(|e| fail(&e))
}

/// The directory holding `content/__metadata__.json`: the archive's top, or the one folder
/// the archive holds everything in.
fn export_root(top: &Path) -> Option<PathBuf> {
    let holds = |dir: &Path| dir.join(CONTENT_DIR).join("__metadata__.json").is_file();
    if holds(top) {
        return Some(top.to_path_buf());
    }
    let mut dirs = std::fs::read_dir(top).ok()?.filter_map(Result::ok).filter(|e| e.path().is_dir());
    let only = dirs.next()?;
    (dirs.next().is_none() && holds(&only.path())).then(|| only.path())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    fn archive(entries: &[(&str, &[u8])]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut zip = zip::ZipWriter::new(file.reopen().unwrap());
        for (name, bytes) in entries {
            zip.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap();
        file
    }

    #[test]
    fn an_export_in_a_folder_of_the_archive_is_found() {
        let zipped = archive(&[("export/content/__metadata__.json", b"{}"), ("export/principals.json", b"{}")]);
        let unpacked = unpack(zipped.path(), 1000).unwrap();
        assert!(unpacked.root.ends_with("export"));
        assert!(unpacked.root.join("principals.json").is_file());
    }

    #[test]
    fn escaping_names_oversized_content_and_no_export_are_refused() {
        let escaping = archive(&[("../evil.json", b"{}")]);
        assert!(unpack(escaping.path(), 1000).err().unwrap().problem.contains("outside the archive"));
        let big = archive(&[("content/__metadata__.json", &[b' '; 2000])]);
        assert!(unpack(big.path(), 1000).err().unwrap().problem.contains("more than 1000 bytes"));
        let other = archive(&[("readme.txt", b"hello")]);
        assert!(unpack(other.path(), 1000).err().unwrap().problem.contains("holds no content/__metadata__.json"));
        let not_zip = tempfile::NamedTempFile::new().unwrap();
        assert!(unpack(not_zip.path(), 1000).err().unwrap().problem.contains("not a ZIP archive"));
    }
}
