//! The tokens of Lucene's classic query syntax, which `query_string` reads: terms (with `field:`
//! in front, `*`/`?` wildcards, `~N` fuzziness, `^N` boosts), `"phrases"~N`, `[a TO b]` ranges,
//! `/regular expressions/`, `( … )` groups, `+`/`-`/`!` modifiers and the `AND`, `OR`, `NOT`,
//! `&&`, `||` operators; `\` escapes the next character.

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// A term as written (escapes kept, so wildcards can tell escaped `*` apart).
    Term(String),
    /// `field:` before what follows.
    Field(String),
    /// A phrase, without its quotes.
    Phrase(String),
    /// `[a TO b]` or `{a TO b}`: (lower inclusive, lower, upper, upper inclusive).
    Range(bool, String, String, bool),
    /// `/…/`.
    Regex(String),
    /// `^N` after a clause.
    Boost(f32),
    /// `~` or `~N` after a term or phrase.
    Tilde(Option<u32>),
    Open,
    Close,
    Required,
    Prohibited,
    And,
    Or,
    Not,
}

/// Why a text does not tokenize: Lucene's parse error, which Elasticsearch reports.
pub type SyntaxError = String;

/// Characters that end a term (unless escaped).
const SPECIAL: &str = "()[]{}\"^~:/";

/// The tokens of `text`.
pub fn tokens(text: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        at += 1;
        match c {
            c if c.is_whitespace() => {}
            '(' => out.push(Token::Open),
            ')' => out.push(Token::Close),
            '+' => out.push(Token::Required),
            '-' | '!' => out.push(Token::Prohibited),
            '&' if chars.get(at) == Some(&'&') => {
                at += 1;
                out.push(Token::And);
            }
            '|' if chars.get(at) == Some(&'|') => {
                at += 1;
                out.push(Token::Or);
            }
            '"' => out.push(Token::Phrase(until(&chars, &mut at, '"')?)),
            '/' => out.push(Token::Regex(until(&chars, &mut at, '/')?)),
            '[' | '{' => out.push(range(&chars, &mut at, c == '[')?),
            '^' => {
                let number = number(&chars, &mut at);
                out.push(Token::Boost(number.parse().map_err(|_| format!("Cannot parse boost '^{number}'"))?));
            }
            '~' => {
                let number = number(&chars, &mut at);
                out.push(Token::Tilde(number.parse::<f32>().ok().map(|n| n as u32)));
            }
            ':' | ']' | '}' => return Err(format!("Encountered \"{c}\" at column {}", at - 1)),
            first => {
                let mut term = String::from(first);
                if first == '\\' {
                    term.extend(chars.get(at).copied());
                    at += 1;
                }
                while let Some(&n) = chars.get(at) {
                    if n.is_whitespace() || SPECIAL.contains(n) {
                        break;
                    }
                    term.push(n);
                    at += 1;
                    if n == '\\' {
                        term.extend(chars.get(at).copied());
                        at += 1;
                    }
                }
                if chars.get(at) == Some(&':') {
                    at += 1;
                    out.push(Token::Field(unescape(&term)));
                    continue;
                }
                out.push(match term.as_str() {
                    "AND" => Token::And,
                    "OR" => Token::Or,
                    "NOT" => Token::Not,
                    _ => Token::Term(term),
                });
            }
        }
    }
    Ok(out)
}

/// Everything up to the unescaped `end`, escapes resolved.
fn until(chars: &[char], at: &mut usize, end: char) -> Result<String, SyntaxError> {
    let mut text = String::new();
    while let Some(&c) = chars.get(*at) {
        *at += 1;
        match c {
            '\\' => {
                text.extend(chars.get(*at).copied());
                *at += 1;
            }
            c if c == end => return Ok(text),
            c => text.push(c),
        }
    }
    Err(format!("Lexical error: encountered <EOF> after \"{end}{text}\""))
}

fn number(chars: &[char], at: &mut usize) -> String {
    let mut number = String::new();
    while let Some(&c) = chars.get(*at).filter(|c| c.is_ascii_digit() || **c == '.') {
        number.push(c);
        *at += 1;
    }
    number
}

/// `[a TO b]`, `{a TO b}` and their mixes; `*` is an open end.
fn range(chars: &[char], at: &mut usize, lower_inclusive: bool) -> Result<Token, SyntaxError> {
    let mut inside = String::new();
    while let Some(&c) = chars.get(*at) {
        *at += 1;
        if c == ']' || c == '}' {
            let parts: Vec<&str> = inside.split_whitespace().collect();
            return match parts.as_slice() {
                [lower, "TO", upper] => {
                    let clean = |s: &str| s.trim_matches('"').to_owned();
                    Ok(Token::Range(lower_inclusive, clean(lower), clean(upper), c == ']'))
                }
                _ => Err(format!("Cannot parse range [{inside}]")),
            };
        }
        inside.push(c);
    }
    Err("Lexical error: a range is not closed".to_owned())
}

/// A term's text with its escapes resolved.
pub fn unescape(term: &str) -> String {
    let mut out = String::new();
    let mut chars = term.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lucenes_syntax_tokenizes() {
        let found = tokens(r#"title:(foo* AND -"a b"~2) count:[1 TO *} x^2 f\:o NOT y"#);
        assert_eq!(
            found,
            Ok(vec![
                Token::Field("title".into()),
                Token::Open,
                Token::Term("foo*".into()),
                Token::And,
                Token::Prohibited,
                Token::Phrase("a b".into()),
                Token::Tilde(Some(2)),
                Token::Close,
                Token::Field("count".into()),
                Token::Range(true, "1".into(), "*".into(), false),
                Token::Term("x".into()),
                Token::Boost(2.0),
                Token::Term("f\\:o".into()),
                Token::Not,
                Token::Term("y".into()),
            ])
        );
        assert!(tokens("\"open").is_err() && tokens("[1 TO").is_err());
    }
}
