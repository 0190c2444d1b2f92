//! The `wcs` command line: `serve`, `init`, `openapi`, `reindex` and `search eval`. It lives in
//! the library so a third party can ship their own binary that links the shipped plugins plus
//! their own and calls [`run`] (see `examples/own-binary`).

use crate::config::{Cli, Command, ImportPloneArgs, ServeArgs, StorageArgs};
use anyhow::Context;
use clap::Parser;
use std::time::Duration;
use wcs_core::app::{AppConfig, Bootstrap};
use wcs_core::http::Edge;
use wcs_core::plugin::{PluginSelection, Registry};

/// The application's settings; `memory_max_age` is how long a serving process remembers what
/// it read (commands that serve nothing remember nothing).
fn app_config(storage: &StorageArgs, memory_max_age: Duration) -> anyhow::Result<AppConfig> {
    Ok(AppConfig {
        database_url: storage.database_url().context("creating the data directory")?,
        site_id: storage.site_id.clone(),
        admin_password: storage.admin_password.clone(),
        types_dir: storage.types_dir.clone(),
        plugins: PluginSelection { disabled: storage.disable_plugins.clone() },
        data_dir: Some(storage.data_dir.clone()),
        plugin_options: plugin_options(storage)?,
        memory_max_age,
    })
}

/// What the flags give plugins: `--search` goes to the search plugin, which a build without it
/// cannot honour.
fn plugin_options(storage: &StorageArgs) -> anyhow::Result<std::collections::BTreeMap<String, String>> {
    let Some(url) = &storage.search else { return Ok(Default::default()) };
    #[cfg(feature = "es-search")]
    return Ok([(wcs_plugin_es_search::SEARCH_URL_OPTION.to_owned(), url.clone())].into());
    #[cfg(not(feature = "es-search"))]
    anyhow::bail!("--search {url}: this build has no search plugin (cargo feature es-search)")
}

fn report(bootstrap: &Bootstrap, site_id: &str) {
    if bootstrap.site_created {
        tracing::info!(site_id, "created the site");
    }
    if let Some(password) = &bootstrap.generated_admin_password {
        println!("Created user 'admin' with the generated password: {password}");
        println!("It is shown only this once; set --admin-password (WCS_ADMIN_PASSWORD) to choose one.");
    }
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing running requests");
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    // The edge's settings are checked before the database is touched.
    let edge = Edge::new(&args.edge_config()).map_err(|problem| anyhow::anyhow!("configuration: {problem}"))?;
    let config = app_config(&args.storage, args.memory_max_age())?;
    let (app, bootstrap) = crate::open_app(config).await?;
    report(&bootstrap, &args.storage.site_id);
    if args.storage.demo {
        let created = crate::load_demo(&app).await.map_err(|e| anyhow::anyhow!("loading demo content: {e}"))?;
        tracing::info!(created, "demo content loaded");
    }
    tracing::info!(plugins = ?app.registry.plugin_ids(), "plugins");
    tracing::info!(instance = app.store.instance(), "instance name on database connections");
    let listener =
        tokio::net::TcpListener::bind(args.listen).await.with_context(|| format!("binding {}", args.listen))?;
    tracing::info!("listening on http://{}/{}", args.listen, args.storage.site_id);
    wcs_core::server::serve(app, edge, listener, shutdown_signal()).await?;
    Ok(())
}

async fn init(storage: StorageArgs) -> anyhow::Result<()> {
    let config = app_config(&storage, Duration::ZERO)?;
    let (app, bootstrap) = crate::open_app(config).await?;
    report(&bootstrap, &storage.site_id);
    if storage.demo {
        let created = crate::load_demo(&app).await.map_err(|e| anyhow::anyhow!("loading demo content: {e}"))?;
        println!("Loaded {created} demo objects.");
    }
    app.store.close().await;
    Ok(())
}

/// Copies the database while the server may be running: the store alone is opened, not the
/// application (whose search plugin would want the running server's index).
async fn backup(storage: StorageArgs, file: std::path::PathBuf) -> anyhow::Result<()> {
    let url = existing_database_url(&storage)?;
    if !url.starts_with("sqlite:") {
        anyhow::bail!("the database is PostgreSQL: back it up with pg_dump (see the README)");
    }
    let store = wcs_core::store::Store::connect(&url).await?;
    let written = store.backup_into(&file).await;
    store.close().await;
    written?;
    println!("Wrote a copy of the database to {}.", file.display());
    Ok(())
}

/// The URL of a database that must exist already: tools that read a database another
/// process may be serving never create one.
fn existing_database_url(storage: &StorageArgs) -> anyhow::Result<String> {
    if storage.database_url.is_none() && !storage.data_dir.join("wcs.db").exists() {
        anyhow::bail!("there is no database in {}", storage.data_dir.display());
    }
    storage.database_url().context("finding the database")
}

/// Exports while the server may be running, so only the store is opened (as for a backup).
async fn export(storage: StorageArgs, dir: std::path::PathBuf) -> anyhow::Result<()> {
    let store = wcs_core::store::Store::connect(&existing_database_url(&storage)?).await?;
    let written = store.export_to(&dir, &storage.site_id).await;
    store.close().await;
    let summary = written?;
    println!(
        "Exported {} rows of {} tables and {} files to {}.",
        summary.rows,
        summary.tables,
        summary.blobs,
        dir.display()
    );
    Ok(())
}

