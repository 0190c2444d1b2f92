//! What a plugin's `build` function receives: one method per kind of contribution.

use crate::catalog::FieldIndex;
use crate::content::{FieldKindDef, TypeBehaviour};
use crate::controlpanel::ControlPanelDef;
use crate::events::EventKind;
use crate::records::RecordDef;
use crate::security::{Permission, Role};
use crate::serialize::{Component, ContentSerializer, FieldSerializer};
use crate::service::TextSearch;
use crate::service::{
    CreateKey, CrumbTitle, RequestHook, Service, SettingsHook, SiteFile, StartHook, StopHook, UpdateHook, Vocabulary,
};
use crate::store::Subscriber;
use crate::store::{BehaviourOrder, Migration};

/// Collects contributions while plugins are built; each remembers which plugin added it.
#[derive(Default)]
pub struct Registrar {
    pub(super) current: &'static str,
    pub(super) services: Vec<(&'static str, &'static Service)>,
    pub(super) content_serializers: Vec<(&'static str, &'static ContentSerializer)>,
    pub(super) field_serializers: Vec<(&'static str, &'static FieldSerializer)>,
    pub(super) components: Vec<(&'static str, &'static Component)>,
    pub(super) type_profiles: Vec<(&'static str, &'static str)>,
    pub(super) workflows: Vec<(&'static str, &'static str)>,
    pub(super) permissions: Vec<(&'static str, Permission, &'static [Role])>,
    pub(super) records: Vec<(&'static str, &'static RecordDef)>,
    pub(super) templates: Vec<(&'static str, &'static str, &'static str)>,
    pub(super) messages: Vec<(&'static str, &'static str, &'static str)>,
    pub(super) request_hooks: Vec<(&'static str, &'static RequestHook)>,
    pub(super) subscribers: Vec<(&'static str, &'static Subscriber)>,
    pub(super) migrations: Vec<(&'static str, &'static [Migration])>,
    pub(super) crumb_titles: Vec<(&'static str, &'static CrumbTitle)>,
    pub(super) field_kinds: Vec<(&'static str, &'static FieldKindDef)>,
    pub(super) start_hooks: Vec<(&'static str, &'static StartHook)>,
    pub(super) stop_hooks: Vec<(&'static str, &'static StopHook)>,
    pub(super) settings_hooks: Vec<(&'static str, &'static SettingsHook)>,
    pub(super) create_keys: Vec<(&'static str, &'static CreateKey)>,
    pub(super) site_files: Vec<(&'static str, &'static SiteFile)>,
    pub(super) update_hooks: Vec<(&'static str, &'static UpdateHook)>,
    pub(super) text_searches: Vec<(&'static str, &'static TextSearch)>,
    pub(super) control_panels: Vec<(&'static str, &'static ControlPanelDef)>,
    pub(super) catalog_indexes: Vec<(&'static str, &'static FieldIndex)>,
    pub(super) listing_orders: Vec<(&'static str, &'static BehaviourOrder)>,
    pub(super) type_behaviours: Vec<(&'static str, &'static TypeBehaviour)>,
    pub(super) demo_contents: Vec<(&'static str, &'static str)>,
    pub(super) event_kinds: Vec<(&'static str, &'static EventKind)>,
    pub(super) vocabularies: Vec<(&'static str, &'static Vocabulary)>,
}

impl Registrar {
    /// Adds an endpoint.
    pub fn service(&mut self, service: &'static Service) {
        self.services.push((self.current, service));
    }

    /// Adds a layer of content serialization.
    pub fn content_serializer(&mut self, serializer: &'static ContentSerializer) {
        self.content_serializers.push((self.current, serializer));
    }

    /// Adds a serializer for a field kind (and widget).
    pub fn field_serializer(&mut self, serializer: &'static FieldSerializer) {
        self.field_serializers.push((self.current, serializer));
    }

    /// Adds an `@components` entry that `expand` can inline.
    pub fn component(&mut self, component: &'static Component) {
        self.components.push((self.current, component));
    }

    /// Adds a content type profile (TOML text, usually `include_str!`).
    pub fn content_type(&mut self, profile_toml: &'static str) {
        self.type_profiles.push((self.current, profile_toml));
    }

    /// Adds a workflow definition (TOML text).
    pub fn workflow(&mut self, definition_toml: &'static str) {
        self.workflows.push((self.current, definition_toml));
    }

    /// Declares a registry record, which `@registry` then lists and Managers may change.
    pub fn record(&mut self, record: &'static RecordDef) {
        self.records.push((self.current, record));
    }

    /// Adds a control panel to Site Setup (`@controlpanels/<id>`).
    pub fn control_panel(&mut self, panel: &'static ControlPanelDef) {
        self.control_panels.push((self.current, panel));
    }

    /// Declares a plugin permission and the roles that hold it site-wide by default.
    pub fn permission(&mut self, permission: Permission, default_roles: &'static [Role]) {
        self.permissions.push((self.current, permission, default_roles));
    }

    /// Adds an HTML template (tera source, usually `include_str!`) for browser views. Templates
    /// may extend core's `layout.html`.
    pub fn template(&mut self, name: &'static str, source: &'static str) {
        self.templates.push((self.current, name, source));
    }

    /// Adds translations: a Fluent resource (`.ftl` text) for a language such as `de`. Message
    /// ids are global, so a plugin prefixes its own (`versioning-…`).
    pub fn messages(&mut self, language: &'static str, ftl: &'static str) {
        self.messages.push((self.current, language, ftl));
    }

    /// Adds a hook that sees every request after traversal and before dispatch, and may
    /// answer it itself (directdownload answers an anonymous GET of a File with its bytes).
    /// Hooks run in plugin order, then in the order a plugin adds them.
    pub fn request_hook(&mut self, hook: &'static RequestHook) {
        self.request_hooks.push((self.current, hook));
    }

    /// Subscribes to content events, in the transaction of the write or after its commit
    /// (see [`crate::events`]). Subscribers run in plugin order, then in the order a plugin
    /// adds them.
    pub fn subscriber(&mut self, subscriber: &'static Subscriber) {
        self.subscribers.push((self.current, subscriber));
    }

    /// Adds a field kind that profiles may name (`kind = "<name>"`): its input parsing and
    /// form schema; its output is a field serializer for `FieldKind::Plugin(&kind)`.
    pub fn field_kind(&mut self, kind: &'static FieldKindDef) {
        self.field_kinds.push((self.current, kind));
    }

    /// Answers `@search` queries with `SearchableText` from a search engine (one plugin at
    /// most).
    pub fn text_search(&mut self, search: &'static TextSearch) {
        self.text_searches.push((self.current, search));
    }

    /// Adds work to do when the application starts, in plugin order.
    pub fn on_start(&mut self, hook: &'static StartHook) {
        self.start_hooks.push((self.current, hook));
    }

    /// Adds work to do when site settings are saved, in plugin order.
    pub fn on_settings(&mut self, hook: &'static SettingsHook) {
        self.settings_hooks.push((self.current, hook));
    }

    /// Takes a key of create bodies that is no field (see [`CreateKey`]).
    pub fn create_key(&mut self, key: &'static CreateKey) {
        self.create_keys.push((self.current, key));
    }

    /// Reads and writes a file of a site export (see [`SiteFile`]).
    pub fn site_file(&mut self, file: &'static SiteFile) {
        self.site_files.push((self.current, file));
    }

    /// Adds work to the transaction of every change to an object's fields (see [`UpdateHook`]).
    pub fn on_update(&mut self, hook: &'static UpdateHook) {
        self.update_hooks.push((self.current, hook));
    }

    /// Adds work to finish when the server stops, in plugin order.
    pub fn on_stop(&mut self, hook: &'static StopHook) {
        self.stop_hooks.push((self.current, hook));
    }

    /// Adds a rule for the title objects show under in breadcrumbs.
    pub fn crumb_title(&mut self, rule: &'static CrumbTitle) {
        self.crumb_titles.push((self.current, rule));
    }

    /// Ships the migrations of the plugin's own tables, per backend. They run at start-up in
    /// plugin order, each version once, recorded per plugin (see [`crate::store::Migration`]).
    pub fn migrations(&mut self, migrations: &'static [Migration]) {
        self.migrations.push((self.current, migrations));
    }

    /// Adds a date index over a content field to the catalog (`@search`, listings, blocks).
    pub fn catalog_index(&mut self, index: &'static FieldIndex) {
        self.catalog_indexes.push((self.current, index));
    }

    /// Orders the items of folders whose type has a behaviour (newest news first).
    pub fn listing_order(&mut self, order: &'static BehaviourOrder) {
        self.listing_orders.push((self.current, order));
    }

    /// Declares a kind of event the plugin tells ([`crate::events::PluginEvent`]); start-up
    /// refuses a name core or another plugin already uses.
    pub fn event_kind(&mut self, kind: &'static EventKind) {
        self.event_kinds.push((self.current, kind));
    }

    /// Adds a named vocabulary to `@vocabularies`.
    pub fn vocabulary(&mut self, vocabulary: &'static Vocabulary) {
        self.vocabularies.push((self.current, vocabulary));
    }

    /// Ships example content for `wcs serve --demo`: a JSON list of entries, each a POST
    /// body with its `parent` path, or a PATCH body with the `patch` path it changes.
    pub fn demo_content(&mut self, entries_json: &'static str) {
        self.demo_contents.push((self.current, entries_json));
    }

    /// Gives a content type, whichever plugin defines it, a behaviour this plugin implements
    /// (versioning gives Document its `versioning`).
    pub fn type_behaviour(&mut self, attached: &'static TypeBehaviour) {
        self.type_behaviours.push((self.current, attached));
    }
}
