//! Freezes what the plugins registered into a [`Registry`], refusing duplicate keys (two
//! plugins with one service, component, record, panel…) with both plugins named.

use super::Registrar;
use super::registry::{Registry, StartupError};
use crate::catalog::FieldIndex;
use crate::content::FieldKind;
use crate::service::Service;
use crate::store::ListingOrder;
use poem::http::Method;
use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::AtomicBool;

pub(super) fn freeze(plugins: Vec<&'static str>, registrar: Registrar) -> Result<Registry, StartupError> {
    let mut services: HashMap<(Method, &'static str), Vec<(&'static str, &'static Service)>> = HashMap::new();
    for (plugin, service) in registrar.services {
        let entry = services.entry((service.method.clone(), service.name)).or_default();
        if let Some((first, _)) = entry.iter().find(|(_, s)| s.kind == service.kind) {
            return Err(StartupError::DuplicateKey {
                what: format!("service {} {} for {}", service.method, display_name(service.name), service.kind.label()),
                first,
                second: plugin,
            });
        }
        entry.push((plugin, service));
        entry.sort_by_key(|(_, s)| std::cmp::Reverse(s.kind.specificity()));
    }
    check_unique(&registrar.components, |c| format!("component {} for {}", c.name, c.kind.label()))?;
    check_unique(&registrar.field_serializers, |s| {
        format!("field serializer for {:?} with widget {:?} on {}", s.field_kind, s.widget, s.kind.label())
    })?;
    check_unique(&registrar.records, |r| format!("registry record {}", r.name))?;
    check_unique(&registrar.request_hooks, |h| format!("request hook {}", h.name))?;
    check_unique(&registrar.subscribers, |s| format!("event subscriber {}", s.name))?;
    check_unique(&registrar.crumb_titles, |c| format!("breadcrumb title rule {}", c.name))?;
    check_unique_keys(registrar.field_kinds.iter().filter(|(_, k)| FieldKind::core(k.name).is_some()).flat_map(
        |(plugin, k)| [("core", format!("field kind {}", k.name)), (*plugin, format!("field kind {}", k.name))],
    ))?;
    check_unique(&registrar.field_kinds, |k| format!("field kind {}", k.name))?;
    check_unique(&registrar.start_hooks, |h| format!("start hook {}", h.name))?;
    check_unique(&registrar.stop_hooks, |h| format!("stop hook {}", h.name))?;
    check_unique(&registrar.settings_hooks, |h| format!("settings hook {}", h.name))?;
    check_unique(&registrar.create_keys, |k| format!("create key {}", k.name))?;
    check_unique(&registrar.site_files, |s| format!("site file {}", s.file))?;
    check_unique(&registrar.update_hooks, |h| format!("update hook {}", h.name))?;
    check_unique(&registrar.text_searches, |_| "the full-text search of @search".to_owned())?;
    check_unique(&registrar.control_panels, |p| format!("control panel {}", p.id))?;
    check_unique(&registrar.vocabularies, |v| format!("vocabulary {}", v.name))?;
    check_unique_keys(
        registrar.permissions.iter().map(|(plugin, p, _)| (*plugin, format!("permission '{}'", p.name()))),
    )?;
    check_unique_keys(registrar.templates.iter().map(|(plugin, name, _)| (*plugin, format!("template {name}"))))?;
    check_unique_keys(
        crate::i18n::CORE_MESSAGES
            .iter()
            .map(|(language, ftl)| ("core", *language, *ftl))
            .chain(registrar.messages.iter().copied())
            .flat_map(|(plugin, language, ftl)| {
                message_ids(ftl).map(move |id| (plugin, format!("message {id} ({language})")))
            }),
    )?;
    // Several plugins may index one name over different fields (an event's `start`, a news
    // entry's date): each object has one of them. Core's column indexes are never shared.
    let core_dates = crate::catalog::DateIndex::CORE;
    check_unique_keys(core_dates.iter().map(|(name, _)| ("core", format!("catalog index {name}"))).chain(
        registrar.catalog_indexes.iter().map(|(plugin, i)| {
            let key = if core_dates.iter().any(|(name, _)| *name == i.name) {
                format!("catalog index {}", i.name)
            } else {
                format!("catalog index {} over {}", i.name, i.field)
            };
            (*plugin, key)
        }),
    ))?;
    check_unique_keys(
        crate::events::Event::CORE_KINDS
            .iter()
            .map(|name| ("core", format!("event kind {name}")))
            .chain(registrar.event_kinds.iter().map(|(plugin, k)| (*plugin, format!("event kind {}", k.name)))),
    )?;
    check_unique(&registrar.listing_orders, |o| format!("listing order of behaviour {}", o.behaviour))?;
    let fields = registrar
        .catalog_indexes
        .iter()
        .map(|(plugin, index)| (*plugin, FieldIndex { name: index.name, field: index.field }))
        .chain(registrar.listing_orders.iter().filter_map(|(plugin, o)| match o.order {
            ListingOrder::FieldDescending(field) => Some((*plugin, FieldIndex { name: o.behaviour, field })),
            ListingOrder::Position => None,
        }));
    for (plugin, index) in fields {
        if !index.field_is_identifier() {
            return Err(StartupError::Types(format!(
                "plugin {plugin}: '{}' orders or indexes by '{}', which is not a plain field name \
                 (ASCII letters, digits and _)",
                index.name, index.field
            )));
        }
    }
    let mut claimed: Vec<&'static str> =
        services.keys().filter_map(|(_, name)| Some(name.split_once('/')?.0)).collect();
    claimed.sort_unstable();
    claimed.dedup();
    let mut content_serializers = registrar.content_serializers;
    content_serializers.sort_by_key(|(_, s)| s.kind.specificity());
    Ok(Registry {
        plugins,
        services,
        content_serializers,
        field_serializers: registrar.field_serializers,
        components: registrar.components,
        type_profiles: registrar.type_profiles,
        workflows: registrar.workflows,
        permissions: registrar.permissions.into_iter().map(|(_, p, roles)| (p, roles)).collect(),
        records: registrar.records.into_iter().map(|(plugin, r)| (r.name, (plugin, r))).collect(),
        templates: registrar.templates.into_iter().map(|(_, name, source)| (name, source)).collect(),
        messages: registrar.messages.into_iter().map(|(_, language, ftl)| (language, ftl)).collect(),
        request_hooks: registrar.request_hooks,
        subscribers: registrar.subscribers,
        migrations: registrar.migrations,
        crumb_titles: registrar.crumb_titles.into_iter().map(|(_, c)| c).collect(),
        field_kinds: registrar.field_kinds.into_iter().map(|(_, k)| k).collect(),
        start_hooks: registrar.start_hooks,
        stop_hooks: registrar.stop_hooks,
        settings_hooks: registrar.settings_hooks,
        create_keys: registrar.create_keys,
        site_files: registrar.site_files,
        update_hooks: registrar.update_hooks,
        text_search: registrar.text_searches.first().copied(),
        control_panels: registrar.control_panels,
        catalog_indexes: registrar.catalog_indexes.into_iter().map(|(_, i)| i).collect(),
        listing_orders: registrar.listing_orders.into_iter().map(|(_, o)| o).collect(),
        type_behaviours: registrar.type_behaviours,
        demo_contents: registrar.demo_contents,
        vocabularies: registrar.vocabularies,
        claimed,
        switched_off: RwLock::default(),
        any_switched_off: AtomicBool::new(false),
    })
}

fn check_unique<T>(items: &[(&'static str, &'static T)], key: impl Fn(&T) -> String) -> Result<(), StartupError> {
    check_unique_keys(items.iter().map(|(plugin, item)| (*plugin, key(item))))
}

/// Fails on the first key two contributions share, naming both plugins.
fn check_unique_keys(keys: impl Iterator<Item = (&'static str, String)>) -> Result<(), StartupError> {
    let mut seen: HashMap<String, &'static str> = HashMap::new();
    for (plugin, what) in keys {
        if let Some(first) = seen.insert(what.clone(), plugin) {
            return Err(StartupError::DuplicateKey { what, first, second: plugin });
        }
    }
    Ok(())
}

/// The ids a Fluent resource defines: messages and terms start a line (`id = …`); comments,
/// attributes and continuations do not.
fn message_ids(ftl: &str) -> impl Iterator<Item = &str> {
    ftl.lines().filter_map(|line| {
        let (id, _) = line.split_once('=')?;
        let id = id.trim_end();
        let starts_entry = line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '-');
        (starts_entry && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))).then_some(id)
    })
}

fn display_name(name: &str) -> &str {
    if name.is_empty() { "(default view)" } else { name }
}
