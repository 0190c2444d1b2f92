//! What `POST @users` answers: 201 with the new user and its URL in `Location`, or, for a
//! CSV upload, 201 with every user it created, as plone.restapi answers both.

use super::UserItem;
use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};
use poem_openapi::{ApiResponse, Object};

/// The users a CSV upload created.
#[derive(Object)]
pub struct UsersImported {
    /// The new users, in the file's order.
    pub items: Vec<UserItem>,
    /// How many.
    pub items_total: usize,
}

/// 201 with one user (and its URL) or with the users of a CSV upload.
pub enum UserCreated {
    /// One user and its URL.
    One(Box<UserItem>, String),
    /// The users of a CSV upload.
    Many(UsersImported),
}

impl IntoResponse for UserCreated {
    fn into_response(self) -> Response {
        let builder = Response::builder().status(StatusCode::CREATED).content_type("application/json");
        match self {
            UserCreated::One(user, location) => builder.header("Location", location).body(user.to_json_string()),
            UserCreated::Many(users) => builder.body(users.to_json_string()),
        }
    }
}

impl ApiResponse for UserCreated {
    fn meta() -> MetaResponses {
        let mut schema = MetaSchema::new("object");
        schema.one_of = vec![UserItem::schema_ref(), UsersImported::schema_ref()];
        MetaResponses {
            responses: vec![MetaResponse {
                description: "Created: the user (its URL in `Location`), or the users of a CSV upload",
                status: Some(201),
                status_range: None,
                content: vec![MetaMediaType {
                    content_type: "application/json",
                    schema: MetaSchemaRef::Inline(Box::new(schema)),
                }],
                headers: vec![],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        UserItem::register(registry);
        UsersImported::register(registry);
    }
}
