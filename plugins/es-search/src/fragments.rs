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
