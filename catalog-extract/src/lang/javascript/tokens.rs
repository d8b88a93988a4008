//! A JavaScript tokenizer: comments dropped; strings, template literals
//! (with nested `${}` expressions) and regex literals kept whole;
//! identifiers, numbers, `=>` and single punctuation characters otherwise.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    Str,
    Template,
    Regex,
    Op,
}

/// A piece of a template literal: raw text or a `${}` expression's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplatePart {
    Text(String),
    Expr(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    /// Byte range in the source.
    pub start: usize,
    pub end: usize,
    /// 1-based lines of its first and last character.
    pub line: u32,
    pub end_line: u32,
    /// A template's pieces.
    pub parts: Vec<TemplatePart>,
}

/// Identifiers before which a `/` starts a regex literal.
const KEYWORDS_BEFORE_REGEX: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\x0c' | '\x0b' | '\u{feff}' | '\u{a0}' | '\u{2028}' | '\u{2029}')
}

fn char_at(src: &str, i: usize) -> Option<char> {
    src.get(i..).and_then(|s| s.chars().next())
}

/// The tokens of `src`.
pub fn tokenize(src: &str) -> Vec<Token> {
    Tokenizer { src }.run(0, false).0
}

struct Tokenizer<'a> {
    src: &'a str,
}

impl Tokenizer<'_> {
    /// Tokens from `i`; `nested`: stop after the `}` closing a template's
    /// `${`, returning the index after it.
    fn run(&self, mut i: usize, nested: bool) -> (Vec<Token>, usize) {
        let src = self.src;
        let bytes = src.as_bytes();
        let n = src.len();
        let mut tokens: Vec<Token> = Vec::new();
        let mut line = 1 + bytes[..i].iter().filter(|&&b| b == b'\n').count() as u32;
        let mut depth = 0;
        while i < n {
            let c = char_at(src, i).unwrap();
            if c == '\n' {
                line += 1;
                i += 1;
                continue;
            }
            if is_space(c) {
                i += c.len_utf8();
                continue;
            }
            if src[i..].starts_with("//") || (i == 0 && src.starts_with("#!")) {
                i = src[i..].find('\n').map_or(n, |p| i + p);
                continue;
            }
            if src[i..].starts_with("/*") {
                let j = src[i + 2..].find("*/").map_or(n, |p| i + 2 + p + 2);
                line += count_lines(&src[i..j]);
                i = j;
                continue;
            }
            let (kind, j, parts) = if c == '\'' || c == '"' {
                (Kind::Str, skip_string(src, i), Vec::new())
            } else if c == '`' {
                let (j, parts) = self.template(i);
                (Kind::Template, j, parts)
            } else if c == '/' && regex_allowed(src, tokens.last()) {
                (Kind::Regex, skip_regex(src, i), Vec::new())
            } else if c == '_' || c == '$' || c == '#' || c.is_alphabetic() {
                let len: usize = src[i + 1..]
                    .chars()
                    .take_while(|&c| c == '_' || c == '$' || c.is_alphanumeric())
                    .map(char::len_utf8)
                    .sum();
                (Kind::Ident, i + 1 + len, Vec::new())
            } else if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                let len: usize = src[i + 1..]
                    .chars()
                    .take_while(|&c| c == '_' || c == '.' || c.is_alphanumeric())
                    .map(char::len_utf8)
                    .sum();
                (Kind::Number, i + 1 + len, Vec::new())
            } else if src[i..].starts_with("=>") {
                (Kind::Op, i + 2, Vec::new())
            } else {
                let j = i + c.len_utf8();
                if nested && c == '{' {
                    depth += 1;
                } else if nested && c == '}' {
                    if depth == 0 {
                        return (tokens, j);
                    }
                    depth -= 1;
                }
                (Kind::Op, j, Vec::new())
            };
            let end_line = if kind == Kind::Template { line + count_lines(&src[i..j]) } else { line };
            tokens.push(Token { kind, start: i, end: j, line, end_line, parts });
            line = end_line;
            i = j;
        }
        (tokens, n)
    }

    /// `src[i]` is a backtick: the index after the template and its pieces.
    fn template(&self, i: usize) -> (usize, Vec<TemplatePart>) {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut parts = Vec::new();
        let (mut j, mut text_start) = (i + 1, i + 1);
        while j < bytes.len() {
            match bytes[j] {
                b'\\' => j += 2,
                b'`' => {
                    parts.push(TemplatePart::Text(src[text_start..j].to_string()));
                    return (j + 1, parts);
                }
                b'$' if bytes.get(j + 1) == Some(&b'{') => {
                    parts.push(TemplatePart::Text(src[text_start..j].to_string()));
                    let (_, end) = self.run(j + 2, true);
                    parts.push(TemplatePart::Expr(src[j + 2..end - 1].to_string()));
                    j = end;
                    text_start = j;
                }
                _ => j += 1,
            }
        }
        let j = j.min(bytes.len());
        parts.push(TemplatePart::Text(src.get(text_start..j).unwrap_or("").to_string()));
        (bytes.len(), parts)
    }
}

