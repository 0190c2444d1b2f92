//! What the writes of `@types` send, as changes of a type: a new field or fieldset, a field's
//! or fieldset's new settings, and a whole schema (`PUT`). Keys a client read from the schema
//! and sends back unchanged (`type`, `widget`, `behavior`…) are ignored, as Plone ignores them.

use super::factories::{self, EMAIL_HINT, EMAIL_PATTERN, EMAIL_WIDGET, Factory, MULTIPLE_CHOICE_WIDGET};
use super::fieldsets::FIELDSETS;
use crate::content::ids::normalize_name;
use crate::content::values::stored_value_misfit;
use crate::content::{FieldDef, Fieldset, TypeProfile};
use crate::error::{ApiError, ApiResult, ErrorCode};
use serde_json::{Map, Value};

/// The longest field or fieldset id.
const ID_LIMIT: usize = 100;
/// The most values a choice field may offer.
const VALUES_LIMIT: usize = 1_000;

/// A new field from `POST @types/<type>`: `factory`, `title`, and optionally `id`,
/// `description`, `required`, and the settings a PATCH takes.
pub fn new_field(profile: &TypeProfile, body: &Map<String, Value>) -> ApiResult<FieldDef> {
    let factory_name = factory_of(body)?.unwrap_or_default();
    let factory = factories::by_name(&factory_name).ok_or_else(|| {
        ApiError::invalid_parameter(
            "factory",
            format!("Unknown field factory '{factory_name}'; one of: {}.", factories::names()),
        )
    })?;
    let id = new_id(profile, body)?;
    let mut field = FieldDef::named(&id, factory.kind);
    become_kind(&mut field, factory);
    patch_field(&mut field, body, false)?;
    Ok(field)
}

/// A new fieldset from `POST @types/<type>` with `factory: "fieldset"`.
pub fn new_fieldset(profile: &TypeProfile, body: &Map<String, Value>) -> ApiResult<Fieldset> {
    let id = new_id(profile, body)?;
    if FIELDSETS.iter().any(|(standard, _)| *standard == id) || profile.fieldsets.iter().any(|f| f.id == id) {
        return Err(ApiError::invalid_parameter("id", format!("A fieldset '{id}' exists already.")));
    }
    let mut fieldset = Fieldset { id, title: String::new(), description: String::new(), fields: Vec::new() };
    patch_fieldset(profile, &mut fieldset, body)?;
    Ok(fieldset)
}

/// The id of a new field or fieldset: `id`, else made from `title` as Plone makes it
/// (`Author email` → `author_email`).
fn new_id(profile: &TypeProfile, body: &Map<String, Value>) -> ApiResult<String> {
    let title = text(body, "title")?.filter(|t| !t.trim().is_empty());
    let id = match text(body, "id")? {
        Some(id) => id,
        None => id_from_title(
            &title.ok_or_else(|| ApiError::new(ErrorCode::MissingProperty, "Property 'title' is required."))?,
        ),
    };
    let valid = id.len() <= ID_LIMIT
        && id.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return Err(ApiError::invalid_parameter(
            "id",
            format!(
                "'{id}' is no valid id: lower-case letters, digits and _, at most {ID_LIMIT}, not starting with a digit."
            ),
        ));
    }
    if profile.field(&id).is_some() {
        return Err(ApiError::invalid_parameter("id", format!("The type has a field '{id}' already.")));
    }
    Ok(id)
}

fn id_from_title(title: &str) -> String {
    let id: String = normalize_name(title).chars().take(ID_LIMIT - 6).collect();
    match id.chars().next() {
        None => "field".to_owned(),
        Some(first) if first.is_ascii_digit() => format!("field_{id}"),
        Some(_) => id,
    }
}

