//! `GET <site>/@userschema`: the JSON Schema of a user's personal information, as Volto's
//! personal-preferences and user control-panel forms render it (plone.restapi's shape). It
//! lists exactly the properties `@users` stores; Plone's portrait is not kept here, so it is
//! not offered.

use crate::http::{ApiResult, json};
use crate::security::{Csrf, Permission};
use crate::service::{ContentKind, Service};
use poem::Response;
use poem::http::Method;
use serde_json::{Value, json};

/// The service.
pub static USER_SCHEMA: Service = Service {
    method: Method::GET,
    name: "@userschema",
    kind: ContentKind::Type("Plone Site"),
    permission: Permission::VIEW,
    csrf: Csrf::Cookie,
    routes: &[crate::service::Route::any(
        "The schema of a user's personal information (fullname, email, home_page, description, location)",
        crate::untyped!(|_| Box::pin(get())),
    )],
};

async fn get() -> ApiResult<Response> {
    Ok(json(&schema()))
}

fn schema() -> Value {
    let field = |title: &str, description: &str, factory: &str, widget: Option<&str>| {
        let mut property = json!({"title": title, "description": description, "factory": factory, "type": "string"});
        if let Some(widget) = widget {
            property["widget"] = json!(widget);
        }
        property
    };
    json!({
        "type": "object",
        "fieldsets": [{
            "id": "default",
            "title": "Default",
            "behavior": "plone",
            "fields": ["fullname", "email", "home_page", "description", "location"],
        }],
        "properties": {
            "fullname": field("Full Name", "Enter full name, for example, John Smith.", "Text line (String)", None),
            "email": field("Email", "We will use this address if you need to recover your password", "Email", Some("email")),
            "home_page": field("Home page", "The URL for your external home page, if you have one.", "URL", Some("url")),
            "description": field(
                "Biography",
                "A short overview of who you are and what you do. Will be displayed on your author page, \
                 linked from the items you create.",
                "Text",
                Some("textarea"),
            ),
            "location": field(
                "Location",
                "Your location - either city and country - or in a company setting, where your office is located.",
                "Text line (String)",
                None,
            ),
        },
        "required": ["email"],
    })
}
