//! Command-line flags; each has a `WCS_*` environment variable of the same name.

use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

/// wcs-backend: a plone.restapi-compatible content server.
#[derive(Debug, Parser)]
#[command(name = "wcs", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server.
    Serve(ServeArgs),
    /// Create the database, the site and the admin user, then exit.
    Init(StorageArgs),
    /// Print the OpenAPI 3.0 document of this build.
    Openapi,
    /// Write a consistent copy of the SQLite database to FILE while the server runs (for
    /// PostgreSQL use pg_dump). Blobs are stored in the database, so the copy is the whole site;
    /// the search index is rebuilt from it (`wcs reindex`).
    Backup {
        /// Storage flags (the database to copy).
        #[command(flatten)]
        storage: StorageArgs,
        /// The new file; an existing one is never overwritten.
        file: PathBuf,
    },
    /// Write the whole site (content, files, users, groups, local roles, versions, form
    /// submissions, settings) to DIR as plain files, from one consistent snapshot, while the
    /// server runs: to move a site to another machine or from SQLite to PostgreSQL.
    Export {
        /// Storage flags (the database to export).
        #[command(flatten)]
        storage: StorageArgs,
        /// A new or empty directory; it is made readable by its owner only (it holds password
        /// hashes and the server's secrets).
        dir: PathBuf,
    },
    /// Load an export (`wcs export`) into a new database in one transaction, then build the
    /// search index.
    Import {
        /// Storage flags (the new database; its site id must be the exported one).
        #[command(flatten)]
        storage: StorageArgs,
        /// The export directory.
        dir: PathBuf,
    },
    /// Move a Plone site in: read an export of plone.exportimport (Plone 6.1+) into the site,
    /// keeping uids, places, dates, states, history, local roles, users and files, then build
    /// the search index. Run it with the server stopped, into a new site or one without
    /// content rules (they would fire for every object). An interrupted import goes on where it
    /// stopped when run again.
    ImportPlone {
        /// Storage flags (the site to import into).
        #[command(flatten)]
        storage: StorageArgs,
        /// The export's directory (the one holding `content/`), or a ZIP of it.
        dir: PathBuf,
        /// What to import and how.
        #[command(flatten)]
        import: ImportPloneArgs,
    },
    /// Move the site out: write it in plone.exportimport's format (what `import-plone` reads
    /// and Plone 6.1+ imports), with files, users and password hashes, relations, redirects,
    /// translations and comments. Run it with the server stopped (or use `POST @export`).
    ExportPlone {
        /// Storage flags (the site to export).
        #[command(flatten)]
        storage: StorageArgs,
        /// A new or empty directory; it is made readable by its owner only (it holds password
        /// hashes).
        dir: PathBuf,
    },
    /// Rebuild the search index from storage (with the server stopped: it holds the index).
    #[cfg(feature = "es-search")]
    Reindex(StorageArgs),
    /// Search-engine tools.
    #[cfg(feature = "es-search")]
    Search {
        /// What to do.
        #[command(subcommand)]
        command: SearchCommand,
    },
}

/// How `wcs import-plone` reads an export.
#[derive(Debug, Args)]
pub struct ImportPloneArgs {
    /// Check the export and count what it holds; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// A TOML file mapping the export's types to this server's (`[types]` then
    /// `"News Item" = "News"`), over the standard mapping; `""` leaves a type out.
    #[arg(long, env = "WCS_IMPORT_TYPES")]
    pub types: Option<PathBuf>,
    /// The old site's default language (what `##DEFAULT##` in the export stands for);
    /// by default its language root folder's, else this site's language.
    #[arg(long)]
    pub default_language: Option<String>,
    /// The time zone the old server wrote naive times in (`effective`, `expires`), e.g.
    /// `Europe/Berlin`.
    #[arg(long, default_value = "UTC")]
    pub timezone: chrono_tz::Tz,
    /// Objects written per transaction.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub batch: u32,
}

/// `wcs search …`.
#[cfg(feature = "es-search")]
#[derive(Debug, Subcommand)]
pub enum SearchCommand {
    /// Run a conformance case (`{"index": {"mappings": …}, "docs": […], "request": {…}}`) on a
    /// throw-away in-memory index and print the engine's answer (or error body) as JSON.
    Eval {
        /// The case file.
        file: PathBuf,
        /// Run the case on this Elasticsearch cluster (`http://host:9200`) instead, in a
        /// throw-away index, to compare its answer with the embedded engine's.
        #[arg(long)]
        engine: Option<String>,
    },
}

/// Where data lives and how the site starts.
#[derive(Debug, Clone, Args)]
pub struct StorageArgs {
    /// Directory for the SQLite database (unless --database-url names another) and for the
    /// plugins' files, such as the search index.
    #[arg(long, env = "WCS_DATA_DIR", default_value = "var")]
    pub data_dir: PathBuf,
    /// A PostgreSQL URL (postgres://…) or an explicit sqlite:// URL.
    #[arg(long, env = "WCS_DATABASE_URL")]
    pub database_url: Option<String>,
    /// The id of the site created at first start.
    #[arg(long, env = "WCS_SITE_ID", default_value = "Plone")]
    pub site_id: String,
    /// Password for the `admin` user; generated and printed once if absent at first start.
    #[arg(long, env = "WCS_ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,
    /// A directory of extra content type profiles (*.toml).
    #[arg(long, env = "WCS_TYPES_DIR")]
    pub types_dir: Option<PathBuf>,
    /// Plugins to switch off (comma-separated ids).
    #[arg(long, env = "WCS_DISABLE_PLUGINS", value_delimiter = ',')]
    pub disable_plugins: Vec<String>,
    /// An Elasticsearch cluster (`http://host:9200`, credentials in the URL) for search instead
    /// of the embedded index; several instances may share it.
    #[arg(long, env = "WCS_SEARCH_URL")]
    pub search: Option<String>,
    /// Load the demo content the linked plugins ship into an empty site.
    #[arg(long, env = "WCS_DEMO")]
    pub demo: bool,
}

