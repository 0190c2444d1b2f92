//! Serialization as adapters: content serializer layers, field serializers and `@components`
//! expanders are registered by plugins and looked up by content kind or field kind.
//!
//! Content serializer layers run from least to most specific (any → folderish → behaviour →
//! type); a more specific layer sees and may override what the earlier ones wrote, so a
//! plugin extends the standard shape without re-implementing it.

mod blocks;
mod body;
mod content;
mod fields;
mod memo;
mod metadata;
mod options;
mod references;
mod shapes;
mod staging;
mod summary;

pub use blocks::{BLOCK, BLOCK_CONFIGURATION, BLOCK_PAGE, visible_blocks};
pub use body::{ContentBody, Expanded};
pub use content::{CORE_BASE, CORE_FOLDER, DEFAULT_PAGE_OBJECT, serialize_content};
pub use fields::{
    BLOCKS_FIELD, FILE_FIELD, IMAGE_FIELD, LANGUAGE_FIELD, LINK_FIELD, RELATION_CHOICE_FIELD, RELATION_LIST_FIELD,
    RICH_TEXT_FIELD, URI_LINK_FIELD, download_url, image_url,
};
pub use memo::RequestMemo;
pub use options::SerializeOptions;
pub use references::{NO_REFERENCES, References};
pub use shapes::{ContentShape, SearchResultsShape, SummaryShape, summary as summary_schema};
pub use staging::{WorkingCopyBaseline, WorkingCopyInfo, WorkingCopyItem, shown_lock, working_copy_info};
pub use summary::{briefs_suffice, plain_summary, relation_summary, summary};

use crate::catalog::Scope;
use crate::content::ContentKind;
use crate::content::{ContentObject, FieldDef, FieldKind, TypeProfile};
use crate::error::ApiResult;
use crate::future::BoxFuture;
use crate::i18n::{Catalogs, SITE_LANGUAGE, Translator};
use crate::security::{Access, Principal, Visibility};
use crate::site::Site;
use serde_json::{Map, Value};

/// The serializers the plugins registered, as the kernel's registry answers for them (only
/// those of plugins that are on).
pub trait Serializers: Send + Sync {
    /// The content serializer layers that apply to `profile`, least specific first.
    fn content_serializers(&self, profile: &TypeProfile) -> Vec<&'static ContentSerializer>;
    /// The field serializer for a field kind and widget on content of `profile`: the most
    /// specific content kind first, then one made for the widget.
    fn field_serializer(
        &self,
        kind: FieldKind,
        widget: Option<&str>,
        profile: &TypeProfile,
    ) -> Option<&'static FieldSerializer>;
    /// The components that apply to `profile`, by name (the most specific per name).
    fn components(&self, profile: &TypeProfile) -> Vec<&'static Component>;
    /// The title `object` shows under in breadcrumbs (the first crumb-title rule that has one).
    fn crumb_title<'o>(&self, object: &'o ContentObject) -> &'o str;
}

/// Everything a serializer may consult besides the object.
pub struct SerializeCtx<'a> {
    /// The site: storage, types, workflows.
    pub site: &'a Site,
    /// The registered serializers.
    pub serializers: &'a dyn Serializers,
    /// `scheme://host` for absolute URLs.
    pub base_url: &'a str,
    /// The caller, for permission-dependent output.
    pub principal: &'a Principal,
    /// What the caller may see in listings.
    pub visibility: &'a Visibility,
    /// The caller's standing on the requested object.
    pub access: &'a Access,
    /// What the client asked for.
    pub options: &'a SerializeOptions,
    /// The request's query pairs (batch links repeat them).
    pub query: &'a [(String, String)],
    /// What the object being serialized points at; filled per object before its fields.
    pub references: &'a References,
    /// Values computed once for the request.
    pub memo: &'a RequestMemo,
    /// The messages of every language, for titles shown in the caller's.
    pub i18n: &'a Catalogs,
    /// The request's `Accept-Language`.
    pub accept_language: Option<&'a str>,
}

impl<'a> SerializeCtx<'a> {
    /// The caller's language: the one `Accept-Language` prefers among those with messages,
    /// else the site's; for titles Plone translates (types, workflow states and transitions).
    pub async fn translator(&self) -> ApiResult<Translator<'a>> {
        let site_language = self.site.record_value(&SITE_LANGUAGE).await?;
        let language = self.i18n.negotiate(self.accept_language, site_language.as_str().unwrap_or_default());
        Ok(self.i18n.translator(&language))
    }
}

impl SerializeCtx<'_> {
    /// The scope of a search below `path` by this caller, as listing blocks run it.
    pub fn search_scope(&self, path: &str) -> Scope {
        Scope::new(self.site, path, self.visibility.in_listings(self.site, self.access))
    }

    /// The absolute URL of the site root `object` lives in.
    pub fn site_url(&self, object: &ContentObject) -> String {
        format!("{}/{}", self.base_url, object.site_id())
    }
}

/// The object being serialized, with what traversal already knows about it.
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// The object.
    pub object: &'a ContentObject,
    /// Its container, when known.
    pub parent: Option<&'a ContentObject>,
    /// Its type.
    pub profile: &'a TypeProfile,
}

/// A serializer layer: adds keys to (or changes keys of) the output for one object.
pub type SerializeLayer =
    for<'a> fn(&'a SerializeCtx<'a>, Subject<'a>, &'a mut Map<String, Value>) -> BoxFuture<'a, ApiResult<()>>;

/// One layer of content serialization.
pub struct ContentSerializer {
    /// What content the layer applies to.
    pub kind: ContentKind,
    /// The keys this layer adds that are not fields. They are read-only: a client that sends
    /// back what it got (a GET followed by a PUT) has them ignored, not refused.
    pub read_only: &'static [&'static str],
    /// Adds keys to (or changes keys of) the output.
    pub serialize: SerializeLayer,
}

/// Serializes the values of one field kind (optionally only for one widget).
pub struct FieldSerializer {
    /// The field kind.
    pub field_kind: FieldKind,
    /// The content it applies to; a type's own serializer wins over a behaviour's, and that
    /// over the one for any content, so a plugin can render one field kind differently for
    /// one type.
    pub kind: ContentKind,
    /// A widget name; `None` serves every widget without its own serializer.
    pub widget: Option<&'static str>,
    /// Turns the stored value into its wire form; may serialize other objects (relations).
    pub serialize:
        for<'a> fn(&'a SerializeCtx<'a>, &'a ContentObject, &'a FieldDef, &'a Value) -> BoxFuture<'a, ApiResult<Value>>,
}

/// An entry of `@components`, which `?expand=<name>` inlines.
pub struct Component {
    /// The component name, also its `@name` endpoint.
    pub name: &'static str,
    /// What content it applies to.
    pub kind: ContentKind,
    /// Whether `@components` names it when it is not expanded (plone.restapi leaves out those
    /// that only answer with parameters, such as `inherit`).
    pub listed: bool,
    /// The expanded value; the same body its endpoint returns (`Value::into` for one built
    /// per answer, [`Expanded::text`] for one made of kept JSON text).
    pub expand: for<'a> fn(&'a SerializeCtx<'a>, Subject<'a>) -> BoxFuture<'a, ApiResult<Expanded>>,
}
