//! Saving registry records, as `@controlpanels` and `@registry` do: the plugins' settings
//! hooks that watch a record check the new values first, the records change in one
//! transaction, and the hooks then bring what follows from them up to date (a hook that fails
//! there is logged; it runs again at the next start). The importer saves the languages of a
//! moved site the same way.

use crate::app::App;
use crate::http::ApiResult;
use serde_json::Value;

/// Writes `writes` (record name and value as JSON text) all at once, for `actor`.
pub async fn save_records(app: &App, actor: &str, writes: &[(&'static str, String)]) -> ApiResult<()> {
    let names: Vec<&str> = writes.iter().map(|(name, _)| *name).collect();
    let values: Vec<(&str, Value)> =
        writes.iter().map(|(name, text)| (*name, serde_json::from_str(text).unwrap_or(Value::Null))).collect();
    let hooks: Vec<_> = app.registry.settings_hooks_for(&names).collect();
    for hook in &hooks {
        (hook.check)(app, &values).await?;
    }
    let mut tx = app.store.begin().await?;
    for (name, value) in writes {
        tx.set_record(name, value).await?;
    }
    tx.commit().await?;
    // The settings are saved: what follows from them is the hooks' to finish (again at the next
    // start), so a failure here is logged rather than answered as if the save had failed.
    for hook in hooks {
        if let Err(err) = (hook.apply)(app, actor).await {
            tracing::error!(hook = hook.name, %err, "a settings hook could not finish its work");
        }
    }
    Ok(())
}
