//! Field names recovered from the call in a record's `sourceCode`: for
//! `fmt.Errorf("unable to persist session %q (seq=%v): %v", ps.ID, seq, err)`
//! the arguments are `ps_id`, `seq` and `err`.

use crate::model::is_keyword;

/// The names of the call arguments after the format string, one per argument
/// (`None` where no usable name could be made), or `None` when no call whose
/// string literal equals `message` is found in `source`.
#[cfg(test)]
pub fn argument_names(source: &str, message: &str) -> Option<Vec<Option<String>>> {
    argument_names_in(source, message, Lang::Go)
}

/// [`argument_names`] in a source of language `lang`.
#[cfg(test)]
pub fn argument_names_in(source: &str, message: &str, lang: Lang) -> Option<Vec<Option<String>>> {
    argument_names_of(&tokenize(source, lang), message)
}

/// [`argument_names`] in a source's tokens.
pub(super) fn argument_names_of(tokens: &[Token], message: &str) -> Option<Vec<Option<String>>> {
    for start in 0..tokens.len() {
        let Some(after) = literal_run_equal_to(tokens, start, message) else {
            continue;
        };
        if tokens.get(after).is_some_and(|t| t.is_punct(',')) {
            return Some(split_arguments(&tokens[after + 1..]).into_iter().map(|arg| name_of(&arg)).collect());
        }
        if tokens.get(after).is_some_and(|t| t.is_punct(')')) {
            return Some(Vec::new());
        }
    }
    None
}

/// The name of the function called with `message` as its first argument
/// (`Errorf` for `fmt.Errorf("...")`, `panic` for `panic("...")`).
#[cfg(test)]
pub fn callee(source: &str, message: &str) -> Option<String> {
    callee_of(&tokenize(source, Lang::Go), message)
}

/// [`callee`] in a Go source's tokens.
pub(super) fn callee_of(tokens: &[Token], message: &str) -> Option<String> {
    (2..tokens.len()).find_map(|start| {
        literal_run_equal_to(tokens, start, message)?;
        match (&tokens[start - 2], &tokens[start - 1]) {
            (Token::Ident(name), Token::Punct('(')) => Some(name.clone()),
            _ => None,
        }
    })
}

/// The language of a source, for its string literals and comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// Go, C and languages like them (`'x'` is a character).
    Go,
    /// Python: `'...'`, `"""..."""`, `r'...'` strings, `#` comments.
    Python,
    /// JavaScript / TypeScript: `'...'` strings, template literals.
    Js,
    /// Rust: multi-line strings, `\`-newline continuations, raw strings, lifetimes.
    Rust,
    /// Java.
    Java,
    /// C#.
    CSharp,
}

