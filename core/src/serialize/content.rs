//! Core's content serializer layers and the function that runs all layers for an object.

use super::body::COMPONENTS;
use super::{
    ContentBody, ContentSerializer, Expanded, References, SerializeCtx, Subject, briefs_suffice, plain_summary,
    summary, working_copy_info,
};
use crate::api::batching_links;
use crate::content::ContentKind;
use crate::content::values::{DEFAULT_PAGE, format_time, is_column};
use crate::content::{ContentObject, FieldKind, named_vocabularies};
use crate::error::{ApiError, ApiResult};
use crate::ops::working_copy::pair_of;
use crate::security::Permission;
use crate::store::{Columns, Listing, TypeFilter};
use poem_openapi::types::ToJSON;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// Serializes `object` through every layer that applies to its type.
pub async fn serialize_content(
    ctx: &SerializeCtx<'_>,
    object: &ContentObject,
    parent: Option<&ContentObject>,
) -> ApiResult<ContentBody> {
    let profile =
        ctx.site.types.get(&object.portal_type).ok_or_else(|| {
            ApiError::internal(format!("object {} has unknown type {}", object.uid, object.portal_type))
        })?;
    let subject = Subject { object, parent, profile: &profile };
    let mut out = Map::new();
    for layer in ctx.serializers.content_serializers(&profile) {
        (layer.serialize)(ctx, subject, &mut out).await?;
    }
    let components = if out.contains_key(COMPONENTS) {
        components(ctx, subject, &object.url(ctx.base_url)).await?
    } else {
        Vec::new()
    };
    Ok(ContentBody::new(out, components))
}

/// The keys every object has, its field values and `@components`.
pub static CORE_BASE: ContentSerializer = ContentSerializer {
    kind: ContentKind::Any,
    read_only: &[
        "@id",
        "@type",
        "@components",
        "@static_behaviors",
        "UID",
        "type_title",
        "parent",
        "created",
        "modified",
        "review_state",
        "is_folderish",
        "version",
        "lock",
        "allow_discussion",
        "creators",
        "contributors",
        "previous_item",
        "next_item",
        "working_copy",
        "working_copy_of",
    ],
    serialize: |ctx, subject, out| Box::pin(async move { base(ctx, subject, out).await }),
};

/// `items`, `items_total` and `batching` of containers.
pub static CORE_FOLDER: ContentSerializer = ContentSerializer {
    kind: ContentKind::Folderish,
    read_only: &["items", "items_total", "batching", DEFAULT_PAGE_OBJECT],
    serialize: |ctx, subject, out| Box::pin(async move { folder(ctx, subject, out).await }),
};

async fn base(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let Subject { object, parent, profile } = subject;
    let url = object.url(ctx.base_url);
    out.insert("@id".into(), json!(url));
    out.insert("@type".into(), json!(object.portal_type));
    // The components' place; `serialize_content` fills it once every layer has run.
    out.insert(COMPONENTS.into(), json!({}));
    out.insert("UID".into(), json!(object.uid));
    out.insert("id".into(), json!(object.id));
    out.insert("title".into(), json!(object.title));
    out.insert("description".into(), json!(object.description));
    out.insert("type_title".into(), json!(profile.title));
    let parent_summary = match parent {
        Some(parent) => Value::Object(plain_summary(ctx, parent)),
        None => json!({}),
    };
    out.insert("parent".into(), parent_summary);
    // plone.restapi's site root has no dates, version or neighbours.
    let root = object.is_site_root();
    if !root {
        out.insert("created".into(), json!(format_time(object.created)));
        out.insert("modified".into(), json!(format_time(object.modified)));
    }
    out.insert("effective".into(), json!(object.effective.map(format_time)));
    out.insert("expires".into(), json!(object.expires.map(format_time)));
    out.insert("review_state".into(), json!(object.review_state));
    let layout = object.fields.get("layout").cloned().unwrap_or_else(|| json!(profile.layout));
    out.insert("layout".into(), layout);
    out.insert("is_folderish".into(), json!(profile.folderish));
    if !root {
        out.insert("version".into(), json!("current"));
    }
    // Only editors need to know of locks and working copies (Volto reads them on entering an
    // edit form): no query for readers, and one for the working copy, whose lock it shows.
    let editor_asks = ctx.access.object().is_some_and(|o| o.uid == object.uid)
        && ctx.access.allows(ctx.site, Permission::MODIFY_PORTAL_CONTENT);
    let pair = if editor_asks { pair_of(ctx.site, object).await? } else { None };
    let lock = if editor_asks {
        super::staging::shown_lock(ctx.site, object, pair.as_ref(), &ctx.site_url(object), ctx.principal.user_id())
            .await?
    } else {
        crate::store::unlocked()
    };
    let lock = lock.to_json().unwrap_or_default();
    out.insert("lock".into(), lock);
    out.insert("allow_discussion".into(), json!(false));
    out.insert("creators".into(), json!([object.creator]));
    out.insert("contributors".into(), json!([]));
    if !root {
        out.insert("previous_item".into(), json!({}));
    }
    let staging = if editor_asks {
        working_copy_info(ctx.site, ctx.base_url, object, pair.as_ref()).await?
    } else {
        super::WorkingCopyInfo::none()
    };
    out.insert("working_copy".into(), staging.working_copy.to_json().unwrap_or_default());
    out.insert("working_copy_of".into(), staging.working_copy_of.to_json().unwrap_or_default());
    if !root {
        out.insert("next_item".into(), json!({}));
    }
    let references = References::for_object(ctx, profile, object).await?;
    let ctx = &SerializeCtx { references: &references, ..*ctx };
    for field in &profile.fields {
        if is_column(&field.name) {
            continue;
        }
        // Borrowed: a field serializer builds its own value (the blocks), so only a value
        // written as stored is copied.
        let stored = match object.fields.get(&field.name) {
            Some(value) => Cow::Borrowed(value),
            None => Cow::Owned(field.default_json()),
        };
        let value = match ctx.serializers.field_serializer(field.kind, field.widget.as_deref(), profile) {
            Some(serializer) if !stored.is_null() => (serializer.serialize)(ctx, object, field, &stored).await?,
            // Plone sends an empty list for a list without values, never `null`.
            None | Some(_) if matches!(field.kind, FieldKind::RelationList | FieldKind::List) && stored.is_null() => {
                json!([])
            }
            _ => stored.into_owned(),
        };
        let value = match field.vocabulary_name.as_deref().and_then(named_vocabularies::terms) {
            Some(terms) => named_vocabularies::as_terms(terms, &value),
            None => value,
        };
        out.insert(field.name.clone(), value);
    }
    Ok(())
}

