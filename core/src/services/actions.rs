//! `GET <obj>/@actions` and `@components.actions`: the menus a front end draws around an object
//! (Volto's toolbar, "more" menu, personal tools and footer links), in plone.restapi's
//! categories. Each action is listed only when the caller holds what it needs, so a menu never
//! offers what would be refused.

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::serialize::{Component, SerializeCtx, Subject};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;
use poem_openapi::types::ToJSON;

/// The service.
pub static ACTIONS: Service = Service {
    method: Method::GET,
    name: "@actions",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[Route::new(
        "",
        "The actions the caller may take here, by category (object, object_buttons, user, …)",
        endpoint!(get),
    )],
};

/// `@components.actions`; expanded, the same body as the endpoint.
pub static ACTIONS_COMPONENT: Component = Component {
    name: "actions",
    kind: ContentKind::Any,
    listed: true,
    expand: |ctx, subject| Box::pin(async move { Ok(actions(ctx, subject).to_json().unwrap_or_default().into()) }),
};

/// The menus, by plone.restapi's action categories.
#[derive(Object)]
struct ActionMenus {
    /// Actions on the document itself: none.
    document_actions: Vec<MenuAction>,
    /// The toolbar: view, edit, contents, history, sharing.
    object: Vec<MenuAction>,
    /// The "more" menu: cut, copy, paste, delete, rename.
    object_buttons: Vec<MenuAction>,
    /// The top navigation: Home.
    portal_tabs: Vec<MenuAction>,
    /// The footer links: site map, contact.
    site_actions: Vec<MenuAction>,
    /// Personal tools: log in, or preferences, dashboard, Site Setup and log out.
    user: Vec<MenuAction>,
}

/// One action of a menu.
#[derive(Object)]
struct MenuAction {
    /// The icon Volto shows.
    icon: String,
    /// Its id, which front ends key their own handling on.
    id: String,
    /// The label.
    title: String,
    /// Where it leads.
    url: String,
}

async fn get(ctx: Ctx) -> ApiResult<Json<ActionMenus>> {
    let options = ctx.serialize_options()?;
    let visibility = ctx.visibility();
    let sctx = ctx.serialize_ctx(&options, &visibility);
    Ok(Json(actions(&sctx, ctx.subject())))
}

/// One action: `(id, title, icon, url)`.
fn action(id: &str, title: &str, icon: &str, url: String) -> MenuAction {
    MenuAction { icon: icon.to_owned(), id: id.to_owned(), title: title.to_owned(), url }
}

fn actions(ctx: &SerializeCtx<'_>, subject: Subject<'_>) -> ActionMenus {
    let access = ctx.access;
    let may = |permission: Permission| access.allows(ctx.site, permission);
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
        object.push(action("local_roles", "Sharing", "toolbar-action/sharing", format!("{here}/@@sharing")));
    }

    let mut buttons = Vec::new();
    let deletable = !subject.object.is_site_root() && access.allows_on_parent(ctx.site, Permission::DELETE_OBJECTS);
    if deletable {
        buttons.push(action("cut", "Cut", "plone-cut", format!("{here}/object_cut")));
    }
    buttons.push(action("copy", "Copy", "plone-copy", format!("{here}/object_copy")));
    // No `paste`: Plone offers it only while its clipboard cookie holds something, and Volto
    // keeps its clipboard itself.
    if deletable {
        buttons.push(action("delete", "Delete", "plone-delete", format!("{here}/delete_confirmation")));
        buttons.push(action("rename", "Rename", "plone-rename", format!("{here}/object_rename")));
    }
    // Volto's "URL Management" (the object's aliases, `@aliases`).
    if editor && !subject.object.is_site_root() {
        buttons.push(action("redirection", "URL Management", "plone-redirection", format!("{here}/@@manage-aliases")));
    }

    let user = if ctx.principal.user_id().is_some() {
        let mut user = vec![
            action("preferences", "Preferences", "plone-user", format!("{site}/@@personal-preferences")),
            action("dashboard", "Dashboard", "plone-dashboard", format!("{site}/dashboard")),
        ];
        let manager = access.allows_named_at(ctx.site, 0, Permission::MANAGE_PORTAL.name());
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

    ActionMenus {
        document_actions: Vec::new(),
        object,
        object_buttons: buttons,
        portal_tabs: vec![action("index_html", "Home", "plone-home", site.clone())],
        site_actions: vec![
            action("sitemap", "Site Map", "plone-sitemap", format!("{site}/sitemap")),
            action("contact", "Contact", "plone-contact-info", format!("{site}/contact-form")),
        ],
        user,
    }
}