/// Loads an export into a database whose schema is made as the server makes it, then builds
/// the search index from what was loaded.
async fn import(storage: StorageArgs, dir: std::path::PathBuf) -> anyhow::Result<()> {
    let config = app_config(&storage, Duration::ZERO)?;
    let store = wcs_core::app::App::open_schema(&config).await?;
    let loaded = store.import_from(&dir, &storage.site_id).await;
    let analysed = match &loaded {
        Ok(_) => store.refresh_statistics().await.context("gathering planner statistics"),
        Err(_) => Ok(()),
    };
    store.close().await;
    let summary = loaded?;
    analysed?;
    println!("Imported {} rows into {} tables from {}.", summary.rows, summary.tables, dir.display());
    #[cfg(feature = "es-search")]
    reindex(storage).await?;
    Ok(())
}

/// Reads a plone.exportimport export into the site, showing progress, then prints what was
/// written and what was left out, and builds the search index.
async fn import_plone(storage: StorageArgs, dir: std::path::PathBuf, args: ImportPloneArgs) -> anyhow::Result<()> {
    let config = app_config(&storage, Duration::ZERO)?;
    let (app, bootstrap) = crate::open_app(config).await?;
    report(&bootstrap, &storage.site_id);
    let options = wcs_exportimport::Options {
        dry_run: args.dry_run,
        types: args.types,
        default_language: args.default_language,
        timezone: args.timezone,
        batch: args.batch as usize,
        ..wcs_exportimport::Options::default()
    };
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} objects, {per_sec}, {eta} left")
            .context("progress style")?,
    );
    let started = std::time::Instant::now();
    let imported = wcs_exportimport::import_plone(&app, &dir, &options, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .await;
    bar.finish_and_clear();
    let done = match imported {
        Ok(summary) => {
            let verb = if args.dry_run { "Would import" } else { "Imported" };
            println!("{verb} from {} in {:.1} s:\n{summary}", dir.display(), started.elapsed().as_secs_f64());
            if !args.dry_run {
                app.store.refresh_statistics().await.context("gathering planner statistics")?;
            }
            #[cfg(feature = "es-search")]
            if !args.dry_run {
                rebuild_index(&app).await?;
            }
            Ok(())
        }
        Err(stopped) => Err(anyhow::Error::new(stopped)),
    };
    app.stop().await;
    app.store.close().await;
    done
}

/// Writes the site in plone.exportimport's format, showing progress, then prints what was
/// written and what was left out.
async fn export_plone(storage: StorageArgs, dir: std::path::PathBuf) -> anyhow::Result<()> {
    let config = app_config(&storage, Duration::ZERO)?;
    let (app, bootstrap) = crate::open_app(config).await?;
    report(&bootstrap, &storage.site_id);
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} objects, {per_sec}, {eta} left")
            .context("progress style")?,
    );
    let started = std::time::Instant::now();
    let exported = wcs_exportimport::export_plone(&app, &dir, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .await;
    bar.finish_and_clear();
    app.stop().await;
    app.store.close().await;
    let summary = exported?;
    println!("Exported to {} in {:.1} s:\n{summary}", dir.display(), started.elapsed().as_secs_f64());
    Ok(())
}

/// Rebuilds the search index, showing progress with rate and time left.
#[cfg(feature = "es-search")]
async fn reindex(storage: StorageArgs) -> anyhow::Result<()> {
    let config = app_config(&storage, Duration::ZERO)?;
    let (app, _) = crate::open_app(config).await?;
    let built = rebuild_index(&app).await;
    app.stop().await;
    app.store.close().await;
    built
}

/// Rebuilds the search index of an open application.
#[cfg(feature = "es-search")]
async fn rebuild_index(app: &std::sync::Arc<wcs_core::app::App>) -> anyhow::Result<()> {
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} objects, {per_sec}, {eta} left")
            .context("progress style")?,
    );
    let started = std::time::Instant::now();
    let indexed = wcs_plugin_es_search::reindex(app, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .await
    .map_err(|e| anyhow::anyhow!("reindexing: {e}"))?;
    bar.finish();
    println!("Indexed {indexed} objects in {:.1} s.", started.elapsed().as_secs_f64());
    Ok(())
}

/// Runs the `wcs` command line with the process's arguments, with every plugin linked into the
/// calling binary (the shipped ones and any the caller links, e.g. `use my_plugin as _;`).
pub async fn run() -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("WCS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // One JSON object per line for log collectors; the access line's fields become keys.
    if std::env::var("WCS_LOG_FORMAT").is_ok_and(|format| format.eq_ignore_ascii_case("json")) {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    match Cli::parse().command {
        Command::Serve(args) => serve(args).await,
        Command::Init(storage) => init(storage).await,
        #[cfg(feature = "es-search")]
        Command::Reindex(storage) => reindex(storage).await,
        #[cfg(feature = "es-search")]
        Command::Search { command: crate::config::SearchCommand::Eval { file, engine } } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let answer = match engine {
                None => tokio::task::spawn_blocking(move || wcs_plugin_es_search::eval::evaluate_text(&text)).await?,
                Some(url) => {
                    let case: serde_json::Value =
                        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", file.display()))?;
                    wcs_plugin_es_search::eval_cluster::evaluate_on_cluster(&url, &case)
                        .await
                        .map_err(|e| anyhow::anyhow!("{url}: {e}"))?
                }
            };
            println!("{}", serde_json::to_string_pretty(&answer)?);
            Ok(())
        }
        Command::Backup { storage, file } => backup(storage, file).await,
        Command::Export { storage, dir } => export(storage, dir).await,
        Command::Import { storage, dir } => import(storage, dir).await,
        Command::ImportPlone { storage, dir, import } => import_plone(storage, dir, import).await,
        Command::ExportPlone { storage, dir } => export_plone(storage, dir).await,
        Command::Openapi => {
            let registry = Registry::build(&PluginSelection::default())?;
            println!("{}", serde_json::to_string_pretty(&wcs_openapi::document(&registry))?);
            Ok(())
        }
    }
}
