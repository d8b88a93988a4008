//! Typed masking: the parts of a message that are values by their look
//! (numbers, hex ids, IP addresses, paths and URLs, quoted strings, the
//! value of `key=value`, words with digits) are replaced by one
//! marker character each, so that two lines of one template that differ only
//! there give the same key, and the template says what type each value has.
//!
//! A masked message is a `String` in which each marker is a character of a
//! private-use block; the line's own characters of that block are escaped
//! (see [`ESCAPE`]), so hostile input can never pose as a marker.

use super::datetime;

/// The kind of a masked value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mask {
    /// `-12`, `3000`.
    Int,
    /// `0.25`, `-1.5e3`.
    Float,
    /// `0x1f`, a long run of hex digits with some digit in it, a UUID.
    Hex,
    /// `10.0.0.1`, `10.0.0.1:4222`, `[::1]:4222`.
    Ip,
    /// `/var/lib/x`, `https://host/path`.
    Path,
    /// `"with \"escapes\""`.
    Quoted,
    /// `'text'`: the quotes are the template's, the text a value.
    SingleQuoted,
    /// `2005-06-03 12:00:00`, `Sun Jul 10 12:00:00 2005` (see [`super::datetime`]).
    Time,
    /// Anything else that varies: a word with digits, the value of
    /// `key=value`, a position whose words differ.
    Text,
}

/// First character of the marker block; [`Mask`] `k` is `BASE + k`.
const BASE: u32 = 0xE000;
const KINDS: [Mask; 9] =
    [Mask::Int, Mask::Float, Mask::Hex, Mask::Ip, Mask::Path, Mask::Quoted, Mask::SingleQuoted, Mask::Time, Mask::Text];
/// Written before a line's own character of the marker block.
pub const ESCAPE: char = '\u{E00F}';
/// Starts a token that follows the one before it without a space (the `,`
/// of `value,`): see [`tokens`].
pub const GLUE: char = '\u{E00E}';

impl Mask {
    pub fn marker(self) -> char {
        let index = KINDS.iter().position(|k| *k == self).expect("every kind is listed") as u32;
        char::from_u32(BASE + index).expect("a private-use character")
    }

    fn of_marker(c: char) -> Option<Mask> {
        let offset = (c as u32).checked_sub(BASE)?;
        KINDS.get(offset as usize).copied()
    }

    /// The placeholder of this kind in Go's `fmt` syntax.
    pub fn go_verb(self) -> &'static str {
        match self {
            Mask::Int => "%d",
            Mask::Float => "%v",
            Mask::Quoted => "%q",
            Mask::SingleQuoted => "'%s'",
            Mask::Hex | Mask::Ip | Mask::Path | Mask::Time | Mask::Text => "%s",
        }
    }

    /// The regex of a value of this kind (one capture group), for the draft's
    /// `messagePattern`: `may_be_empty` for text seen empty, `words` for text
    /// of several words.
    pub fn regex(self, may_be_empty: bool, words: bool) -> &'static str {
        match (self, may_be_empty, words) {
            (Mask::Int, _, false) => "(-?[0-9]+)",
            (Mask::Float, _, false) => "(-?[0-9]+\\.[0-9]+(?:[eE][-+]?[0-9]+)?)",
            (Mask::Quoted, _, false) => "(\"(?:[^\"\\\\]|\\\\.)*\")",
            (Mask::SingleQuoted, _, false) => "'(.*?)'",
            // A date may have spaces in it.
            (Mask::Time, _, _) => "(.+?)",
            (_, true, false) => "(\\S*)",
            (_, false, false) => "(\\S+)",
            (_, true, true) => "(.*?)",
            (_, false, true) => "(.+?)",
        }
    }
}

/// A piece of a masked token: text as logged, or a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Literal(String),
    Value(Mask),
}

/// Whether `token` is one masked value and nothing else.
pub fn whole_mask(token: &str) -> Option<Mask> {
    let mut chars = token.strip_prefix(GLUE).unwrap_or(token).chars();
    let first = chars.next()?;
    chars.next().is_none().then(|| Mask::of_marker(first)).flatten()
}

