//! `@vocabularies`: the terms clients offer in choice and relation widgets.
//!
//! Each `Choice` field has a vocabulary named `<Type>.<field>` (the `@types` schema links it);
//! `plone.app.vocabularies.PortalTypes` and `…ReviewStates` list types and workflow states,
//! `…ReallyUserFriendlyTypes` the types editors add (not the site root, not layout blocks),
//! by title;
//! `plone.app.vocabularies.Catalog` searches the content the caller may see (relation widgets);
//! `plone.app.vocabularies.Keywords` lists the tags in use on it (tag widgets);
//! `plone.app.vocabularies.MetadataFields` (also under plone.app.contenttypes' name) the
//! catalog's metadata columns (a collection's table columns, Volto's listing settings).

use super::types::factories::FACTORIES;
use super::types::{CATALOG_VOCABULARY, KEYWORDS_VOCABULARY};
use crate::catalog::{SearchQuery, SearchSql};
use crate::content::{FieldKind, named_vocabularies};
use crate::endpoint;
use crate::http::{
    ApiError, ApiResult, B_START, Batch, BatchLinksShape, Ctx, ErrorCode, Json, MAX_BATCH_SIZE, Shaped, batch_links,
};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, ParamKind, QueryParam, Route, Service};
use crate::store::PrincipalQuery;
use poem::http::Method;
use poem_openapi::Object;

const PORTAL_TYPES: &str = "plone.app.vocabularies.PortalTypes";
const USER_FRIENDLY_TYPES: &str = "plone.app.vocabularies.ReallyUserFriendlyTypes";
const REVIEW_STATES: &str = "plone.app.vocabularies.ReviewStates";
/// The workflow states as `Title [id]`, as the query widget's review-state criterion shows them.
const WORKFLOW_STATES: &str = "plone.app.vocabularies.WorkflowStates";
/// The users, for the query widget's Creator criterion: to editors only, as plone.restapi
/// guards it, since it names every account.
const USERS: &str = "plone.app.vocabularies.Users";
/// The groups, for the content rules' group condition: to editors only, as the users.
const GROUPS: &str = "plone.app.vocabularies.Groups";
/// The roles a site gives, for the content rules' role condition.
const ROLES: &str = "plone.app.vocabularies.Roles";
/// The workflow transitions as `Title [id]`, for the content rules' transition action.
const WORKFLOW_TRANSITIONS: &str = "plone.app.vocabularies.WorkflowTransitions";
/// The field factories Volto's Content Types panel offers when a field is added.
const FIELDS: &str = "Fields";
/// The most users the Users vocabulary reads for one request; narrow it with `title`.
const MAX_USER_TERMS: i64 = 1000;

/// Lists the vocabularies, or with a name segment, the terms of one.
pub static VOCABULARIES: Service = Service {
    method: Method::GET,
    name: "@vocabularies",
    kind: ContentKind::Any,
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new("", "The vocabularies, by name", endpoint!(list)),
        Route {
            query: &[
                QueryParam::new("title", ParamKind::String, "Terms whose title contains this (any case)"),
                QueryParam::new("token", ParamKind::String, "The term with this token (any case); not with title"),
                QueryParam::new("tokens", ParamKind::StringList, "Only terms with these tokens"),
                QueryParam::new("sort_on", ParamKind::String, "`title` sorts the terms by title"),
                B_START,
                QueryParam::new("b_size", ParamKind::Integer, "Terms per page (default 25); -1 for all, unbatched"),
            ],
            ..Route::new("{name}", "The terms of a vocabulary, batched", endpoint!(terms))
        },
    ],
};

/// A vocabulary in the listing.
#[derive(Object)]
struct VocabularyEntry {
    /// Its URL, which answers its terms.
    #[oai(rename = "@id")]
    url: String,
    /// Its name.
    title: String,
}

/// `GET @vocabularies/<name>`: a page of terms.
#[derive(Object)]
struct VocabularyTerms {
    /// The request's URL.
    #[oai(rename = "@id")]
    url: String,
    /// The terms of the page.
    items: Vec<VocabularyTerm>,
    /// How many terms match the filters.
    items_total: i64,
    /// Links to the other pages, when there are any (never with `b_size=-1`).
    #[oai(skip_serializing_if_is_none)]
    batching: Option<Shaped<BatchLinksShape>>,
}

/// One term: what a widget stores and what it shows.
#[derive(Object)]
struct VocabularyTerm {
    /// The stored value (a UID for the catalog vocabulary).
    token: String,
    /// The label.
    title: String,
}

