//! Elasticsearch's `standard` analyzer, the default of `text` fields in an index mapping: words
//! by Unicode's word-boundary rules (UAX #29, as Lucene's `StandardTokenizer` splits them, so
//! `l'avion`, `3.14` and `u.s.a` stay one word and `wi-fi` becomes two), lowercased, no stop
//! words and no stemming. Mappings given to `wcs search eval` use it; the site index keeps the
//! German analyzer.

use std::sync::LazyLock;
use tantivy::tokenizer::{
    LowerCaser, RemoveLongFilter, TextAnalyzer, Token, TokenStream, Tokenizer, WhitespaceTokenizer,
};
use unicode_segmentation::UnicodeSegmentation;

/// The name the analyzer is registered under.
pub const STANDARD: &str = "es_standard";

/// Lucene's `StandardTokenizer` leaves out longer words (255 characters by default).
const LONGEST_WORD: usize = 255;

static STANDARD_ANALYZER: LazyLock<TextAnalyzer> = LazyLock::new(|| {
    TextAnalyzer::builder(WordBoundaries).filter(RemoveLongFilter::limit(LONGEST_WORD + 1)).filter(LowerCaser).build()
});

/// The analyzer (a clone of one built once).
pub fn standard() -> TextAnalyzer {
    STANDARD_ANALYZER.clone()
}

/// The name Elasticsearch's `whitespace` analyzer is registered under.
pub const WHITESPACE: &str = "es_whitespace";

/// Elasticsearch's `whitespace` analyzer: words between spaces, neither lowercased nor stemmed.
pub fn whitespace() -> TextAnalyzer {
    TextAnalyzer::builder(WhitespaceTokenizer::default()).filter(RemoveLongFilter::limit(LONGEST_WORD + 1)).build()
}

/// Splits text at Unicode word boundaries, keeping the segments with a letter or digit.
#[derive(Clone, Default)]
pub struct WordBoundaries;

impl Tokenizer for WordBoundaries {
    type TokenStream<'a> = WordStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream {
        let tokens = text
            .unicode_word_indices()
            .enumerate()
            .map(|(position, (offset, word))| Token {
                offset_from: offset,
                offset_to: offset + word.len(),
                position,
                text: word.to_owned(),
                position_length: 1,
            })
            .collect();
        WordStream { tokens, next: 0, spare: Token::default() }
    }
}

/// The words of one text, split up front (texts of a mapping's documents are short).
pub struct WordStream {
    tokens: Vec<Token>,
    next: usize,
    /// Answers a (contract-breaking) read before the first `advance`.
    spare: Token,
}

impl TokenStream for WordStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        self.next.checked_sub(1).and_then(|i| self.tokens.get(i)).unwrap_or(&self.spare)
    }

    fn token_mut(&mut self) -> &mut Token {
        match self.next.checked_sub(1).and_then(|i| self.tokens.get_mut(i)) {
            Some(token) => token,
            None => &mut self.spare,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::standard;

    fn words(text: &str) -> Vec<String> {
        crate::analysis::tokens(standard(), text)
    }

    #[test]
    fn splits_as_lucenes_standard_tokenizer() {
        assert_eq!(words("The QUICK brown-fox, l'avion 3.14!"), ["the", "quick", "brown", "fox", "l'avion", "3.14"]);
        assert_eq!(words("Straße über"), ["straße", "über"]);
        assert!(words(" -- !! ").is_empty());
    }
}
