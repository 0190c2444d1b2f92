//! The application: everything a request needs, built once at start-up and then shared
//! read-only (the store aside).

use crate::content::types::TypeError;
use crate::content::{ContentObject, TypeRegistry};
use crate::i18n::{Catalogs, SITE_LANGUAGE, Translator};
use crate::plugin::{PluginSelection, Registry, StartupError};
use crate::render::Templates;
use crate::security::{Policy, Role, Secrets, Security, hash_password, verify_password};
use crate::site::Site;
use crate::store::StoredPrincipal;
use crate::store::Subscribers;
use crate::store::{Store, StoreError};
use crate::workflow::WorkflowRegistry;
use rand::Rng;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Start-up settings, from CLI flags and `WCS_*` variables.
#[derive(Clone, Debug)]
pub struct AppConfig {
    /// `sqlite://…` or `postgres://…`.
    pub database_url: String,
    /// The id of the site created at first start.
    pub site_id: String,
    /// Sets the `admin` password; when absent at first start one is generated.
    pub admin_password: Option<String>,
    /// A directory of extra content type profiles.
    pub types_dir: Option<PathBuf>,
    /// Plugins to switch off.
    pub plugins: PluginSelection,
    /// Where plugins keep files of their own (a search index); `None` keeps them in memory.
    pub data_dir: Option<PathBuf>,
    /// Options the binary's flags give plugins, by name (`es-search.url`); core reads none.
    pub plugin_options: BTreeMap<String, String>,
    /// How long, on SQLite, the objects along requested paths and the facts every write checks
    /// are remembered between requests, so another process's changes show within it; zero
    /// reads them for every request. (The answer cache, at the edge, keeps answers as long.)
    pub memory_max_age: std::time::Duration,
}

/// Settings requests consult.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The site id.
    pub site_id: String,
    /// Builds the OpenAPI document of what is served now (plugins switched off leave it), for
    /// `/openapi.json` and `<site>/@openapi`; set by the binary, which links the builder.
    pub openapi: Option<fn(&crate::plugin::Registry) -> serde_json::Value>,
    /// Where plugins keep files of their own; `None` keeps them in memory.
    pub data_dir: Option<PathBuf>,
    /// Options the binary's flags give plugins, by name.
    pub plugin_options: BTreeMap<String, String>,
}

impl Settings {
    /// The option `name` the binary gave plugins (`es-search.url`), if any.
    pub fn plugin_option(&self, name: &str) -> Option<&str> {
        self.plugin_options.get(name).map(String::as_str)
    }
}

/// The shared application state. It dereferences to its [`Site`] (storage, types, workflows,
/// permission map), which is all the floors below the kernel see of it.
pub struct App {
    /// The site's storage and definitions.
    pub site: Arc<Site>,
    /// Services, serializers and components of all plugins.
    pub registry: Arc<Registry>,
    /// Authentication, tokens and secrets.
    pub security: Security,
    /// HTML templates.
    pub templates: Templates,
    /// Translations for browser views.
    pub i18n: Catalogs,
    /// Other settings.
    pub settings: Settings,
    /// The plugins' state of this application.
    pub extensions: crate::extensions::Extensions,
}

impl std::ops::Deref for App {
    type Target = Site;

