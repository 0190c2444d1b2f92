//! Builds the navigation tree in a fixed number of queries, however large the site: the
//! visible objects up to the requested depth, the `main_topics` relations pointing into them,
//! the subtopics those relations name with their own subtrees, and the targets of Link items.
//! The result is memoized for the request.

use poem_openapi::Object;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use wcs_core::content::links::{linked_uids, resolve_links};
use wcs_core::content::{ContentObject, FieldKind};
use wcs_core::http::JsonText;
use wcs_core::http::schema::Nullable;
use wcs_core::http::{ApiError, ApiResult};
use wcs_core::records::{RecordDef, RecordKind};
use wcs_core::serialize::{SerializeCtx, image_url};
use wcs_core::store::{Kept, RelationQuery};

/// The deepest tree a client may ask for.
pub const MAX_DEPTH: usize = 10;
/// The relation (field) that places an object under further topics.
const MAIN_TOPICS: &str = "main_topics";
/// The most topic placements considered per request.
const MAX_PLACEMENTS: i64 = 10_000;

/// Navigation trees shared between requests (see [`Kept`]) as JSON text, written into every
/// answer as it is: a few, since an editor's pages differ in their current path and each tree
/// is a few kilobytes to a few hundred.
static KEPT: Kept<JsonText<Vec<NavItem>>> = Kept::new(64);

/// Which types navigation lists; an empty list lists every type.
pub static DISPLAYED_TYPES: RecordDef = RecordDef {
    name: "wcs.backend.navigation.displayed_types",
    title: "Types shown in navigation",
    description: "Content types that navigation lists. An empty list lists every type.",
    kind: RecordKind::TextList,
    check: None,
    default: || json!([]),
};

/// An entry of the navigation tree. Home, the first, has only `@id`, `title`, `description`,
/// `review_state` and `items`; the objects have every key but `remoteUrl`, which Links add.
#[derive(Object, Clone)]
#[oai(rename = "NavigationItem", skip_serializing_if_is_none)]
pub struct NavItem {
    /// The object's URL.
    #[oai(rename = "@id")]
    pub url: String,
    /// Its `nav_title`, else its title.
    pub title: String,
    /// Its description.
    pub description: String,
    /// Its workflow state; null for Home and for content without a workflow.
    pub review_state: Nullable<String>,
    /// Its type.
    pub portal_type: Option<String>,
    /// The icon Volto shows for its type: `contenttype/<type>`.
    pub icon: Option<String>,
    /// The URL of its image's `thumb` scale; null when it has no image.
    pub thumb: Option<Nullable<String>>,
    /// Whether it is a container.
    pub is_folderish: Option<bool>,
    /// Whether the request is on it.
    pub is_current: Option<bool>,
    /// Whether the request is on it or below it.
    pub is_in_path: Option<bool>,
    /// Whether listings link to its view rather than straight to its file (never to a download).
    pub use_view_action_in_listings: Option<bool>,
    /// Its entries, as deep as asked for; subtopics appear under every topic they name.
    pub items: Vec<NavItem>,
    /// A Link's target, `resolveuid` links resolved.
    #[oai(rename = "remoteUrl")]
    pub remote_url: Option<String>,
}

/// The items of `@navigation`: Home, then the navigation root's children, `depth` levels deep.
pub async fn navigation_items(ctx: &SerializeCtx<'_>, depth: usize) -> ApiResult<JsonText<Vec<NavItem>>> {
    let (Some(root), Some(context)) = (ctx.access.navigation_root(ctx.site), ctx.access.chain().last()) else {
        return Err(ApiError::internal("traversal chain without a site root"));
    };
    let key = format!("navigation:{}:{depth}:{}", root.uid, context.path);
    if let Some(items) = ctx.memo.get::<JsonText<Vec<NavItem>>>(&key) {
        return Ok((*items).clone());
    }
    // Callers who may see the same objects share a tree, whoever they are.
    let visibility = ctx.visibility;
    let shared_key = format!("{key}:{}:{}", ctx.base_url, visibility.memory_key());
    let generation = match KEPT.recall(&ctx.site.store, &shared_key) {
        Ok(items) => {
            ctx.memo.put(key, Arc::new(items.clone()));
            return Ok(items);
        }
        Err(generation) => generation,
    };
    let tree = Tree::load(ctx, root, &context.path, depth).await?;
    let home = NavItem {
        url: root.url(ctx.base_url),
        title: "Home".to_owned(),
        description: String::new(),
        review_state: Nullable(None),
        portal_type: None,
        icon: None,
        thumb: None,
        is_folderish: None,
        is_current: None,
        is_in_path: None,
        use_view_action_in_listings: None,
        items: Vec::new(),
        remote_url: None,
    };
    let mut items = vec![home];
    items.extend(tree.children_of(&root.uid).iter().map(|child| tree.item(child, 1)));
    let items = JsonText::new(&items);
    KEPT.keep(&ctx.site.store, generation, &shared_key, items.clone());
    ctx.memo.put(key, Arc::new(items.clone()));
    Ok(items)
}

