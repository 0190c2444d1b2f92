//! `GET <site>/@userschema`: the JSON Schema of a user's personal information, as Volto's
//! personal-preferences and user control-panel forms render it (plone.restapi's shape). It
//! lists exactly the properties `@users` stores, the portrait among them.
//! `GET <site>/@userschema/registration` is the self-registration form's (see
//! [`registration`]).

mod registration;

use crate::endpoint;
use crate::http::{ApiResult, Ctx, Json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Guard, Route, Service};
use poem::http::Method;
use poem_openapi::Object;

/// The service.
pub static USER_SCHEMA: Service = Service {
    method: Method::GET,
    name: "@userschema",
    kind: ContentKind::Type("Plone Site"),
    guard: Guard::Has(Permission::VIEW),
    csrf: Csrf::Cookie,
    routes: &[
        Route::new(
            "",
            "The schema of a user's personal information (fullname, email, home_page, description, location, \
             portrait)",
            endpoint!(get),
        ),
        Route::new(
            "registration",
            "The schema of the self-registration form (fullname, email, username, password, password_ctl, \
             mail_me)",
            endpoint!(registration::get),
        ),
    ],
};

/// The form's JSON Schema: the properties `@users` stores, in one fieldset.
#[derive(Object)]
struct UserSchema {
    /// `object`.
    #[oai(rename = "type")]
    kind: String,
    /// One fieldset with every property.
    fieldsets: Vec<UserSchemaFieldset>,
    /// The properties.
    properties: UserSchemaProperties,
    /// `email`: the one property a user must have.
    required: Vec<String>,
}

/// A tab of the form.
#[derive(Object)]
pub(super) struct UserSchemaFieldset {
    /// `default`.
    id: String,
    /// `Default`.
    title: String,
    /// `plone`.
    behavior: String,
    /// The properties on it, in order.
    fields: Vec<String>,
}

/// The properties of a user's personal information.
#[derive(Object)]
struct UserSchemaProperties {
    /// The full name.
    fullname: UserSchemaField,
    /// The email address, also the login for password resets.
    email: UserSchemaField,
    /// An external home page.
    home_page: UserSchemaField,
    /// A short biography.
    description: UserSchemaField,
    /// Where they are.
    location: UserSchemaField,
    /// Their picture.
    portrait: PortraitField,
}

/// The portrait: an image, as Volto's file widget uploads it.
#[derive(Object)]
struct PortraitField {
    /// The label.
    title: String,
    /// The help text.
    description: String,
    /// `Image`.
    factory: String,
    /// `object`.
    #[oai(rename = "type")]
    kind: String,
    /// The parts of the upload.
    properties: PortraitParts,
}

/// The parts of an uploaded portrait, as plone.namedfile names them.
#[derive(Object)]
struct PortraitParts {
    /// Its MIME type.
    #[oai(rename = "portrait.contentType")]
    content_type: UserSchemaField,
    /// Its bytes, base64-encoded.
    #[oai(rename = "portrait.data")]
    data: UserSchemaField,
    /// The name of the file.
    #[oai(rename = "portrait.filename")]
    filename: UserSchemaField,
}

/// One property, as Volto's form widgets read it.
#[derive(Object)]
pub(super) struct UserSchemaField {
    /// The label.
    title: String,
    /// The help text.
    description: String,
    /// The zope.schema field it stands for (`Email`, `URL`, `Text`, `Text line (String)`).
    factory: String,
    /// `string`.
    #[oai(rename = "type")]
    kind: String,
    /// A widget when the factory's default does not fit (`email`, `url`, `textarea`).
    #[oai(skip_serializing_if_is_none)]
    widget: Option<String>,
    /// `""` for the portrait's parts that have a default.
    #[oai(skip_serializing_if_is_none)]
    default: Option<String>,
}

fn field(title: &str, description: &str, factory: &str, widget: Option<&str>) -> UserSchemaField {
    UserSchemaField {
        title: title.to_owned(),
        description: description.to_owned(),
        factory: factory.to_owned(),
        kind: "string".to_owned(),
        widget: widget.map(str::to_owned),
        default: None,
    }
}

/// A part of the portrait upload: a text line, with an empty default where Plone gives one.
fn portrait_part(title: &str, description: &str, default: Option<&str>) -> UserSchemaField {
    UserSchemaField { default: default.map(str::to_owned), ..field(title, description, "Text line (String)", None) }
}

async fn get(_: Ctx) -> ApiResult<Json<UserSchema>> {
    let properties = UserSchemaProperties {
        fullname: fullname_field(),
        email: email_field(),
        home_page: field("Home page", "The URL for your external home page, if you have one.", "URL", Some("url")),
        description: field(
            "Biography",
            "A short overview of who you are and what you do. Will be displayed on your author page, linked from \
             the items you create.",
            "Text",
            Some("textarea"),
        ),
        location: field(
            "Location",
            "Your location - either city and country - or in a company setting, where your office is located.",
            "Text line (String)",
            None,
        ),
        portrait: PortraitField {
            title: "Portrait".to_owned(),
            description: "To add or change the portrait: click the \"Browse\" button; select a picture of yourself. \
                          Recommended image size is 75 pixels wide by 100 pixels tall."
                .to_owned(),
            factory: "Image".to_owned(),
            kind: "object".to_owned(),
            properties: PortraitParts {
                content_type: portrait_part("Content Type", "The content type identifies the type of data.", Some("")),
                data: portrait_part("Data", "The actual content of the object.", Some("")),
                filename: portrait_part("Filename", "", None),
            },
        },
    };
    Ok(Json(UserSchema {
        kind: "object".to_owned(),
        fieldsets: one_fieldset(&["fullname", "email", "home_page", "description", "location", "portrait"]),
        properties,
        required: vec!["email".to_owned()],
    }))
}

/// The one tab both forms have, with `fields` in order.
fn one_fieldset(fields: &[&str]) -> Vec<UserSchemaFieldset> {
    vec![UserSchemaFieldset {
        id: "default".to_owned(),
        title: "Default".to_owned(),
        behavior: "plone".to_owned(),
        fields: fields.iter().map(|f| (*f).to_owned()).collect(),
    }]
}

fn fullname_field() -> UserSchemaField {
    field("Full Name", "Enter full name, for example, John Smith.", "Text line (String)", None)
}

fn email_field() -> UserSchemaField {
    field("Email", "We will use this address if you need to recover your password", "Email", Some("email"))
}