/// Whether `token` has a masked value in it.
pub fn has_mask(token: &str) -> bool {
    token.chars().any(|c| Mask::of_marker(c).is_some())
}

/// Whether `token` is a key and its value: a word with a letter, then `=`
/// or `:`, then the token's first value (`steps=<int>`, `onExtend:<int>`).
pub fn is_keyed_value(token: &str) -> bool {
    let token = token.strip_prefix(GLUE).unwrap_or(token);
    let Some(at) = token.find(|c| Mask::of_marker(c).is_some()) else { return false };
    let key = &token[..at];
    (key.ends_with('=') || key.ends_with(':')) && key.chars().any(char::is_alphabetic) && !key.contains(ESCAPE)
}

/// Whether `token` follows the token before it without a space.
pub fn is_glued(token: &str) -> bool {
    token.starts_with(GLUE)
}

/// Whether `token` has no letter or digit (nor a value): punctuation, which
/// recurs in every kind of line.
pub fn is_punctuation(token: &str) -> bool {
    !token.chars().any(|c| c.is_alphanumeric() || Mask::of_marker(c).is_some())
}

/// Characters split off the start of a word, and off its end.
const OPENING: &[char] = &['(', '[', '{', '<', '"', '\'', '`'];
const CLOSING: &[char] = &[')', ']', '}', '>', ',', ';', ':', '.', '!', '?', '"', '\'', '`'];

/// The tokens of a masked message: its words (split at single spaces, so an
/// empty value keeps its place), each without the brackets, quotes and
/// punctuation around it, which are tokens of their own marked [`GLUE`]d
/// (`(seq=<int>):` is `(`, `seq=<int>`, `)`, `:`): a value that ends a
/// clause keeps the template's comma out of it. A word of punctuation only
/// stays whole.
pub fn tokens(masked: &str) -> Vec<Box<str>> {
    let mut out = Vec::new();
    for word in masked.split(' ') {
        let core = word.trim_start_matches(OPENING);
        // An empty pair of brackets that a value starts with (`{}%s`,
        // `[{}%s]`) is the value's: the opening ends before it.
        let opening = &word[..word.len() - core.len()];
        let opening = match opening.char_indices().find(|&(i, c)| closes(c, word[i + c.len_utf8()..].chars().next())) {
            Some((i, _)) => &word[..i],
            None => opening,
        };
        let core = &word[opening.len()..];
        let inner = core.trim_end_matches(CLOSING);
        let closing = &core[inner.len()..];
        if inner.is_empty() && !word.is_empty() {
            // Brackets and quotes with nothing in them (an empty value:
            // `` `` ``, `[]`): each a token, as around a value.
            let mut chars = word.chars().map(String::from);
            out.extend(chars.next().map(Box::from));
            out.extend(chars.map(|c| format!("{GLUE}{c}").into_boxed_str()));
            continue;
        }
        // Not an empty pair of brackets a value starts with (`{}%s`).
        if inner.is_empty() || !opening.is_empty() && inner.starts_with(CLOSING) {
            out.push(Box::from(word));
            continue;
        }
        let mut pieces =
            opening.chars().map(String::from).chain([inner.to_owned()]).chain(closing.chars().map(String::from));
        out.extend(pieces.next().map(Box::from));
        out.extend(pieces.map(|piece| format!("{GLUE}{piece}").into_boxed_str()));
    }
    out
}

/// Whether `next` closes the bracket `open` (an empty pair: `()`, `[]`, `{}`, `<>`).
fn closes(open: char, next: Option<char>) -> bool {
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        _ => return false,
    };
    next == Some(close)
}

/// Whether `token` has a value in it whose text may have spaces: a quoted
/// string or a date (`Mon Sep 27 22:15:07`).
pub fn has_spaced_value(token: &str) -> bool {
    token.chars().any(|c| matches!(Mask::of_marker(c), Some(Mask::Quoted | Mask::SingleQuoted | Mask::Time)))
}

