//! The role × endpoint matrix: every route of every service in the registry, asked by each
//! role (anonymous, Member, Reader, Contributor, Editor, Reviewer, Site Administrator,
//! Manager), answers with the status the permission model gives that role, and no answer holds
//! what the role may not see. The site holds private, embargoed, expired and trashed objects
//! whose titles are markers; an answer that names one to a role that may not see it fails.
//!
//! The rows are checked against the registry both ways: a route without a row fails the test,
//! so a new endpoint cannot be added without saying who may call it, and a row without a route
//! fails too. Columns are roles (global roles; admin owns the content):
//! `[anonymous, member, reader, contributor, editor, reviewer, siteadmin, manager]`.

use crate::support::{TestServer, read};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

const ROLES: [&str; 8] = ["anonymous", "member", "reader", "contributor", "editor", "reviewer", "siteadmin", "manager"];

/// The markers, by what they name.
const PRIVATE: &str = "SECRETPRIVATE";
const EMBARGOED: &str = "SECRETEMBARGO";
const EXPIRED: &str = "SECRETEXPIRED";
const TRASHED: &str = "SECRETTRASHED";

/// The markers a role may never be shown outside a row that reveals them: private content
/// to those without View on private objects, content outside its publication window to those
/// without `Access inactive content`, trashed content to everyone.
fn forbidden(role: &str) -> Vec<&'static str> {
    let mut markers = vec![TRASHED];
    if matches!(role, "anonymous" | "member" | "reviewer") {
        markers.push(PRIVATE);
    }
    if matches!(role, "anonymous" | "member" | "reader" | "contributor") {
        markers.extend([EMBARGOED, EXPIRED]);
    }
    markers
}

const ALL_200: [u16; 8] = [200; 8];
const MANAGE_200: [u16; 8] = [401, 403, 403, 403, 403, 403, 200, 200];
const MANAGE_204: [u16; 8] = [401, 403, 403, 403, 403, 403, 204, 204];
const MANAGE_201: [u16; 8] = [401, 403, 403, 403, 403, 403, 201, 201];
const MANAGE_400: [u16; 8] = [401, 403, 403, 403, 403, 403, 400, 400];
const MANAGE_404: [u16; 8] = [401, 403, 403, 403, 403, 403, 404, 404];
const MANAGER_200: [u16; 8] = [401, 403, 403, 403, 403, 403, 403, 200];
/// Modify portal content (and Delete objects) on published content an admin owns.
const EDIT_204: [u16; 8] = [401, 403, 403, 403, 204, 403, 204, 204];
const EDIT_200: [u16; 8] = [401, 403, 403, 403, 200, 403, 200, 200];
const EDIT_400: [u16; 8] = [401, 403, 403, 403, 400, 403, 400, 400];
/// Add portal content in a published folder.
const ADD_200: [u16; 8] = [401, 403, 403, 200, 403, 403, 200, 200];
const ADD_201: [u16; 8] = [401, 403, 403, 201, 403, 403, 201, 201];
/// Versions: refused with 401 for everyone, as the specification fixes it.
const VERSIONS_READ: [u16; 8] = [401, 401, 200, 401, 200, 200, 200, 200];
const VERSIONS_WRITE_201: [u16; 8] = [401, 401, 401, 401, 201, 401, 201, 201];
const VERSIONS_WRITE_200: [u16; 8] = [401, 401, 401, 401, 200, 401, 200, 200];
/// Reply to item: every logged-in user, on an object that takes comments.
const REPLY_204: [u16; 8] = [401, 204, 204, 204, 204, 204, 204, 204];

/// Where a row's request goes: a fixed path below the site, or a fresh object made for each
/// role (the request may change or remove it), named in the path and body as `{fresh}`.
#[derive(Clone, Copy, Debug)]
enum Target {
    Fixed(&'static str),
    Fresh(Fresh, &'static str),
}

/// What a fresh object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fresh {
    /// A published document in `pub`, with a version.
    Document,
    /// A trashed document in `pub`.
    Trashed,
    /// A published document checked out to a working copy (`{fresh}` is the copy).
    WorkingCopy,
    /// A published document locked by admin.
    Locked,
    /// A user with the Member role (`{fresh}` is its id).
    User,
    /// A group without roles.
    Group,
    /// A comment of admin's on a published document that takes comments (`{fresh}` is the
    /// comment's path).
    Comment,
}

/// One route asked by every role.
struct Row {
    method: Method,
    name: &'static str,
    subpath: &'static str,
    target: Target,
    body: Option<Value>,
    /// Form-encoded instead of JSON.
    form: Option<&'static str>,
    expect: [u16; 8],
    /// Markers this row may show to the roles it answers with a success (the object it asks
    /// for, a trash listing).
    reveals: &'static [&'static str],
    /// Whether a limit per client (429) may answer instead of a success.
    limited: bool,
    /// Another status that may answer instead of a success: the state a previous role's
    /// request left (a rebuild still running).
    or: Option<u16>,
}

fn row(method: Method, name: &'static str, subpath: &'static str, path: &'static str, expect: [u16; 8]) -> Row {
    Row {
        method,
        name,
        subpath,
        target: Target::Fixed(path),
        body: None,
        form: None,
        expect,
        reveals: &[],
        limited: false,
        or: None,
    }
}

