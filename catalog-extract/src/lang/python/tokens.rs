//! A Python tokenizer sufficient for finding calls: names, numbers, strings
//! of every prefix and quote (kept whole), operators, and the end of each
//! logical line. Comments, and line breaks inside brackets or after a `\`,
//! are dropped.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Name,
    Number,
    /// A string literal with its prefix and quotes.
    Str,
    Op,
    /// The end of a logical line.
    Newline,
}

/// One token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    /// Byte range in the source.
    pub start: usize,
    pub end: usize,
    /// 1-based line of its first and last character.
    pub line: u32,
    pub end_line: u32,
    /// Column of its first character (a tab counts to the next multiple of 8).
    pub col: usize,
}

/// Operators of more than one character, longest first.
const LONG_OPS: [&str; 24] = [
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "@=",
];

/// The tokens of `src`. Unterminated strings end at the end of the source.
pub fn tokenize(src: &str) -> Vec<Token> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let (mut i, mut line, mut line_start, mut depth) = (0usize, 1u32, 0usize, 0usize);
    let column = |line_start: usize, at: usize| {
        src[line_start..at].chars().fold(0, |col, c| if c == '\t' { col / 8 * 8 + 8 } else { col + 1 })
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                if depth == 0 && tokens.last().is_some_and(|t: &Token| t.kind != Kind::Newline) {
                    let col = column(line_start, i);
                    tokens.push(Token { kind: Kind::Newline, start: i, end: i + 1, line, end_line: line, col });
                }
                i += 1;
                line += 1;
                line_start = i;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') || bytes[i + 1..].starts_with(b"\r\n") => {
                i += if bytes[i + 1] == b'\n' { 2 } else { 3 };
                line += 1;
                line_start = i;
            }
            _ => {
                let start = i;
                let (first_line, col) = (line, column(line_start, i));
                let kind = if let Some(quote_at) = string_start(bytes, i) {
                    i = skip_string(bytes, quote_at);
                    let newlines = bytes[start..i].iter().filter(|&&b| b == b'\n').count();
                    if newlines > 0 {
                        line += newlines as u32;
                        line_start = start + src[start..i].rfind('\n').unwrap() + 1;
                    }
                    Kind::Str
                } else if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
                    while i < bytes.len() && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric() || bytes[i] >= 0x80)
                    {
                        i += 1;
                    }
                    Kind::Name
                } else if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                    i = skip_number(bytes, i);
                    Kind::Number
                } else {
                    let op = LONG_OPS.iter().find(|op| src[i..].starts_with(**op));
                    i += op.map_or(1, |op| op.len());
                    match c {
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    Kind::Op
                };
                // A stray byte inside a multi-byte character cannot start a token.
                while !src.is_char_boundary(i) {
                    i += 1;
                }
                tokens.push(Token { kind, start, end: i, line: first_line, end_line: line, col });
            }
        }
    }
    if tokens.last().is_some_and(|t| t.kind != Kind::Newline) {
        let col = column(line_start, src.len());
        tokens.push(Token { kind: Kind::Newline, start: src.len(), end: src.len(), line, end_line: line, col });
    }
    tokens
}

/// If a string literal starts at `i` (after an optional prefix such as `rb`
/// or `f`), the index of its opening quote.
fn string_start(bytes: &[u8], i: usize) -> Option<usize> {
    let prefix = bytes[i..].iter().take_while(|b| b"rRbBuUfF".contains(b)).count();
    let quote = *bytes.get(i + prefix)?;
    (prefix <= 2 && (quote == b'\'' || quote == b'"')).then_some(i + prefix)
}

/// The index just past the string literal whose opening quote is at `q`.
fn skip_string(bytes: &[u8], q: usize) -> usize {
    let quote = bytes[q];
    let triple = bytes.len() >= q + 3 && bytes[q + 1] == quote && bytes[q + 2] == quote;
    let mut i = q + if triple { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            b if b == quote => {
                if !triple {
                    return i + 1;
                }
                if bytes[i..].starts_with(&[quote, quote, quote]) {
                    return i + 3;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

fn skip_number(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let b = bytes[i];
        let exponent_sign = (b == b'+' || b == b'-') && matches!(bytes[i - 1], b'e' | b'E') && !is_hex(bytes, i);
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || exponent_sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// Whether the number that `i` is inside is written in hexadecimal.
fn is_hex(bytes: &[u8], i: usize) -> bool {
    let start = bytes[..i].iter().rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.'));
    let digits = &bytes[start.map_or(0, |s| s + 1)..i];
    digits.len() > 1 && digits[0] == b'0' && matches!(digits[1], b'x' | b'X')
}
