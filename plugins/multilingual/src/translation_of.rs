//! `translation_of` in the body of a new object (`POST <folder>` with `language` and
//! `translation_of`: Volto's "Add translation"): the new object joins the translation group
//! of the object named, in the transaction that creates it.

use crate::store::link;
use crate::target::named_object;
use serde_json::Value;
use wcs_core::content::ContentObject;
use wcs_core::http::ApiResult;
use wcs_core::service::CreateKey;
use wcs_core::site::Site;
use wcs_core::store::{Tx, Visibility};

/// The key.
pub static TRANSLATION_OF: CreateKey = CreateKey {
    name: "translation_of",
    run: |site, tx, visibility, object, value| Box::pin(link_new(site, tx, visibility, object, value)),
};

async fn link_new(
    site: &Site,
    tx: &mut Tx,
    visibility: &Visibility,
    object: &ContentObject,
    value: &Value,
) -> ApiResult<()> {
    let site_path = format!("/{}", object.site_id());
    let original = named_object(site, &site_path, visibility, "translation_of", value).await?;
    link(tx, &original, object).await
}
