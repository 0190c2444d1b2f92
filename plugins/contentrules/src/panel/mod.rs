//! `@controlpanels/content-rules`: Site Setup's Content Rules panel, as plone.restapi serves
//! it. The plugin owns this part of core's `@controlpanels` (a longer service name answers
//! first), and lists the panel there like any other. Everything needs Manage portal.

mod delete;
mod get;
mod input;
mod patch;
mod post;
mod render;
mod shapes;

pub use delete::DELETE;
pub use get::GET;
pub use patch::PATCH;
pub use post::POST;
pub use render::{GROUP, TITLE};
