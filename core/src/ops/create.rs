//! Creating content.

use super::references::{WriteOrigin, index_relations, resolve_references};
use super::{choose_id, conflict_or_internal, initial_state, initialise_security, new_uid, profile_of, reserved_ids};
use crate::content::links::is_uid;
use crate::content::values::{DEFAULT_PAGE, Mode, file_change, parse_changes};
use crate::content::{ContentObject, LANGUAGE_FIELD, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode, FieldError};
use crate::site::Site;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Creates a child of `container` from a plone.restapi POST body. `may_set_uid` is whether
/// the caller may choose the UID (Manage portal).
pub async fn create(
    site: &Site,
    container: &ContentObject,
    body: &Map<String, Value>,
    creator: &str,
    may_set_uid: bool,
    origin: &WriteOrigin<'_>,
) -> ApiResult<ContentObject> {
    create_with_file(site, container, body, None, creator, may_set_uid, origin).await
}

/// A file that comes beside the body rather than in it (a resumable upload's bytes).
pub struct SideFile {
    /// The field; `None` is the type's first file or image field.
    pub field: Option<String>,
    /// The client's file name.
    pub filename: String,
    /// Its media type, if the client said.
    pub content_type: Option<String>,
    /// The bytes.
    pub data: Vec<u8>,
}

/// [`create`], with a file for one of the type's file fields that is not in the body.
pub async fn create_with_file(
    site: &Site,
    container: &ContentObject,
    body: &Map<String, Value>,
    file: Option<SideFile>,
    creator: &str,
    may_set_uid: bool,
    origin: &WriteOrigin<'_>,
) -> ApiResult<ContentObject> {
    let profile = requested_type(site, container, body)?;
    create_of_type(site, container, &profile, body, file, creator, may_set_uid, origin).await
}

/// [`create_with_file`] of a type given rather than read from `@type`, and not checked
/// against what `container` allows: for plugins that place objects of types editors may not
/// add (the multilingual plugin's language root folders).
#[allow(clippy::too_many_arguments)]
pub async fn create_of_type(
    site: &Site,
    container: &ContentObject,
    profile: &TypeProfile,
    body: &Map<String, Value>,
    file: Option<SideFile>,
    creator: &str,
    may_set_uid: bool,
    origin: &WriteOrigin<'_>,
) -> ApiResult<ContentObject> {
    let file = file
        .map(|f| file_change(profile, f.field.as_deref(), f.data, f.filename, f.content_type.as_deref()))
        .transpose()?;
    // The file's field counts as sent, so a required one is not missing.
    let mut body = std::borrow::Cow::Borrowed(body);
    let file_fields: Vec<String> = file.iter().flat_map(|f| f.values.keys().cloned()).collect();
    for name in &file_fields {
        body.to_mut().insert(name.clone(), Value::Null);
    }
    let body = body.as_ref();
    let uid = requested_uid(body, may_set_uid)?;
    let requested_id = match body.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.as_str()),
        Some(_) => {
            return Err(ApiError::invalid_parameter("id", "The id must be a string."));
        }
    };
    let create_keys = site.registrations.create_keys();
    let mut consumed = vec!["id", "UID"];
    consumed.extend(file_fields.iter().map(String::as_str));
    consumed.extend(create_keys.iter().map(|key| key.name));
    let mut changes =
        parse_changes(profile, body, Mode::Create, &consumed, &site.registrations.read_only_keys(profile))?;
    if let Some(file) = file {
        changes.values.extend(file.values);
        changes.uploads.extend(file.uploads);
    }
    if changes.values.get(DEFAULT_PAGE).is_some_and(|v| !v.is_null()) {
        return Err(ApiError::validation(vec![FieldError::new(
            DEFAULT_PAGE,
            "A new folder has no children yet; set its default page once the page exists.",
        )]));
    }
    resolve_references(site, origin, container.site_id(), profile, &mut changes).await?;
    let mut object = new_object(site, profile, uid, container, creator);
    changes.apply(&mut object);
    inherit_language(profile, container, &mut object);
    crate::content::check_event_dates(profile, &object)?;
    if object.title.is_empty()
        && let Some(upload) = changes.uploads.first()
    {
        object.title = upload.filename.clone();
    }
    // Ids are chosen after the transaction has begun: on SQLite it holds the write lock, so
    // no concurrent create can take the same id in between.
    let mut tx = site.store.begin().await?;
    let taken = site.store.child_ids(&container.uid).await?;
    object.id = choose_id(requested_id, &object.title, &profile.id, &taken, &reserved_ids(site, container)?)?;
    object.path = format!("{}/{}", container.path, object.id);
    object.position = tx.next_position(&container.uid).await?;
    tx.insert_content(&object).await.map_err(conflict_or_internal)?;
    for upload in &changes.uploads {
        tx.put_blob(&object.uid, upload).await?;
    }
    index_relations(&mut tx, profile, &object).await?;
    initialise_security(site, &mut tx, &object, creator).await?;
    for key in create_keys {
        if let Some(value) = body.get(key.name).filter(|value| !value.is_null()) {
            (key.run)(site, &mut tx, origin.visibility, &object, value).await?;
        }
    }
    tx.commit().await?;
    Ok(object)
}

