//! Splitting text into what the comparison counts: whole words, single punctuation marks and
//! whitespace. Text is compared by meaning, so it is NFC-normalised first (a decomposed "ö"
//! equals a composed one; entities are already decoded by the parser) and invisible
//! characters that only steer line breaking are dropped.

use std::borrow::Cow;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
use unicode_segmentation::UnicodeSegmentation;

/// What a piece of text is to the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Piece {
    /// Letters or digits, kept whole ("Größe", "1.200,50", "don't").
    Word,
    /// One punctuation mark or symbol.
    Punct,
    /// Whitespace of any kind (a no-break space too); never compared.
    Space,
}

/// Soft hyphens and zero-width characters change neither meaning nor display of the words.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// `text` in the form it is compared in: NFC, without invisible characters.
pub(super) fn normalize(text: &str) -> Cow<'_, str> {
    let text: Cow<'_, str> = if text.chars().any(is_invisible) {
        Cow::Owned(text.chars().filter(|c| !is_invisible(*c)).collect())
    } else {
        Cow::Borrowed(text)
    };
    if is_nfc_quick(text.chars()) == IsNormalized::Yes { text } else { Cow::Owned(text.nfc().collect()) }
}

/// The pieces of normalised text, in order; runs of whitespace come as one piece.
pub(super) fn pieces(text: &str) -> impl Iterator<Item = (Piece, &str)> {
    let mut segments = text.split_word_bound_indices().peekable();
    std::iter::from_fn(move || {
        let (start, segment) = segments.next()?;
        if segment.chars().all(char::is_whitespace) {
            let mut end = start + segment.len();
            while let Some((next, more)) = segments.peek() {
                if !more.chars().all(char::is_whitespace) {
                    break;
                }
                end = next + more.len();
                segments.next();
            }
            return Some((Piece::Space, &text[start..end]));
        }
        let kind = if segment.chars().any(char::is_alphanumeric) { Piece::Word } else { Piece::Punct };
        Some((kind, segment))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Piece, String)> {
        pieces(&normalize(text)).map(|(k, s)| (k, s.to_owned())).collect()
    }

    #[test]
    fn words_numbers_and_punctuation_are_whole_pieces() {
        let got = kinds("Die Größe: 1.200,50 €, nicht\u{a0} mehr.");
        let words: Vec<&str> = got.iter().filter(|(k, _)| *k == Piece::Word).map(|(_, s)| s.as_str()).collect();
        assert_eq!(words, ["Die", "Größe", "1.200,50", "nicht", "mehr"]);
        assert!(got.iter().any(|(k, s)| *k == Piece::Punct && s == "€"));
        assert!(got.iter().any(|(k, s)| *k == Piece::Space && s == "\u{a0} "), "{got:?}");
    }

    #[test]
    fn decomposed_text_and_soft_hyphens_compare_like_composed_text() {
        assert_eq!(normalize("Gro\u{308}\u{df}e"), "Größe");
        assert_eq!(normalize("Silben\u{ad}trennung"), "Silbentrennung");
    }
}
