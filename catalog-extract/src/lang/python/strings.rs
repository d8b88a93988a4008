//! Python string literals: their value, and the placeholders of the three
//! ways Python fills a message in (`%`, `str.format`, f-strings).

use crate::lang::message::{push_lit, Part, GROUP_ANY, GROUP_SOME};

/// A string literal token taken apart.
pub struct Literal<'a> {
    /// The prefix, lower-cased (`""`, `"r"`, `"f"`, `"rb"` …).
    pub prefix: String,
    /// The text between the quotes, as written.
    pub body: &'a str,
}

impl<'a> Literal<'a> {
    pub fn parse(token: &'a str) -> Literal<'a> {
        let quote_at = token.find(['\'', '"']).unwrap_or(0);
        let rest = &token[quote_at..];
        let bytes = rest.as_bytes();
        let triple = bytes.len() >= 6 && bytes[1] == bytes[0] && bytes[2] == bytes[0];
        let width = if triple { 3 } else { 1 };
        let body_end =
            if rest.len() >= 2 * width && rest.ends_with(&rest[..width]) { rest.len() - width } else { rest.len() };
        Literal { prefix: token[..quote_at].to_ascii_lowercase(), body: &rest[width..body_end.max(width)] }
    }

    pub fn is_raw(&self) -> bool {
        self.prefix.contains('r')
    }
    pub fn is_bytes(&self) -> bool {
        self.prefix.contains('b')
    }
    pub fn is_fstring(&self) -> bool {
        self.prefix.contains('f')
    }

    /// The value of a plain (not f-) string.
    pub fn value(&self) -> String {
        if self.is_raw() {
            self.body.to_string()
        } else {
            decode_escapes(self.body)
        }
    }
}

/// Python's backslash escapes decoded (`\n`, `\x41`, `\u00e9`, `\N{…}`,
/// octal, a `\` before a line break); unknown escapes keep their backslash.
pub fn decode_escapes(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let hex = |chars: &mut std::iter::Peekable<std::str::Chars>, n: usize| {
            let digits: String = (0..n).filter_map(|_| chars.next_if(char::is_ascii_hexdigit)).collect();
            u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32)
        };
        match e {
            '\n' => {}
            '\r' => {
                chars.next_if_eq(&'\n');
            }
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            'x' => out.extend(hex(&mut chars, 2)),
            'u' => out.extend(hex(&mut chars, 4)),
            'U' => out.extend(hex(&mut chars, 8)),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap();
                for _ in 0..2 {
                    match chars.next_if(|d| d.is_digit(8)) {
                        Some(d) => value = value * 8 + d.to_digit(8).unwrap(),
                        None => break,
                    }
                }
                out.extend(char::from_u32(value));
            }
            'N' if chars.peek() == Some(&'{') => {
                let name: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                out.push_str(&format!("\\N{{{name}}}"));
            }
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// The group of a `%` conversion: `%s` may render empty, the others never.
fn percent_group(conversion: char) -> &'static str {
    if conversion == 's' {
        GROUP_ANY
    } else {
        GROUP_SOME
    }
}

/// The parts of a `%`-format (`%s`, `%(name)r`, `%-5.2f`, `%%`).
pub fn split_percent(message: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let bytes = message.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        let Some((end, conversion)) = percent_spec(bytes, i + 1) else {
            i += 1;
            continue;
        };
        push_lit(&mut parts, &message[lit_start..i]);
        if conversion == '%' && end == i + 2 {
            push_lit(&mut parts, "%");
        } else {
            parts.push(Part::Value(percent_group(conversion)));
        }
        i = end;
        lit_start = end;
    }
    push_lit(&mut parts, &message[lit_start..]);
    parts
}