/// The type named by `@type`, which must exist and be allowed in `container`.
pub fn requested_type(
    site: &Site,
    container: &ContentObject,
    body: &Map<String, Value>,
) -> ApiResult<Arc<TypeProfile>> {
    let type_name = match body.get("@type") {
        Some(Value::String(name)) if !name.is_empty() => name.as_str(),
        Some(Value::String(_)) | None => {
            return Err(ApiError::new(ErrorCode::MissingProperty, "Property '@type' is required."));
        }
        Some(_) => {
            return Err(ApiError::invalid_parameter("@type", "'@type' must be a string."));
        }
    };
    let profile = site.types.get(type_name).ok_or_else(|| {
        ApiError::new(
            ErrorCode::UnknownType,
            format!("Invalid '@type' parameter. No content type with the name '{type_name}' found."),
        )
    })?;
    if let Some(plugin) = site.types.defined_by(type_name).filter(|plugin| !site.registrations.is_on(plugin)) {
        return Err(ApiError::new(
            ErrorCode::DisallowedType,
            format!("'{type_name}' belongs to the plugin '{plugin}', which is switched off."),
        ));
    }
    let container_profile = &profile_of(site, container)?;
    if !site.types.allows_child(container_profile, &profile) {
        return Err(ApiError::new(
            ErrorCode::DisallowedType,
            format!("Disallowed subobject type: {type_name} cannot be added to a {}.", container_profile.id),
        ));
    }
    Ok(profile)
}

/// The UID the body asks for (only who may manage the portal may choose one), else a new one.
fn requested_uid(body: &Map<String, Value>, may_set_uid: bool) -> ApiResult<String> {
    match body.get("UID") {
        None | Some(Value::Null) => Ok(new_uid()),
        Some(_) if !may_set_uid => {
            Err(ApiError::new(ErrorCode::Forbidden, "Setting UID of an object requires Manage Portal permission."))
        }
        Some(Value::String(uid)) if is_uid(uid) => Ok(uid.to_ascii_lowercase()),
        Some(_) => Err(ApiError::invalid_parameter("UID", "The UID must be 32 hexadecimal characters.")),
    }
}

/// A new object given no language takes its container's, as plone.app.multilingual gives
/// what is made inside a language's tree that language. The site root's own language is no
/// such tree: what is made there stays as the body says.
fn inherit_language(profile: &TypeProfile, container: &ContentObject, object: &mut ContentObject) {
    if container.is_site_root() || object.language().is_some() || profile.field(LANGUAGE_FIELD).is_none() {
        return;
    }
    if let Some(code) = container.language() {
        object.fields.insert(LANGUAGE_FIELD.to_owned(), Value::from(code));
    }
}

/// A new object of `profile` in `container`, before its fields, id and place are set.
fn new_object(
    site: &Site,
    profile: &TypeProfile,
    uid: String,
    container: &ContentObject,
    creator: &str,
) -> ContentObject {
    let now = chrono::Utc::now();
    ContentObject {
        uid,
        parent_uid: Some(container.uid.clone()),
        path: String::new(),
        id: String::new(),
        portal_type: profile.id.clone(),
        position: 0,
        title: String::new(),
        description: String::new(),
        review_state: initial_state(site, profile),
        created: now,
        modified: now,
        effective: None,
        expires: None,
        creator: creator.to_owned(),
        fields: Map::new(),
        block_local_roles: false,
        trash_root: None,
        working_copy_of: None,
    }
}