impl Row {
    fn fresh(mut self, kind: Fresh, path: &'static str) -> Row {
        self.target = Target::Fresh(kind, path);
        self
    }

    fn body(mut self, body: Value) -> Row {
        self.body = Some(body);
        self
    }

    fn form(mut self, form: &'static str) -> Row {
        self.form = Some(form);
        self
    }

    fn reveals(mut self, markers: &'static [&'static str]) -> Row {
        self.reveals = markers;
        self
    }

    fn limited(mut self) -> Row {
        self.limited = true;
        self
    }

    fn or(mut self, status: u16) -> Row {
        self.or = Some(status);
        self
    }
}

/// Every route's row.
fn rows() -> Vec<Row> {
    use Method as M;
    let doc = "pub/page";
    vec![
        // Content.
        row(M::GET, "", "", doc, ALL_200),
        row(M::GET, "", "", "", ALL_200),
        row(M::GET, "", "", "pub?b_size=100", ALL_200),
        row(M::PATCH, "", "", "", EDIT_204).fresh(Fresh::Document, "{fresh}").body(json!({"title": "Changed"})),
        row(M::PUT, "", "", "", EDIT_204).fresh(Fresh::Document, "{fresh}").body(json!({"title": "Replaced"})),
        row(M::DELETE, "", "", "", EDIT_204).fresh(Fresh::Document, "{fresh}"),
        row(M::POST, "", "", "pub", ADD_201).body(json!({"@type": "Document", "title": "Made by a role"})),
        row(M::GET, "view", "", "pub", ALL_200),
        row(M::GET, "view", "", "", ALL_200),
        // Files and images.
        row(M::GET, "@@download", "", "pub/file/@@download", ALL_200),
        row(M::GET, "@@download", "{field}", "pub/file/@@download/file", ALL_200),
        row(M::GET, "@@download", "{field}/{filename}", "pub/file/@@download/file/a.txt", ALL_200),
        row(M::GET, "@@images", "{field}", "pub/image/@@images/image", ALL_200),
        row(M::GET, "@@images", "{field}/{scale}", "pub/image/@@images/image/thumb", ALL_200),
        // Reading around the tree.
        row(M::GET, "@actions", "", "pub/@actions", ALL_200),
        row(M::GET, "@breadcrumbs", "", "pub/page/@breadcrumbs", ALL_200),
        row(M::GET, "@inherit", "", "pub/page/@inherit?expand.inherit.behaviors=plone.basic,plone.richtext,plone.navigationroot", ALL_200),
        row(M::GET, "@navigation", "", "@navigation?expand.navigation.depth=3", ALL_200),
        row(M::GET, "@contextnavigation", "", "pub/page/@contextnavigation", ALL_200),
        row(M::GET, "@navroot", "", "pub/@navroot", ALL_200),
        row(M::GET, "@search", "", "@search?b_size=100&metadata_fields=_all", ALL_200),
        row(M::GET, "@search", "", "@search?SearchableText=secret&b_size=100", ALL_200),
        row(M::GET, "@es-search", "", "@es-search?SearchableText=secret&b_size=100", ALL_200),
        row(M::POST, "@raw-es-search", "", "@raw-es-search", ALL_200).body(json!({"query": {"match_all": {}}, "size": 100})),
        row(M::GET, "@popular-searches", "", "@popular-searches", ALL_200),
        row(M::GET, "@querystring", "", "@querystring", ALL_200),
        row(M::GET, "@querystring-search", "", "@querystring-search?query=%257B%2522query%2522%253A%255B%257B%2522i%2522%253A%2522portal_type%2522%252C%2522o%2522%253A%2522plone.app.querystring.operation.selection.any%2522%252C%2522v%2522%253A%255B%2522Document%2522%255D%257D%255D%257D", ALL_200),
        row(M::POST, "@querystring-search", "", "@querystring-search", ALL_200).body(json!({"query": [{"i": "portal_type", "o": "plone.app.querystring.operation.selection.any", "v": ["Document"]}], "b_size": 100})),
        row(M::GET, "@relations", "", "@relations?source=/Plone/pub/page", ALL_200),
        row(M::POST, "@relations", "", "@relations", EDIT_204)
            .fresh(Fresh::Document, "@relations")
            .body(json!({"items": [{"source": "/{fresh}", "target": "/pub/page", "relation": "relatedItems"}]})),
        row(M::DELETE, "@relations", "", "@relations", EDIT_204)
            .fresh(Fresh::Document, "@relations")
            .body(json!({"items": [{"source": "/{fresh}", "target": "/pub/page", "relation": "relatedItems"}]})),
        row(M::POST, "@relations", "rebuild", "@relations/rebuild", MANAGE_204),
        row(M::GET, "@linkintegrity", "", "@linkintegrity?uids={private_uid}", ALL_200),
        row(M::GET, "@types", "", "pub/@types", ALL_200),
        row(M::GET, "@types", "{name}", "pub/@types/Document", ALL_200),
        row(M::GET, "@types", "{name}/{field}", "pub/@types/Document/title", ALL_200),
        row(M::POST, "@types", "{name}", "@types/Document", MANAGE_400).body(json!({"factory": "Hologram", "title": "X"})),
        row(M::PATCH, "@types", "{name}", "@types/Document", MANAGE_204).body(json!({"properties": {"title": {"title": "Title"}}})),
        row(M::PATCH, "@types", "{name}/{field}", "@types/Document/title", MANAGE_204).body(json!({"title": "Title"})),
        row(M::PUT, "@types", "{name}", "@types/Document", MANAGE_204).body(json!({"properties": {}})),
        row(M::DELETE, "@types", "{name}/{field}", "@types/Document/no_such_field", MANAGE_404),
        row(M::GET, "@controlpanels/dexterity-types", "", "@controlpanels/dexterity-types", MANAGE_200),
        row(M::GET, "@controlpanels/dexterity-types", "{type}", "@controlpanels/dexterity-types/Document", MANAGE_200),
        row(M::POST, "@controlpanels/dexterity-types", "", "@controlpanels/dexterity-types", [401, 403, 403, 403, 403, 403, 409, 409]).body(json!({"title": "Page", "id": "Document"})),
        row(M::PATCH, "@controlpanels/dexterity-types", "{type}", "@controlpanels/dexterity-types/Document", MANAGE_204).body(json!({"title": "Page"})),
        row(M::DELETE, "@controlpanels/dexterity-types", "{type}", "@controlpanels/dexterity-types/no_such_type", MANAGE_404),
        row(M::GET, "@vocabularies", "", "@vocabularies", ALL_200),
        row(M::GET, "@vocabularies", "{name}", "@vocabularies/plone.app.vocabularies.Keywords", ALL_200),
        row(M::GET, "@site", "", "@site", ALL_200),
        row(M::GET, "@translations", "", "pub/page/@translations", ALL_200),
        // The page has no language, so those who may link or unlink its translations are
        // told why they cannot; a site of one language has no root folder to locate.
        row(M::POST, "@translations", "", "pub/page/@translations", EDIT_400).body(json!({"id": "/target"})),
        row(M::DELETE, "@translations", "", "pub/page/@translations", EDIT_400).body(json!({"language": "fr"})),
        row(M::GET, "@translation-locator", "", "pub/page/@translation-locator?target_language=fr", [400; 8]),
        row(M::GET, "@roles", "", "@roles", ALL_200),
        row(M::GET, "@userschema", "", "@userschema", ALL_200),
        // Nothing in the fixture is an event or a folder of events the roles differ on.
        row(M::GET, "ics_view", "", "pub/ics_view", ALL_200),
        row(M::GET, "@userschema", "registration", "@userschema/registration", ALL_200),
        // Portraits are public; nobody in the fixture has one.
        row(M::GET, "@portrait", "", "@portrait", [404; 8]),
        row(M::GET, "@portrait", "{id}", "@portrait/member", [404; 8]),
        row(M::GET, "@openapi", "", "@openapi", ALL_200),
        row(M::GET, "resolveuid", "{uid}", "resolveuid/{page_uid}", [302; 8]),
        row(M::GET, "resolveuid", "{uid}/{rest}", "resolveuid/{page_uid}/@breadcrumbs", [302; 8]),
        row(M::GET, "@@authenticator", "token", "@@authenticator/token", ALL_200),
        row(M::GET, "hello_view", "", "pub/hello_view", ALL_200),
        row(M::GET, "@hello", "", "pub/@hello", [401, 200, 200, 200, 200, 200, 200, 200]),
        // Workflow.
        row(M::GET, "@workflow", "", "pub/page/@workflow", ALL_200),
        row(M::POST, "@workflow", "{transition}", "", [401, 403, 403, 403, 403, 200, 200, 200])
            .fresh(Fresh::Document, "{fresh}/@workflow/reject"),
        row(M::POST, "@workflow", "", "", [400; 8])
            .fresh(Fresh::Document, "{fresh}/@workflow"),
        row(M::POST, "@workflow-set-state", "{state}", "", [401, 403, 403, 403, 403, 200, 200, 200])
            .fresh(Fresh::Document, "{fresh}/@workflow-set-state/private"),
        row(M::POST, "@workflow-set-state", "", "", [401, 403, 403, 403, 403, 400, 400, 400])
            .fresh(Fresh::Document, "{fresh}/@workflow-set-state"),
        // Sharing and locks.
        row(M::GET, "@sharing", "", "pub/page/@sharing", EDIT_200),
        row(M::POST, "@sharing", "", "", EDIT_204)
            .fresh(Fresh::Document, "{fresh}/@sharing")
            .body(json!({"entries": [{"id": "member", "type": "user", "roles": {"Reader": true}}]})),
        row(M::GET, "@lock", "", "pub/page/@lock", ALL_200),
        row(M::POST, "@lock", "", "", EDIT_200).fresh(Fresh::Document, "{fresh}/@lock"),
        // Only the holder refreshes a lock; any editor may release a stealable one.
        row(M::PATCH, "@lock", "", "", [401, 403, 403, 403, 409, 403, 409, 200]).fresh(Fresh::Locked, "{fresh}/@lock"),
        row(M::DELETE, "@lock", "", "", EDIT_200)
            .fresh(Fresh::Locked, "{fresh}/@lock"),
        // Aliases.
        row(M::GET, "@aliases", "", "pub/page/@aliases", EDIT_200),
        row(M::POST, "@aliases", "", "", EDIT_204)
            .fresh(Fresh::Document, "{fresh}/@aliases")
            .body(json!({"items": [{"path": "/old-{role}"}]})),
        row(M::DELETE, "@aliases", "", "", [401, 403, 403, 403, 400, 403, 400, 400])
            .fresh(Fresh::Document, "{fresh}/@aliases")
            .body(json!({"items": [{"path": "/never-there"}]})),
        // Moving, copying, the trash.
        // Moving needs Delete objects where it comes from and Add portal content where it goes.
        row(M::POST, "@move", "", "", MANAGE_200).fresh(Fresh::Document, "target/@move").body(json!({"source": "/Plone/{fresh}"})),
        row(M::POST, "@copy", "", "target/@copy", ADD_200).body(json!({"source": "/Plone/pub"})),
        row(M::POST, "@trash", "", "", EDIT_204).fresh(Fresh::Document, "{fresh}/@trash"),
        row(M::POST, "@untrash", "", "", EDIT_204).fresh(Fresh::Trashed, "{fresh}/@untrash"),
        row(M::GET, "@trash", "", "@trash", MANAGE_200).reveals(&[TRASHED]),
        // Working copies.
        row(M::GET, "@workingcopy", "", "pub/page/@workingcopy", ALL_200),
        // Checking out adds the copy beside the original: Add portal content there too.
        row(M::POST, "@workingcopy", "", "", [401, 403, 403, 403, 403, 403, 201, 201]).fresh(Fresh::Document, "{fresh}/@workingcopy"),
        row(M::PATCH, "@workingcopy", "", "", EDIT_204).fresh(Fresh::WorkingCopy, "{fresh}/@workingcopy"),
        row(M::DELETE, "@workingcopy", "", "", EDIT_204).fresh(Fresh::WorkingCopy, "{fresh}/@workingcopy"),
        // Resumable uploads: the guard, then the protocol (these requests lack Tus-Resumable: 412).
        row(M::POST, "@tus-upload", "", "pub/@tus-upload", [401, 403, 403, 412, 403, 403, 412, 412]),
        row(M::POST, "@tus-replace", "", "pub/page/@tus-replace", [401, 403, 403, 403, 412, 403, 412, 412]),
        row(M::GET, "@tus-upload", "{upload_id}", "pub/@tus-upload/00000000000000000000000000000000", [401, 403, 403, 412, 412, 403, 412, 412]),
        row(M::PATCH, "@tus-upload", "{upload_id}", "pub/@tus-upload/00000000000000000000000000000000", [401, 403, 403, 412, 412, 403, 412, 412]),
        // Comments: pub/page takes them; `{fresh}` is a comment of admin's on a fresh page.
        row(M::GET, "@comments", "", "pub/page/@comments", ALL_200),
        row(M::GET, "@comments", "{comment_id}", "pub/page/@comments/{comment}", ALL_200),
        row(M::POST, "@comments", "", "pub/page/@comments", REPLY_204).body(json!({"text": "By a role"})),
        row(M::POST, "@comments", "{comment_id}", "pub/page/@comments/{comment}", REPLY_204).body(json!({"text": "A reply"})),
        // Editing comments is off by default: nobody may, not even a Manager.
        row(M::PATCH, "@comments", "{comment_id}", "pub/page/@comments/{comment}", [401, 403, 403, 403, 403, 403, 403, 403]).body(json!({"text": "Changed"})),
        row(M::PATCH, "@comments", "", "pub/page/@comments", [400; 8]).body(json!({"text": "Changed"})),
        row(M::DELETE, "@comments", "{comment_id}", "", [401, 403, 403, 403, 403, 204, 204, 204]).fresh(Fresh::Comment, "{fresh}"),
        row(M::DELETE, "@comments", "", "pub/page/@comments", [400; 8]),
        // Versions.
        row(M::GET, "@versions", "", "pub/page/@versions", VERSIONS_READ),
        row(M::GET, "@versions", "{version_id}", "pub/page/@versions/{version}", VERSIONS_READ),
        row(M::GET, "@versions", "{version_id}/comparison", "pub/page/@versions/{version}/comparison", VERSIONS_READ),
        row(M::POST, "@versions", "", "", VERSIONS_WRITE_201).fresh(Fresh::Document, "{fresh}/@versions").body(json!({"comment": "by a role"})),
        row(M::POST, "@versions", "{version_id}/restore", "", VERSIONS_WRITE_200).fresh(Fresh::Document, "{fresh}/@versions/{fresh_version}/restore"),
        row(M::DELETE, "@versions", "{version_id}", "", VERSIONS_WRITE_200).fresh(Fresh::Document, "{fresh}/@versions/{fresh_version}"),
        row(M::PATCH, "@history", "", "", VERSIONS_WRITE_200).fresh(Fresh::Document, "{fresh}/@history").body(json!({"version": "{fresh_version}"})),
        row(M::GET, "@history", "", "pub/page/@history", ALL_200),
        row(M::GET, "@history", "{version}", "pub/page/@history/{version}", VERSIONS_READ),
        row(M::GET, "list_versions", "", "pub/page/list_versions", VERSIONS_READ),
        row(M::GET, "display_version", "", "pub/page/display_version?version_id=0", VERSIONS_READ),
        row(M::GET, "compare_version", "", "pub/page/compare_version?version_id=0", VERSIONS_READ),
        row(M::POST, "create_version", "", "", VIEW_FORM_303).fresh(Fresh::Document, "{fresh}/create_version").form("comment=x"),
        row(M::POST, "restore_version", "", "", VIEW_FORM_303).fresh(Fresh::Document, "{fresh}/restore_version").form("version_id=0"),
        row(M::POST, "delete_version", "", "", VIEW_FORM_303).fresh(Fresh::Document, "{fresh}/delete_version").form("version_id=0"),
        // Forms.
        row(M::POST, "@submit", "", "pub/form/@submit", ALL_200).body(json!({"form.widgets.replyto": "a@example.org", "form.widgets.topic": "Hello", "form.widgets.comments": "Hi there"})),
        row(M::GET, "@submissions", "", "pub/form/@submissions", MANAGE_200),
        row(M::GET, "@submissions", "csv", "pub/form/@submissions/csv", MANAGE_200),
        // Mail.
        row(M::POST, "@email-notification", "", "@email-notification", [204; 8])
            .body(json!({"from": "a@example.org", "message": "Hello", "name": "A"}))
            .limited(),
        row(M::POST, "@email-send", "", "@email-send", MANAGE_204).body(json!({"to": "b@example.org", "from": "a@example.org", "subject": "S", "message": "M"})),
        // Logging in and out.
        row(M::GET, "@login", "", "@login", ALL_200),
        row(M::POST, "@login", "", "@login", [401; 8]).body(json!({"login": "nobody-{role}", "password": "wrong-password"})),
        row(M::POST, "@login-renew", "", "@login-renew", [401, 200, 200, 200, 200, 200, 200, 200]),
        row(M::POST, "@logout", "", "@logout", [204; 8]),
        row(M::GET, "login", "", "login", ALL_200),
        row(M::POST, "login", "", "login", [401; 8]).form("login=nobody-{role}-form&password=wrong-password"),
        // Users, groups, principals.
        row(M::GET, "@users", "", "@users", MANAGE_200),
        row(M::GET, "@users", "{id}", "@users/member", [401, 200, 403, 403, 403, 403, 200, 200]),
        row(M::POST, "@users", "", "@users", [401, 403, 403, 403, 403, 403, 201, 201])
            .fresh(Fresh::Document, "@users")
            .body(json!({"username": "new-{role}", "password": "long-enough", "roles": ["Member"]})),
        row(M::PATCH, "@users", "{id}", "", MANAGE_204).fresh(Fresh::User, "@users/{fresh}").body(json!({"fullname": "Renamed"})),
        row(M::DELETE, "@users", "{id}", "", MANAGE_204).fresh(Fresh::User, "@users/{fresh}"),
        row(M::POST, "@users", "{id}/reset-password", "@users/member/reset-password", [204; 8]).limited(),
        row(M::GET, "@groups", "", "@groups", MANAGE_200),
        row(M::GET, "@groups", "{id}", "@groups/Reviewers", MANAGE_200),
        row(M::POST, "@groups", "", "@groups", [401, 403, 403, 403, 403, 403, 201, 201])
            .fresh(Fresh::Document, "@groups")
            .body(json!({"groupname": "group-{role}", "title": "G"})),
        row(M::PATCH, "@groups", "{id}", "", MANAGE_204).fresh(Fresh::Group, "@groups/{fresh}").body(json!({"title": "Renamed"})),
        row(M::DELETE, "@groups", "{id}", "", MANAGE_204).fresh(Fresh::Group, "@groups/{fresh}"),
        row(M::GET, "@principals", "", "@principals?search=e", [401, 200, 200, 200, 200, 200, 200, 200]),
        row(M::GET, "@audit-log", "", "@audit-log", MANAGER_200),
        // Moving the site: an export holds every password hash and an import may make users
        // of any role, so both are the Manager's alone (a form is needed to import anything).
        row(M::POST, "@export", "", "@export", MANAGER_200),
        row(M::POST, "@import", "", "@import", [401, 403, 403, 403, 403, 403, 403, 415]).body(json!({})),
        // Site setup.
        row(M::GET, "@controlpanels", "", "@controlpanels", MANAGE_200),
        // Content rules: the panel needs Manage portal, assignments "Content rules: Manage
        // rules" (Manager, Site Administrator); the fixture's rule-1 has one action.
        row(M::GET, "@controlpanels/content-rules", "", "@controlpanels/content-rules", MANAGE_200),
        row(M::GET, "@controlpanels/content-rules", "{rule_id}", "@controlpanels/content-rules/rule-1", MANAGE_200),
        row(M::GET, "@controlpanels/content-rules", "{rule_id}/{category}/{idx}", "@controlpanels/content-rules/rule-1/action/0", MANAGE_200),
        row(M::POST, "@controlpanels/content-rules", "", "@controlpanels/content-rules", MANAGE_201).body(json!({"title": "By a role", "event": "Object modified"})),
        row(M::POST, "@controlpanels/content-rules", "{rule_id}/{category}", "@controlpanels/content-rules/rule-1/condition", MANAGE_201).body(json!({"type": "plone.conditions.PortalType", "check_types": ["Document"]})),
        row(M::PATCH, "@controlpanels/content-rules", "{rule_id}", "@controlpanels/content-rules/rule-1", MANAGE_204).body(json!({"description": "Changed"})),
        row(M::PATCH, "@controlpanels/content-rules", "{rule_id}/{category}/{idx}", "@controlpanels/content-rules/rule-1/action/0", MANAGE_204).body(json!({"message": "Changed"})),
        row(M::DELETE, "@controlpanels/content-rules", "{rule_id}", "@controlpanels/content-rules/rule-99", MANAGE_404),
        row(M::DELETE, "@controlpanels/content-rules", "{rule_id}/{category}/{idx}", "@controlpanels/content-rules/rule-1/condition/99", MANAGE_404),
        row(M::GET, "@content-rules", "", "pub/@content-rules", MANAGE_200),
        row(M::POST, "@content-rules", "{rule_id}", "pub/@content-rules/rule-1", MANAGE_200),
        row(M::POST, "@content-rules", "", "pub/@content-rules", MANAGE_400),
        row(M::PATCH, "@content-rules", "", "pub/@content-rules", MANAGE_200).body(json!({"form.button.Enable": true, "rule_ids": ["rule-1"]})),
        row(M::DELETE, "@content-rules", "", "pub/@content-rules", MANAGE_204).body(json!({"rule_ids": ["rule-99"]})),
        row(M::GET, "@content-rules-deliveries", "", "@content-rules-deliveries", MANAGE_200),
        row(M::GET, "@controlpanels", "{id}", "@controlpanels/site", MANAGE_200),
        row(M::PATCH, "@controlpanels", "{id}", "@controlpanels/site", MANAGE_204).body(json!({"site_title": "Site"})),
        row(M::PATCH, "@controlpanels", "", "@controlpanels", [401, 403, 403, 403, 403, 403, 400, 400]).body(json!({})),
        row(M::GET, "@registry", "", "@registry", MANAGE_200),
        row(M::GET, "@registry", "{name}", "@registry/plone.site_logo", MANAGE_200),
        row(M::PATCH, "@registry", "", "@registry", MANAGE_204).body(json!({"plone.site_logo": ""})),
        row(M::GET, "@addons", "", "@addons", MANAGE_200),
        row(M::POST, "@addons", "{id}/install", "@addons/example-hello/install", MANAGE_204),
        row(M::POST, "@addons", "{id}/uninstall", "@addons/no-such-plugin/uninstall", [401, 403, 403, 403, 403, 403, 404, 404]),
        row(M::GET, "@upgrade", "", "@upgrade", MANAGE_200),
        row(M::POST, "@upgrade", "", "@upgrade", MANAGE_200).body(json!({"dry_run": true})),
        row(M::GET, "@system", "", "@system", MANAGE_200),
        row(M::GET, "@database", "", "@database", MANAGE_200),
        row(M::GET, "@transactions", "", "@transactions", MANAGE_200),
        row(M::PATCH, "@transactions", "", "@transactions", [401, 403, 403, 403, 403, 403, 400, 400]).body(json!({"transaction_ids": []})),
        row(M::GET, "@content-rules", "", "@content-rules", MANAGE_200),
        row(M::GET, "@plugins", "", "@plugins", MANAGE_200),
        row(M::GET, "@es-admin", "", "@es-admin", MANAGE_200),
        row(M::POST, "@es-admin", "", "@es-admin", [401, 403, 403, 403, 403, 403, 202, 202]).body(json!({"action": "rebuild"})).or(409),
    ]
}

