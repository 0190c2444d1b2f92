//! Plone's bulk form of `POST <site>/@aliases`: a CSV file (uploaded as the `file` field of a
//! multipart form, or sent as a `text/csv` body) with one alias per line:
//! `old path,new path[,date[,manual]]`, comma- or semicolon-separated, read with the `csv`
//! crate (quoted cells may hold the separator).

use super::paths::MAX_ALIASES;

/// One line of the file.
pub struct CsvAlias {
    /// The alias (site-relative path).
    pub path: String,
    /// Where it leads (site-relative path or URL).
    pub target: String,
    /// When it was made, if given.
    pub datetime: Option<String>,
}

/// The aliases of the file, or every line that is not one. A first line naming the columns
/// (`old path,new path,datetime,manual`, as Plone exports them) is skipped. Each line is read
/// on its own, comma- or semicolon-separated (files pieced together from several sources mix
/// them).
pub fn parse(text: &str) -> Result<Vec<CsvAlias>, Vec<String>> {
    let mut aliases = Vec::new();
    let mut errors = Vec::new();
    let mut first = true;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(cells) = cells(line) else {
            errors.push(format!("Line {}: not CSV.", number + 1));
            continue;
        };
        let cells: Vec<&str> = cells.iter().collect();
        match cells.as_slice() {
            [path, ..] if first && path.eq_ignore_ascii_case("old path") => {}
            [path, target, rest @ ..] if !path.is_empty() && !target.is_empty() && rest.len() <= 2 => {
                aliases.push(CsvAlias {
                    path: (*path).to_owned(),
                    target: (*target).to_owned(),
                    datetime: rest.first().filter(|d| !d.is_empty()).map(|d| plone_datetime(d)),
                });
            }
            _ => errors.push(format!("Line {}: expected 'old path,new path[,date[,manual]]'.", number + 1)),
        }
        first = false;
        if aliases.len() > MAX_ALIASES {
            errors.push(format!("A file adds at most {MAX_ALIASES} aliases."));
            break;
        }
    }
    if errors.is_empty() { Ok(aliases) } else { Err(errors) }
}

/// The cells of one line, read with the `csv` crate (quoted cells may hold the separator).
fn cells(line: &str) -> Option<csv::StringRecord> {
    let separator = if line.contains(';') && !line.contains(',') { b';' } else { b',' };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .trim(csv::Trim::All)
        .delimiter(separator)
        .from_reader(line.as_bytes());
    reader.records().next()?.ok()
}

/// A date as Plone's redirects export writes it (`2022/01/01 00:00:00 GMT+0`) in ISO 8601;
/// anything else as it is.
fn plone_datetime(text: &str) -> String {
    let naive = text.strip_suffix(" GMT+0").or_else(|| text.strip_suffix(" GMT")).unwrap_or(text);
    chrono::NaiveDateTime::parse_from_str(naive, "%Y/%m/%d %H:%M:%S")
        .map_or_else(|_| text.to_owned(), |t| t.and_utc().to_rfc3339())
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn lines_become_aliases_and_bad_lines_are_named() {
        let aliases = parse("/alt,/neu\n\n/a;/b;2026-01-01T00:00:00Z\n").unwrap_or_default();
        assert_eq!(aliases.len(), 2);
        assert_eq!((aliases[1].path.as_str(), aliases[1].datetime.as_deref()), ("/a", Some("2026-01-01T00:00:00Z")));
        assert_eq!(
            parse("/nur-eins\n").err().map(|e| e[0].clone()).unwrap_or_default(),
            "Line 1: expected 'old path,new path[,date[,manual]]'."
        );
    }

    #[test]
    fn plones_export_reads_back() {
        let text = "old path,new path,datetime,manual\n/old-page,/front-page,2022/01/01 00:00:00 GMT+0,True\n";
        let aliases = parse(text).unwrap_or_default();
        assert_eq!(aliases.len(), 1);
        assert_eq!(aliases[0].path, "/old-page");
        assert_eq!(aliases[0].datetime.as_deref(), Some("2022-01-01T00:00:00+00:00"));
        let quoted = parse("\"/a,b\",/neu\n").unwrap_or_default();
        assert_eq!(quoted[0].path, "/a,b", "quoted cells may hold the separator");
    }
}
