//! German text analysis, as Elasticsearch's `german` analyzer does it, so queries and
//! documents meet on the same terms: split into words, lowercase, drop German stop words
//! (Snowball's list of 231, the one Elasticsearch uses), then normalise German spelling
//! (`ß` → `ss`; `ä`/`ö`/`ü` → `a`/`o`/`u`; `ae`/`oe` → `a`/`o`, `ue` → `u` unless after a
//! vowel or `q`, so `dauer` stays) and strip inflection with the light German stemmer
//! (Savoy's UniNE, Lucene's `GermanLightStemmer`). `Häuser`, `Hauses` and `Häusern` all
//! become `haus`, `Straße` and `Strasse` become `strass`, `Müller` and `Mueller` become `mull`.
//!
//! Stop words go before normalisation, as in Elasticsearch: `daß` and `für` are stop words,
//! `dass` and `fuer` are not.

use std::sync::LazyLock;
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, StopWordFilter, TextAnalyzer, Token, TokenFilter,
    TokenStream, Tokenizer,
};

/// The name the analyzer is registered under.
pub const GERMAN: &str = "de_es";

/// Words longer than this (in bytes) are not indexed: they are not words.
const LONGEST_WORD: usize = 256;

/// Built once: the stop word set is a hash set, too dear to build for every query.
static GERMAN_ANALYZER: LazyLock<TextAnalyzer> = LazyLock::new(build_german);

/// The analyzer for full-text fields (a clone shares the stop words).
pub fn german() -> TextAnalyzer {
    GERMAN_ANALYZER.clone()
}

fn build_german() -> TextAnalyzer {
    let builder = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST_WORD))
        .filter(LowerCaser);
    match StopWordFilter::new(Language::German) {
        Some(stop) => builder.filter(stop).filter(GermanStem).build(),
        None => builder.filter(GermanStem).build(),
    }
}

/// The words an analyzer makes of `text` (for tests of analyzers).
#[cfg(test)]
pub(crate) fn tokens(mut analyzer: TextAnalyzer, text: &str) -> Vec<String> {
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

/// German normalisation followed by the light stemmer, on each (lowercased) token.
#[derive(Clone)]
pub struct GermanStem;

impl TokenFilter for GermanStem {
    type Tokenizer<T: Tokenizer> = GermanStemFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> GermanStemFilter<T> {
        GermanStemFilter { inner: tokenizer }
    }
}

/// [`GermanStem`] around a tokenizer.
#[derive(Clone)]
pub struct GermanStemFilter<T> {
    inner: T,
}

impl<T: Tokenizer> Tokenizer for GermanStemFilter<T> {
    type TokenStream<'a> = GermanStemStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        GermanStemStream { tail: self.inner.token_stream(text) }
    }
}

/// The stream of stemmed tokens.
pub struct GermanStemStream<T> {
    tail: T,
}

impl<T: TokenStream> TokenStream for GermanStemStream<T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        let stemmed = stem(&normalize(&token.text));
        token.text = stemmed;
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// Lucene's `GermanNormalizationFilter`: a three-state walk over the word.
pub fn normalize(word: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        /// After anything else.
        N,
        /// After a vowel: a following `e` stays.
        V,
        /// After `a`, `o` or a `u` that starts a pair: a following `e` goes.
        U,
    }
    let mut out = String::with_capacity(word.len() + 1);
    let mut state = State::N;
    for c in word.chars() {
        match c {
            'a' | 'o' => {
                out.push(c);
                state = State::U;
            }
            'u' => {
                out.push(c);
                state = if state == State::N { State::U } else { State::V };
            }
            'e' => {
                if state != State::U {
                    out.push('e');
                }
                state = State::V;
            }
            'i' | 'q' | 'y' => {
                out.push(c);
                state = State::V;
            }
            'ä' | 'ö' | 'ü' => {
                out.push(match c {
                    'ä' => 'a',
                    'ö' => 'o',
                    _ => 'u',
                });
                state = State::V;
            }
            'ß' => {
                out.push_str("ss");
                state = State::N;
            }
            _ => {
                out.push(c);
                state = State::N;
            }
        }
    }
    out
}

/// Lucene's `GermanLightStemmer`: fold accented vowels, then strip one suffix in each of two
/// steps.
pub fn stem(word: &str) -> String {
    let mut s: Vec<char> = word
        .chars()
        .map(|c| match c {
            'ä' | 'à' | 'á' | 'â' => 'a',
            'ö' | 'ò' | 'ó' | 'ô' => 'o',
            'ï' | 'ì' | 'í' | 'î' => 'i',
            'ü' | 'ù' | 'ú' | 'û' => 'u',
            other => other,
        })
        .collect();
    let len = step2(&s, step1(&s, s.len()));
    s.truncate(len);
    s.into_iter().collect()
}

fn st_ending(c: char) -> bool {
    matches!(c, 'b' | 'd' | 'f' | 'g' | 'h' | 'k' | 'l' | 'm' | 'n' | 't')
}

fn step1(s: &[char], len: usize) -> usize {
    let at = |back: usize| s[len - back];
    if len > 5 && at(3) == 'e' && at(2) == 'r' && at(1) == 'n' {
        return len - 3;
    }
    if len > 4 && at(2) == 'e' && matches!(at(1), 'm' | 'n' | 'r' | 's') {
        return len - 2;
    }
    if len > 3 && at(1) == 'e' {
        return len - 1;
    }
    if len > 3 && at(1) == 's' && st_ending(at(2)) {
        return len - 1;
    }
    len
}

fn step2(s: &[char], len: usize) -> usize {
    let at = |back: usize| s[len - back];
    if len > 5 && at(3) == 'e' && at(2) == 's' && at(1) == 't' {
        return len - 3;
    }
    if len > 4 && at(2) == 'e' && matches!(at(1), 'r' | 'n') {
        return len - 2;
    }
    if len > 4 && at(2) == 's' && at(1) == 't' && st_ending(at(3)) {
        return len - 2;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokens(german(), text)
    }

    #[test]
    fn german_word_forms_meet() {
        for group in [
            &["Häuser", "Hauses", "Häusern", "Haus"][..],
            &["Straße", "Strasse"],
            &["Müller", "Mueller"],
            &["Ärzte", "ärzte", "ÄRZTE"],
            &["Flüsse", "Fluss"],
        ] {
            let stems: Vec<Vec<String>> = group.iter().map(|w| terms(w)).collect();
            assert!(stems.windows(2).all(|w| w[0] == w[1] && w[0].len() == 1), "{group:?}: {stems:?}");
        }
        assert_eq!(terms("Häuser Straße Mueller Kindern"), ["haus", "strass", "mull", "kind"]);
    }

    #[test]
    fn normalisation_follows_lucene() {
        assert_eq!(normalize("schaltflächen"), "schaltflachen");
        assert_eq!(normalize("schaltflaechen"), "schaltflachen");
        assert_eq!(normalize("dauer"), "dauer", "ue after a vowel stays");
        assert_eq!(normalize("quelle"), "quelle", "ue after q stays");
        assert_eq!(normalize("weißbier"), "weissbier");
        assert_eq!(stem("kindern"), "kind");
    }

    #[test]
    fn stop_words_go_and_a_query_of_them_is_empty() {
        assert!(terms("der die das und oder für daß").is_empty());
        assert_eq!(terms("dass fuer"), ["dass", "fur"], "stop words are matched before normalisation");
    }
}
