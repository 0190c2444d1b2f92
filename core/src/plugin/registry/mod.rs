//! Orders the linked plugins, builds them and freezes what they registered.

mod order;
mod startup_error;
mod views;

use super::{PluginDescriptor, Registrar};
use crate::catalog::FieldIndex;
use crate::content::{ContentObject, FieldKindDef, TypeBehaviour};
use crate::content::{FieldKind, TypeProfile};
use crate::controlpanel::ControlPanelDef;
use crate::records::RecordDef;
use crate::security::{Permission, Role};
use crate::serialize::{Component, ContentSerializer, FieldSerializer};
use crate::service::TextSearch;
use crate::service::{
    CreateKey, CrumbTitle, RequestHook, Service, SettingsHook, SiteFile, StartHook, StopHook, UpdateHook,
};
use crate::store::Subscriber;
use crate::store::{BehaviourOrder, ListingOrder, Migration};
use order::order;
use poem::http::Method;
pub use startup_error::StartupError;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::RwLock;
use std::sync::atomic::AtomicBool;

/// Which linked plugins to switch off (from configuration).
#[derive(Clone, Debug, Default)]
pub struct PluginSelection {
    /// Plugin ids not to build.
    pub disabled: Vec<String>,
}

/// What one plugin adds, by name (for `@plugins`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Contributions {
    /// `METHOD @name` of its services.
    pub services: Vec<String>,
    /// Its `@components` entries.
    pub components: Vec<&'static str>,
    /// Its control panels.
    pub control_panels: Vec<&'static str>,
    /// Its request hooks.
    pub request_hooks: Vec<&'static str>,
    /// Its registry records.
    pub records: Vec<&'static str>,
}