/// Applies a field's new settings: `title`, `description`, `required`, `default`,
/// `minLength`, `maxLength`, `values` (choices), and `factory`, which changes the kind of a
/// field the type's profile does not declare (`profile_field` says it does).
pub fn patch_field(field: &mut FieldDef, body: &Map<String, Value>, profile_field: bool) -> ApiResult<()> {
    if let Some(name) = factory_of(body)? {
        let factory = factories::by_name(&name)
            .ok_or_else(|| ApiError::invalid_parameter("factory", format!("Unknown field factory '{name}'.")))?;
        if factory.kind != field.kind_name() || factory.widget != field.widget.as_deref() {
            if profile_field {
                return Err(ApiError::invalid_parameter(
                    "factory",
                    format!("The kind of field '{}' comes from the type's profile and cannot change.", field.name),
                ));
            }
            let mut changed = FieldDef::named(&field.name, factory.kind);
            changed.title = std::mem::take(&mut field.title);
            changed.description = std::mem::take(&mut field.description);
            changed.required = field.required;
            changed.vocabulary = std::mem::take(&mut field.vocabulary);
            *field = changed;
            become_kind(field, factory);
        }
    }
    if let Some(title) = text(body, "title")? {
        field.title = title;
    }
    if let Some(description) = text(body, "description")? {
        field.description = description;
    }
    if let Some(required) = body.get("required") {
        field.required =
            required.as_bool().ok_or_else(|| ApiError::invalid_parameter("required", "Expected true or false."))?;
    }
    if let Some(limit) = body.get("maxLength") {
        field.max_length = length(limit, "maxLength")?;
    }
    if let Some(limit) = body.get("minLength") {
        field.min_length = length(limit, "minLength")?;
    }
    if let (Some(min), Some(max)) = (field.min_length, field.max_length)
        && min > max
    {
        return Err(ApiError::invalid_parameter("minLength", "minLength is larger than maxLength."));
    }
    if let Some(values) = body.get("values").or_else(|| body.get("enum")) {
        field.vocabulary = choices(values)?;
    }
    if let Some(default) = body.get("default") {
        field.default = default_value(field, default)?;
    }
    Ok(())
}

/// Applies a fieldset's new settings: `title`, `description`, and `fields`, which moves those
/// fields onto it (off any other tab of the type's own), in that order.
pub fn patch_fieldset(profile: &TypeProfile, fieldset: &mut Fieldset, body: &Map<String, Value>) -> ApiResult<()> {
    if let Some(title) = text(body, "title")? {
        fieldset.title = title;
    }
    if let Some(description) = text(body, "description")? {
        fieldset.description = description;
    }
    if let Some(fields) = body.get("fields") {
        let names = string_list(fields, "fields")?;
        if let Some(unknown) = names.iter().find(|name| profile.field(name).is_none()) {
            return Err(ApiError::invalid_parameter("fields", format!("The type has no field '{unknown}'.")));
        }
        fieldset.fields = names;
    }
    if fieldset.title.is_empty() {
        fieldset.title = fieldset.id.clone();
    }
    Ok(())
}

/// Puts `fieldset` in the type (replacing the one of its id), taking its fields off the other
/// tabs of the type's own.
pub fn place_fieldset(profile: &mut TypeProfile, fieldset: Fieldset) {
    for other in profile.fieldsets.iter_mut().filter(|f| f.id != fieldset.id) {
        other.fields.retain(|name| !fieldset.fields.contains(name));
    }
    match profile.fieldsets.iter_mut().find(|f| f.id == fieldset.id) {
        Some(slot) => *slot = fieldset,
        None => profile.fieldsets.push(fieldset),
    }
}

/// Applies `fieldsets: [{id, title, description, fields}]` (PATCH and PUT): each names one of
/// the type's own tabs (made when missing); Plone's standard tabs are derived and ignored.
pub fn apply_fieldsets(profile: &mut TypeProfile, fieldsets: &Value) -> ApiResult<Vec<String>> {
    let list = fieldsets.as_array().ok_or_else(|| ApiError::invalid_parameter("fieldsets", "Expected a list."))?;
    let mut named = Vec::new();
    for entry in list {
        let body =
            entry.as_object().ok_or_else(|| ApiError::invalid_parameter("fieldsets", "Expected a list of objects."))?;
        let id =
            text(body, "id")?.ok_or_else(|| ApiError::invalid_parameter("fieldsets", "Every fieldset needs an id."))?;
        if FIELDSETS.iter().any(|(standard, _)| *standard == id) || id == "layout" {
            continue;
        }
        let mut fieldset = match profile.fieldsets.iter().find(|f| f.id == id) {
            Some(existing) => existing.clone(),
            None => new_fieldset(profile, body)?,
        };
        patch_fieldset(profile, &mut fieldset, body)?;
        named.push(fieldset.id.clone());
        place_fieldset(profile, fieldset);
    }
    Ok(named)
}

