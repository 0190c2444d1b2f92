//! Shared by `@users`, `@groups`, `@principals` and `@sharing`: checks of principals' input
//! and the virtual group (their shapes on the wire are typed next to the services, shared
//! ones in `principal_items`).

use crate::http::{ApiError, ApiResult, Ctx, ErrorCode, FieldError};
use crate::security::delegation::{may_assign, may_manage};
use crate::security::{AUTHENTICATED_GROUP, Role};
use crate::store::StoredPrincipal;
use serde_json::{Map, Value};

/// Global roles that may be given to users and groups.
pub const ASSIGNABLE_ROLES: [Role; 7] = [
    Role::MEMBER,
    Role::READER,
    Role::CONTRIBUTOR,
    Role::EDITOR,
    Role::REVIEWER,
    Role::SITE_ADMINISTRATOR,
    Role::MANAGER,
];
/// Ids that name virtual principals and cannot be taken.
const RESERVED_IDS: [&str; 3] = [AUTHENTICATED_GROUP, Role::ANONYMOUS.name(), Role::AUTHENTICATED.name()];

/// The search words of a principal listing: `query`, or `search` as Volto sends it.
pub fn search_text(ctx: &Ctx) -> Option<String> {
    ctx.request.query_value("query").or_else(|| ctx.request.query_value("search")).map(str::to_owned)
}

/// The most groups `groups-filter` may name.
const MAX_GROUPS_FILTER: usize = 50;

/// `groups-filter:list` (Volto's user control panel): only users in any of these groups.
pub fn groups_filter(ctx: &Ctx) -> ApiResult<Vec<String>> {
    let mut groups = ctx.request.query_values("groups-filter:list");
    groups.extend(ctx.request.query_values("groups-filter"));
    groups.retain(|g| !g.trim().is_empty());
    if groups.len() > MAX_GROUPS_FILTER {
        return Err(ApiError::invalid_parameter(
            "groups-filter",
            format!("At most {MAX_GROUPS_FILTER} groups may be named."),
        ));
    }
    Ok(groups)
}

/// The virtual group every authenticated user belongs to.
pub fn authenticated_group() -> StoredPrincipal {
    StoredPrincipal {
        id: AUTHENTICATED_GROUP.to_owned(),
        kind: "group".to_owned(),
        fullname: "Authenticated Users (Virtual Group)".to_owned(),
        // Plone names the plugin that provides it.
        description: "Automatic Group Provider".to_owned(),
        ..StoredPrincipal::default()
    }
}

/// Checks a new principal id.
pub fn check_id(field: &str, id: &str, errors: &mut Vec<FieldError>) {
    let valid = !id.is_empty()
        && id.len() <= 64
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'))
        && !RESERVED_IDS.contains(&id);
    if !valid {
        errors.push(FieldError::new(
            field,
            "Use 1 to 64 letters, digits, '.', '_', '-' or '@' (and not a reserved name).",
        ));
    }
}

/// Reads the optional text properties shared by users and groups into `principal`.
pub fn apply_text(body: &Map<String, Value>, principal: &mut StoredPrincipal, errors: &mut Vec<FieldError>) {
    let mut text = |key: &str, target: &mut String, limit: usize| match body.get(key) {
        None => {}
        Some(Value::Null) => target.clear(),
        Some(Value::String(value)) if value.chars().count() <= limit && !value.contains(['\r', '\n']) => {
            value.clone_into(target);
        }
        Some(_) => errors.push(FieldError::new(key, format!("Expected a single line of at most {limit} characters."))),
    };
    text("fullname", &mut principal.fullname, 200);
    text("title", &mut principal.fullname, 200);
    text("email", &mut principal.email, 254);
    text("description", &mut principal.description, 2000);
    text("location", &mut principal.location, 200);
    text("home_page", &mut principal.home_page, 2000);
    if !principal.email.is_empty() && (!principal.email.contains('@') || principal.email.contains(' ')) {
        errors.push(FieldError::new("email", "This is not an e-mail address."));
    }
}

/// The roles a request sets: a list replaces them; plone.restapi's object form
/// `{"<role>": true|false}` (what Volto's user and group panels send) gives and takes roles
/// from `current`. Whether the caller may make the change is [`check_role_changes`]'s.
pub fn parse_roles(value: &Value, current: &[String], errors: &mut Vec<FieldError>) -> Option<Vec<String>> {
    let expected = "Expected a list of role names or {\"<role>\": true|false}.";
    let changes: Vec<(String, bool)> = match value {
        Value::Array(items) => items.iter().map(|item| (item.as_str().unwrap_or_default().to_owned(), true)).collect(),
        Value::Object(map) => map.iter().map(|(role, on)| (role.clone(), on.as_bool().unwrap_or(true))).collect(),
        _ => {
            errors.push(FieldError::new("roles", expected));
            return None;
        }
    };
    if let Value::Object(map) = value
        && map.values().any(|on| !on.is_boolean())
    {
        errors.push(FieldError::new("roles", expected));
        return None;
    }
    let mut roles: Vec<String> = if value.is_object() { current.to_vec() } else { Vec::new() };
    for (role, on) in changes {
        // Every logged-in principal has it; what was listed (a group's roles) may come back.
        if role == Role::AUTHENTICATED.name() {
            continue;
        }
        if !ASSIGNABLE_ROLES.iter().any(|r| *r == role) {
            let known = ASSIGNABLE_ROLES.map(Role::name).join(", ");
            errors.push(FieldError::new("roles", format!("Unknown role '{role}'; use one of {known}.")));
        } else if !on {
            roles.retain(|r| *r != role);
        } else if !roles.contains(&role) {
            roles.push(role);
        }
    }
    Some(roles)
}

/// Refuses (403) a change from the global roles `before` to `after` that gives or takes a role
/// the caller may not hand out (see [`crate::security::delegation`]).
pub fn check_role_changes(ctx: &Ctx, before: &[String], after: &[String]) -> ApiResult<()> {
    let changed = after.iter().filter(|r| !before.contains(r)).chain(before.iter().filter(|r| !after.contains(r)));
    for role in changed {
        if !may_assign(&ctx.principal, role) {
            return Err(ApiError::new(
                ErrorCode::Forbidden,
                format!("Only Managers may give or take the role '{role}'."),
            ));
        }
    }
    Ok(())
}

/// Refuses (403) any change to the users or groups `ids` when the caller may not manage one:
/// one that holds an administrative role, directly or through its groups, unless the caller is
/// a Manager or it is the caller's own account (see [`crate::security::delegation`]).
pub async fn check_may_manage(ctx: &Ctx, ids: &[String]) -> ApiResult<()> {
    for (id, roles) in ctx.app.store.effective_roles(ids).await? {
        if !may_manage(&ctx.principal, &id, &roles) {
            return Err(ApiError::new(
                ErrorCode::Forbidden,
                format!("Only Managers may change '{id}', which administers the site."),
            ));
        }
    }
    Ok(())
}

/// The global roles given and taken from `before` to `after`, for the audit log.
pub fn role_changes(before: &[String], after: &[String]) -> Value {
    let given: Vec<&String> = after.iter().filter(|r| !before.contains(r)).collect();
    let taken: Vec<&String> = before.iter().filter(|r| !after.contains(r)).collect();
    serde_json::json!({"given": given, "taken": taken})
}

/// Turns collected field errors into a 400, or passes.
pub fn finish(errors: Vec<FieldError>) -> ApiResult<()> {
    if errors.is_empty() { Ok(()) } else { Err(ApiError::validation(errors)) }
}