/// Everything the plugins registered, frozen after start-up and shared read-only.
pub struct Registry {
    pub(super) plugins: Vec<&'static str>,
    pub(super) services: HashMap<(Method, &'static str), Vec<(&'static str, &'static Service)>>,
    pub(super) content_serializers: Vec<(&'static str, &'static ContentSerializer)>,
    pub(super) field_serializers: Vec<(&'static str, &'static FieldSerializer)>,
    pub(super) components: Vec<(&'static str, &'static Component)>,
    pub(super) type_profiles: Vec<(&'static str, &'static str)>,
    pub(super) workflows: Vec<(&'static str, &'static str)>,
    pub(super) permissions: Vec<(Permission, &'static [Role])>,
    pub(super) records: BTreeMap<&'static str, (&'static str, &'static RecordDef)>,
    pub(super) templates: Vec<(&'static str, &'static str)>,
    pub(super) messages: Vec<(&'static str, &'static str)>,
    pub(super) request_hooks: Vec<(&'static str, &'static RequestHook)>,
    pub(super) subscribers: Vec<(&'static str, &'static Subscriber)>,
    pub(super) migrations: Vec<(&'static str, &'static [Migration])>,
    pub(super) crumb_titles: Vec<&'static CrumbTitle>,
    pub(super) field_kinds: Vec<&'static FieldKindDef>,
    pub(super) start_hooks: Vec<(&'static str, &'static StartHook)>,
    pub(super) settings_hooks: Vec<(&'static str, &'static SettingsHook)>,
    pub(super) create_keys: Vec<(&'static str, &'static CreateKey)>,
    pub(super) site_files: Vec<(&'static str, &'static SiteFile)>,
    pub(super) update_hooks: Vec<(&'static str, &'static UpdateHook)>,
    pub(super) stop_hooks: Vec<(&'static str, &'static StopHook)>,
    pub(super) text_search: Option<(&'static str, &'static TextSearch)>,
    pub(super) control_panels: Vec<(&'static str, &'static ControlPanelDef)>,
    pub(super) catalog_indexes: Vec<&'static FieldIndex>,
    pub(super) listing_orders: Vec<&'static BehaviourOrder>,
    pub(super) type_behaviours: Vec<(&'static str, &'static TypeBehaviour)>,
    pub(super) demo_contents: Vec<(&'static str, &'static str)>,
    pub(super) vocabularies: Vec<(&'static str, &'static crate::service::Vocabulary)>,
    /// The names of which a longer service name claims a part (`@controlpanels` for
    /// `@controlpanels/content-rules`), so traversal looks for one only under these.
    pub(super) claimed: Vec<&'static str>,
    /// Plugins switched off while running (Site Setup's add-ons): built, but their endpoints,
    /// serializer layers, components, panels, request hooks and full-text search are left out.
    pub(super) switched_off: RwLock<BTreeSet<&'static str>>,
    /// Whether any plugin is switched off: every lookup asks, and almost always none is.
    pub(super) any_switched_off: AtomicBool,
}

impl Registry {
    /// Builds every linked plugin that `selection` does not disable.
    pub fn build(selection: &PluginSelection) -> Result<Registry, StartupError> {
        let linked: Vec<&'static PluginDescriptor> = inventory::iter::<PluginDescriptor>.into_iter().collect();
        Self::build_from(&linked, selection)
    }

    /// Builds the given descriptors; [`Registry::build`] passes the linked ones.
    pub fn build_from(
        linked: &[&'static PluginDescriptor],
        selection: &PluginSelection,
    ) -> Result<Registry, StartupError> {
        let mut by_id: BTreeMap<&'static str, &'static PluginDescriptor> = BTreeMap::new();
        for descriptor in linked {
            if by_id.insert(descriptor.id, descriptor).is_some() {
                return Err(StartupError::DuplicatePlugin(descriptor.id.to_owned()));
            }
        }
        for id in &selection.disabled {
            if id == "core" {
                return Err(StartupError::BadSelection(id.clone(), "core cannot be disabled"));
            }
            if by_id.remove(id.as_str()).is_none() {
                return Err(StartupError::BadSelection(id.clone(), "no such plugin is linked"));
            }
        }
        let ordered = order(&by_id)?;
        let mut registrar = Registrar::default();
        for descriptor in &ordered {
            registrar.current = descriptor.id;
            (descriptor.build)(&mut registrar);
        }
        super::freeze::freeze(ordered.iter().map(|d| d.id).collect(), registrar)
    }

    /// The ids of the built plugins, in build order.
    pub fn plugin_ids(&self) -> &[&'static str] {
        &self.plugins
    }

    /// The service for `method` and `name` that best matches `profile`.
    pub fn service(&self, method: &Method, name: &str, profile: &TypeProfile) -> Option<&'static Service> {
        self.services
            .get(&(method.clone(), name))?
            .iter()
            .filter(|(plugin, _)| self.is_on(plugin))
            .map(|(_, service)| *service)
            .find(|service| service.kind.matches(profile))
    }

    /// The methods that have some service called `name` for `profile`, for 405 answers.
    pub fn methods_for(&self, name: &str, profile: &TypeProfile) -> Vec<Method> {
        let mut methods: Vec<Method> = self
            .services
            .iter()
            .filter(|((_, n), services)| {
                *n == name && services.iter().any(|(plugin, s)| self.is_on(plugin) && s.kind.matches(profile))
            })
            .map(|((method, _), _)| method.clone())
            .collect();
        methods.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        methods
    }

    /// Every service of the plugins that are on, with the plugin that registered it, sorted by
    /// name and method.
    pub fn services(&self) -> Vec<(&'static str, &'static Service)> {
        let mut all: Vec<_> =
            self.services.values().flatten().copied().filter(|(plugin, _)| self.is_on(plugin)).collect();
        all.sort_by(|(_, a), (_, b)| (a.name, a.method.as_str()).cmp(&(b.name, b.method.as_str())));
        all
    }

    /// The content serializer layers that apply to `profile`, least specific first.
    pub fn content_serializers<'a>(
        &'a self,
        profile: &'a TypeProfile,
    ) -> impl Iterator<Item = &'static ContentSerializer> + 'a {
        self.content_serializers
            .iter()
            .filter(move |(plugin, s)| s.kind.matches(profile) && self.is_on(plugin))
            .map(|(_, s)| *s)
    }

    /// The keys the serializer layers for `profile` add that are not fields: ignored when a
    /// client sends them back.
    pub fn read_only_keys(&self, profile: &TypeProfile) -> Vec<&'static str> {
        self.content_serializers(profile).flat_map(|s| s.read_only.iter().copied()).collect()
    }

