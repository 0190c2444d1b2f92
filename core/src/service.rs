//! Service declarations: a service is a table entry, so the dispatcher, the permission check
//! and the OpenAPI document all read the same data.

pub use crate::content::ContentKind;
use crate::content::ContentObject;
use crate::context::Ctx;
use crate::error::ApiResult;
pub use crate::future::BoxFuture;
use crate::security::{Csrf, Permission};
use poem::Response;
use poem::http::Method;

mod guard;
mod route;
mod text_search;
mod vocabulary;

/// The name of an object's default view: what a browser (not the API) asking for the object
/// itself gets.
pub const DEFAULT_VIEW: &str = "view";

/// A service handler: takes the request context, returns a response or an API error.
pub type Handler = fn(Ctx) -> BoxFuture<'static, ApiResult<Response>>;

/// One endpoint of the content interface, declared as a `static` next to its handlers: the
/// method and `@name` select it, its guard and CSRF policy protect it, and one of its routes
/// (by the segments after the name) answers.
pub struct Service {
    /// The HTTP method.
    pub method: Method,
    /// The `@name` segment (or a view name); `""` for the object itself. `@name/part` claims
    /// the sub-path `part` of another service (a plugin's control panel with resources of its
    /// own under core's `@controlpanels`); it answers before the shorter name.
    pub name: &'static str,
    /// What content the service applies to.
    pub kind: ContentKind,
    /// What the caller must hold on the context, checked before the route is chosen; a route
    /// may narrow it ([`Route::guard`]).
    pub guard: Guard,
    /// Which requests must carry a valid CSRF token.
    pub csrf: Csrf,
    /// The sub-paths it answers, tried in order.
    pub routes: &'static [Route],
}

impl Service {
    /// The route answering the segments after the name.
    pub fn route(&self, subpath: &[String]) -> Option<&'static Route> {
        self.routes.iter().find(|route| route.matches(subpath))
    }
}

pub use guard::Guard;
pub use route::{
    B_SIZE, B_START, Endpoint, FORM, ParamKind, QueryParam, RequestBody, ResponsesFn, Route, responses_of,
};
pub use text_search::{TextHits, TextSearch};
pub use vocabulary::Vocabulary;
/// A rule for the title an object shows under in breadcrumbs; the first rule that answers
/// wins, else the object's title (the navigation plugin's `nav_title` is one).
pub struct CrumbTitle {
    /// A name for listings.
    pub name: &'static str,
    /// The title to show, when this rule has one.
    pub title: for<'a> fn(&'a ContentObject) -> Option<&'a str>,
}

/// Work a plugin does when the application starts (open its engine, start a background
/// task). An error stops start-up.
pub struct StartHook {
    /// A name for listings and logs.
    pub name: &'static str,
    /// The code; it may keep what it opens in [`crate::app::App::extensions`].
    pub run: fn(std::sync::Arc<crate::app::App>) -> BoxFuture<'static, Result<(), String>>,
}

/// A file of a site export in plone.exportimport's format that a plugin owns
/// (`translations.json` for the multilingual plugin, `discussions.json` for comments): the
/// importer (`wcs import-plone`) hands it the file's JSON after the content is in, and the
/// exporter (`wcs export-plone`) asks it for the file's JSON. Objects keep their uids both
/// ways, so the uids in the file name the objects. An import is idempotent: one run again
/// leaves what an earlier run wrote.
pub struct SiteFile {
    /// The file's name in the export's top directory.
    pub file: &'static str,
    /// What its entries are, for the summaries (`translation groups`).
    pub entries: &'static str,
    /// Writes what the file holds.
    pub import: for<'a> fn(&'a crate::app::App, &'a serde_json::Value) -> BoxFuture<'a, ApiResult<ImportOutcome>>,
    /// The file for the whole site.
    pub export: for<'a> fn(&'a crate::app::App) -> BoxFuture<'a, ApiResult<ExportedFile>>,
}

/// What a [`SiteFile`]'s export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedFile {
    /// The file's JSON.
    pub json: serde_json::Value,
    /// How many entries it holds, for the exporter's summary.
    pub entries: usize,
}

/// What a [`SiteFile`]'s import made of its file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOutcome {
    /// How many entries it wrote (or found written by an earlier run).
    pub imported: usize,
    /// The entries it left out, each with why.
    pub skipped: Vec<String>,
}

/// A record about to be saved: its name and new value.
pub type SavedRecord<'a> = (&'a str, serde_json::Value);

/// What a plugin does when site settings it watches are saved through `@controlpanels` or
/// `@registry` (Plone's subscribers to a record's change): the multilingual plugin makes the
/// language root folders of the languages a site owner chose.
pub struct SettingsHook {
    /// A name for listings and logs.
    pub name: &'static str,
    /// The records it watches.
    pub records: &'static [&'static str],
    /// Checks the values about to be saved (name and value of each watched record the save
    /// changes) before anything is written; an error refuses the whole save.
    pub check: for<'a> fn(&'a crate::app::App, &'a [SavedRecord<'a>]) -> BoxFuture<'a, ApiResult<()>>,
    /// Brings what follows from the settings up to date once the save committed, as `user`.
    /// It must be safe to run again: a start hook may run it too, so that work a crash
    /// interrupted is finished.
    pub apply: for<'a> fn(&'a crate::app::App, &'a str) -> BoxFuture<'a, ApiResult<()>>,
}

pub use crate::site::{CreateKey, UpdateHook};

/// Work a plugin finishes when the server stops: after the last request, before storage
/// closes, within the shutdown grace period. What a background task holds (changes not yet in
/// a search index) is done now rather than at the next start, which serves its first request
/// only once it is done. An error is logged; the server stops all the same.
pub struct StopHook {
    /// A name for listings and logs.
    pub name: &'static str,
    /// The code.
    pub run: fn(std::sync::Arc<crate::app::App>) -> BoxFuture<'static, Result<(), String>>,
}

/// A hook run for every traversed request before dispatch, in the order the registry lists
/// them. It may answer the request itself (`Some`); `None` lets the request go on.
pub struct RequestHook {
    /// A name for listings and logs, e.g. `directdownload`.
    pub name: &'static str,
    /// What it does, for the plugin listing.
    pub summary: &'static str,
    /// What the caller must hold on the context for the hook to run at all; for anyone else
    /// the request goes on to its service as if the hook were not there.
    pub permission: Permission,
    /// The code.
    pub run: for<'a> fn(&'a Ctx) -> BoxFuture<'a, ApiResult<Option<Response>>>,
}
