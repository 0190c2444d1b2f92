//! `GET <site>/@userschema/registration`: the self-registration form's fields, as plone.restapi
//! gives them; `POST @users` takes them from anyone while self-registration is on
//! (`password_ctl` must repeat `password`; `mail_me` mails a link to set the password).

use super::{UserSchemaField, UserSchemaFieldset, email_field, field, fullname_field, one_fieldset};
use crate::http::{ApiResult, Ctx, Json};
use poem_openapi::Object;

/// The form's JSON Schema.
#[derive(Object)]
pub(super) struct RegistrationSchema {
    /// `object`.
    #[oai(rename = "type")]
    kind: String,
    /// One fieldset with every property.
    fieldsets: Vec<UserSchemaFieldset>,
    /// The properties.
    properties: RegistrationProperties,
    /// What a visitor must fill in.
    required: Vec<String>,
}

/// The fields of the form.
#[derive(Object)]
struct RegistrationProperties {
    /// The full name.
    fullname: UserSchemaField,
    /// The e-mail address.
    email: UserSchemaField,
    /// The login name.
    username: UserSchemaField,
    /// The password.
    password: UserSchemaField,
    /// The password again.
    password_ctl: UserSchemaField,
    /// Whether to mail a link to set the password.
    mail_me: FlagField,
}

/// A yes/no field.
#[derive(Object)]
struct FlagField {
    /// The label.
    title: String,
    /// The help text.
    description: String,
    /// `Yes/No`.
    factory: String,
    /// `boolean`.
    #[oai(rename = "type")]
    kind: String,
    /// Off.
    default: bool,
}

pub(super) async fn get(_: Ctx) -> ApiResult<Json<RegistrationSchema>> {
    let properties = RegistrationProperties {
        fullname: fullname_field(),
        email: email_field(),
        username: field(
            "User Name",
            "Enter a user name, usually something like 'jsmith'. No spaces or special characters. Usernames and \
             passwords are case sensitive, make sure the caps lock key is not enabled. This is the name used to \
             log in.",
            "Text line (String)",
            None,
        ),
        password: field("Password", "Enter your new password.", "Password", Some("password")),
        password_ctl: field(
            "Confirm password",
            "Re-enter the password. Make sure the passwords are identical.",
            "Password",
            Some("password"),
        ),
        mail_me: FlagField {
            title: "Send a confirmation mail with a link to set the password".to_owned(),
            description: String::new(),
            factory: "Yes/No".to_owned(),
            kind: "boolean".to_owned(),
            default: false,
        },
    };
    Ok(Json(RegistrationSchema {
        kind: "object".to_owned(),
        fieldsets: one_fieldset(&["fullname", "email", "username", "password", "password_ctl", "mail_me"]),
        properties,
        required: ["email", "username", "password", "password_ctl"].map(str::to_owned).to_vec(),
    }))
}