/// The version views' form posts go back to the list (303); the denied get 401.
const VIEW_FORM_303: [u16; 8] = [401, 401, 401, 401, 303, 401, 303, 303];

/// The site: `pub` (published) holds a published page with a version and a relation to a
/// private document, the private document, an embargoed and an expired page, a trashed page,
/// a file, an image and a form; `target` is a published folder to move and copy into. A user
/// per role; admin owns everything.
struct Fixture {
    server: TestServer,
    /// Replacements in paths and bodies.
    values: BTreeMap<&'static str, String>,
    /// Each role's CSRF token.
    csrf: BTreeMap<&'static str, String>,
}

async fn fixture() -> Fixture {
    let server = TestServer::start().await;
    for (user, roles) in [
        ("member", &["Member"][..]),
        ("reader", &["Member", "Reader"]),
        ("contributor", &["Member", "Contributor"]),
        ("editor", &["Member", "Editor"]),
        ("reviewer", &["Member", "Reviewer"]),
        ("siteadmin", &["Member", "Site Administrator"]),
    ] {
        server.user(user, roles, &[]).await;
    }
    server.create("", json!({"@type": "Folder", "id": "pub", "title": "Public folder"})).await;
    server.create("", json!({"@type": "Folder", "id": "target", "title": "Target folder"})).await;
    let private = server.create("pub", json!({"@type": "Document", "id": "private", "title": PRIVATE})).await;
    let page = server
        .create(
            "pub",
            json!({"@type": "Document", "id": "page", "title": "Public page", "relatedItems": [private["UID"]]}),
        )
        .await;
    server.create("pub", json!({"@type": "Document", "id": "embargoed", "title": EMBARGOED, "effective": "2999-01-01T00:00:00+00:00"})).await;
    server
        .create(
            "pub",
            json!({"@type": "Document", "id": "expired", "title": EXPIRED, "expires": "2000-01-01T00:00:00+00:00"}),
        )
        .await;
    server.create("pub", json!({"@type": "Document", "id": "trashed", "title": TRASHED})).await;
    server.create("pub", json!({"@type": "File", "id": "file", "title": "A file", "file": {"data": "aGVsbG8=", "encoding": "base64", "filename": "a.txt"}})).await;
    let png = crate::images::png(32, 32);
    server.create("pub", json!({"@type": "Image", "id": "image", "title": "An image", "image": {"data": png, "encoding": "base64", "filename": "i.png", "content-type": "image/png"}})).await;
    for path in ["pub", "target", "pub/page", "pub/embargoed", "pub/expired", "pub/trashed"] {
        server.transition(path, "publish").await;
    }
    if cfg!(feature = "easyform") {
        server.create("pub", json!({"@type": "EasyForm", "id": "form", "title": "A form"})).await;
        server.transition("pub/form", "publish").await;
    }
    let trash = server.admin(Method::POST, "pub/trashed/@trash").send().await.unwrap();
    assert_eq!(trash.status(), 204);
    let mut values = BTreeMap::new();
    values.insert("page_uid", page["UID"].as_str().unwrap().to_owned());
    values.insert("private_uid", private["UID"].as_str().unwrap().to_owned());
    if cfg!(feature = "versioning") {
        values.insert("version", create_version(&server, "pub/page").await);
    }
    if cfg!(feature = "contentrules") {
        let rule = json!({"title": "Fixture", "event": "Object modified"});
        let response = server.admin(Method::POST, "@controlpanels/content-rules").json(&rule).send().await.unwrap();
        assert_eq!(response.status(), 201);
        let action =
            json!({"type": "plone.actions.Logger", "targetLogger": "wcs", "loggingLevel": 10, "message": "&e"});
        let response = server.admin(Method::POST, "@controlpanels/content-rules/rule-1/action").json(&action).send();
        assert_eq!(response.await.unwrap().status(), 201);
    }
    if cfg!(feature = "comments") {
        let response = server.admin(Method::PATCH, "pub/page").json(&json!({"allow_discussion": true})).send().await;
        assert_eq!(response.unwrap().status(), 204);
        let path = comment(&server, "pub/page").await;
        values.insert("comment", path.rsplit('/').next().unwrap().to_owned());
    }
    server.settle().await;
    let mut csrf = BTreeMap::new();
    for role in ROLES {
        let answer = as_role(&server, role, Method::GET, "@@authenticator/token").send().await.unwrap();
        csrf.insert(role, answer.text().await.unwrap());
    }
    Fixture { server, values, csrf }
}

