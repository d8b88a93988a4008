//! Messages written as the producers of log envelopes write them, for the
//! envelope tests of every crate (included with `#[path]`).

#![allow(dead_code)]

/// `text` as a JSON string the way Docker's json-file driver writes it
/// (moby `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go`,
/// `ffjsonWriteJSONBytesAsString`): `"` and `\` escaped, `\n` and `\r`
/// short, every other control character (a tab too) as `\u00XX`, `<` `>` `&`
/// as `\u003c` `\u003e` `\u0026`, U+2028 and U+2029 as `\u2028` `\u2029`.
pub fn docker_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` as Go's `strconv.Quote` writes it (slog's TextHandler quoting a
/// logfmt value): `"` and `\` escaped, `\n \r \t` short, other control
/// characters as `\xHH`.
pub fn go_quote(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => quoted.push_str(&format!("\\x{:02x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}
