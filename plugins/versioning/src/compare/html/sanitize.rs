//! The last pass over every comparison: core's rich-text policy (frames with http(s)
//! sources) plus what only a comparison shows: custom elements with their text and safe
//! attributes, figures, and the classes the engine writes itself (frames and the gap
//! marker). It re-parses and re-serialises, so what leaves the engine is clean and well-formed
//! whatever came in; scripts, styles and event-handler attributes never pass.

use ammonia::Builder;
use std::collections::HashSet;
use std::sync::LazyLock;
use wcs_core::content::markup::{CustomElements, is_custom_element_name, policy};

/// The frame classes (Bootstrap 5.3 border utilities) an object inside a mark carries.
const FRAMES: [&str; 5] = ["border", "border-3", "border-danger", "border-success", "border-warning"];

/// Comparisons without custom elements, which are nearly all, share one builder.
static PLAIN: LazyLock<CustomElements> = LazyLock::new(CustomElements::default);
static SANITIZER: LazyLock<Builder<'static>> = LazyLock::new(|| comparison_policy(&PLAIN));
static KEPT_TAGS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| SANITIZER.clone_tags());

fn comparison_policy(custom: &CustomElements) -> Builder<'_> {
    let mut builder = policy(custom);
    builder
        .add_tags(["figure", "figcaption"])
        .add_tag_attributes("img", ["title"])
        .clean_content_tags(HashSet::from(["script", "style", "template", "textarea", "noscript"]));
    for tag in ["img", "iframe", "hr", "figure", "span"].into_iter().chain(custom.names()) {
        builder.add_allowed_classes(tag, FRAMES);
    }
    builder.add_allowed_classes("p", ["text-body-secondary"]);
    builder
}

/// Cleans markup for sending.
pub(super) fn sanitize(html: &str) -> String {
    let custom = CustomElements::scan(html);
    if custom.is_empty() {
        SANITIZER.clean(html).to_string()
    } else {
        comparison_policy(&custom).clean(html).to_string()
    }
}

/// Whether the sanitiser keeps the tags of an element the comparison writes as `name` (custom
/// elements it keeps whenever it finds them); of any other it keeps only the content, so
/// readers get that content directly in the element around it.
pub(super) fn keeps_tags(name: &str) -> bool {
    KEPT_TAGS.contains(name) || is_custom_element_name(name)
}
