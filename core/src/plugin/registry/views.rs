//! What the serializers and the site's writes see of the registry (the traits lower floors
//! define, so they never import the plugin floor).

use super::Registry;
use crate::catalog::FieldIndex;
use crate::content::{ContentObject, FieldKind, TypeProfile};
use crate::serialize::{Component, ContentSerializer, FieldSerializer};
use crate::service::{CreateKey, UpdateHook};
use crate::store::ListingOrder;

impl crate::serialize::Serializers for Registry {
    fn content_serializers(&self, profile: &TypeProfile) -> Vec<&'static ContentSerializer> {
        Registry::content_serializers(self, profile).collect()
    }

    fn field_serializer(
        &self,
        kind: FieldKind,
        widget: Option<&str>,
        profile: &TypeProfile,
    ) -> Option<&'static FieldSerializer> {
        Registry::field_serializer(self, kind, widget, profile)
    }

    fn components(&self, profile: &TypeProfile) -> Vec<&'static Component> {
        Registry::components(self, profile)
    }

    fn crumb_title<'o>(&self, object: &'o ContentObject) -> &'o str {
        Registry::crumb_title(self, object)
    }
}

impl crate::site::Registrations for Registry {
    fn read_only_keys(&self, profile: &TypeProfile) -> Vec<&'static str> {
        Registry::read_only_keys(self, profile)
    }

    fn is_on(&self, id: &str) -> bool {
        Registry::is_on(self, id)
    }

    fn create_keys(&self) -> Vec<&'static CreateKey> {
        self.create_keys.iter().filter(|(plugin, _)| self.is_on(plugin)).map(|(_, key)| *key).collect()
    }

    fn update_hooks(&self) -> Vec<&'static UpdateHook> {
        self.update_hooks.iter().filter(|(plugin, _)| self.is_on(plugin)).map(|(_, hook)| *hook).collect()
    }

    fn catalog_indexes(&self) -> &[&'static FieldIndex] {
        Registry::catalog_indexes(self)
    }

    fn listing_order(&self, profile: &TypeProfile) -> ListingOrder {
        Registry::listing_order(self, profile)
    }

    fn view_names(&self, profile: &TypeProfile) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .services
            .iter()
            .filter(|((_, name), services)| {
                !name.is_empty() && services.iter().any(|(plugin, s)| self.is_on(plugin) && s.kind.matches(profile))
            })
            .map(|((_, name), _)| *name)
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}
