//! `wcs backup`: an online copy of the SQLite database is the whole site.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::json;
use wcs_core::store::{Backend, BackupError};

#[tokio::test]
async fn a_backup_holds_content_files_and_users() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("copy.db");
    if server.app.store.backend() == Backend::Postgres {
        assert!(matches!(server.app.store.backup_into(&file).await, Err(BackupError::Postgres)));
        return;
    }
    server.create("", json!({"@type": "Document", "id": "d", "title": "Gesichert"})).await;
    let upload = json!({"@type": "File", "id": "f", "title": "F", "file": {
        "data": "SGFsbG8gV2VsdA==", "encoding": "base64", "filename": "hallo.txt", "content-type": "text/plain"}});
    server.create("", upload).await;
    server.user("anna", &["Editor"], &[]).await;

    server.app.store.backup_into(&file).await.unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the copy holds password hashes: its owner's only");
    }
    let again = server.app.store.backup_into(&file).await;
    assert!(matches!(again, Err(BackupError::Exists(_))), "an existing file is never overwritten");

    let url = format!("sqlite://{}?mode=rw", file.display());
    let copy = TestServer::start_with(|config| config.database_url = url).await;
    assert_eq!(copy.get_json("d").await.1["title"], "Gesichert");
    let download = copy.admin(Method::GET, "f/@@download/file").send().await.unwrap();
    assert_eq!(download.status(), 200);
    assert_eq!(download.bytes().await.unwrap().as_ref(), b"Hallo Welt");
    let (status, _) = read(copy.as_user("anna", Method::GET, "@users/anna").send().await.unwrap()).await;
    assert_eq!(status, 200, "the account and its password came along");
}