async fn components(
    ctx: &SerializeCtx<'_>,
    subject: Subject<'_>,
    url: &str,
) -> ApiResult<Vec<(&'static str, Expanded)>> {
    let mut out = Vec::new();
    for component in ctx.serializers.components(subject.profile) {
        let value = if ctx.options.expand.iter().any(|e| e == component.name) {
            (component.expand)(ctx, subject).await?
        } else if component.listed {
            json!({"@id": format!("{url}/@{}", component.name)}).into()
        } else {
            continue;
        };
        out.push((component.name, value));
    }
    Ok(out)
}

async fn folder(ctx: &SerializeCtx<'_>, subject: Subject<'_>, out: &mut Map<String, Value>) -> ApiResult<()> {
    let Subject { object, profile, .. } = subject;
    if profile.is_block() {
        // A folderish block lists its files or images itself, sorted its own way.
        return Ok(());
    }
    default_page(ctx, object, out).await?;
    if !ctx.options.include_items {
        return Ok(());
    }
    let batch = ctx.options.batch;
    let block_types = ctx.site.types.block_types();
    // A working copy's own children come first, then its baseline's (SPEC folder rule 1).
    let parents: Vec<String> = std::iter::once(object.uid.clone()).chain(object.working_copy_of.clone()).collect();
    let order = ctx.site.registrations.listing_order(profile);
    let listing = Listing { parents: &parents, types: TypeFilter::Except(&block_types), order };
    let visibility = ctx.visibility.in_listings(ctx.site, ctx.access);
    let columns = if !ctx.options.fullobjects && briefs_suffice(ctx, &ctx.options.metadata_fields) {
        Columns::Briefs
    } else {
        Columns::All
    };
    let page = ctx.site.store.list_page(&listing, &visibility, batch.start, batch.size, columns).await?;
    let (children, total) = (&page.items, page.total);
    let mut items = Vec::with_capacity(children.len());
    if ctx.options.fullobjects {
        let nested_options = ctx.options.for_nested_item();
        let nested = SerializeCtx { options: &nested_options, ..*ctx };
        for child in children {
            items.push(Value::Object(Box::pin(serialize_content(&nested, child, Some(object))).await?.into_map()));
        }
    } else {
        items.extend(children.iter().map(|child| Value::Object(summary(ctx, child, &ctx.options.metadata_fields))));
    }
    out.insert("items".into(), Value::Array(items));
    out.insert("items_total".into(), json!(total));
    if let Some(links) = batching_links(&ctx.options.listing_url, ctx.query, batch, total) {
        out.insert("batching".into(), links);
    }
    Ok(())
}

/// `default_page` (the setting: a child id or null) and `default_page_object`: the serialized
/// child, without items or expansions, or null when it is gone or hidden from the caller.
async fn default_page(ctx: &SerializeCtx<'_>, object: &ContentObject, out: &mut Map<String, Value>) -> ApiResult<()> {
    let Some(id) = object.fields.get(DEFAULT_PAGE).and_then(Value::as_str) else {
        out.insert(DEFAULT_PAGE.into(), Value::Null);
        out.insert(DEFAULT_PAGE_OBJECT.into(), Value::Null);
        return Ok(());
    };
    out.insert(DEFAULT_PAGE.into(), json!(id));
    let path = format!("{}/{id}", object.path);
    let page = ctx.site.store.visible_content_at_paths(&[path], ctx.visibility).await?.pop();
    let serialized = match page {
        Some(page) => {
            let nested_options = ctx.options.for_nested_item();
            let nested = SerializeCtx { options: &nested_options, ..*ctx };
            Value::Object(Box::pin(serialize_content(&nested, &page, Some(object))).await?.into_map())
        }
        None => Value::Null,
    };
    out.insert(DEFAULT_PAGE_OBJECT.into(), serialized);
    Ok(())
}

/// The key under which a folder's result carries its serialized default page.
pub const DEFAULT_PAGE_OBJECT: &str = "default_page_object";
