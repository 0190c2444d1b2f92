//! The municipal site profile for wcs-backend: the types a German/English town's site is
//! built from, and what they need beyond Plone's standard types.
//!
//! - **Topics and subtopics** (`Topic`, `SubTopic`): a subtopic lives in one place but names
//!   the topics it belongs to (`main_topics`), and the navigation plugin shows it under each.
//! - **Block pages** (`ContentPage`, `Chapter`, `NewsFolder`, `News`) and their block types
//!   (`TextBlock`, `FileListingBlock`, `GalleryBlock`, `VideoBlock`, `NewsListingBlock`), in
//!   ftw.simplelayout's REST shape, which core serializes for any type with the `blocks` and
//!   `block` behaviours.
//! - **News**: a news folder lists the newest news first (`news_date`), the catalog's `start`
//!   index holds that date as ftw.news indexes it, and a news listing block selects news.
//! - **Demo content** for `wcs serve --demo`.
//!
//! With the plugin off, core still serves Plone's standard types; content of these types in
//! the database is then of an unknown type.

mod news_listing;

use wcs_core::catalog::FieldIndex;
use wcs_core::plugin::Registrar;
use wcs_core::store::{BehaviourOrder, ListingOrder};

/// The plugin's id, as named in `--disable-plugins` and the manifest.
pub const PLUGIN_ID: &str = "site-profile";

/// The type of a news entry.
const NEWS: &str = "News";
/// Where a news entry keeps its date.
const NEWS_DATE: &str = "news_date";

/// `start`: the news date, as ftw.news indexes it (`sort_on=start`, `start.query=…`).
static START: FieldIndex = FieldIndex { name: "start", field: NEWS_DATE };

/// A news folder (behaviour `news_folder`) lists the newest news first.
static NEWS_FOLDER_ORDER: BehaviourOrder =
    BehaviourOrder { behaviour: "news_folder", order: ListingOrder::FieldDescending(NEWS_DATE) };

fn build(r: &mut Registrar) {
    for profile in [
        include_str!("../types/topic.toml"),
        include_str!("../types/subtopic.toml"),
        include_str!("../types/content_page.toml"),
        include_str!("../types/chapter.toml"),
        include_str!("../types/news_folder.toml"),
        include_str!("../types/news.toml"),
        include_str!("../types/text_block.toml"),
        include_str!("../types/file_listing_block.toml"),
        include_str!("../types/gallery_block.toml"),
        include_str!("../types/video_block.toml"),
        include_str!("../types/news_listing_block.toml"),
    ] {
        r.content_type(profile);
    }
    r.content_serializer(&news_listing::NEWS_LISTING_BLOCK);
    r.catalog_index(&START);
    r.listing_order(&NEWS_FOLDER_ORDER);
    r.demo_content(include_str!("../demo/content.json"));
}

wcs_core::plugin!(id: PLUGIN_ID, depends_on: ["core"], build: build);