async fn list(ctx: Ctx) -> ApiResult<Json<Vec<VocabularyEntry>>> {
    let site_url = ctx.site_url();
    let list = names(&ctx)
        .into_iter()
        .map(|name| VocabularyEntry { url: format!("{site_url}/@vocabularies/{name}"), title: name })
        .collect();
    Ok(Json(list))
}

async fn terms(ctx: Ctx) -> ApiResult<Json<VocabularyTerms>> {
    let name = ctx.param("name");
    let filter = Filter::from_request(&ctx)?;
    let (batch, all) = match ctx.request.query_value("b_size") {
        Some("-1") => (Batch { start: 0, size: MAX_BATCH_SIZE }, true),
        _ => (Batch::from_query(&ctx.request.query)?, false),
    };
    let terms = if name == CATALOG_VOCABULARY {
        catalog_terms(&ctx, &filter).await?
    } else if name == USERS {
        user_terms(&ctx, &filter).await?
    } else if name == KEYWORDS_VOCABULARY {
        ctx.app.store.keywords(&ctx.visibility()).await?.into_iter().map(|tag| (tag.clone(), tag)).collect()
    } else if name == GROUPS {
        group_terms(&ctx, &filter).await?
    } else if let Some(vocabulary) = ctx.app.registry.vocabulary(name) {
        (vocabulary.terms)(&ctx).await?
    } else {
        static_terms(&ctx, name).ok_or_else(|| ApiError::not_found(&ctx.request.service_url))?
    };
    let mut matching: Vec<&(String, String)> = terms.iter().filter(|term| filter.matches(term)).collect();
    match ctx.request.query_value("sort_on") {
        None => {}
        Some("title") => matching.sort_by_cached_key(|(token, title)| (title.to_lowercase(), token.clone())),
        Some(other) => {
            return Err(ApiError::invalid_parameter("sort_on", format!("Terms sort only on 'title', not '{other}'.")));
        }
    }
    let total = matching.len() as i64;
    let page = matching
        .iter()
        .skip(if all { 0 } else { batch.start as usize })
        .take(if all { usize::MAX } else { batch.size as usize })
        .map(|(token, title)| VocabularyTerm { token: token.clone(), title: title.clone() })
        .collect();
    let batching = if all { None } else { batch_links(&ctx.request.service_url, &ctx.request.query, batch, total) };
    Ok(Json(VocabularyTerms { url: ctx.request.request_url(), items: page, items_total: total, batching }))
}

fn names(ctx: &Ctx) -> Vec<String> {
    let mut names = vec![
        CATALOG_VOCABULARY.to_owned(),
        KEYWORDS_VOCABULARY.to_owned(),
        PORTAL_TYPES.to_owned(),
        USER_FRIENDLY_TYPES.to_owned(),
        REVIEW_STATES.to_owned(),
        WORKFLOW_STATES.to_owned(),
        USERS.to_owned(),
        GROUPS.to_owned(),
        FIELDS.to_owned(),
        ROLES.to_owned(),
        WORKFLOW_TRANSITIONS.to_owned(),
        named_vocabularies::METADATA_FIELDS.to_owned(),
        named_vocabularies::METADATA_FIELDS_OLD_NAME.to_owned(),
    ];
    names.extend(ctx.app.registry.vocabularies().map(|v| v.name.to_owned()));
    for profile in ctx.app.types.all() {
        names.extend(profile.fields.iter().filter(|f| has_choices(f)).map(|f| format!("{}.{}", profile.id, f.name)));
    }
    names.sort();
    names
}

/// Whether the field offers a fixed set of values (a choice, or a multiple choice).
fn has_choices(field: &crate::content::FieldDef) -> bool {
    field.kind == FieldKind::Choice || (field.kind == FieldKind::List && !field.vocabulary.is_empty())
}

