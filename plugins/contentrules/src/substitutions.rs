//! `${name}` in a rule's mail and log texts, as plone.stringinterp offers them: the object's
//! title, URL, state, dates, the site's, and the actor's name and address. An unknown name
//! stays as written, so a typo shows in the mail instead of vanishing.

use crate::run::Run;
use std::collections::HashMap;
use wcs_core::http::ApiResult;

/// The values of a run's substitutions.
pub async fn values(run: &Run<'_>) -> ApiResult<HashMap<&'static str, String>> {
    let mut values = HashMap::new();
    let url = run.object_url();
    values.insert("absolute_url", url.clone());
    values.insert("url", url);
    values.insert("portal_url", run.site_url());
    values.insert("path", run.path.clone());
    values.insert("uid", run.uid.clone());
    values.insert("trigger", run.trigger.title.to_owned());
    let id = run.path.rsplit('/').next().unwrap_or_default().to_owned();
    values.insert("id", id.clone());
    match &run.object {
        Some(object) => {
            let state = object.review_state.clone().unwrap_or_default();
            let state_title = run
                .app
                .types
                .get(&object.portal_type)
                .and_then(|t| t.workflow.first().cloned())
                .and_then(|w| run.app.workflows.get(&w))
                .and_then(|w| w.states.iter().find(|s| s.id == state))
                .map_or_else(|| state.clone(), |s| s.title.clone());
            values.insert("title", object.title.clone());
            values.insert("description", object.description.clone());
            values.insert("portal_type", object.portal_type.clone());
            values.insert(
                "type",
                run.app.types.get(&object.portal_type).map_or_else(|| object.portal_type.clone(), |t| t.title.clone()),
            );
            values.insert("review_state", state);
            values.insert("review_state_title", state_title);
            values.insert("created", object.created.to_rfc3339());
            values.insert("modified", object.modified.to_rfc3339());
            values.insert("creator", object.creator.clone());
        }
        None => {
            values.insert("title", id);
        }
    }
    let site = run.app.site_root().await?;
    values.insert("portal_title", site.title);
    let user = match &run.actor.user_id {
        Some(id) => run.app.store.principal(id).await?,
        None => None,
    };
    values.insert("user_id", run.actor.user_id.clone().unwrap_or_default());
    values.insert("user_fullname", user.as_ref().map(|u| u.fullname.clone()).unwrap_or_default());
    values.insert("user_email", user.map(|u| u.email).unwrap_or_default());
    Ok(values)
}

/// `text` with every known `${name}` replaced.
pub fn substitute(text: &str, values: &HashMap<&'static str, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}').map(|end| (&after[..end], end)) {
            Some((name, end)) if values.contains_key(name) => {
                out.push_str(&values[name]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_are_replaced_and_unknown_ones_kept() {
        let values = HashMap::from([("title", "Budget 2027".to_owned()), ("url", "https://x/a".to_owned())]);
        assert_eq!(substitute("${title} at ${url}: ${nope} ${", &values), "Budget 2027 at https://x/a: ${nope} ${");
    }
}