/// The navigation items of the children of `root`, `depth` levels deep (`@contextnavigation`).
pub async fn subtree_items(ctx: &SerializeCtx<'_>, root: &ContentObject, depth: usize) -> ApiResult<Vec<NavItem>> {
    let context = ctx.access.chain().last().ok_or_else(|| ApiError::internal("empty traversal chain"))?;
    let tree = Tree::load(ctx, root, &context.path, depth).await?;
    Ok(tree.children_of(&root.uid).iter().map(|child| tree.item(child, 1)).collect())
}

/// The objects the navigation shows below `roots`, `levels` deep, read level by level: only
/// the children of what is shown, since nothing below a hidden entry (excluded from the
/// navigation, a block, a type not displayed) can show. A statement per level, each as large
/// as the tree shown, however many objects lie below it elsewhere.
async fn shown_below(
    ctx: &SerializeCtx<'_>,
    roots: Vec<String>,
    levels: usize,
    shown: &(dyn Fn(&ContentObject) -> bool + Sync),
) -> ApiResult<Vec<ContentObject>> {
    let mut parents = roots;
    let mut found = Vec::new();
    for _ in 0..levels {
        if parents.is_empty() {
            break;
        }
        let level: Vec<ContentObject> = ctx
            .site
            .store
            .visible_briefs_by_parents(&parents, ctx.visibility)
            .await?
            .into_iter()
            .filter(shown)
            .collect();
        parents = level.iter().map(|o| o.uid.clone()).collect();
        found.extend(level);
    }
    Ok(found)
}

/// Everything one navigation answer needs, loaded up front.
struct Tree<'a> {
    ctx: &'a SerializeCtx<'a>,
    depth: usize,
    context_path: &'a str,
    site_url: String,
    /// Shown objects by uid.
    objects: HashMap<String, ContentObject>,
    /// Physical children, in position order, then subtopics placed under further topics.
    children: HashMap<String, Vec<String>>,
    /// URLs of the visible targets of Link items.
    link_targets: HashMap<String, String>,
}