/// Terms that do not depend on content: types, states and choice fields.
fn static_terms(ctx: &Ctx, name: &str) -> Option<Vec<(String, String)>> {
    match name {
        FIELDS => Some(FACTORIES.iter().map(|f| (f.token.to_owned(), f.name.to_owned())).collect()),
        _ if named_vocabularies::terms(name).is_some() => Some(
            named_vocabularies::terms(name)?
                .iter()
                .map(|(token, title)| ((*token).to_owned(), (*title).to_owned()))
                .collect(),
        ),
        PORTAL_TYPES => Some(ctx.app.types.all().map(|t| (t.id.clone(), t.title.clone())).collect()),
        USER_FRIENDLY_TYPES => {
            let mut types: Vec<(String, String)> = ctx
                .app
                .types
                .all()
                .filter(|t| t.id != crate::app::SITE_TYPE && !t.is_block())
                .map(|t| (t.id.clone(), t.title.clone()))
                .collect();
            types.sort_by_cached_key(|(token, title)| (title.to_lowercase(), token.clone()));
            Some(types)
        }
        REVIEW_STATES | WORKFLOW_STATES => {
            let mut states: Vec<(String, String)> = Vec::new();
            for state in ctx.app.workflows.all().flat_map(|w| &w.states) {
                if !states.iter().any(|(id, _)| *id == state.id) {
                    let title = if name == WORKFLOW_STATES {
                        format!("{} [{}]", state.title, state.id)
                    } else {
                        state.title.clone()
                    };
                    states.push((state.id.clone(), title));
                }
            }
            Some(states)
        }
        WORKFLOW_TRANSITIONS => {
            let mut transitions: Vec<(String, String)> = Vec::new();
            for transition in ctx.app.workflows.all().flat_map(|w| &w.transitions) {
                if !transitions.iter().any(|(id, _)| *id == transition.id) {
                    transitions.push((transition.id.clone(), format!("{} [{}]", transition.title, transition.id)));
                }
            }
            Some(transitions)
        }
        ROLES => Some(
            [crate::security::Role::ANONYMOUS, crate::security::Role::AUTHENTICATED]
                .iter()
                .chain(super::principal_forms::ASSIGNABLE_ROLES.iter())
                .map(|role| (role.name().to_owned(), role.name().to_owned()))
                .collect(),
        ),
        _ => {
            let (type_name, field_name) = name.split_once('.')?;
            let profile = ctx.app.types.get(type_name)?;
            let field = profile.field(field_name).filter(|f| has_choices(f))?;
            Some(field.vocabulary.iter().map(|v| (v.clone(), v.clone())).collect())
        }
    }
}

/// The users by id and full name (the id when they have none); `title` searches in the store.
async fn user_terms(ctx: &Ctx, filter: &Filter) -> ApiResult<Vec<(String, String)>> {
    ctx.check(Permission::MODIFY_PORTAL_CONTENT)?;
    let query =
        PrincipalQuery { kind: Some("user"), search: filter.title.clone(), match_email: false, in_groups: Vec::new() };
    let users = ctx.app.store.principals(&query, 0, MAX_USER_TERMS).await?;
    Ok(users
        .into_iter()
        .map(|user| {
            let title = if user.fullname.is_empty() { user.id.clone() } else { user.fullname.clone() };
            (user.id, title)
        })
        .collect())
}

/// The groups by id and title; `title` searches in the store.
async fn group_terms(ctx: &Ctx, filter: &Filter) -> ApiResult<Vec<(String, String)>> {
    ctx.check(Permission::MODIFY_PORTAL_CONTENT)?;
    let query =
        PrincipalQuery { kind: Some("group"), search: filter.title.clone(), match_email: false, in_groups: Vec::new() };
    let groups = ctx.app.store.principals(&query, 0, MAX_USER_TERMS).await?;
    Ok(groups
        .into_iter()
        .map(|group| {
            let title = if group.fullname.is_empty() { group.id.clone() } else { group.fullname.clone() };
            (group.id, title)
        })
        .collect())
}

/// Content the caller may see, best title matches first; the title filter runs in SQL.
async fn catalog_terms(ctx: &Ctx, filter: &Filter) -> ApiResult<Vec<(String, String)>> {
    let mut pairs = vec![("sort_on".to_owned(), "sortable_title".to_owned())];
    if let Some(title) = &filter.title {
        pairs.push(("SearchableText".to_owned(), title.clone()));
    }
    let site_path = format!("/{}", ctx.context.site_id());
    let query = SearchQuery::parse(&pairs, &site_path, ctx.app.catalog_indexes())?;
    let scope = ctx.search_scope(&site_path);
    let sql = SearchSql::build(&query, &scope);
    let found = ctx.app.store.search(&sql, 0, MAX_BATCH_SIZE).await?;
    Ok(found.into_iter().map(|o| (o.uid, o.title)).collect())
}

/// The term filters upstream accepts.
struct Filter {
    title: Option<String>,
    token: Option<String>,
    tokens: Vec<String>,
}

impl Filter {
    fn from_request(ctx: &Ctx) -> ApiResult<Filter> {
        let title = ctx.request.query_value("title").map(str::to_lowercase);
        let token = ctx.request.query_value("token").map(str::to_lowercase);
        if title.is_some() && token.is_some() {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "You can not filter by title and token at the same time.",
            ));
        }
        Ok(Filter { title, token, tokens: ctx.request.query_values("tokens") })
    }

    fn matches(&self, (token, title): &&(String, String)) -> bool {
        self.title.as_ref().is_none_or(|t| title.to_lowercase().contains(t.as_str()))
            && self.token.as_ref().is_none_or(|t| token.to_lowercase() == *t)
            && (self.tokens.is_empty() || self.tokens.contains(token))
    }
}