    /// The field serializer for a field kind and widget on content of `profile`: the most
    /// specific content kind first, then one made for the widget.
    pub fn field_serializer(
        &self,
        kind: FieldKind,
        widget: Option<&str>,
        profile: &TypeProfile,
    ) -> Option<&'static FieldSerializer> {
        self.field_serializers
            .iter()
            .filter(|(plugin, s)| {
                s.field_kind == kind
                    && (s.widget.is_none() || s.widget == widget)
                    && s.kind.matches(profile)
                    && self.is_on(plugin)
            })
            .map(|(_, s)| *s)
            .max_by_key(|s| (s.kind.specificity(), s.widget.is_some()))
    }

    /// The components that apply to `profile`, by name (the most specific per name).
    pub fn components(&self, profile: &TypeProfile) -> Vec<&'static Component> {
        let mut chosen: BTreeMap<&'static str, &'static Component> = BTreeMap::new();
        for (_, component) in self.components.iter().filter(|(plugin, c)| c.kind.matches(profile) && self.is_on(plugin))
        {
            let slot = chosen.entry(component.name).or_insert(component);
            if component.kind.specificity() > slot.kind.specificity() {
                *slot = component;
            }
        }
        chosen.into_values().collect()
    }

    /// Every component of the plugins that are on, with its plugin.
    pub fn all_components(&self) -> Vec<(&'static str, &'static Component)> {
        self.components.iter().filter(|(plugin, _)| self.is_on(plugin)).copied().collect()
    }

    /// The content type profiles, with the plugin that registered each.
    pub fn type_profiles(&self) -> &[(&'static str, &'static str)] {
        &self.type_profiles
    }

    /// Plugin permissions with their default roles.
    pub fn permissions(&self) -> &[(Permission, &'static [Role])] {
        &self.permissions
    }

    /// The declared registry records, sorted by name.
    pub fn records(&self) -> impl Iterator<Item = &'static RecordDef> + '_ {
        self.records.values().map(|(_, record)| *record)
    }

    /// The control panels of the plugins that are on, in registration order.
    pub fn control_panels(&self) -> Vec<&'static ControlPanelDef> {
        self.control_panels.iter().filter(|(plugin, _)| self.is_on(plugin)).map(|(_, p)| *p).collect()
    }

    /// A control panel by id, when its plugin is on.
    pub fn control_panel(&self, id: &str) -> Option<&'static ControlPanelDef> {
        self.control_panels().into_iter().find(|p| p.id == id)
    }

    /// A declared record by name.
    pub fn record(&self, name: &str) -> Option<&'static RecordDef> {
        self.records.get(name).map(|(_, record)| *record)
    }

    /// The plugins' HTML templates: name and tera source.
    pub fn templates(&self) -> &[(&'static str, &'static str)] {
        &self.templates
    }

    /// The plugins' Fluent resources: language and `.ftl` text, in build order.
    pub fn messages(&self) -> &[(&'static str, &'static str)] {
        &self.messages
    }

    /// The request hooks of the plugins that are on, with the plugin that added each, in the
    /// order they run.
    pub fn request_hooks(&self) -> impl Iterator<Item = &(&'static str, &'static RequestHook)> + '_ {
        self.request_hooks.iter().filter(|(plugin, _)| self.is_on(plugin))
    }

    /// The title `object` shows under in breadcrumbs: the first rule's that answers, else
    /// its title.
    pub fn crumb_title<'a>(&self, object: &'a ContentObject) -> &'a str {
        self.crumb_titles.iter().find_map(|rule| (rule.title)(object)).unwrap_or(&object.title)
    }

    /// The full-text search of `@search`, when a plugin provides one.
    pub fn text_search(&self) -> Option<&'static TextSearch> {
        self.text_search.filter(|(plugin, _)| self.is_on(plugin)).map(|(_, search)| search)
    }

    /// The start hooks with their plugin, in the order they run.
    pub fn start_hooks(&self) -> &[(&'static str, &'static StartHook)] {
        &self.start_hooks
    }

    /// The settings hooks of the plugins switched on that watch any of `records`, in the order
    /// they run.
    pub fn settings_hooks_for<'a>(&'a self, records: &'a [&str]) -> impl Iterator<Item = &'static SettingsHook> + 'a {
        self.settings_hooks
            .iter()
            .filter(move |(plugin, hook)| self.is_on(plugin) && hook.records.iter().any(|r| records.contains(r)))
            .map(|(_, hook)| *hook)
    }

    /// The import steps of the plugins switched on, in plugin order.
    pub fn site_files(&self) -> impl Iterator<Item = &'static SiteFile> + '_ {
        self.site_files.iter().filter(|(plugin, _)| self.is_on(plugin)).map(|(_, step)| *step)
    }

    /// The stop hooks with their plugin, in the order they run.
    pub fn stop_hooks(&self) -> &[(&'static str, &'static StopHook)] {
        &self.stop_hooks
    }

    /// The field kinds plugins added.
    pub fn field_kinds(&self) -> &[&'static FieldKindDef] {
        &self.field_kinds
    }

    /// The plugins' migrations, in plugin order.
    pub fn migrations(&self) -> &[(&'static str, &'static [Migration])] {
        &self.migrations
    }

    /// The event subscribers with the plugin that added each, in the order they run.
    pub fn subscribers(&self) -> &[(&'static str, &'static Subscriber)] {
        &self.subscribers
    }

    /// What `plugin` adds: its services (`METHOD @name`), components, content types, control
    /// panels, request hooks and records, each sorted.
    pub fn contributions(&self, plugin: &str) -> Contributions {
        let of = |owner: &&str| *owner == plugin;
        let mut services: Vec<String> = self
            .services
            .values()
            .flatten()
            .filter(|(owner, _)| of(owner))
            .map(|(_, s)| format!("{} {}", s.method, if s.name.is_empty() { "(content)" } else { s.name }))
            .collect();
        services.sort();
        services.dedup();
        let names = |items: Vec<&'static str>| -> Vec<&'static str> {
            let mut items = items;
            items.sort_unstable();
            items.dedup();
            items
        };
        Contributions {
            services,
            components: names(self.components.iter().filter(|(o, _)| of(o)).map(|(_, c)| c.name).collect()),
            control_panels: names(self.control_panels.iter().filter(|(o, _)| of(o)).map(|(_, p)| p.id).collect()),
            request_hooks: names(self.request_hooks.iter().filter(|(o, _)| of(o)).map(|(_, h)| h.name).collect()),
            records: names(self.records.values().filter(|(o, _)| of(o)).map(|(_, r)| r.name).collect()),
        }
    }

    /// The date indexes plugins add to the catalog.
    pub fn catalog_indexes(&self) -> &[&'static FieldIndex] {
        &self.catalog_indexes
    }

    /// The demo content of each plugin that ships some, in plugin order.
    pub fn demo_contents(&self) -> &[(&'static str, &'static str)] {
        &self.demo_contents
    }

    /// The behaviours plugins attach to types, with the attaching plugin.
    pub fn type_behaviours(&self) -> &[(&'static str, &'static TypeBehaviour)] {
        &self.type_behaviours
    }

    /// How a folder of type `profile` orders its items: the first registered order whose
    /// behaviour the type has, else the editors' order.
    pub fn listing_order(&self, profile: &TypeProfile) -> ListingOrder {
        self.listing_orders
            .iter()
            .find(|o| profile.has_behaviour(o.behaviour))
            .map_or(ListingOrder::Position, |o| o.order)
    }

    /// The workflow definitions, with the plugin that registered each.
    pub fn workflows(&self) -> &[(&'static str, &'static str)] {
        &self.workflows
    }
}