/// After a `%` at `i - 1`: the end of a conversion spec and its type, as
/// `%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]`.
fn percent_spec(bytes: &[u8], mut i: usize) -> Option<(usize, char)> {
    if bytes.get(i) == Some(&b'(') {
        i += bytes[i..].iter().position(|&b| b == b')')? + 1;
    }
    while bytes.get(i).is_some_and(|b| b"#0- +".contains(b)) {
        i += 1;
    }
    let width = |i: &mut usize| {
        if bytes.get(*i) == Some(&b'*') {
            *i += 1;
        } else {
            while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
        }
    };
    width(&mut i);
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(|b| *b == b'*' || b.is_ascii_digit()) {
        i += 1;
        width(&mut i);
    }
    if bytes.get(i).is_some_and(|b| b"hlL".contains(b)) {
        i += 1;
    }
    let conversion = *bytes.get(i)?;
    b"diouxXeEfFgGcrsa%".contains(&conversion).then_some((i + 1, conversion as char))
}

/// The group of a `{…}` field: `!r`/`!a` and numeric format types never
/// render empty.
fn field_group(conversion: Option<&str>, spec: &str) -> &'static str {
    let numeric = spec.chars().last().is_some_and(|c| "bcdeEfFgGnoxX%".contains(c));
    if matches!(conversion, Some("r" | "a")) || numeric {
        GROUP_SOME
    } else {
        GROUP_ANY
    }
}

/// The parts of a `str.format` string, or `None` where `str.format` would
/// raise (a single `}`, an unclosed `{`, a bad conversion).
pub fn split_format(message: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut chars = message.char_indices().peekable();
    let mut lit = String::new();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' if chars.next_if(|&(_, c)| c == '{').is_some() => lit.push('{'),
            '}' if chars.next_if(|&(_, c)| c == '}').is_some() => lit.push('}'),
            '}' => return None,
            '{' => {
                push_lit(&mut parts, &lit);
                lit.clear();
                let mut depth = 1;
                let mut end = None;
                for (j, c) in chars.by_ref() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let field = &message[at + 1..end?];
                let (conversion, spec) = format_field(field)?;
                parts.push(Part::Value(field_group(conversion, spec)));
            }
            _ => lit.push(c),
        }
    }
    push_lit(&mut parts, &lit);
    Some(parts)
}

/// Conversion and spec of a `str.format` field's text (`name!r:>10`).
fn format_field(field: &str) -> Option<(Option<&str>, &str)> {
    let mut i = 0;
    let bytes = field.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'[' => i += bytes[i..].iter().position(|&b| b == b']').map_or(bytes.len() - i, |p| p + 1),
            b'{' => return None,
            b'!' | b':' => break,
            _ => i += 1,
        }
    }
    let rest = &field[i.min(field.len())..];
    if let Some(after) = rest.strip_prefix('!') {
        let mut cs = after.char_indices();
        let (_, conv) = cs.next()?;
        let tail = &after[conv.len_utf8()..];
        if !tail.is_empty() && !tail.starts_with(':') {
            return None;
        }
        let conv = &after[..conv.len_utf8()];
        return Some((Some(conv), tail.strip_prefix(':').unwrap_or("")));
    }
    Some((None, rest.strip_prefix(':').unwrap_or("")))
}

/// Why an f-string message is left out.
#[derive(Debug)]
pub enum FstringError {
    /// `{expr=}` writes the expression's text too.
    DebugSpecifier,
    /// `{x:{width}}`: the spec is itself filled in.
    NestedSpec,
    Unterminated,
}

