//! The way out for markup too deeply nested to parse in reasonable time: a linear estimate
//! of the nesting depth, and a comparison of the bare text as a whole replacement.

use super::HtmlDiff;
use super::names::is_void;
use super::render::escape_into;
use super::sanitize::sanitize;

/// The deepest nesting of start tags over end tags, estimated in one pass without parsing
/// (elements whose end tag is implied count as open: an overestimate, never less).
pub(super) fn nesting(html: &str) -> usize {
    let bytes = html.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(c) if c.is_ascii_alphabetic() => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
                    end += 1;
                }
                let closes_itself =
                    bytes[end..].iter().position(|b| *b == b'>').is_some_and(|p| p > 0 && bytes[end + p - 1] == b'/');
                let name = std::str::from_utf8(&bytes[start..end]).unwrap_or_default().to_ascii_lowercase();
                if !is_void(&name) && !closes_itself {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
            }
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// The text of markup without parsing it: tags left out, whitespace collapsed.
fn bare_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                if !text.ends_with(' ') {
                    text.push(' ');
                }
            }
            _ if in_tag => {}
            c if c.is_whitespace() => {
                if !text.ends_with(' ') {
                    text.push(' ');
                }
            }
            c => text.push(c),
        }
    }
    text.trim().to_owned()
}

/// The version's text removed, the current text added.
pub(super) fn replace_whole(old: &str, new: &str) -> HtmlDiff {
    let mut html = String::from("<p><del>");
    escape_into(&mut html, &bare_text(old));
    html.push_str("</del></p><p><ins>");
    escape_into(&mut html, &bare_text(new));
    html.push_str("</ins></p>");
    HtmlDiff { html: sanitize(&html), changed: true, replaced_whole: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_open_elements_but_not_void_or_closed_ones() {
        assert_eq!(nesting("<p>a <b>b</b> <br> <img src=x/> </p><p>c</p>"), 2);
        assert_eq!(nesting(&"<div>".repeat(5000)), 5000);
        assert_eq!(nesting("a < b and </p></p>"), 0);
    }

    #[test]
    fn whole_replacement_shows_escaped_bare_text() {
        let diff = replace_whole("<div><b>alt &amp; gut</b></div>", "<div>neu <script>x</script></div>");
        assert_eq!(diff.html, "<p><del>alt &amp;amp; gut</del></p><p><ins>neu x</ins></p>");
    }
}
