//! Object ids: generated from titles the way German editors expect (ä → ae, ß → ss), and
//! validated when given explicitly.

/// The longest id accepted: a generated id of the longest length with room for the suffix
/// that makes it unique.
pub const MAX_ID_LENGTH: usize = 300;
/// Generated ids are cut to this length at a word boundary, as Plone's URL normaliser does
/// (`MAX_URL_LENGTH`): a client that derives the id from the title as Plone does then finds it.
const GENERATED_ID_LENGTH: usize = 255;

/// Turns a title into the name of a field or a content type, as Plone makes those: the id
/// with `_` for `-` and `.` (`Author e-mail` → `author_e_mail`).
pub fn normalize_name(title: &str) -> String {
    normalize(title).replace(['-', '.'], "_")
}

/// Turns a title into an id: lower case, transliterated, runs of other characters as one `-`.
pub fn normalize(title: &str) -> String {
    let mut id = String::with_capacity(title.len());
    let mut pending_dash = false;
    for ch in title.chars().flat_map(char::to_lowercase) {
        let replacement: &str = match ch {
            'ä' => "ae",
            'ö' => "oe",
            'ü' => "ue",
            'ß' => "ss",
            'à' | 'á' | 'â' | 'ã' | 'å' => "a",
            'æ' => "ae",
            'ç' => "c",
            'è' | 'é' | 'ê' | 'ë' => "e",
            'ì' | 'í' | 'î' | 'ï' => "i",
            'ñ' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ø' => "o",
            'œ' => "oe",
            'ù' | 'ú' | 'û' => "u",
            'ý' | 'ÿ' => "y",
            c if c.is_ascii_alphanumeric() => {
                if pending_dash && !id.is_empty() {
                    id.push('-');
                }
                pending_dash = false;
                id.push(c);
                continue;
            }
            '.' | '_' if !id.is_empty() => {
                if pending_dash {
                    id.push('-');
                    pending_dash = false;
                }
                id.push(ch);
                continue;
            }
            _ => {
                pending_dash = true;
                continue;
            }
        };
        if pending_dash && !id.is_empty() {
            id.push('-');
        }
        pending_dash = false;
        id.push_str(replacement);
    }
    crop(id.trim_end_matches(['.', '_']).to_owned())
}

fn crop(id: String) -> String {
    if id.len() <= GENERATED_ID_LENGTH {
        return id;
    }
    let cut = &id[..GENERATED_ID_LENGTH];
    match cut.rfind('-') {
        Some(pos) if pos > GENERATED_ID_LENGTH / 2 => cut[..pos].to_owned(),
        _ => cut.to_owned(),
    }
}

/// Why an explicit id is refused, or `None` when it is fine.
pub fn problem(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("The id must not be empty.".into());
    }
    if id.chars().count() > MAX_ID_LENGTH {
        return Some(format!("The id is longer than {MAX_ID_LENGTH} characters."));
    }
    if id.starts_with(['@', '_', '.', '+']) {
        return Some("The id must not start with '@', '_', '.' or '+'.".into());
    }
    if !id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~')) {
        return Some("The id may contain only letters, digits, '-', '_', '.' and '~'.".into());
    }
    None
}

/// The first of `base`, `base-1`, `base-2`… that `taken` does not contain.
pub fn unique(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_owned();
    }
    (1..)
        .map(|n| format!("{base}-{n}"))
        .find(|candidate| !taken.iter().any(|t| t == candidate))
        .unwrap_or_else(|| base.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transliterates_german() {
        assert_eq!(normalize("Größere Übungen für Äpfel"), "groessere-uebungen-fuer-aepfel");
        assert_eq!(normalize("  Hello,   World! "), "hello-world");
        assert_eq!(normalize("Straße"), "strasse");
    }

    #[test]
    fn crops_long_titles_at_a_word_after_255_characters_as_plone() {
        let sixty = "Ein sehr langer Titel der weit mehr als fünfzig Zeichen hat";
        assert_eq!(normalize(sixty), "ein-sehr-langer-titel-der-weit-mehr-als-fuenfzig-zeichen-hat");
        let id = normalize(&format!("{sixty} ").repeat(5));
        assert!(id.len() <= 255 && id.len() > 240, "{} {id}", id.len());
        assert!(!id.ends_with('-'));
        assert!(problem(&unique(&id, std::slice::from_ref(&id))).is_none(), "a unique suffix keeps it valid");
    }

    #[test]
    fn uniquifies() {
        let taken = vec!["doc".to_owned(), "doc-1".to_owned()];
        assert_eq!(unique("doc", &taken), "doc-2");
        assert_eq!(unique("other", &taken), "other");
    }

    #[test]
    fn refuses_bad_ids() {
        assert!(problem("@view").is_some());
        assert!(problem("a b").is_some());
        assert!(problem(&"x".repeat(MAX_ID_LENGTH + 1)).is_some());
        assert!(problem("good-id_1.txt").is_none());
    }
}
