//! The objects an object's fields point at (relation targets and `resolveuid` links), loaded
//! in one query before its fields are serialized, so field serializers never query per value.

use super::SerializeCtx;
use crate::content::links::linked_uids;
use crate::content::volto_blocks;
use crate::content::{ContentObject, FieldKind, TypeProfile};
use crate::error::ApiResult;
use crate::ops::{is_link_field, stored_targets};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The referenced objects the caller may see, by uid; anything else counts as broken.
#[derive(Debug, Default)]
pub struct References {
    visible: BTreeMap<String, ContentObject>,
}

/// No references: the state before an object's fields are looked at.
pub static NO_REFERENCES: References = References { visible: BTreeMap::new() };

impl References {
    /// The references of `object`: those a listing preloaded for it, or loaded now.
    pub async fn for_object(
        ctx: &SerializeCtx<'_>,
        profile: &TypeProfile,
        object: &ContentObject,
    ) -> ApiResult<Arc<References>> {
        if let Some(preloaded) = ctx.memo.get::<References>(&memo_key(&object.uid)) {
            return Ok(preloaded);
        }
        Ok(Arc::new(References::load(ctx, &[(profile, object)]).await?))
    }

    /// Loads the references of many objects in one query and keeps them for the request, so
    /// serializing each of them (a page's blocks) costs no further query.
    pub async fn preload(ctx: &SerializeCtx<'_>, objects: &[(&TypeProfile, &ContentObject)]) -> ApiResult<()> {
        let shared = Arc::new(References::load(ctx, objects).await?);
        for (_, object) in objects {
            ctx.memo.put(memo_key(&object.uid), shared.clone());
        }
        Ok(())
    }

    /// Loads every live object the fields of `objects` point at that the caller may see.
    async fn load(ctx: &SerializeCtx<'_>, objects: &[(&TypeProfile, &ContentObject)]) -> ApiResult<References> {
        let mut uids = Vec::new();
        for (profile, object) in objects {
            uids.extend(referenced_uids(profile, object));
        }
        if uids.is_empty() {
            return Ok(References::default());
        }
        uids.sort_unstable();
        uids.dedup();
        let found = ctx.site.store.visible_content_by_uids(&uids, ctx.visibility).await?;
        Ok(References { visible: found.into_iter().map(|o| (o.uid.clone(), o)).collect() })
    }

    /// The object with `uid`, when it exists, is live and visible to the caller.
    pub fn get(&self, uid: &str) -> Option<&ContentObject> {
        self.visible.get(uid)
    }
}

fn memo_key(uid: &str) -> String {
    format!("references:{uid}")
}

fn referenced_uids(profile: &TypeProfile, object: &ContentObject) -> Vec<String> {
    let mut uids = Vec::new();
    for field in &profile.fields {
        let Some(value) = object.fields.get(&field.name) else { continue };
        match field.kind {
            kind if kind.is_relation() => uids.extend(stored_targets(value)),
            FieldKind::RichText => {
                uids.extend(value.get("data").and_then(Value::as_str).map(linked_uids).unwrap_or_default())
            }
            FieldKind::Blocks => uids.extend(volto_blocks::link_values(value).into_iter().flat_map(linked_uids)),
            _ if is_link_field(field) => uids.extend(value.as_str().map(linked_uids).unwrap_or_default()),
            _ => {}
        }
    }
    uids
}