/// Flags of `wcs serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "WCS_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The URL clients reach the server at (`https://www.example.org`): every link, `@id` and
    /// mailed link is built on it, whatever `Host` a request names. Without it, links follow
    /// the host a trusted proxy forwards, else the address a connection came in on.
    #[arg(long, env = "WCS_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Browser origins allowed to call the API (comma-separated; `*` for any).
    #[arg(long, env = "WCS_CORS_ORIGIN", value_delimiter = ',')]
    pub cors_origin: Vec<String>,
    /// The largest accepted request body in bytes.
    #[arg(long, env = "WCS_MAX_BODY_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_body_bytes: usize,
    /// How long an answer of a cacheable read (content, navigation, breadcrumbs, search) is
    /// served from memory, in milliseconds; 0 switches the answer cache off. Changes made
    /// through this instance show at once whatever the value; other instances' changes,
    /// publication dates and lock timeouts show within it.
    #[arg(long, env = "WCS_CACHE_MAX_AGE_MS", default_value_t = 1000)]
    pub cache_max_age_ms: u64,
    /// How long, in milliseconds, the objects along requested paths, the settings, the
    /// facts every write checks (local roles, locks, working copies), navigation trees, folder
    /// pages and search results are kept in memory between commits; 0 reads them for every
    /// request. This instance's commits, and on PostgreSQL other instances' commits, make it
    /// forget at once; the value bounds how late what nothing announces shows: another
    /// process's writes to the same SQLite file, a publication date passing, and on PostgreSQL
    /// a lost notification.
    #[arg(long, env = "WCS_MEMORY_MAX_AGE_MS", default_value_t = 1000)]
    pub memory_max_age_ms: u64,
    /// Seconds after which a connection on which nothing moves is closed (an idle keep-alive
    /// connection, headers or a body stopped midway).
    #[arg(long, env = "WCS_IDLE_TIMEOUT_SECS", default_value_t = 20)]
    pub idle_timeout_secs: u64,
    /// Seconds within which a request body must have arrived in full (408 otherwise).
    #[arg(long, env = "WCS_BODY_TIMEOUT_SECS", default_value_t = 60)]
    pub body_timeout_secs: u64,
    /// The memory the answer cache may hold, in MB.
    #[arg(long, env = "WCS_CACHE_SIZE_MB", default_value_t = 16)]
    pub cache_size_mb: u64,
    /// Proxies (addresses or networks, comma-separated) whose `X-Forwarded-Host`/`-Proto`
    /// headers and `/VirtualHostBase/…` paths are believed. Loopback by default, so a front end's
    /// proxy on the same machine (Volto's) works as it is.
    #[arg(long, env = "WCS_TRUSTED_PROXIES", value_delimiter = ',', default_value = "127.0.0.1/8,::1")]
    pub trusted_proxies: Vec<String>,
    /// Storage and site flags.
    #[command(flatten)]
    pub storage: StorageArgs,
}

/// The data directory holds the database, with the site's secrets and password hashes: only
/// the server's own user may enter it.
#[cfg(unix)]
fn owner_only(dir: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

#[cfg(not(unix))]
fn owner_only(_: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}

impl ServeArgs {
    /// The connection and body timeouts.
    pub fn timeouts(&self) -> wcs_core::http::Timeouts {
        wcs_core::http::Timeouts {
            idle: std::time::Duration::from_secs(self.idle_timeout_secs.max(1)),
            body: std::time::Duration::from_secs(self.body_timeout_secs.max(1)),
        }
    }

    /// The server edge's settings.
    pub fn edge_config(&self) -> wcs_core::http::EdgeConfig {
        wcs_core::http::EdgeConfig {
            cors_origins: self.cors_origin.clone(),
            max_body_bytes: self.max_body_bytes,
            trusted_proxies: Some(self.trusted_proxies.clone()),
            public_url: self.public_url.clone(),
            answer_cache: self.answer_cache(),
            timeouts: self.timeouts(),
        }
    }

    /// How long the store keeps what it read.
    pub fn memory_max_age(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.memory_max_age_ms)
    }

    /// The answer cache's limits.
    pub fn answer_cache(&self) -> wcs_core::http::CacheSettings {
        wcs_core::http::CacheSettings {
            max_age: std::time::Duration::from_millis(self.cache_max_age_ms),
            capacity_bytes: self.cache_size_mb.saturating_mul(1024 * 1024),
        }
    }
}

impl StorageArgs {
    /// The database URL: the explicit one, or a SQLite file in the data directory.
    pub fn database_url(&self) -> std::io::Result<String> {
        match &self.database_url {
            Some(url) => Ok(url.clone()),
            None => {
                std::fs::create_dir_all(&self.data_dir)?;
                owner_only(&self.data_dir)?;
                Ok(format!("sqlite://{}?mode=rwc", self.data_dir.join("wcs.db").display()))
            }
        }
    }
}