impl<'a> Tree<'a> {
    async fn load(
        ctx: &'a SerializeCtx<'a>,
        root: &ContentObject,
        context_path: &'a str,
        depth: usize,
    ) -> ApiResult<Tree<'a>> {
        let displayed = ctx.site.record_value(&DISPLAYED_TYPES).await?;
        let displayed: Vec<&str> = displayed.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        // Blocks are parts of their page, never navigation entries (nor is what they hold).
        let shown = |o: &ContentObject| {
            !ctx.site.types.is_block_type(&o.portal_type)
                && (displayed.is_empty() || displayed.contains(&o.portal_type.as_str()))
                && (o.fields.get("exclude_from_nav") != Some(&Value::Bool(true)) || on_path(context_path, o))
        };
        let store = &ctx.site.store;
        let mut objects: HashMap<String, ContentObject> = HashMap::new();
        for object in shown_below(ctx, vec![root.uid.clone()], depth, &shown).await? {
            objects.insert(object.uid.clone(), object);
        }
        let placements = placements(ctx, &objects, &root.path, depth).await?;
        let placed_uids: Vec<String> = placements.iter().map(|(source, _, _)| source.clone()).collect();
        let placed = store.visible_briefs_by_uids(&placed_uids, ctx.visibility).await?;
        let placed: HashMap<String, ContentObject> = placed
            .into_iter()
            .filter(|o| shown(o) && ctx.site.types.get(&o.portal_type).is_some_and(|p| p.has_behaviour(MAIN_TOPICS)))
            .map(|o| (o.uid.clone(), o))
            .collect();
        let levels_below_placed = placements
            .iter()
            .filter(|(source, _, _)| placed.contains_key(source))
            .map(|(_, _, level)| depth.saturating_sub(level + 1))
            .max()
            .unwrap_or(0);
        if levels_below_placed > 0 {
            let roots: Vec<String> = placed.keys().cloned().collect();
            for object in shown_below(ctx, roots, levels_below_placed, &shown).await? {
                objects.insert(object.uid.clone(), object);
            }
        }
        let mut children: HashMap<String, Vec<String>> = HashMap::new();
        let mut physical: Vec<&ContentObject> = objects.values().collect();
        physical.sort_by(|a, b| (a.position, &a.id).cmp(&(b.position, &b.id)));
        for object in physical {
            if let Some(parent) = &object.parent_uid {
                children.entry(parent.clone()).or_default().push(object.uid.clone());
            }
        }
        let mut extra: Vec<(&String, &ContentObject)> = placements
            .iter()
            .filter_map(|(source, topic, _)| placed.get(source).map(|o| (topic, o)))
            .filter(|(topic, o)| o.parent_uid.as_ref() != Some(*topic))
            .collect();
        extra.sort_by(|a, b| (a.0, &a.1.title).cmp(&(b.0, &b.1.title)));
        for (topic, object) in extra {
            let list = children.entry(topic.clone()).or_default();
            if !list.contains(&object.uid) {
                list.push(object.uid.clone());
            }
        }
        for (uid, object) in placed {
            objects.entry(uid).or_insert(object);
        }
        let link_targets = link_targets(ctx, &objects).await?;
        let site_url = ctx.site_url(root);
        Ok(Tree { ctx, depth, context_path, site_url, objects, children, link_targets })
    }

    fn children_of(&self, uid: &str) -> Vec<&ContentObject> {
        self.children.get(uid).into_iter().flatten().filter_map(|uid| self.objects.get(uid)).collect()
    }

    /// One navigation entry; `level` 1 is a child of the navigation root.
    fn item(&self, object: &ContentObject, level: usize) -> NavItem {
        let ctx = self.ctx;
        let profile = ctx.site.types.get(&object.portal_type);
        let profile = profile.as_deref();
        let items = if level < self.depth {
            self.children_of(&object.uid).into_iter().map(|child| self.item(child, level + 1)).collect()
        } else {
            Vec::new()
        };
        let image_field = profile.and_then(|p| {
            p.fields
                .iter()
                .find(|f| f.kind == FieldKind::Image && object.fields.get(&f.name).is_some_and(|v| !v.is_null()))
        });
        let thumb = image_field
            .map(|field| image_url(&object.url(ctx.base_url), object, &field.name).replacen("?_t=", "/thumb?_t=", 1));
        let remote_url = object
            .fields
            .get("remoteUrl")
            .and_then(Value::as_str)
            .map(|remote| resolve_links(remote, &self.site_url, |uid| self.link_targets.get(uid).cloned()));
        NavItem {
            url: object.url(ctx.base_url),
            title: crate::shown_title(object).to_owned(),
            description: object.description.clone(),
            review_state: Nullable(object.review_state.clone()),
            portal_type: Some(object.portal_type.clone()),
            icon: Some(format!("contenttype/{}", object.portal_type.to_lowercase().replace(' ', "-"))),
            thumb: Some(Nullable(thumb)),
            is_folderish: Some(profile.is_some_and(|p| p.folderish)),
            is_current: Some(object.path == self.context_path),
            is_in_path: Some(on_path(self.context_path, object)),
            use_view_action_in_listings: Some(
                profile.is_some_and(|p| !p.folderish && p.primary_blob_field().is_some()),
            ),
            items,
            remote_url,
        }
    }
}

/// Whether the request is on `object` or below it.
pub fn on_path(context_path: &str, object: &ContentObject) -> bool {
    context_path == object.path
        || context_path.strip_prefix(object.path.as_str()).is_some_and(|rest| rest.starts_with('/'))
}

/// `(subtopic uid, topic uid, topic level)` for every `main_topics` relation pointing at a
/// topic in the tree, when the subtopic would still be within the depth there.
async fn placements(
    ctx: &SerializeCtx<'_>,
    objects: &HashMap<String, ContentObject>,
    root_path: &str,
    depth: usize,
) -> ApiResult<Vec<(String, String, usize)>> {
    let root_depth = root_path.matches('/').count();
    let level = |o: &ContentObject| o.path.matches('/').count() - root_depth;
    let topics: Vec<String> = objects.values().filter(|o| level(o) < depth).map(|o| o.uid.clone()).collect();
    if topics.is_empty() {
        return Ok(Vec::new());
    }
    let query = RelationQuery {
        targets: topics,
        field: Some(MAIN_TOPICS.to_owned()),
        limit: MAX_PLACEMENTS,
        ..RelationQuery::default()
    };
    let rows = ctx.site.store.find_relations(&query, ctx.visibility).await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| objects.get(&row.target_uid).map(|topic| (row.source_uid, row.target_uid, level(topic))))
        .collect())
}

/// The URLs of the objects Link items point at through `resolveuid`, in one query.
async fn link_targets(
    ctx: &SerializeCtx<'_>,
    objects: &HashMap<String, ContentObject>,
) -> ApiResult<HashMap<String, String>> {
    let uids: Vec<String> = objects
        .values()
        .filter_map(|o| o.fields.get("remoteUrl").and_then(Value::as_str))
        .flat_map(linked_uids)
        .collect();
    if uids.is_empty() {
        return Ok(HashMap::new());
    }
    let found = ctx.site.store.visible_briefs_by_uids(&uids, ctx.visibility).await?;
    Ok(found.into_iter().map(|o| (o.uid.clone(), o.url(ctx.base_url))).collect())
}
