//! The last pass over every comparison: an allowlist sanitiser that also re-parses and
//! re-serialises, so what leaves the engine is clean and well-formed whatever came in.
//! Scripts, styles and event-handler attributes never pass; classes are limited to the
//! frames and the gap marker the engine writes itself.

use ammonia::Builder;
use std::collections::HashSet;
use std::sync::LazyLock;

static SANITIZER: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let mut builder = Builder::default();
    builder
        .add_tags(["iframe", "figure", "figcaption"])
        .add_tag_attributes("iframe", ["src", "title", "width", "height", "allow", "allowfullscreen"])
        .add_tag_attributes("img", ["title"])
        .clean_content_tags(HashSet::from(["script", "style", "template", "textarea", "noscript"]));
    let frames = ["border", "border-3", "border-danger", "border-success", "border-warning"];
    for tag in ["img", "iframe", "hr", "figure", "span"] {
        builder.add_allowed_classes(tag, frames);
    }
    builder.add_allowed_classes("p", ["text-body-secondary"]);
    builder
});

/// Cleans markup for sending.
pub(super) fn sanitize(html: &str) -> String {
    SANITIZER.clean(html).to_string()
}