/// The message and parts of string literals joined implicitly, at least one
/// an f-string. The message keeps each `{field}` and `{{`/`}}` as written
/// and decodes the literal text; a plain part has its braces doubled, as it
/// would be written inside the f-string.
pub fn fstring_message(literals: &[Literal]) -> Result<(String, Vec<Part>), FstringError> {
    let mut text = String::new();
    let mut parts = Vec::new();
    let add_lit = |text: &mut String, parts: &mut Vec<Part>, written: &str, value: &str| {
        text.push_str(written);
        push_lit(parts, value);
    };
    for literal in literals {
        if !literal.is_fstring() {
            let value = literal.value();
            add_lit(&mut text, &mut parts, &value.replace('{', "{{").replace('}', "}}"), &value);
            continue;
        }
        let body = literal.body;
        let raw = literal.is_raw();
        let decode = |chunk: &str| if raw { chunk.to_string() } else { decode_escapes(chunk) };
        let bytes = body.as_bytes();
        let (mut i, mut lit_start) = (0, 0);
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'\\' && !raw {
                i = if body[i..].starts_with("\\N{") {
                    body[i..].find('}').map_or(bytes.len(), |p| i + p + 1)
                } else {
                    i + 2
                };
                continue;
            }
            if (c == b'{' || c == b'}') && bytes.get(i + 1) == Some(&c) {
                i += 2;
                continue;
            }
            if c == b'{' {
                let chunk = decode(&body[lit_start..i]);
                add_lit(&mut text, &mut parts, &chunk, &chunk.replace("{{", "{").replace("}}", "}"));
                let end = scan_field(body, i).ok_or(FstringError::Unterminated)?;
                let field = &body[i..end];
                let (conversion, spec, debug) = split_field(&field[1..field.len() - 1]);
                if debug {
                    return Err(FstringError::DebugSpecifier);
                }
                if spec.is_some_and(|s| s.contains('{')) {
                    return Err(FstringError::NestedSpec);
                }
                text.push_str(field);
                parts.push(Part::Value(field_group(conversion, spec.unwrap_or(""))));
                i = end;
                lit_start = end;
                continue;
            }
            i += 1;
        }
        let chunk = decode(&body[lit_start..]);
        add_lit(&mut text, &mut parts, &chunk, &chunk.replace("{{", "{").replace("}}", "}"));
    }
    Ok((text, parts))
}

/// The bytes of an f-string field's text that are outside the string
/// literals nested in it, with their index.
fn unquoted(bytes: &[u8], from: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut j = from;
    std::iter::from_fn(move || {
        while j < bytes.len() {
            let quote = bytes[j];
            if quote != b'\'' && quote != b'"' {
                j += 1;
                return Some((j - 1, quote));
            }
            let width = if bytes[j..].starts_with(&[quote; 3]) { 3 } else { 1 };
            let close = &bytes[j..j + width];
            j += width;
            while j < bytes.len() && !bytes[j..].starts_with(close) {
                j += 1;
            }
            j = (j + width).min(bytes.len());
        }
        None
    })
}

/// `body[i]` is the `{` opening an f-string field: the index after its `}`.
fn scan_field(body: &str, i: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (j, b) in unquoted(body.as_bytes(), i) {
        match b {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Conversion, spec and whether it ends in the `=` debug specifier, of the
/// text inside an f-string field's braces.
fn split_field(inner: &str) -> (Option<&str>, Option<&str>, bool) {
    let bytes = inner.as_bytes();
    let mut depth = 0i32;
    let (mut expr_end, mut conversion, mut spec) = (inner.len(), None, None);
    for (j, b) in unquoted(bytes, 0) {
        match b {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            b'!' if depth == 0 && bytes.get(j + 1) != Some(&b'=') => {
                expr_end = j;
                match inner[j..].find(':') {
                    Some(k) => {
                        conversion = Some(&inner[j + 1..j + k]);
                        spec = Some(&inner[j + k + 1..]);
                    }
                    None => conversion = Some(&inner[j + 1..]),
                }
                break;
            }
            b':' if depth == 0 => {
                expr_end = j;
                spec = Some(&inner[j + 1..]);
                break;
            }
            _ => {}
        }
    }
    let expr = inner[..expr_end].trim_end();
    let debug = expr.ends_with('=') && !["==", "!=", "<=", ">="].iter().any(|op| expr.ends_with(op));
    (conversion, spec, debug)
}
