//! Highlight fragments as Elasticsearch's unified highlighter cuts them: it breaks text at
//! sentence boundaries, so a sentence's closing mark belongs to its fragment, where tantivy's
//! snippets end with the last word.

use tantivy::snippet::Snippet;

/// The marks that close a sentence.
const CLOSING: [char; 3] = ['.', '!', '?'];

/// `snippet` as HTML, with the mark that closes its sentence in `text` when its fragment ends
/// right before one.
pub fn closed_html(snippet: &Snippet, text: &str) -> String {
    let mut html = snippet.to_html();
    let fragment = snippet.fragment();
    if fragment.is_empty() {
        return html;
    }
    let after = text.find(fragment).and_then(|at| text[at + fragment.len()..].chars().next());
    if let Some(mark) = after.filter(|c| CLOSING.contains(c)) {
        html.push(mark);
    }
    html
}

/// `snippet` within the whole of `text` (`number_of_fragments: 0`): what lies before and after
/// its fragment kept, untrimmed, as Elasticsearch gives the whole value.
pub fn whole_html(snippet: &Snippet, text: &str) -> String {
    let fragment = snippet.fragment();
    let Some(start) = text.find(fragment) else { return snippet.to_html() };
    let end = start + fragment.len();
    format!("{}{}{}", escape(&text[..start]), snippet.to_html(), escape(&text[end..]))
}

/// HTML escaping as tantivy's fragments have it (htmlescape's minimal encoding).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            other => out.push(other),
        }
    }
    out
}