fn count_lines(text: &str) -> u32 {
    text.bytes().filter(|&b| b == b'\n').count() as u32
}

fn regex_allowed(src: &str, previous: Option<&Token>) -> bool {
    let Some(previous) = previous else { return true };
    let text = &src[previous.start..previous.end];
    match previous.kind {
        Kind::Op => text != ")" && text != "]",
        Kind::Ident => KEYWORDS_BEFORE_REGEX.contains(&text),
        _ => false,
    }
}

/// The index after a quoted string starting at `i` (an unterminated one
/// ends after the line break).
fn skip_string(src: &str, i: usize) -> usize {
    let bytes = src.as_bytes();
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() && bytes[j] != quote {
        if bytes[j] == b'\\' {
            j += 2;
            continue;
        }
        if bytes[j] == b'\n' {
            break;
        }
        j += 1;
    }
    char_end(src, (j + 1).min(bytes.len()))
}

fn skip_regex(src: &str, i: usize) -> usize {
    let bytes = src.as_bytes();
    let (mut j, mut in_class) = (i + 1, false);
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => {
                j += 2;
                continue;
            }
            b'\n' => break,
            b']' if in_class => in_class = false,
            b'[' if !in_class => in_class = true,
            b'/' if !in_class => {
                let flags: usize =
                    src[j + 1..].chars().take_while(|&c| c == '_' || c.is_alphanumeric()).map(char::len_utf8).sum();
                return j + 1 + flags;
            }
            _ => {}
        }
        j += 1;
    }
    char_end(src, j.min(bytes.len()))
}

/// `i`, moved forward to a character boundary (after an escape of a
/// multi-byte character).
fn char_end(src: &str, mut i: usize) -> usize {
    while i < src.len() && !src.is_char_boundary(i) {
        i += 1;
    }
    i.min(src.len())
}

/// The value of a string's or template piece's body, escapes decoded.
pub fn cook(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'b' => Some('\x08'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '0' if !chars.peek().is_some_and(|(_, d)| d.is_ascii_digit()) => Some('\0'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let rest = &body[at + 2..];
        let hex = |digits: &str| u32::from_str_radix(digits, 16).ok().and_then(char::from_u32);
        match e {
            'x' if rest.len() >= 2 && hex(&rest[..2]).is_some() => {
                out.extend(hex(&rest[..2]));
                chars.nth(1);
            }
            'u' if rest.starts_with('{') && rest.contains('}') => {
                let close = rest.find('}').unwrap();
                out.extend(hex(&rest[1..close]));
                while chars.next().is_some_and(|(_, c)| c != '}') {}
            }
            'u' if rest.get(..4).and_then(hex).is_some() => {
                out.extend(hex(&rest[..4]));
                chars.nth(3);
            }
            '\r' => {
                chars.next_if(|(_, c)| *c == '\n');
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            _ => out.push(e),
        }
    }
    out
}
