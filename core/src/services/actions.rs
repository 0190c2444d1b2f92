//! `GET <obj>/@actions` and `@components.actions`: the menus a front end draws around an object
//! (Volto's toolbar, "more" menu, personal tools and footer links), in plone.restapi's
//! categories. Each action is listed only when the caller holds what it needs, so a menu never
//! offers what would be refused.

use crate::http::{ApiResult, Ctx, json};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static ACTIONS: Service = Service {
    method: Method::GET,
    name: "@actions",
    kind: ContentKind::Any,
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The actions the caller may take here, by category (object, object_buttons, user, …)",
        crate::untyped!(|ctx| Box::pin(get(ctx))),
    )],
};

/// `@components.actions`; expanded, the same body as the endpoint.
pub static ACTIONS_COMPONENT: Component = Component {
    name: "actions",
    kind: ContentKind::Any,
    expand: |ctx, subject| Box::pin(async move { Ok(actions(ctx, subject)) }),
};

async fn get(ctx: Ctx) -> ApiResult<Response> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(json(&actions(&sctx, ctx.subject())))
}

/// One action: `(id, title, icon, url)`.
fn action(id: &str, title: &str, icon: &str, url: String) -> Value {
    json!({"icon": icon, "id": id, "title": title, "url": url})
}

fn actions(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> Value {
    let (app, access) = (ctx.app, ctx.access);
    let may = |permission: Permission| access.allows(app, permission);
    let here = subject.object.url(ctx.base_url);
    let site = ctx.site_url(subject.object);
    let folderish = subject.profile.folderish;
    let editor = may(Permission::MODIFY_PORTAL_CONTENT);

    let mut object = vec![action("view", "View", "toolbar-action/view", here.clone())];
    if editor {
        object.push(action("edit", "Edit", "toolbar-action/edit", format!("{here}/edit")));
    }
    if folderish && (editor || may(Permission::ADD_PORTAL_CONTENT)) {
        object.push(action(
            "folderContents",
            "Contents",
            "toolbar-action/folderContents",
            format!("{here}/folder_contents"),
        ));
    }
    if editor {
        object.push(action("history", "History", "toolbar-action/history", format!("{here}/@@historyview")));
    }
    if may(Permission::CHANGE_LOCAL_ROLES) {
        object.push(action("local_roles", "Sharing", "toolbar-action/share", format!("{here}/@@sharing")));
    }

    let mut buttons = Vec::new();
    let deletable = !subject.object.is_site_root() && access.allows_on_parent(app, Permission::DELETE_OBJECTS);
    if deletable {
        buttons.push(action("cut", "Cut", "plone-cut", format!("{here}/object_cut")));
    }
    buttons.push(action("copy", "Copy", "plone-copy", format!("{here}/object_copy")));
    if folderish && may(Permission::ADD_PORTAL_CONTENT) {
        buttons.push(action("paste", "Paste", "plone-paste", format!("{here}/object_paste")));
    }
    if deletable {
        buttons.push(action("delete", "Delete", "plone-delete", format!("{here}/delete_confirmation")));
        buttons.push(action("rename", "Rename", "plone-rename", format!("{here}/object_rename")));
    }

    let user = if ctx.principal.user_id().is_some() {
        let mut user = vec![
            action("preferences", "Preferences", "plone-user", format!("{site}/@@personal-preferences")),
            action("dashboard", "Dashboard", "plone-dashboard", format!("{site}/dashboard")),
        ];
        let manager = access.allows_named_at(app, 0, Permission::MANAGE_PORTAL.name());
        if manager {
            user.push(action(
                "plone_setup",
                "Site Setup",
                "plone-controlpanel",
                format!("{site}/@@overview-controlpanel"),
            ));
        }
        user.push(action("logout", "Log out", "plone-logout", format!("{site}/logout")));
        user
    } else {
        vec![action("login", "Log in", "plone-login", format!("{site}/login"))]
    };

    json!({
        "document_actions": [],
        "object": object,
        "object_buttons": buttons,
        "portal_tabs": [action("index_html", "Home", "plone-home", site.clone())],
        "site_actions": [
            action("sitemap", "Site Map", "plone-sitemap", format!("{site}/sitemap")),
            action("contact", "Contact", "plone-contact-info", format!("{site}/contact-form")),
        ],
        "user": user,
    })
}