    fn deref(&self) -> &Site {
        &self.site
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupFailure {
    /// Plugins could not be built.
    #[error(transparent)]
    Plugins(#[from] StartupError),
    /// Content types are invalid.
    #[error(transparent)]
    Types(#[from] TypeError),
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The first-start bootstrap failed.
    #[error("bootstrap: {0}")]
    Bootstrap(String),
    /// A template does not compile.
    #[error("templates: {0}")]
    Templates(String),
    /// A message catalog does not compile.
    #[error("translations: {0}")]
    Messages(String),
}

/// What the first start did, for the operator's eyes.
#[derive(Debug, Default)]
pub struct Bootstrap {
    /// The site root was created now.
    pub site_created: bool,
    /// The generated `admin` password, shown exactly once.
    pub generated_admin_password: Option<String>,
}

impl App {
    /// Opens storage, builds plugins and types, creates the site and admin user if missing.
    pub async fn open(config: AppConfig) -> Result<(App, Bootstrap), StartupFailure> {
        let registry = Registry::build(&config.plugins)?;
        let mut types = TypeRegistry::with_field_kinds(registry.field_kinds().to_vec());
        for (plugin, profile) in registry.type_profiles() {
            types.add_plugin_toml(plugin, profile)?;
        }
        for (plugin, attached) in registry.type_behaviours() {
            types.attach(plugin, attached)?;
        }
        if let Some(dir) = &config.types_dir {
            types.add_dir(dir)?;
        }
        let mut workflows = WorkflowRegistry::default();
        for (plugin, definition) in registry.workflows() {
            workflows.add_toml(&format!("plugin {plugin}"), definition).map_err(StartupFailure::Bootstrap)?;
        }
        types.check_references(&workflows)?;
        if types.get(SITE_TYPE).is_none() {
            return Err(StartupFailure::Bootstrap(format!("no '{SITE_TYPE}' content type is registered")));
        }
        let mut policy = Policy::load().map_err(StartupFailure::Bootstrap)?;
        for (permission, roles) in registry.permissions() {
            policy.add_default(permission.name(), roles);
        }
        let templates = Templates::load(registry.templates()).map_err(StartupFailure::Templates)?;
        let i18n = Catalogs::load(registry.messages()).map_err(StartupFailure::Messages)?;
        let store = open_schema_of(&registry, &config.database_url).await?;
        switch_off_as_recorded(&registry, &store).await?;
        store.set_subscribers(Subscribers::new(registry.subscribers().to_vec()));
        store.set_memory_max_age(config.memory_max_age);
        let secrets = Secrets {
            jwt: ensure_secret(&store, "wcs.secret.jwt").await?,
            csrf: ensure_secret(&store, "wcs.secret.csrf").await?,
        };
        let registry = Arc::new(registry);
        let app = App {
            site: Site::new(store, types, workflows, policy, registry.clone()),
            registry,
            security: Security::new(secrets),
            templates,
            i18n,
            settings: Settings {
                site_id: config.site_id.clone(),
                openapi: None,
                data_dir: config.data_dir.clone(),
                plugin_options: config.plugin_options.clone(),
            },
            extensions: Default::default(),
        };
        app.site.refresh_types().await.map_err(|e| StartupFailure::Bootstrap(format!("content type edits: {e}")))?;
        let bootstrap = app.bootstrap(&config).await.map_err(|e| StartupFailure::Bootstrap(e.to_string()))?;
        Ok((app, bootstrap))
    }

    /// Opens storage with the schema of every linked plugin and creates nothing in it: the
    /// database `wcs import` loads a site into.
    pub async fn open_schema(config: &AppConfig) -> Result<Store, StartupFailure> {
        open_schema_of(&Registry::build(&config.plugins)?, &config.database_url).await
    }

    async fn bootstrap(&self, config: &AppConfig) -> Result<Bootstrap, Box<dyn std::error::Error>> {
        let mut report = Bootstrap::default();
        if crate::content::ids::problem(&config.site_id).is_some() {
            return Err(format!("'{}' is not a valid site id", config.site_id).into());
        }
        let site_path = format!("/{}", config.site_id);
        let mut tx = self.store.begin().await?;
        if self.store.content_at_path(&site_path).await?.is_none() {
            let now = chrono::Utc::now();
            let site = ContentObject {
                uid: crate::ops::new_uid(),
                parent_uid: None,
                path: site_path,
                id: config.site_id.clone(),
                portal_type: SITE_TYPE.to_owned(),
                position: 0,
                title: "Site".to_owned(),
                description: String::new(),
                review_state: None,
                created: now,
                modified: now,
                effective: None,
                expires: None,
                creator: ADMIN_USER.to_owned(),
                fields: serde_json::Map::new(),
                block_local_roles: false,
                trash_root: None,
                working_copy_of: None,
            };
            tx.insert_content(&site).await?;
            report.site_created = true;
        }
        for (id, title, role) in DEFAULT_GROUPS {
            if !self.store.principal_exists(id).await? {
                let group = StoredPrincipal {
                    id: id.to_owned(),
                    kind: "group".to_owned(),
                    fullname: title.to_owned(),
                    roles: vec![role.into()],
                    ..StoredPrincipal::default()
                };
                tx.insert_principal(&group).await?;
            }
        }
        let password = match &config.admin_password {
            Some(password) => Some(password.clone()),
            None if !self.store.principal_exists(ADMIN_USER).await? => {
                let generated = generate_password();
                report.generated_admin_password = Some(generated.clone());
                Some(generated)
            }
            None => None,
        };
        if let Some(password) = password {
            if password.is_empty() {
                return Err("the admin password must not be empty".into());
            }
            // The same password at every start (`--admin-password` in a service file) changes
            // nothing: rewriting it would end every token the admin holds.
            let admin = self.store.principal(ADMIN_USER).await?;
            let unchanged = admin.is_some_and(|admin| {
                admin.roles.iter().any(|role| role == Role::MANAGER.name())
                    && admin.password_hash.as_deref().is_some_and(|stored| verify_password(&password, stored))
            });
            if !unchanged {
                let hash = hash_password(&password)?;
                tx.upsert_user(ADMIN_USER, &hash, &[Role::MANAGER.name()]).await?;
                self.security.forget_credentials();
            }
        }
        tx.commit().await?;
        Ok(report)
    }

    /// After a change to users, groups or passwords has committed: verified credentials are
    /// checked again, and answers kept for them are dropped (the commit moved the generation
    /// before the credentials were forgotten, so a request in between may have kept one).
    pub fn credentials_changed(&self) {
        self.security.forget_credentials();
        self.store.note_change();
    }

    /// Runs the plugins' start hooks (in plugin order): once the application is shared and
    /// before it serves.
    pub async fn start(self: &Arc<App>) -> Result<(), StartupFailure> {
        Site::watch_types(&self.site);
        self.store.trim_feed_in_background();
        let app = Arc::downgrade(self);
        self.store.follow_other_instances(Arc::new(move || {
            if let Some(app) = app.upgrade() {
                app.security.forget_credentials();
            }
        }));
        for (plugin, hook) in self.registry.start_hooks() {
            (hook.run)(self.clone()).await.map_err(|e| StartupFailure::Bootstrap(format!("plugin {plugin}: {e}")))?;
        }
        Ok(())
    }

    /// Runs the plugins' stop hooks (in plugin order) once the server has stopped taking
    /// requests; a hook that fails is logged and the others still run.
    pub async fn stop(self: &Arc<App>) {
        for (plugin, hook) in self.registry.stop_hooks() {
            if let Err(err) = (hook.run)(self.clone()).await {
                tracing::error!(%plugin, hook = hook.name, %err, "a stop hook failed");
            }
        }
    }

    /// The translator for a request: its `Accept-Language`, else the site language.
    pub async fn translator(&self, accept_language: Option<&str>) -> crate::error::ApiResult<Translator<'_>> {
        let site_language = self.record_value(&SITE_LANGUAGE).await?;
        let language = self.i18n.negotiate(accept_language, site_language.as_str().unwrap_or_default());
        Ok(self.i18n.translator(&language))
    }

    /// The site root object.
    pub async fn site_root(&self) -> crate::error::ApiResult<ContentObject> {
        let path = format!("/{}", self.settings.site_id);
        self.store
            .content_at_path(&path)
            .await?
            .ok_or_else(|| crate::error::ApiError::internal("the site root is missing"))
    }
}

/// The groups every site starts with: id, title, global role.
const DEFAULT_GROUPS: [(&str, &str, Role); 3] = [
    ("Administrators", "Administrators", Role::MANAGER),
    ("Site Administrators", "Site Administrators", Role::SITE_ADMINISTRATOR),
    ("Reviewers", "Reviewers", Role::REVIEWER),
];

/// Reads a secret, creating it on first start. Concurrent first starts of several instances
/// agree: the insert does nothing when another instance won, and everyone reads back.
async fn ensure_secret(store: &Store, name: &str) -> Result<Vec<u8>, StartupFailure> {
    let read = |value: String| hex::decode(value).map_err(|e| StartupFailure::Bootstrap(format!("secret {name}: {e}")));
    if let Some(value) = store.record(name).await.map_err(StoreError::from)? {
        return read(value);
    }
    let mut fresh = [0u8; 32];
    rand::rng().fill(&mut fresh);
    let mut tx = store.begin().await.map_err(StoreError::from)?;
    tx.insert_record_if_missing(name, &hex::encode(fresh)).await.map_err(StoreError::from)?;
    tx.commit().await.map_err(|e| StartupFailure::Bootstrap(format!("secret {name}: {e}")))?;
    let value = store.record(name).await.map_err(StoreError::from)?;
    read(value.ok_or_else(|| StartupFailure::Bootstrap(format!("secret {name} was not stored")))?)
}

/// The portal type of site roots.
pub const SITE_TYPE: &str = "Plone Site";
/// The administrator created at first start.
pub const ADMIN_USER: &str = "admin";

fn generate_password() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..20).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// Switches off the plugins Site Setup switched off (`@addons`), as far as they were built.
async fn switch_off_as_recorded(registry: &Registry, store: &Store) -> Result<(), StartupFailure> {
    let recorded = store.record_values(&[&crate::plugin::SWITCHED_OFF_PLUGINS]).await.map_err(StoreError::from)?;
    for id in recorded.first().and_then(serde_json::Value::as_array).into_iter().flatten().filter_map(|v| v.as_str()) {
        if registry.plugin_ids().contains(&id) && id != "core" {
            registry.switch(id, false, &[]).map_err(StartupFailure::Bootstrap)?;
        }
    }
    Ok(())
}

/// Opens storage and brings core's and every plugin's schema up to date.
async fn open_schema_of(registry: &Registry, database_url: &str) -> Result<Store, StartupFailure> {
    let store = Store::open(database_url).await?;
    for (plugin, migrations) in registry.migrations() {
        store.apply_plugin_migrations(plugin, migrations).await.map_err(StoreError::from)?;
    }
    Ok(store)
}
