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

/// Characters below the combining diacritical marks (U+0300): each is NFC on its own and none
/// combines with another, so text made of them is NFC (a test holds every one of them to the
/// quick check); only the soft hyphen among them is invisible.
fn is_plain_latin(c: char) -> bool {
    c < '\u{300}' && c != '\u{ad}'
}

/// `text` in the form it is compared in: NFC, without invisible characters.
pub(super) fn normalize(text: &str) -> Cow<'_, str> {
    // ASCII is NFC and has no invisible characters; most text nodes are plain ASCII, and
    // nearly all the others are Latin text, which one pass shows to need nothing either.
    if text.is_ascii() || text.chars().all(is_plain_latin) {
        return Cow::Borrowed(text);
    }
    let text: Cow<'_, str> = if text.chars().any(is_invisible) {
        Cow::Owned(text.chars().filter(|c| !is_invisible(*c)).collect())
    } else {
        Cow::Borrowed(text)
    };
    if is_nfc_quick(text.chars()) == IsNormalized::Yes { text } else { Cow::Owned(text.nfc().collect()) }
}

/// Splits normalised text into its pieces, in order; runs of whitespace come as one piece.
///
/// Word boundaries are Unicode's (UAX #29). Text made only of ASCII and Latin letters, which
/// is nearly all text here, is split by [`latin_pieces`], which applies the same rules to
/// those few classes of characters directly instead of looking each character up in the full
/// tables; the property test below holds the two to the same answers. One splitter serves a
/// whole side, so the classes of its text nodes share one buffer.
#[derive(Default)]
pub(super) struct Splitter {
    /// The byte offset and class of each character of the text being split.
    classes: Vec<(usize, Class)>,
}

impl Splitter {
    pub(super) fn pieces(&mut self, text: &str, mut each: impl FnMut(Piece, &str)) {
        if classify(text, &mut self.classes) {
            latin_pieces(text, &self.classes, each);
        } else {
            unicode_pieces(text).for_each(|(piece, part)| each(piece, part));
        }
    }
}

/// Splits with the full Unicode tables.
fn unicode_pieces(text: &str) -> impl Iterator<Item = (Piece, &str)> {
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

/// The word-break classes (UAX #29) of the characters [`latin_pieces`] handles.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// ALetter.
    Letter,
    /// Numeric.
    Digit,
    /// ExtendNumLet (`_`): joins letters and digits on both sides.
    Connector,
    /// MidLetter (`:`): joins two letters.
    MidLetter,
    /// MidNumLet and Single_Quote (`.`, `'`): join two letters or two digits.
    MidBoth,
    /// MidNum (`,`, `;`): joins two digits.
    MidNum,
    Space,
    /// Anything else: a piece of its own.
    Other,
}

/// The class of `c`, or `None` when only the full tables know it.
fn class(c: char) -> Option<Class> {
    Some(match c {
        'a'..='z' | 'A'..='Z' => Class::Letter,
        '0'..='9' => Class::Digit,
        '_' => Class::Connector,
        ':' => Class::MidLetter,
        '.' | '\'' => Class::MidBoth,
        ',' | ';' => Class::MidNum,
        ' ' | '\t' | '\n' | '\r' => Class::Space,
        '!'..='~' => Class::Other,
        // Latin-1 letters and Latin Extended-A/B, without × and ÷.
        '\u{c0}'..='\u{24f}' if c != '\u{d7}' && c != '\u{f7}' => Class::Letter,
        _ => return None,
    })
}

fn is_word_class(class: Class) -> bool {
    matches!(class, Class::Letter | Class::Digit | Class::Connector)
}

/// Fills `classes` with the class of each character of `text`; `false` (and `classes` left
/// partly filled) at the first character only the full tables know.
fn classify(text: &str, classes: &mut Vec<(usize, Class)>) -> bool {
    classes.clear();
    for (at, c) in text.char_indices() {
        match class(c) {
            Some(class) => classes.push((at, class)),
            None => return false,
        }
    }
    true
}

/// Splits text by the classes [`classify`] found for each of its characters.
fn latin_pieces(text: &str, chars: &[(usize, Class)], mut each: impl FnMut(Piece, &str)) {
    let class_at = |i: usize| chars.get(i).map(|(_, class)| *class);
    let offset = |i: usize| chars.get(i).map_or(text.len(), |(at, _)| *at);
    let mut i = 0;
    while let Some(first) = class_at(i) {
        let start = i;
        i += 1;
        let piece = match first {
            Class::Space => {
                while class_at(i) == Some(Class::Space) {
                    i += 1;
                }
                Piece::Space
            }
            _ if is_word_class(first) => {
                let mut alphanumeric = first != Class::Connector;
                loop {
                    match class_at(i) {
                        Some(next) if is_word_class(next) => {
                            alphanumeric |= next != Class::Connector;
                            i += 1;
                        }
                        // WB6/7 and WB11/12: a middle mark between two letters or two digits.
                        Some(middle @ (Class::MidLetter | Class::MidBoth | Class::MidNum)) => {
                            let before = class_at(i - 1);
                            let after = class_at(i + 1);
                            let letters = before == Some(Class::Letter)
                                && after == Some(Class::Letter)
                                && middle != Class::MidNum;
                            let digits = before == Some(Class::Digit)
                                && after == Some(Class::Digit)
                                && middle != Class::MidLetter;
                            if !(letters || digits) {
                                break;
                            }
                            i += 2;
                        }
                        _ => break,
                    }
                }
                if alphanumeric { Piece::Word } else { Piece::Punct }
            }
            _ => Piece::Punct,
        };
        each(piece, &text[offset(start)..offset(i)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Piece, String)> {
        let mut got = Vec::new();
        Splitter::default().pieces(&normalize(text), |k, s| got.push((k, s.to_owned())));
        got
    }

    proptest::proptest! {
        /// The Latin splitter gives exactly what the full Unicode tables give.
        #[test]
        fn latin_text_splits_as_the_unicode_tables_split_it(
            text in "[aZ09_:.',; \t\r\n!?()\"\\-äöüßÄÉĀžǿ]{0,40}"
        ) {
            let (mut latin, mut classes) = (Vec::new(), Vec::new());
            proptest::prop_assert!(classify(&text, &mut classes));
            latin_pieces(&text, &classes, |k, s| latin.push((k, s.to_owned())));
            let unicode: Vec<(Piece, String)> = unicode_pieces(&text).map(|(k, s)| (k, s.to_owned())).collect();
            proptest::prop_assert_eq!(latin, unicode);
        }
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
    fn plain_latin_characters_are_normalised_and_visible_as_they_are() {
        for c in ('\0'..'\u{300}').filter(|c| is_plain_latin(*c)) {
            assert_eq!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes, "{c:?}");
            assert!(!is_invisible(c), "{c:?}");
        }
        assert_eq!(normalize("Stra\u{df}e und Gr\u{f6}\u{df}e"), "Stra\u{df}e und Gr\u{f6}\u{df}e");
        assert_eq!(normalize("Ein\u{ad}trag"), "Eintrag");
    }

    #[test]
    fn decomposed_text_and_soft_hyphens_compare_like_composed_text() {
        assert_eq!(normalize("Gro\u{308}\u{df}e"), "Größe");
        assert_eq!(normalize("Silben\u{ad}trennung"), "Silbentrennung");
    }
}