impl Lang {
    /// The language of a file, from its extension (`None` for Go, C and others).
    pub fn of(file_path: &str) -> Lang {
        let extension = file_path.rsplit_once('.').map_or("", |(_, ext)| ext).to_ascii_lowercase();
        match extension.as_str() {
            "py" | "pyi" => Lang::Python,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" => Lang::Js,
            "rs" => Lang::Rust,
            "java" => Lang::Java,
            "cs" => Lang::CSharp,
            _ => Lang::Go,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    Str(String),
    Ident(String),
    Punct(char),
    Other,
}

impl Token {
    pub(super) fn is_punct(&self, c: char) -> bool {
        *self == Token::Punct(c)
    }
}

/// If tokens from `start` are string literals joined by `+` (or adjacent, as
/// in C) whose text is `message`, the index just past them.
pub(super) fn literal_run_equal_to(tokens: &[Token], start: usize, message: &str) -> Option<usize> {
    let mut text = String::new();
    let mut i = start;
    loop {
        let Token::Str(part) = tokens.get(i)? else {
            return None;
        };
        text.push_str(part);
        if !message.starts_with(text.as_str()) {
            return None;
        }
        i += 1;
        if text.len() == message.len() {
            return Some(i);
        }
        if tokens.get(i).is_some_and(|t| t.is_punct('+')) {
            i += 1;
        }
        // A string prefix between adjacent literals (`"a" f"{b}"`).
        if matches!(tokens.get(i), Some(Token::Ident(prefix)) if is_string_prefix(prefix))
            && matches!(tokens.get(i + 1), Some(Token::Str(_)))
        {
            i += 1;
        }
    }
}

/// Splits the argument list up to the call's closing parenthesis.
pub(super) fn split_arguments(tokens: &[Token]) -> Vec<Vec<Token>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for token in tokens {
        match token {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') if depth == 0 => break,
            Token::Punct(')' | ']' | '}') => depth -= 1,
            Token::Punct(',') if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().expect("starts with one argument").push(token.clone());
    }
    if args.last().is_some_and(Vec::is_empty) {
        args.pop();
    }
    args
}

/// `ps.ID` → `ps_id`, `c.kindString()` → `c_kind_string`, `err.Error()` → `err`.
pub(super) fn name_of(arg: &[Token]) -> Option<String> {
    if arg.windows(3).any(|w| w.iter().all(|t| t.is_punct('.'))) {
        return None; // `args...`: the remaining arguments are unknown
    }
    let mut idents: Vec<&str> = arg
        .iter()
        .filter_map(|t| match t {
            Token::Ident(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    if idents.len() > 1 && matches!(idents.last(), Some(&("Error" | "String"))) {
        idents.pop();
    }
    let keep = idents.len().saturating_sub(4);
    let words: Vec<String> = idents[keep..].iter().map(|ident| snake_case(ident)).collect();
    let name = words.join("_");
    is_plain_identifier(&name).then_some(name)
}

fn is_plain_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name != "_"
}

/// `kindString` → `kind_string`, `HTTPServer` → `http_server`, `ID` → `id`.
pub fn snake_case(ident: &str) -> String {
    let chars: Vec<char> = ident.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out.trim_matches('_').to_owned()
}

/// Makes names usable as Rust field names: snake_case ASCII (other
/// characters become `_`), keywords get a trailing `_`, missing or unusable
/// names become `argN`, repeated names get `_2`, `_3`, ...
pub fn finish_names(names: Vec<Option<String>>) -> Vec<String> {
    let mut done: Vec<String> = Vec::with_capacity(names.len());
    for (i, name) in names.into_iter().enumerate() {
        let name = name.map(|n| if is_sanitized(&n) { n } else { sanitize(&n) }).filter(|n| is_plain_identifier(n));
        let mut name = name.unwrap_or_else(|| format!("arg{i}"));
        if is_keyword(&name) {
            name.push('_');
        }
        let base = name.clone();
        let mut n = 2;
        while done.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        done.push(name);
    }
    done
}

/// Whether `sanitize` leaves `name` as it is, as it leaves the names that
/// `name_of` makes: ASCII lowercase words and digits joined by single `_`,
/// not starting with a digit. A loop over bytes: sanitizing costs thousands
/// of instructions a name in an unoptimised build (the macro's, in a user's
/// debug build).
fn is_sanitized(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let word = byte.is_ascii_lowercase() || byte.is_ascii_digit();
        let joint = byte == b'_' && i > 0 && i + 1 < bytes.len() && bytes[i + 1] != b'_';
        if !(word || joint) {
            return false;
        }
        i += 1;
    }
    !bytes.is_empty() && !bytes[0].is_ascii_digit()
}

/// `Max-Size` → `max_size`, `1st` → `_1st`.
fn sanitize(name: &str) -> String {
    let words: String = snake_case(name)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
        .collect();
    let mut out = words.split('_').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("_");
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// A Python string prefix (`f`, `rb`, ...).
pub(super) fn is_string_prefix(ident: &str) -> bool {
    ident.len() <= 2 && ident.chars().all(|c| "rRbBfFuU".contains(c))
}

/// A rough tokenizer for call expressions: enough to find string literals,
/// identifiers and brackets. A JavaScript template literal is a
/// `` Punct('`') `` followed by its text.
pub(super) fn tokenize(source: &str, lang: Lang) -> Vec<Token> {
    // In an ASCII source a character is a byte, and its index its offset:
    // the characters are the bytes and an identifier is a slice (collecting
    // characters through iterators cost a fifth of the record compilation
    // the macro does, unoptimised in a user's debug build).
    let ascii = source.is_ascii();
    let chars: Vec<char> = if ascii {
        let bytes = source.as_bytes();
        let mut chars = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            chars.push(char::from(bytes[i]));
            i += 1;
        }
        chars
    } else {
        source.chars().collect()
    };
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let literal = if lang == Lang::Go { None } else { foreign_literal(&chars, i, lang, tokens.last()) };
        if let Some((literal, end)) = literal {
            tokens.extend(literal);
            i = end;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '#' && lang == Lang::Python {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '`' && lang != Lang::Go {
            tokens.push(Token::Punct(c));
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '`' {
            let end = chars[i + 1..].iter().position(|&c| c == '`').map_or(chars.len(), |p| i + 1 + p);
            tokens.push(Token::Str(chars[i + 1..end].iter().collect()));
            i = end + 1;
        } else if c == '"' || c == '\'' {
            let (text, end) = quoted_literal(&chars, i);
            tokens.push(if c == '"' { Token::Str(text) } else { Token::Other });
            i = end;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let ident = if ascii { source[start..i].to_owned() } else { chars[start..i].iter().collect() };
            tokens.push(Token::Ident(ident));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            tokens.push(Token::Other);
        } else {
            tokens.push(Token::Punct(c));
            i += 1;
        }
    }
    tokens
}

/// A string or character literal of a language other than Go and C at
/// `start`: its tokens and the index past it (`None` when there is none).
fn foreign_literal(chars: &[char], start: usize, lang: Lang, previous: Option<&Token>) -> Option<(Vec<Token>, usize)> {
    let c = chars[start];
    let at = |n: usize| chars.get(start + n).copied();
    let python_raw = matches!(previous, Some(Token::Ident(p)) if is_string_prefix(p) && p.contains(['r', 'R']));
    match (lang, c) {
        (Lang::Python, '"' | '\'') if at(1) == Some(c) && at(2) == Some(c) => {
            let (text, end) = string_literal(chars, start + 3, &[c, c, c], lang, python_raw);
            Some((vec![Token::Str(text)], end))
        }
        (Lang::Python, '"' | '\'') => {
            let (text, end) = string_literal(chars, start + 1, &[c], lang, python_raw);
            Some((vec![Token::Str(text)], end))
        }
        (Lang::Js, '"' | '\'') => {
            let (text, end) = string_literal(chars, start + 1, &[c], lang, false);
            Some((vec![Token::Str(text)], end))
        }
        (Lang::Js, '`') => {
            let (text, end) = string_literal(chars, start + 1, &['`'], lang, false);
            Some((vec![Token::Punct('`'), Token::Str(text)], end))
        }
        (Lang::Rust | Lang::Java | Lang::CSharp, '"') => {
            let (text, end) = string_literal(chars, start + 1, &['"'], lang, false);
            Some((vec![Token::Str(text)], end))
        }
        (Lang::Rust, 'r' | 'b') => {
            // `r"..."`, `r#"..."#`, `br"..."`.
            let r = if c == 'b' && at(1) == Some('r') { 1 } else { 0 };
            if chars.get(start + r) != Some(&'r') {
                return None;
            }
            let hashes = chars[start + r + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(start + r + 1 + hashes) != Some(&'"') {
                return None;
            }
            let body = start + r + 2 + hashes;
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let (text, end) = string_literal(chars, body, &closing, lang, true);
            Some((vec![Token::Str(text)], end))
        }
        (Lang::Rust, '\'') => {
            // A character literal, or a lifetime.
            if at(1) == Some('\\') || at(2) == Some('\'') {
                let (_, end) = string_literal(chars, start + 1, &['\''], lang, false);
                Some((vec![Token::Other], end))
            } else {
                Some((vec![Token::Other], start + 1))
            }
        }
        _ => None,
    }
}

/// Decodes a string literal whose text starts at `start` and ends at
/// `closing`; returns its text and the index past the closing delimiter.
/// Escapes are decoded unless `raw`; line breaks are part of the text
/// (Rust's `\`-newline skips the break and the indentation after it).
fn string_literal(chars: &[char], start: usize, closing: &[char], lang: Lang, raw: bool) -> (String, usize) {
    let mut text = String::new();
    let mut i = start;
    while i < chars.len() {
        if chars[i..].starts_with(closing) {
            return (text, i + closing.len());
        }
        if chars[i] != '\\' || (raw && lang != Lang::Python) {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        if raw {
            // Python raw strings keep the backslash, and it still escapes a quote.
            text.push('\\');
            text.extend(chars.get(i + 1));
            i += 2;
            continue;
        }
        match chars.get(i + 1) {
            Some('\n') if lang == Lang::Rust => {
                i += 2;
                while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                    i += 1;
                }
            }
            Some('\n') => i += 2,
            Some('u') if lang == Lang::Rust && chars.get(i + 2) == Some(&'{') => {
                let close = chars[i..].iter().position(|&c| c == '}').map_or(chars.len(), |n| i + n);
                let digits: String = chars[i + 3..close.min(chars.len())].iter().filter(|c| **c != '_').collect();
                text.extend(u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32));
                i = close + 1;
            }
            _ => {
                let (decoded, end) = escape(chars, i);
                text.extend(decoded);
                i = end;
            }
        }
    }
    (text, chars.len())
}

/// Decodes the escape at `i` (a backslash); returns the character and the
/// index past the escape.
fn escape(chars: &[char], i: usize) -> (Option<char>, usize) {
    let escape = chars.get(i + 1).copied().unwrap_or('\\');
    let mut i = i + 2;
    let hex = |i: usize, n: usize| {
        let digits: String = chars.get(i..i + n)?.iter().collect();
        char::from_u32(u32::from_str_radix(&digits, 16).ok()?)
    };
    let decoded = match escape {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        'x' => hex(i, 2).inspect(|_| i += 2),
        'u' => hex(i, 4).inspect(|_| i += 4),
        'U' => hex(i, 8).inspect(|_| i += 8),
        '0'..='7' => {
            let digits: String = chars[i - 1..(i + 2).min(chars.len())].iter().take_while(|c| c.is_digit(8)).collect();
            let value = u32::from_str_radix(&digits, 8).ok().and_then(char::from_u32);
            i += digits.len() - 1;
            value
        }
        other => Some(other),
    };
    (decoded, i)
}

/// Decodes a double- or single-quoted literal starting at `start`; returns
/// its text and the index past its closing quote.
fn quoted_literal(chars: &[char], start: usize) -> (String, usize) {
    let quote = chars[start];
    let mut text = String::new();
    let mut i = start + 1;
    while i < chars.len() && chars[i] != quote && chars[i] != '\n' {
        if chars[i] != '\\' {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        let (decoded, end) = escape(chars, i);
        i = end;
        text.extend(decoded);
    }
    (text, i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str, message: &str) -> Option<Vec<String>> {
        argument_names(source, message).map(finish_names)
    }

    #[test]
    fn names_the_seed_call() {
        let source = "\tif err != nil {\n\t\treturn fmt.Errorf(\"unable to persist session %q (seq=%v): %v\", ps.ID, seq, err)\n\t}\n\tif resp == nil {\n\t\treturn fmt.Errorf(\"unable to persist session %q (seq=%v): invalid pub ack response\", ps.ID, seq)";
        assert_eq!(names(source, "unable to persist session %q (seq=%v): %v").unwrap(), ["ps_id", "seq", "err"]);
    }

    #[test]
    fn joins_literals_across_lines_and_nested_calls() {
        let source = "return fmt.Errorf(\"QoS1 window is full (%d messages) and \"+\n\t\"oldest within %v; %s\",\n\tmqttMaxAcksInFlight, jsa.timeout, c.kindString(), // trailing\n)";
        assert_eq!(
            names(source, "QoS1 window is full (%d messages) and oldest within %v; %s").unwrap(),
            ["mqtt_max_acks_in_flight", "jsa_timeout", "c_kind_string"]
        );
    }

    #[test]
    fn raw_strings_keywords_duplicates_and_unknowns() {
        let source = "s.Noticef(`a \"%s\" %d %v %v %v`, self, len(x), err.Error(), err, 42)";
        assert_eq!(names(source, "a \"%s\" %d %v %v %v").unwrap(), ["self_", "len_x", "err", "err_2", "arg4"]);
        assert_eq!(names(source, "not in the source"), None);
        assert_eq!(names("log(\"x %v\", args...)", "x %v").unwrap(), ["arg0"]);
    }

    #[test]
    fn finds_the_callee() {
        assert_eq!(callee("return errors.New(\"boom 100%\")", "boom 100%").as_deref(), Some("New"));
        assert_eq!(callee("x := fmt.Errorf(\"a %v\", b)", "a %v").as_deref(), Some("Errorf"));
        assert_eq!(callee("\"a %v\"", "a %v"), None);
    }

    #[test]
    fn any_name_becomes_an_identifier() {
        let names = vec![Some("Max-Size".into()), Some("1st".into()), Some("été".into()), Some("_".into()), None];
        assert_eq!(finish_names(names), ["max_size", "_1st", "t", "arg3", "arg4"]);
    }

    #[test]
    fn a_sanitized_name_is_one_that_sanitize_leaves_as_it_is() {
        for name in ["a", "acc_name", "x1_y2", "a_1"] {
            assert!(is_sanitized(name) && sanitize(name) == name, "{name:?}");
        }
        for name in ["_a", "a_", "a__b", "1a", "", "Ab", "a-b", "é", "_", "__", "HTTPServer"] {
            assert!(!is_sanitized(name) || sanitize(name) == name, "{name:?}");
        }
    }

    #[test]
    fn snake_cases_go_identifiers() {
        assert_eq!(snake_case("ID"), "id");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("accName"), "acc_name");
        assert_eq!(snake_case("mqttMaxAcksInFlight"), "mqtt_max_acks_in_flight");
    }
}
