//! The site as the floors below the kernel see it: its storage, content types, workflows and
//! permission map, and what the site's plugins registered that those floors must respect. The
//! kernel's `App` holds one and dereferences to it, so whatever takes a `&Site` takes an
//! `&App` too; nothing below the kernel sees the kernel itself.

use crate::catalog::FieldIndex;
use crate::content::{ContentObject, TypeProfile, TypeRegistry, Types};
use crate::error::ApiResult;
use crate::future::BoxFuture;
use crate::records::{RecordDef, current_value};
use crate::security::Policy;
use crate::store::{ListingOrder, Store};
use crate::workflow::WorkflowRegistry;
use serde_json::Value;
use std::sync::{Arc, Weak};

/// What the plugins registered, as writes and permission checks need it (the kernel's registry
/// answers).
pub trait Registrations: Send + Sync {
    /// The keys the serializer layers for `profile` add that are not fields, which a client
    /// sending back what it read may include.
    fn read_only_keys(&self, profile: &TypeProfile) -> Vec<&'static str>;
    /// Whether the plugin `id` is switched on.
    fn is_on(&self, id: &str) -> bool;
    /// The keys of create bodies that plugins take (see [`CreateKey`]).
    fn create_keys(&self) -> Vec<&'static CreateKey>;
    /// The work plugins do in the transaction of a change to an object's fields.
    fn update_hooks(&self) -> Vec<&'static UpdateHook>;
    /// The names of the views and endpoints (without `@`) that answer on content of `profile`.
    fn view_names(&self, profile: &TypeProfile) -> Vec<&'static str>;
    /// The date indexes plugins add to the catalog.
    fn catalog_indexes(&self) -> &[&'static FieldIndex];
    /// How a folder of this type orders its items.
    fn listing_order(&self, profile: &TypeProfile) -> ListingOrder;
}

/// How soon an instance applies a type edit another instance stored.
pub const TYPE_EDITS_POLL: std::time::Duration = std::time::Duration::from_secs(1);

/// A site's storage and definitions.
pub struct Site {
    /// Storage.
    pub store: Store,
    /// Content types, as profiles define them and site owners edited them.
    pub types: Types,
    /// Workflows.
    pub workflows: WorkflowRegistry,
    /// Site-wide permission defaults.
    pub policy: Policy,
    /// What the plugins registered.
    pub registrations: Arc<dyn Registrations>,
}

impl Site {
    /// The date indexes plugins add to the catalog, for parsing queries.
    pub fn catalog_indexes(&self) -> &[&'static FieldIndex] {
        self.registrations.catalog_indexes()
    }

    /// The site, keeping its objects' `allowed` tokens in every commit of its store.
    pub fn new(
        store: Store,
        types: TypeRegistry,
        workflows: WorkflowRegistry,
        policy: Policy,
        registrations: Arc<dyn Registrations>,
    ) -> Arc<Site> {
        let site = Arc::new(Site { store, types: Types::new(types), workflows, policy, registrations });
        let weak: Weak<Site> = Arc::downgrade(&site);
        site.store.keep_derived(weak);
        site
    }

    /// Applies the stored type edits when another edit was stored since they were last
    /// applied (by this instance or another sharing the database): one small read when none was.
    pub async fn refresh_types(&self) -> ApiResult<()> {
        if self.store.type_edits_revision().await? == self.types.revision() {
            return Ok(());
        }
        let (revision, edits) = self.store.type_edits().await?;
        for problem in self.types.install(revision, &edits) {
            tracing::warn!(%problem, "a content type edit is not applied");
        }
        Ok(())
    }

    /// Looks for other instances' type edits every [`TYPE_EDITS_POLL`] while the site lives.
    pub fn watch_types(site: &Arc<Site>) {
        let weak = Arc::downgrade(site);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(TYPE_EDITS_POLL).await;
                let Some(site) = weak.upgrade() else { break };
                if let Err(err) = site.refresh_types().await {
                    tracing::warn!(%err, "could not look for content type edits");
                }
            }
        });
    }

    /// The current value of a declared record: the stored one, else the default. A stored
    /// value that no longer fits the declared kind (a plugin changed it) yields the default.
    pub async fn record_value(&self, record: &RecordDef) -> ApiResult<Value> {
        Ok(current_value(record, self.store.record(record.name).await?))
    }

    /// The current values of several records, read in one statement, in their order.
    pub async fn record_values(&self, records: &[&RecordDef]) -> ApiResult<Vec<Value>> {
        Ok(self.store.record_values(records).await?)
    }
}

/// A key of a create body that is no field, which a plugin takes (the multilingual plugin's
/// `translation_of`): core leaves it out of the new object's fields and hands it to the
/// plugin inside the creating transaction, so that the object and what the plugin makes of
/// the key are stored together or not at all.
pub struct CreateKey {
    /// The key.
    pub name: &'static str,
    /// What the plugin does with its value for the new object, as seen by a caller who may
    /// see `visibility`; an error refuses the creation.
    pub run: for<'a> fn(
        &'a Site,
        &'a mut crate::store::Tx,
        &'a crate::store::Visibility,
        &'a ContentObject,
        &'a serde_json::Value,
    ) -> BoxFuture<'a, ApiResult<()>>,
}

/// Work a plugin does in the transaction of every change to an object's fields through
/// `ops::update` (`PATCH`, `PUT`, the control panels), once the object is written and
/// before the commit; an error refuses the change. The multilingual plugin copies language
/// independent fields to the translations.
pub struct UpdateHook {
    /// A name for listings and logs.
    pub name: &'static str,
    /// The code, given the object before and after the change.
    pub run: for<'a> fn(
        &'a Site,
        &'a mut crate::store::Tx,
        &'a ContentObject,
        &'a ContentObject,
    ) -> BoxFuture<'a, ApiResult<()>>,
}
