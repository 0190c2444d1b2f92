//! Example content for `serve --demo` / `init --demo`, from `examples/demo/content.json`.

use serde_json::Value;
use wcs_core::app::{ADMIN_USER, App};
use wcs_core::http::ApiError;
use wcs_core::ops::WriteOrigin;
use wcs_core::security::Visibility;

const DEMO: &str = include_str!("../examples/demo/content.json");

/// Loads the demo tree into an empty site; returns how many objects it created (0 when the
/// site already has content, so restarting with `--demo` is harmless).
pub async fn load_demo(app: &App) -> Result<usize, ApiError> {
    let site = app.site_root().await?;
    if app.store.count_children(&site.uid, &Visibility::All).await? > 0 {
        return Ok(0);
    }
    let entries: Vec<Value> = serde_json::from_str(DEMO).map_err(ApiError::internal)?;
    let mut created = 0;
    for entry in &entries {
        let Some(body) = entry.as_object() else {
            continue;
        };
        let parent_path = body.get("parent").and_then(Value::as_str).unwrap_or("");
        let path = if parent_path.is_empty() { site.path.clone() } else { format!("{}/{parent_path}", site.path) };
        let parent = app
            .store
            .content_at_path(&path)
            .await?
            .ok_or_else(|| ApiError::internal(format!("demo parent {path} missing")))?;
        let mut body = body.clone();
        body.remove("parent");
        let origin = WriteOrigin { base_url: "", visibility: &Visibility::All };
        wcs_core::ops::create(app, &parent, &body, ADMIN_USER, true, &origin).await?;
        created += 1;
    }
    Ok(created)
}