/// The parts of a masked token, markers decoded.
pub fn parts(token: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == GLUE {
            continue;
        }
        if c == ESCAPE {
            literal.extend(chars.next());
        } else if let Some(mask) = Mask::of_marker(c) {
            if !literal.is_empty() {
                parts.push(Part::Literal(std::mem::take(&mut literal)));
            }
            parts.push(Part::Value(mask));
        } else {
            literal.push(c);
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    parts
}

/// `message` with its values masked (into `out`, cleared first).
pub fn mask_into(message: &str, out: &mut String) {
    out.clear();
    let bytes = message.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let boundary = at == 0 || !is_word_byte(bytes[at - 1]);
        if boundary {
            if let Some((end, mask)) = value_at(message, at) {
                out.push(mask.marker());
                at = end;
                // A unit of size after a number is a value of its own.
                if let Some(end) = size_unit_end(bytes, at).filter(|_| matches!(mask, Mask::Int | Mask::Float)) {
                    out.push(' ');
                    out.push(Mask::Text.marker());
                    at = end;
                }
                continue;
            }
        }
        // The rest of a word of ASCII letters and digits is copied whole:
        // no value starts inside it, and it holds no marker character.
        let word = bytes[at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        if word > 0 {
            out.push_str(&message[at..at + word]);
            at += word;
            continue;
        }
        let c = message[at..].chars().next().expect("at a character boundary");
        if (BASE..=BASE + 0xF).contains(&(c as u32)) {
            out.push(ESCAPE);
        }
        out.push(c);
        at += c.len_utf8();
        // `key=value`: the value is masked whatever it looks like.
        if c == '=' && at >= 2 && is_word_byte(bytes[at - 2]) {
            if let Some(end) = kv_value_end(bytes, at).filter(|&end| !matches!(&message[at..end], "true" | "false")) {
                let mask = value_at(message, at).filter(|(e, _)| *e == end).map_or(Mask::Text, |(_, m)| m);
                out.push(mask.marker());
                at = end;
            }
        }
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The value that starts at `at` (at a word boundary), its end and kind.
fn value_at(text: &str, at: usize) -> Option<(usize, Mask)> {
    let bytes = text.as_bytes();
    match bytes[at] {
        // An HTTP request line in quotes (access logs) is not one value: its
        // method is the event's (`"GET <path> HTTP/1.1"`, `"POST ..."`).
        b'"' if is_request_line(&bytes[at + 1..]) => None,
        b'"' => quoted_end(bytes, at).map(|end| (end, Mask::Quoted)),
        b'\'' => single_quoted_end(bytes, at).map(|end| (end, Mask::SingleQuoted)),
        // A path starts a word, or follows `=`, `(`, `:`... (not `<`: `</b>`).
        b'/' if at == 0 || b" \t=([{\"':,@".contains(&bytes[at - 1]) => {
            path_end(bytes, at).map(|end| (end, Mask::Path))
        }
        b'[' => ipv6_end(bytes, at).map(|end| (end, Mask::Ip)),
        b'-' if bytes.get(at + 1).is_some_and(u8::is_ascii_digit) && (at == 0 || bytes[at - 1] != b'-') => {
            number_end(bytes, at + 1)
        }
        b if b.is_ascii_alphanumeric() || b == b'_' => word_value(text, at),
        _ => None,
    }
}

/// Whether `text` starts with an HTTP method and a space.
fn is_request_line(text: &[u8]) -> bool {
    const METHODS: [&[u8]; 9] =
        [b"GET ", b"POST ", b"PUT ", b"DELETE ", b"HEAD ", b"PATCH ", b"OPTIONS ", b"CONNECT ", b"TRACE "];
    METHODS.iter().any(|method| text.starts_with(method))
}

/// A word at `at`: a URL, an IP address, a number, a hex id or a word with
/// digits are values; other words are not (`true` and `false` included:
/// the events of real logs differ in them, `isOverlap:true` and
/// `isOverlap:false`, and the tree tells a recurring word from a value).
fn word_value(text: &str, at: usize) -> Option<(usize, Mask)> {
    let bytes = text.as_bytes();
    let first = bytes[at];
    // Most words start with a letter and are no URL (a scheme of letters
    // then `://`), no IP address and no number: those are looked at only
    // when their first bytes allow.
    let letters = bytes[at..].iter().take(12).take_while(|b| b.is_ascii_alphabetic()).count();
    if letters > 0 && bytes[at + letters..].starts_with(b"://") {
        return url_end(bytes, at).map(|end| (end, Mask::Path));
    }
    if first.is_ascii_digit() {
        if let Some(end) = ipv4_end(bytes, at) {
            return Some((end, Mask::Ip));
        }
    }
    if let Some(end) = datetime::date_time_end(bytes, at) {
        return Some((end, Mask::Time));
    }
    if first.is_ascii_hexdigit() {
        if let Some(end) = mac_end(bytes, at) {
            return Some((end, Mask::Hex));
        }
        if let Some(end) = ipv6_bare_end(bytes, at) {
            return Some((end, Mask::Ip));
        }
    }
    if first.is_ascii_digit() {
        if let Some(found) = number_end(bytes, at) {
            return Some(found);
        }
    }
    // The word: letters, digits, `_`, and `-`/`.` between them (`node-7`, `v1.2.3`).
    let (mut end, mut digit, mut hexish) = (at, false, true);
    while end < bytes.len() {
        let b = bytes[end];
        let joins = (b == b'-' || b == b'.') && bytes.get(end + 1).is_some_and(|n| n.is_ascii_alphanumeric());
        if b.is_ascii_alphanumeric() || b == b'_' || (joins && end > at) {
            digit |= b.is_ascii_digit();
            hexish &= b.is_ascii_hexdigit() || b == b'-';
            end += 1;
        } else {
            break;
        }
    }
    if end < bytes.len() && bytes[end] >= 0x80 {
        return None; // A word that goes on in non-ASCII letters: text.
    }
    if !digit {
        return None;
    }
    let word = &text[at..end];
    let hex = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X"));
    if hex.is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit())) {
        return Some((end, Mask::Hex));
    }
    if hexish && word.len() >= 8 {
        return Some((end, Mask::Hex));
    }
    Some((end, Mask::Text))
}

/// After digits at `at`, optionally a fraction and an exponent, when a
/// word boundary follows: an int or a float.
fn number_end(bytes: &[u8], at: usize) -> Option<(usize, Mask)> {
    let mut end = digits(bytes, at)?;
    let mut mask = Mask::Int;
    if bytes.get(end) == Some(&b'.') {
        if let Some(fraction) = digits(bytes, end + 1) {
            end = fraction;
            mask = Mask::Float;
            if matches!(bytes.get(end), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(bytes.get(end + 1), Some(b'+' | b'-')));
                if let Some(exponent) = digits(bytes, end + 1 + sign) {
                    end = exponent;
                }
            }
        }
    }
    let boundary = bytes.get(end).is_none_or(|&b| !(is_word_byte(b) || b == b'.' && next_is_digit(bytes, end)));
    boundary.then_some((end, mask))
}

