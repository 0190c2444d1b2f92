//! The browser views: `list_versions`, `display_version`, `compare_version` and the form
//! posts `create_version`, `restore_version`, `delete_version`. They address versions by
//! position (`version_id`, 0 = the oldest kept), render tera templates in the caller's
//! language, and carry the CSRF token in every form (`_authenticator`).

mod compare_version;
mod create_version;
mod delete_version;
mod display_version;
mod list_versions;
mod restore_version;

use crate::store::{index_of, version_at};
use crate::tables::VersionInfo;
use crate::{CREATE_VERSIONS, VERSIONING};
use serde_json::{Value, json};
use wcs_core::http::{ApiError, ApiResult, Ctx, HtmlPage, Raw, SeeOther, parse_query};
use wcs_core::i18n::Translator;
use wcs_core::poem_reexports::{Method, Response, StatusCode};
use wcs_core::security::{Csrf, Permission};
use wcs_core::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};

/// The templates the views render (they extend core's `layout.html`).
pub const TEMPLATES: [(&str, &str); 3] = [
    ("list_versions.html", include_str!("../../../../templates/list_versions.html")),
    ("display_version.html", include_str!("../../../../templates/display_version.html")),
    ("compare_version.html", include_str!("../../../../templates/compare_version.html")),
];

/// Every browser view.
pub const SERVICES: [&Service; 6] = [
    &list_versions::LIST_VERSIONS,
    &display_version::DISPLAY_VERSION,
    &compare_version::COMPARE_VERSION,
    &create_version::CREATE_VERSION,
    &restore_version::RESTORE_VERSION,
    &delete_version::DELETE_VERSION,
];

/// A browser view: addressed on versioned content, a CSRF token on every form post.
const fn view(method: Method, name: &'static str, permission: Permission, routes: &'static [Route]) -> Service {
    Service {
        method,
        name,
        kind: ContentKind::Behaviour(VERSIONING),
        guard: Guard::Has(permission),
        csrf: Csrf::Always,
        routes,
    }
}

/// The query parameter (or form field) naming a version by position, 0 the oldest.
const VERSION_ID: QueryParam =
    QueryParam::new("version_id", ParamKind::Integer, "The version's position, 0 the oldest kept");

/// The views' page, shared context first: site, object, language, labels.
struct Page<'a> {
    ctx: &'a Ctx,
    translator: Translator<'a>,
}

impl<'a> Page<'a> {
    async fn new(ctx: &'a Ctx) -> ApiResult<Page<'a>> {
        if !ctx.allows(Permission::VIEW) {
            return Err(ApiError::not_found(&ctx.request.service_url));
        }
        let translator = ctx.app.translator(ctx.request.header("accept-language")).await?;
        Ok(Page { ctx, translator })
    }

    fn url(&self) -> String {
        self.ctx.url_of(&self.ctx.context)
    }

    fn labels(&self) -> Value {
        let t = |id: &str| Value::String(self.translator.text(id));
        json!({
            "versions": t("versioning-versions"),
            "version": t("versioning-version"),
            "created": t("versioning-created"),
            "author": t("versioning-author"),
            "comment": t("versioning-comment"),
            "actions": t("versioning-actions"),
            "view": t("versioning-view"),
            "compare": t("versioning-compare"),
            "restore": t("versioning-restore"),
            "delete": t("versioning-delete"),
            "create": t("versioning-create"),
            "none": t("versioning-none"),
            "back": t("versioning-back"),
            "no_changes": t("versioning-no-changes"),
            "moved": t("versioning-moved"),
            "changed": t("versioning-changed"),
            "added": t("versioning-added"),
            "removed": t("versioning-removed"),
            "page_metadata": t("versioning-page-metadata"),
            "skipped": t("versioning-skipped"),
            "old": t("versioning-old"),
            "new": t("versioning-new"),
            "confirm_restore": t("versioning-confirm-restore"),
            "confirm_delete": t("versioning-confirm-delete"),
        })
    }

    fn render(&self, template: &str, extra: Value) -> ApiResult<Raw<HtmlPage>> {
        let ctx = self.ctx;
        let mut context = json!({
            "lang": self.translator.language(),
            "site_title": ctx.access.chain().first().map_or(ctx.context.title.as_str(), |s| s.title.as_str()),
            "title": ctx.context.title,
            "url": self.url(),
            "type_title": self.translator.type_title(&ctx.profile),
            "t": self.labels(),
            "authenticator": ctx.app.security.csrf_token(&ctx.principal),
            "can_create": ctx.allows(CREATE_VERSIONS),
        });
        if let (Some(base), Value::Object(extra)) = (context.as_object_mut(), extra) {
            base.extend(extra);
        }
        let html = ctx.app.templates.render(template, &context).map_err(ApiError::internal)?;
        Ok(Raw::new(
            Response::builder().content_type("text/html; charset=utf-8").header("Cache-Control", "no-store").body(html),
        ))
    }

    fn version_json(&self, versions: &[VersionInfo], version: &VersionInfo) -> Value {
        let index = index_of(versions, version.seq).unwrap_or_default();
        let url = self.url();
        json!({
            "index": index,
            "id": version.seq,
            "title": version.title,
            "created": self.translator.datetime(version.created),
            "creator": version.creator_fullname,
            "comment": version.comment,
            "display_url": format!("{url}/display_version?version_id={index}"),
            "compare_url": format!("{url}/compare_version?version_id={index}"),
        })
    }

    /// The versions and the one `version_id` names (query or form); missing or unknown is 404.
    async fn chosen(&self, version_id: Option<&str>) -> ApiResult<(Vec<VersionInfo>, VersionInfo)> {
        let versions = crate::tables::versions(&self.ctx.app.store, &self.ctx.context.uid).await?;
        let chosen = version_id.and_then(|id| version_at(&versions, id));
        let chosen = chosen.ok_or_else(|| {
            ApiError::new(wcs_core::http::ErrorCode::NotFound, "No version at this version_id; see list_versions.")
        })?;
        Ok((versions, chosen))
    }
}

fn see_other(location: &str) -> Raw<SeeOther> {
    Raw::new(Response::builder().status(StatusCode::SEE_OTHER).header("Location", location).finish())
}

fn form_value(ctx: &Ctx, name: &str) -> Option<String> {
    parse_query(&String::from_utf8_lossy(&ctx.body)).into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}
