//! Partial uploads on disk: `<data dir>/tus-uploads/<id>.json` says what the upload is (its
//! announced length, file name, media type, what it creates or replaces, and whose it is),
//! `<id>.part` holds the bytes received so far. Nothing is kept in memory, so an upload goes on
//! after a restart. Uploads not written to for [`EXPIRES_AFTER`] are removed whenever a new
//! one starts, and how many may wait at once is bounded, so abandoned uploads cannot fill the
//! disk.

use crate::error::{ApiError, ApiResult, ErrorCode};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How long an upload may rest between two writes before it is dropped (plone.restapi's hour).
pub const EXPIRES_AFTER: Duration = Duration::from_secs(60 * 60);
/// The most uploads waiting at once, site-wide.
pub const MAX_PENDING: usize = 100;
/// The most uploads one user may have waiting.
pub const MAX_PENDING_PER_USER: usize = 10;
/// The most bytes all waiting uploads may announce together.
pub const MAX_PENDING_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// What an upload makes when its last byte arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A new object in the context (`@tus-upload`).
    Create,
    /// The context's file (`@tus-replace`).
    Replace,
}

/// An upload's description, kept beside its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The announced length in bytes.
    pub length: u64,
    /// The client's file name.
    pub filename: String,
    /// The client's media type, if it said.
    pub content_type: Option<String>,
    /// The type to create (`@type` in the metadata), if the client said.
    pub portal_type: Option<String>,
    /// The file field (`fieldname`), if the client said.
    pub field: Option<String>,
    /// What it makes.
    pub mode: Mode,
    /// The object it was started on: the container, or the object whose file it replaces.
    pub context_uid: String,
    /// Who started it; nobody else may continue it.
    pub owner: String,
}

/// The directory of one site's uploads.
#[derive(Clone, Debug)]
pub struct Uploads {
    dir: PathBuf,
}

/// Whether `id` could be an upload id (32 hex digits), so no path outside the directory is
/// ever named.
fn valid_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn io_error(error: std::io::Error) -> ApiError {
    ApiError::internal(format!("resumable uploads: {error}"))
}

impl Uploads {
    /// The uploads under `data_dir`; without one, in a directory of this process under the
    /// system's temporary directory (so they do not outlive it, like the rest of an in-memory
    /// setup).
    pub fn new(data_dir: Option<&Path>) -> Uploads {
        let dir = match data_dir {
            Some(dir) => dir.join("tus-uploads"),
            None => std::env::temp_dir().join(format!("wcs-tus-uploads-{}", std::process::id())),
        };
        Uploads { dir }
    }