/// After a number at `at`, the end of a unit of size that follows it
/// (`12.5 KB`): programs that print sizes for people choose the unit by
/// the size, so the unit is the value's, not the event's.
fn size_unit_end(bytes: &[u8], at: usize) -> Option<usize> {
    const UNITS: [&[u8]; 12] = [b"B", b"KB", b"kB", b"MB", b"GB", b"TB", b"PB", b"KiB", b"MiB", b"GiB", b"TiB", b"PiB"];
    let rest = bytes.get(at..)?.strip_prefix(b" ")?;
    UNITS.iter().find_map(|unit| {
        let end = at + 1 + unit.len();
        let ends = match bytes.get(end) {
            None => true,
            Some(b'.') => !bytes.get(end + 1).is_some_and(|&b| is_word_byte(b)),
            Some(&b) => b.is_ascii_whitespace() || b",;:)]}".contains(&b),
        };
        (rest.starts_with(unit) && ends).then_some(end)
    })
}

fn next_is_digit(bytes: &[u8], at: usize) -> bool {
    bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
}

fn digits(bytes: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    (end > at).then_some(end)
}

/// `a.b.c.d` with an optional `:port`.
fn ipv4_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    for i in 0..4 {
        if i > 0 {
            end = (bytes.get(end) == Some(&b'.')).then_some(end + 1)?;
        }
        let next = digits(bytes, end)?;
        if next - end > 3 {
            return None;
        }
        end = next;
    }
    if bytes.get(end) == Some(&b':') {
        if let Some(port) = digits(bytes, end + 1) {
            end = port;
        }
    }
    bytes.get(end).is_none_or(|&b| !is_word_byte(b)).then_some(end)
}

