//! Plone's CSV upload of users (`POST @users` with a file, Manage users): a header line naming
//! the columns (`username`, `email`, `fullname`, `description`, `roles`, `home_page`,
//! `location`, `password`; `id` for `username`), then one user per line. `roles` lists roles
//! separated by commas (in one quoted cell); an empty one gives `Member`. Every line is checked
//! as a JSON request would be, and the users are created all together or, one line failing,
//! not at all; the error names the line.

use super::created::{UserCreated, UsersImported};
use super::post::{prepare, store};
use super::user_item;
use crate::http::{ApiError, ApiResult, Ctx, ErrorCode};
use crate::security::Permission;
use serde_json::{Map, Value, json};

/// The most users one file creates.
const MAX_USERS: usize = 1000;

/// The columns a file may have.
const COLUMNS: [&str; 9] =
    ["username", "id", "email", "fullname", "description", "roles", "home_page", "location", "password"];

/// Creates the users of `file`.
pub async fn import(ctx: &Ctx, file: &str) -> ApiResult<UserCreated> {
    ctx.check(Permission::MANAGE_USERS)?;
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).flexible(false).from_reader(file.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| bad(format!("The first line must name the columns: {e}")))?
        .iter()
        .map(str::to_ascii_lowercase)
        .collect();
    if let Some(unknown) = header.iter().find(|h| !COLUMNS.contains(&h.as_str())) {
        return Err(bad(format!("Unknown column '{unknown}'; the columns are {}.", COLUMNS.join(", "))));
    }
    let mut prepared = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = record.map_err(|e| bad(format!("Line {line}: {e}")))?;
        if prepared.len() == MAX_USERS {
            return Err(bad(format!("A file creates at most {MAX_USERS} users.")));
        }
        let body = user_body(&header, &record);
        let user = prepare(ctx, &body, true).map_err(|mut error| {
            error.message = format!("Line {line}: {}", error.message);
            error
        })?;
        prepared.push(user);
    }
    if prepared.is_empty() {
        return Err(bad("The file has no users.".into()));
    }
    store(ctx, &mut prepared).await?;
    let site = ctx.site_url();
    let items: Vec<_> = prepared.iter().map(|p| user_item(&site, &ctx.request.request_url(), &p.user)).collect();
    Ok(UserCreated::Many(UsersImported { items_total: items.len(), items }))
}

/// One line as the JSON body of a single user: empty cells left out, `roles` split.
fn user_body(header: &[String], record: &csv::StringRecord) -> Map<String, Value> {
    let mut body = Map::new();
    for (column, cell) in header.iter().zip(record.iter()).filter(|(_, cell)| !cell.is_empty()) {
        let value = if column == "roles" {
            json!(cell.split(',').map(str::trim).filter(|r| !r.is_empty()).collect::<Vec<_>>())
        } else {
            json!(cell)
        };
        body.insert(column.clone(), value);
    }
    body
}

fn bad(message: String) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}

#[cfg(test)]
mod tests {
    use super::user_body;

    #[test]
    fn a_line_becomes_a_users_body() {
        let header: Vec<String> = ["username", "roles", "email"].map(String::from).to_vec();
        let body = user_body(&header, &csv::StringRecord::from(vec!["jdoe", "Member, Contributor", ""]));
        assert_eq!(
            serde_json::Value::Object(body),
            serde_json::json!({"username": "jdoe", "roles": ["Member", "Contributor"]})
        );
    }
}