/// Comments on `path` as admin; the comment's path.
async fn comment(server: &TestServer, path: &str) -> String {
    let response = server.admin(Method::POST, &format!("{path}/@comments")).json(&json!({"text": "Fixture"})).send();
    let response = response.await.unwrap();
    assert_eq!(response.status(), 204);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    location.strip_prefix(&format!("{}/", server.url(""))).unwrap().to_owned()
}

/// Makes a version of `path` as admin; its id.
async fn create_version(server: &TestServer, path: &str) -> String {
    let token = server.admin(Method::GET, "@@authenticator/token").send().await.unwrap().text().await.unwrap();
    let request = server.admin(Method::POST, &format!("{path}/@versions")).header("X-CSRF-TOKEN", token);
    let (status, item) = read(request.json(&json!({"comment": "fixture"})).send().await.unwrap()).await;
    assert_eq!(status, 201, "{item}");
    item["id"].as_str().unwrap().to_owned()
}

fn as_role(server: &TestServer, role: &str, method: Method, path: &str) -> reqwest::RequestBuilder {
    match role {
        "anonymous" => server.anonymous(method, path),
        "manager" => server.admin(method, path),
        user => server.as_user(user, method, path),
    }
}

/// Makes a fresh object of `kind` for `role`'s request; its path (or id) and, for documents,
/// the id of a version.
async fn make_fresh(f: &Fixture, kind: Fresh, row: usize, role: &str) -> (String, String) {
    let server = &f.server;
    let id = format!("fresh-{row}-{role}");
    match kind {
        Fresh::Document | Fresh::Locked | Fresh::WorkingCopy | Fresh::Trashed => {
            server.create("pub", json!({"@type": "Document", "id": id, "title": format!("Fresh {id}")})).await;
            let path = format!("pub/{id}");
            server.transition(&path, "publish").await;
            let version =
                if cfg!(feature = "versioning") { create_version(server, &path).await } else { String::new() };
            match kind {
                Fresh::Locked => {
                    let lock = server.admin(Method::POST, &format!("{path}/@lock")).send().await.unwrap();
                    assert_eq!(lock.status(), 200);
                }
                Fresh::Trashed => {
                    let trash = server.admin(Method::POST, &format!("{path}/@trash")).send().await.unwrap();
                    assert_eq!(trash.status(), 204);
                }
                Fresh::WorkingCopy => {
                    let (status, copy) =
                        read(server.admin(Method::POST, &format!("{path}/@workingcopy")).send().await.unwrap()).await;
                    assert_eq!(status, 201, "{copy}");
                    let copy_path = crate::support::site_path(&copy["@id"]);
                    return (copy_path, version);
                }
                _ => {}
            }
            (path, version)
        }
        Fresh::User => {
            server.user(&id, &["Member"], &[]).await;
            (id, String::new())
        }
        Fresh::Comment => {
            server
                .create(
                    "pub",
                    json!({"@type": "Document", "id": id, "title": format!("Fresh {id}"), "allow_discussion": true}),
                )
                .await;
            server.transition(&format!("pub/{id}"), "publish").await;
            (comment(server, &format!("pub/{id}")).await, String::new())
        }
        Fresh::Group => {
            let response = server.admin(Method::POST, "@groups").json(&json!({"groupname": id})).send().await.unwrap();
            assert_eq!(response.status(), 201);
            (id, String::new())
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_answers_each_role_as_the_permission_model_says_and_leaks_nothing() {
    let f = fixture().await;
    let linked = f.server.app.registry.plugin_ids().to_vec();
    let rows: Vec<Row> = rows().into_iter().filter(|row| linked.contains(&plugin_of(row.name))).collect();
    let registered: BTreeSet<(String, String, String)> = f
        .server
        .app
        .registry
        .services()
        .iter()
        .flat_map(|(_, service)| {
            service
                .routes
                .iter()
                .map(|route| (service.method.to_string(), service.name.to_owned(), route.subpath.to_owned()))
        })
        .collect();
    let covered: BTreeSet<(String, String, String)> =
        rows.iter().map(|r| (r.method.to_string(), r.name.to_owned(), r.subpath.to_owned())).collect();
    let missing: Vec<_> = registered.difference(&covered).collect();
    assert!(missing.is_empty(), "routes without a row in the matrix (say who may call them): {missing:#?}");
    let stale: Vec<_> = covered.difference(&registered).collect();
    assert!(stale.is_empty(), "rows for routes that are not registered: {stale:#?}");

    let mut failures = Vec::new();
    for (number, row) in rows.iter().enumerate() {
        for (column, role) in ROLES.iter().enumerate() {
            let (path, fresh, fresh_version) = match row.target {
                Target::Fixed(path) => (path.to_owned(), String::new(), String::new()),
                Target::Fresh(kind, template) => {
                    let (fresh, version) = make_fresh(&f, kind, number, role).await;
                    (template.replace("{fresh}", &fresh), fresh, version)
                }
            };
            let fill = |text: &str| {
                let mut text = text.replace("{role}", role).replace("{fresh_version}", &fresh_version);
                for (key, value) in &f.values {
                    text = text.replace(&format!("{{{key}}}"), value);
                }
                text
            };
            let path = fill(&path);
            let mut request =
                as_role(&f.server, role, row.method.clone(), &path).header("X-CSRF-TOKEN", f.csrf[role].as_str());
            if let Some(body) = &row.body {
                let text = fill(&body.to_string()).replace("{fresh}", &fresh);
                request = request.header("Content-Type", "application/json").body(text);
            }
            if let Some(form) = row.form {
                request = request.header("Content-Type", "application/x-www-form-urlencoded").body(fill(form));
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body = response.text().await.unwrap_or_default();
            let expected = row.expect[column];
            // A limit per client may refuse a request the role may make (all come from one
            // address here); it says nothing of permissions.
            let success = (200..300).contains(&expected);
            let status =
                if success && ((row.limited && status == 429) || row.or == Some(status)) { expected } else { status };
            let what = format!("{} {} [{}] {path} as {role}", row.method, row.name, row.subpath);
            if status != expected {
                failures.push(format!("{what}: {status}, expected {expected}: {}", shortened(&body)));
            }
            for marker in forbidden(role) {
                let revealed = row.reveals.contains(&marker) && (200..300).contains(&status);
                if body.contains(marker) && !revealed {
                    failures.push(format!("{what}: the answer shows {marker}: {}", shortened(&body)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} answers are not as the model says:\n{}",
        failures.len(),
        rows.len() * ROLES.len(),
        failures.join("\n")
    );
}

/// The plugin a route's service belongs to: its rows count only when it is linked.
fn plugin_of(name: &str) -> &'static str {
    match name {
        "@navigation" | "@contextnavigation" | "@navroot" => "navigation",
        "@es-search" | "@raw-es-search" | "@popular-searches" | "@es-admin" => "es-search",
        "@versions" | "@history" | "list_versions" | "display_version" | "compare_version" | "create_version"
        | "restore_version" | "delete_version" => "versioning",
        "@submit" | "@submissions" => "easyform",
        "@comments" => "comments",
        "@translations" | "@translation-locator" => "multilingual",
        "@controlpanels/content-rules" | "@content-rules" | "@content-rules-deliveries" => "contentrules",
        "@hello" | "hello_view" => "example-hello",
        _ => "core",
    }
}

fn shortened(text: &str) -> String {
    text.chars().take(300).collect()
}