/// A MAC address: six pairs of hex digits between `:` or `-`.
fn mac_end(bytes: &[u8], at: usize) -> Option<usize> {
    let pair = |i: usize| bytes.get(i..i + 2).is_some_and(|p| p.iter().all(u8::is_ascii_hexdigit));
    let separator = *bytes.get(at + 2).filter(|b| matches!(b, b':' | b'-'))?;
    let end = at + 17;
    let shaped = (0..6).all(|k| pair(at + 3 * k) && (k == 5 || bytes.get(at + 3 * k + 2) == Some(&separator)));
    (shaped && bytes.get(end).is_none_or(|&b| !is_word_byte(b))).then_some(end)
}

/// An IPv6 address without brackets (`fe80::1`, `2001:db8:0:0:0:0:2:1`):
/// hex digits and colons, with `::` or seven colons.
fn ipv6_bare_end(bytes: &[u8], at: usize) -> Option<usize> {
    let run = bytes[at..].iter().take(46).take_while(|b| b.is_ascii_hexdigit() || **b == b':').count();
    let text = &bytes[at..at + run];
    let colons = text.iter().filter(|&&b| b == b':').count();
    let shaped = (text.windows(2).any(|w| w == b"::") || colons == 7) && colons >= 2 && !text.ends_with(b":::");
    let end = at + run;
    (shaped && bytes.get(end).is_none_or(|&b| !is_word_byte(b) && b != b'.')).then_some(end)
}

/// `[host]:port` (IPv6).
fn ipv6_end(bytes: &[u8], at: usize) -> Option<usize> {
    let close = at + 1 + bytes[at + 1..].iter().take(40).position(|&b| b == b']')?;
    let inside = &bytes[at + 1..close];
    let ipv6 = inside.contains(&b':') && inside.iter().all(|b| b.is_ascii_hexdigit() || *b == b':' || *b == b'.');
    if !ipv6 || bytes.get(close + 1) != Some(&b':') {
        return None;
    }
    digits(bytes, close + 2)
}

/// `scheme://rest` up to white space.
fn url_end(bytes: &[u8], at: usize) -> Option<usize> {
    let scheme = bytes[at..].iter().take(12).position(|b| !b.is_ascii_alphabetic())?;
    if scheme == 0 || !bytes[at + scheme..].starts_with(b"://") {
        return None;
    }
    Some(run_end(bytes, at + scheme + 3))
}

/// `/` and a path (at least one name character after the slash).
fn path_end(bytes: &[u8], at: usize) -> Option<usize> {
    let name = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'~');
    if !bytes.get(at + 1).is_some_and(name) {
        return None;
    }
    let end = run_end(bytes, at);
    // A path ends before trailing punctuation (`/tmp/x:` `(/tmp/x)` `/tmp/x.`).
    let kept = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'~' | b'/');
    let trimmed = bytes[at..end].iter().rposition(kept).map_or(end, |last| at + last + 1);
    Some(trimmed)
}