/// Gives the field what its factory adds beyond its kind.
fn become_kind(field: &mut FieldDef, factory: &Factory) {
    field.widget = factory.widget.map(str::to_owned);
    if factory.widget == Some(EMAIL_WIDGET) {
        field.pattern = Some(EMAIL_PATTERN.to_owned());
        field.pattern_hint = Some(EMAIL_HINT.to_owned());
    }
    if factory.widget != Some(MULTIPLE_CHOICE_WIDGET) && factory.kind != "Choice" {
        field.vocabulary.clear();
    }
}

fn default_value(field: &FieldDef, value: &Value) -> ApiResult<Option<toml::Value>> {
    if value.is_null() || value.as_str() == Some("") {
        return Ok(None);
    }
    let mut resolved = field.clone();
    resolved.kind = crate::content::FieldKind::core(field.kind_name()).unwrap_or(resolved.kind);
    if let Some(why) = stored_value_misfit(&resolved, &resolved, value) {
        return Err(ApiError::invalid_parameter("default", format!("The default does not fit the field: {why}")));
    }
    toml::Value::try_from(value)
        .map(Some)
        .map_err(|e| ApiError::invalid_parameter("default", format!("The default cannot be stored: {e}")))
}

fn length(value: &Value, name: &str) -> ApiResult<Option<usize>> {
    if value.is_null() {
        return Ok(None);
    }
    value
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| ApiError::invalid_parameter(name, format!("{name} must be a whole number of at least 0.")))
}

fn choices(value: &Value) -> ApiResult<Vec<String>> {
    let values = string_list(value, "values")?;
    if values.len() > VALUES_LIMIT {
        return Err(ApiError::invalid_parameter("values", format!("At most {VALUES_LIMIT} values.")));
    }
    let mut unique = Vec::with_capacity(values.len());
    for value in values.into_iter().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
        if !unique.contains(&value) {
            unique.push(value);
        }
    }
    Ok(unique)
}

fn string_list(value: &Value, name: &str) -> ApiResult<Vec<String>> {
    value
        .as_array()
        .and_then(|items| items.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>())
        .ok_or_else(|| ApiError::invalid_parameter(name, format!("{name} must be a list of strings.")))
}

/// The factory a field's settings name: its token or name, or the choice Volto's add-field
/// form keeps (`{"value": token, "label": name}`).
pub fn factory_of(body: &Map<String, Value>) -> ApiResult<Option<String>> {
    match body.get("factory") {
        Some(Value::Object(choice)) => match choice.get("value").or_else(|| choice.get("token")) {
            Some(Value::String(token)) => Ok(Some(token.clone())),
            _ => Err(ApiError::invalid_parameter("factory", "A factory choice needs its value.")),
        },
        _ => text(body, "factory"),
    }
}

/// A text property, if sent.
pub fn text(body: &Map<String, Value>, name: &str) -> ApiResult<Option<String>> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.chars().count() <= 10_000 => Ok(Some(text.clone())),
        Some(Value::String(_)) => Err(ApiError::invalid_parameter(name, format!("{name} is too long."))),
        Some(_) => Err(ApiError::invalid_parameter(name, format!("{name} must be a string."))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_made_from_titles_as_plone_makes_them() {
        assert_eq!(id_from_title("Author email"), "author_email");
        assert_eq!(id_from_title("  Contact -- Info! "), "contact_info");
        assert_eq!(id_from_title("Kürzel"), "kuerzel");
        assert_eq!(id_from_title("2nd line"), "field_2nd_line");
        assert_eq!(id_from_title("!!!"), "field");
    }
}