    fn meta_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    fn part_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.part"))
    }

    /// Starts an upload; its id. Expired uploads are removed first, then the bounds checked.
    pub async fn start(&self, upload: &Upload) -> ApiResult<String> {
        let uploads = self.clone();
        let upload = upload.clone();
        blocking(move || uploads.start_now(&upload)).await
    }

    fn start_now(&self, upload: &Upload) -> ApiResult<String> {
        std::fs::create_dir_all(&self.dir).map_err(io_error)?;
        let waiting = self.sweep()?;
        let busy = || ApiError::new(ErrorCode::TooManyRequests, "Too many uploads are in progress; try again later.");
        if waiting.len() >= MAX_PENDING
            || waiting.iter().map(|u| u.length).sum::<u64>().saturating_add(upload.length) > MAX_PENDING_BYTES
        {
            return Err(busy());
        }
        if waiting.iter().filter(|u| u.owner == upload.owner).count() >= MAX_PENDING_PER_USER {
            return Err(ApiError::new(
                ErrorCode::TooManyRequests,
                format!("You have {MAX_PENDING_PER_USER} uploads in progress; finish or abandon one first."),
            ));
        }
        let id = uuid::Uuid::new_v4().simple().to_string();
        std::fs::File::create(self.part_path(&id)).map_err(io_error)?;
        let text = serde_json::to_vec(upload).map_err(ApiError::internal)?;
        std::fs::write(self.meta_path(&id), text).map_err(io_error)?;
        Ok(id)
    }

    /// Removes expired uploads; the ones still waiting.
    fn sweep(&self) -> ApiResult<Vec<Upload>> {
        let mut waiting = Vec::new();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(waiting),
            Err(error) => return Err(io_error(error)),
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_suffix(".json").filter(|id| valid_id(id)) else { continue };
            match self.read_now(id) {
                Ok(Some((upload, _))) if !self.expired(id) => waiting.push(upload),
                _ => self.remove_now(id),
            }
        }
        Ok(waiting)
    }

    /// Whether nothing was written to the upload for [`EXPIRES_AFTER`].
    fn expired(&self, id: &str) -> bool {
        self.last_write(id).is_none_or(|at| at.elapsed().unwrap_or_default() > EXPIRES_AFTER)
    }

    fn last_write(&self, id: &str) -> Option<SystemTime> {
        let part = std::fs::metadata(self.part_path(id)).and_then(|m| m.modified());
        part.or_else(|_| std::fs::metadata(self.meta_path(id)).and_then(|m| m.modified())).ok()
    }

    /// When the upload expires unless written to, as an HTTP date.
    pub fn expires(&self, id: &str) -> String {
        let at = self.last_write(id).unwrap_or_else(SystemTime::now) + EXPIRES_AFTER;
        chrono::DateTime::<chrono::Utc>::from(at).format("%a, %d %b %Y %H:%M:%S GMT").to_string()
    }

    /// The upload `id` and its bytes so far, unless there is none or it expired.
    pub async fn find(&self, id: &str) -> ApiResult<Option<(Upload, u64)>> {
        if !valid_id(id) {
            return Ok(None);
        }
        let (uploads, id) = (self.clone(), id.to_owned());
        blocking(move || {
            if uploads.expired(&id) {
                uploads.remove_now(&id);
                return Ok(None);
            }
            uploads.read_now(&id)
        })
        .await
    }

    fn read_now(&self, id: &str) -> ApiResult<Option<(Upload, u64)>> {
        let text = match std::fs::read(self.meta_path(id)) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(io_error(error)),
        };
        let Ok(upload) = serde_json::from_slice::<Upload>(&text) else { return Ok(None) };
        let offset = std::fs::metadata(self.part_path(id)).map(|m| m.len()).unwrap_or(0);
        Ok(Some((upload, offset)))
    }

    /// Appends `chunk` at `offset`, which must be where the bytes so far end; the new offset.
    /// A second write to the same upload at the same time is refused (the file is locked).
    pub async fn append(&self, id: &str, offset: u64, chunk: Vec<u8>, length: u64) -> ApiResult<u64> {
        let path = self.part_path(id);
        blocking(move || {
            let mut file = std::fs::OpenOptions::new().append(true).open(&path).map_err(io_error)?;
            file.try_lock().map_err(|_| {
                ApiError::new(
                    ErrorCode::Conflict,
                    "Another request is writing to this upload; ask where it stands (HEAD).",
                )
            })?;
            let current = file.metadata().map_err(io_error)?.len();
            if current != offset {
                return Err(ApiError::new(
                    ErrorCode::Conflict,
                    format!("Upload-Offset is {offset}, but the upload holds {current} bytes."),
                ));
            }
            let end = offset.saturating_add(chunk.len() as u64);
            if end > length {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("The chunk ends at byte {end}, beyond the announced Upload-Length {length}."),
                ));
            }
            file.write_all(&chunk).map_err(io_error)?;
            file.sync_data().map_err(io_error)?;
            Ok(end)
        })
        .await
    }

    /// The whole file of a finished upload.
    pub async fn bytes(&self, id: &str) -> ApiResult<Vec<u8>> {
        tokio::fs::read(self.part_path(id)).await.map_err(io_error)
    }

    /// Forgets an upload (done, abandoned or refused).
    pub async fn remove(&self, id: &str) {
        let (uploads, id) = (self.clone(), id.to_owned());
        let _ = tokio::task::spawn_blocking(move || uploads.remove_now(&id)).await;
    }

    fn remove_now(&self, id: &str) {
        let _ = std::fs::remove_file(self.part_path(id));
        let _ = std::fs::remove_file(self.meta_path(id));
    }
}

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(work).await.map_err(ApiError::internal)?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(owner: &str, length: u64) -> Upload {
        Upload {
            length,
            filename: "a.txt".into(),
            content_type: None,
            portal_type: None,
            field: None,
            mode: Mode::Create,
            context_uid: "c".into(),
            owner: owner.into(),
        }
    }

    #[tokio::test]
    async fn bytes_are_appended_in_order_and_survive_a_new_handle() -> ApiResult<()> {
        let dir = tempfile::tempdir().map_err(ApiError::internal)?;
        let uploads = Uploads::new(Some(dir.path()));
        let id = uploads.start(&upload("anna", 6)).await?;
        assert_eq!(uploads.append(&id, 0, b"abc".to_vec(), 6).await?, 3);
        let wrong = uploads.append(&id, 0, b"abc".to_vec(), 6).await;
        assert_eq!(wrong.err().map(|e| e.code), Some(ErrorCode::Conflict), "a repeated offset");
        let beyond = uploads.append(&id, 3, b"defg".to_vec(), 6).await;
        assert_eq!(beyond.err().map(|e| e.code), Some(ErrorCode::BadRequest), "past the announced length");
        let again = Uploads::new(Some(dir.path()));
        assert_eq!(again.find(&id).await?.map(|(u, offset)| (u.owner, offset)), Some(("anna".into(), 3)));
        again.append(&id, 3, b"def".to_vec(), 6).await?;
        assert_eq!(again.bytes(&id).await?, b"abcdef");
        again.remove(&id).await;
        assert_eq!(again.find(&id).await?, None);
        assert_eq!(again.find("../../etc/passwd").await?, None);
        Ok(())
    }

    #[tokio::test]
    async fn waiting_uploads_are_bounded_per_user_and_in_bytes() -> ApiResult<()> {
        let dir = tempfile::tempdir().map_err(ApiError::internal)?;
        let uploads = Uploads::new(Some(dir.path()));
        for _ in 0..MAX_PENDING_PER_USER {
            uploads.start(&upload("anna", 1)).await?;
        }
        let refused = uploads.start(&upload("anna", 1)).await;
        assert_eq!(refused.err().map(|e| e.code), Some(ErrorCode::TooManyRequests));
        uploads.start(&upload("ben", 1)).await?;
        let huge = uploads.start(&upload("ben", MAX_PENDING_BYTES)).await;
        assert_eq!(huge.err().map(|e| e.code), Some(ErrorCode::TooManyRequests));
        Ok(())
    }
}