/// The end of a run of non-space characters that stops at quotes and
/// brackets closing around it.
fn run_end(bytes: &[u8], at: usize) -> usize {
    let stop =
        |b: &u8| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'`' | b')' | b']' | b'}' | b',' | b';' | b'>');
    at + bytes[at..].iter().position(stop).unwrap_or(bytes.len() - at)
}

/// [`run_end`] for the value of `key=`: past a bracket that closes one
/// opened in the value (`k={}7`, `k=f(a,b)`), not one opened before it
/// (`{k=v}`).
fn kv_run_end(bytes: &[u8], at: usize) -> usize {
    let mut depth = 0usize;
    let mut i = at;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            _ if b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'`') => break,
            _ if depth == 0 && matches!(b, b')' | b']' | b'}' | b',' | b';' | b'>') => break,
            _ => {}
        }
        i += 1;
    }
    i
}

/// A double-quoted string with backslash escapes, whose closing quote is
/// not followed by a word character.
fn quoted_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let end = i + 1;
                return bytes.get(end).is_none_or(|&b| !is_word_byte(b)).then_some(end);
            }
            _ => i += 1,
        }
    }
    None
}

/// A single-quoted text (no escapes; an apostrophe inside a word does not
/// end it), on one line and at most 256 bytes.
fn single_quoted_end(bytes: &[u8], at: usize) -> Option<usize> {
    let window = &bytes[at + 1..bytes.len().min(at + 258)];
    let mut from = 0;
    while let Some(quote) = window[from..].iter().position(|&b| b == b'\'').map(|q| from + q) {
        let end = at + 1 + quote + 1;
        if bytes.get(end).is_none_or(|&b| !is_word_byte(b)) {
            return Some(end);
        }
        from = quote + 1;
    }
    None
}

/// The value of `key=` at `at`: a quoted string, or up to white space or a
/// closing bracket or separator; none when empty.
fn kv_value_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) == Some(&b'"') {
        return quoted_end(bytes, at);
    }
    let end = kv_run_end(bytes, at);
    // Not the punctuation that ends a clause (`k=v:`, `k=v.`).
    let end = at + bytes[at..end].iter().rposition(|b| !b".:!?".contains(b)).map_or(0, |last| last + 1);
    (end > at).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(message: &str) -> String {
        let mut out = String::new();
        mask_into(message, &mut out);
        out.chars()
            .map(|c| match Mask::of_marker(c) {
                Some(mask) => format!("<{mask:?}>"),
                None if c == ESCAPE => "<ESC>".to_owned(),
                None => c.to_string(),
            })
            .collect()
    }

    #[test]
    fn masks_values_by_their_look() {
        assert_eq!(
            masked("unable to persist session \"s 1\" (seq=3): timeout"),
            "unable to persist session <Quoted> (seq=<Int>): timeout"
        );
        assert_eq!(masked("read 12 of -5 bytes in 0.25s"), "read <Int> of <Int> bytes in <Text>");
        assert_eq!(masked("ratio 1.5e3 at 0.25"), "ratio <Float> at <Float>");
        assert_eq!(masked("connect to 10.0.0.1:4222 failed"), "connect to <Ip> failed");
        assert_eq!(masked("connect to [::1]:4222 failed"), "connect to <Ip> failed");
        assert_eq!(masked("open /var/lib/nats/x.db: denied"), "open <Path>: denied");
        assert_eq!(masked("GET https://h.example/a?b=c done"), "GET <Path> done");
        assert_eq!(masked("id 0x1F and 3f2a9c1d-77aa and deadbeef"), "id <Hex> and <Hex> and deadbeef");
        assert_eq!(masked("flag true, user=bob, k=\"a b\""), "flag true, user=<Text>, k=<Quoted>");
        assert_eq!(masked("on=false \"GET /a HTTP/1.1\" 200"), "on=false \"GET <Path> HTTP/<Float>\" <Int>");
        assert_eq!(masked("at k=v1.2: done k=x. `k=y`"), "at k=<Text>: done k=<Text>. `k=<Text>`");
        assert_eq!(masked("for k={}617: {a=é, b=f(x,y)}"), "for k=<Text>: {a=<Text>, b=<Text>}");
        assert_eq!(masked("node connector-7 joined"), "node <Text> joined");
        assert_eq!(
            masked("at Sun Jul 10 12:00:00 2005 from fe80::1 (00:1a:2b:3c:4d:5e)"),
            "at <Time> from <Ip> (<Hex>)"
        );
        assert_eq!(masked("[2005-06-03 12:00:00,123] May I"), "[<Time>] May I");
        // A unit of size is a value of its own; other words after numbers are not.
        assert_eq!(masked("size 12.5 KB, free 3 MB"), "size <Float> <Text>, free <Int> <Text>");
        assert_eq!(masked("sent 12 bytes in 3 B-trees"), "sent <Int> bytes in <Int> B-trees");
    }

    #[test]
    fn leaves_words_and_punctuation() {
        assert_eq!(masked("a / b, don't; é日本🎉 50%"), "a / b, don't; é日本🎉 <Int>%");
        assert_eq!(masked("<b>x</b> at /tmp/a"), "<b>x</b> at <Path>");
        assert_eq!(masked("for /var/x.db. (/tmp/y)"), "for <Path>. (<Path>)");
        assert_eq!(masked("unterminated \"quote here"), "unterminated \"quote here");
        assert_eq!(masked(""), "");
        assert_eq!(masked("x=  y="), "x=  y=");
    }

    #[test]
    fn a_lines_own_marker_characters_are_escaped() {
        let hostile = "bad \u{E000} and \u{E00F} here";
        let mut out = String::new();
        mask_into(hostile, &mut out);
        assert!(whole_mask(&out).is_none());
        let decoded: String = out
            .split(' ')
            .map(|token| {
                parts(token)
                    .into_iter()
                    .map(|part| match part {
                        Part::Literal(text) => text,
                        other => format!("{other:?}"),
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(decoded, hostile);
    }

    #[test]
    fn punctuation_around_a_word_is_glued_tokens() {
        let mut out = String::new();
        mask_into("lost (seq=3): \"a b\", now  ``. {}%s", &mut out);
        let shown: Vec<String> = tokens(&out)
            .iter()
            .map(|t| {
                let glue = if is_glued(t) { "+" } else { "" };
                let text: String = parts(t)
                    .into_iter()
                    .map(|p| match p {
                        Part::Literal(text) => text,
                        Part::Value(mask) => format!("<{mask:?}>"),
                    })
                    .collect();
                format!("{glue}{text}")
            })
            .collect();
        assert_eq!(
            shown,
            ["lost", "(", "+seq=<Int>", "+)", "+:", "<Quoted>", "+,", "now", "", "`", "+`", "+.", "{}%s"]
        );
        // An empty pair of brackets is the value's, not the punctuation
        // around it.
        mask_into("account [{}703]: to {}465.", &mut out);
        let shown: Vec<String> =
            tokens(&out).iter().map(|t| t.replace(GLUE, "+").replace('\u{E000}', "<Int>")).collect();
        assert_eq!(shown, ["account", "[", "+{}<Int>", "+]", "+:", "to", "{}<Int>", "+."]);
        assert!(is_punctuation("+,") && is_punctuation("`") && !is_punctuation("(a") && !is_punctuation(&out[..3]));
    }

    #[test]
    fn a_marker_alone_is_a_whole_mask() {
        let mut out = String::new();
        mask_into("42", &mut out);
        assert_eq!(whole_mask(&out), Some(Mask::Int));
        mask_into("x42", &mut out);
        assert_eq!(whole_mask(&out), Some(Mask::Text));
        mask_into("(42)", &mut out);
        assert_eq!(whole_mask(&out), None);
    }
}
