//! Where a message that ends with literal text after a text value ends.
//!
//! A text value is lazy: the find regex and the literal matcher cut it at
//! the first occurrence of the literal that follows it. When that literal
//! is the message's last piece and also occurs inside the value (`.` in
//! `start of %s.` of `templates/base.html`, `'` in `'%s'` of a Python
//! list's repr), the first occurrence leaves the message's end inside the
//! value, with the rest of the value taken for context. The message ends
//! where the line ends or where context begins: so its last literal is
//! taken at its first occurrence that is at the end of the text or
//! followed by white space, and at its first occurrence only when there is
//! none. Between two values the first occurrence stays: nothing in the
//! text tells which of the literal's occurrences is the template's.

use memchr::memmem;

use crate::format::{group_syntaxes, pieces_describe_regex, syntax, Dialect, Piece, Syntax, Template};

/// Whether `template` ends with literal text right after a lazy text value
/// (`%s.`, `'{}'`, a pattern's `(.*?)\.`): the shape whose last literal
/// [`last_value_end`] places. Not when the literal ends with a line break
/// (such a message runs to the end of the line already) or with white space
/// (every occurrence of it is followed by white space).
pub(super) fn ends_with_text_then_literal(template: &Template) -> bool {
    let [.., Piece::Value { spec, .. }, Piece::Literal(literal)] = &template.pieces[..] else {
        return false;
    };
    if literal.ends_with(char::is_whitespace) {
        return false;
    }
    let lazy = |syntax: Syntax| matches!(syntax, Syntax::Lazy | Syntax::LazyNonEmpty);
    match template.dialect {
        Dialect::Pattern => {
            pieces_describe_regex(template)
                && (ends_lazy_group_then_plain_text(&template.regex)
                    || group_syntaxes(&template.regex).and_then(|groups| groups.last().copied()).is_some_and(lazy))
        }
        dialect => lazy(syntax(spec, dialect)),
    }
}

/// Whether a plain pattern's last group is `(.*?)` or `(.+?)`, read off
/// the pattern's text: the text after the last such group holds no `(`
/// but escaped ones, so no other group. Most lazy last groups are found so,
/// without parsing the pattern again (a parse per pattern template was a
/// tenth of a scan of the multi-system log).
fn ends_lazy_group_then_plain_text(pattern: &str) -> bool {
    let no_group = |tail: &str| {
        let mut chars = tail.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => _ = chars.next(),
                '(' => return false,
                _ => {}
            }
        }
        true
    };
    ["(.*?)", "(.+?)"].iter().any(|group| pattern.rsplit_once(group).is_some_and(|(_, tail)| no_group(tail)))
}

/// Where the last value ends in `text`, given a reading that ends it at
/// `end` with the template's last literal, `literal`, right after: at the
/// first occurrence of `literal` from `end` on that ends the text or its
/// line, or is followed by white space; `end` when none does. The value
/// never runs across a line break (`.` of the find regex does not match one).
pub(super) fn last_value_end(text: &str, end: usize, literal: &str) -> usize {
    let ends_message = |at: usize| text[at + literal.len()..].chars().next().is_none_or(char::is_whitespace);
    if literal.is_empty() || ends_message(end) {
        return end;
    }
    let line_end = memchr::memchr(b'\n', &text.as_bytes()[end..]).map_or(text.len(), |i| end + i);
    // A literal starts a character, so one byte on is past this occurrence.
    let later = &text.as_bytes()[end + 1..line_end];
    let mut from = 0;
    while let Some(found) = memmem::find(&later[from..], literal.as_bytes()) {
        let at = end + 1 + from + found;
        if ends_message(at) {
            return at;
        }
        from += found + 1;
    }
    end
}

/// The template's last literal (empty when it ends with a value).
pub(super) fn last_literal(template: &Template) -> &str {
    match template.pieces.last() {
        Some(Piece::Literal(literal)) => literal,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::compile;

    #[test]
    fn the_shapes_whose_last_literal_is_placed() {
        let shape = |m: &str, d| ends_with_text_then_literal(&compile(m, d).unwrap());
        assert!(shape("start of %s.", Dialect::Python));
        assert!(shape("no field named '{}'", Dialect::Rust));
        assert!(shape("(%s, %s)", Dialect::Go));
        assert!(shape(r"start of (.*?)\.", Dialect::Pattern));
        assert!(!shape("start of %s", Dialect::Go)); // runs to the end already
        assert!(!shape("count %d.", Dialect::Go)); // a number ends by itself
        assert!(!shape("name %q.", Dialect::Go));
        assert!(!shape("read %s\n", Dialect::Go));
        assert!(!shape("%s: ", Dialect::Go));
        assert!(!shape("no placeholder.", Dialect::Go));
    }

    #[test]
    fn a_lazy_last_group_read_off_the_text_is_the_one_the_parse_finds() {
        let lazy_last = |pattern: &str| {
            let groups = group_syntaxes(pattern).unwrap_or_default();
            groups.last().is_some_and(|syntax| matches!(syntax, Syntax::Lazy | Syntax::LazyNonEmpty))
        };
        let mut patterns: Vec<String> = [
            r"a (.*?)\.",
            r"a (.+?) \(b\)",
            r"a (.*?) (\d+)\.",
            r"a (.*?) b (.+?)!",
            r"a \\(.*?)\\",
            r"a (.*?)\) (x)",
            r"a (.*) b",
        ]
        .map(str::to_owned)
        .into();
        for name in ["nats-server", "cargo", "django", "kafka", "nodejs-node"] {
            let Some(dir) = crate::test_support::corpus(name, "a_lazy_last_group_read_off_the_text") else { continue };
            let loaded = crate::dataset::load_dir(&dir);
            patterns.extend(loaded.records.into_iter().filter_map(|r| r.record.message_pattern.map(|p| p.to_string())));
        }
        let mut read_off = 0;
        for pattern in &patterns {
            let Ok(template) = compile(pattern, Dialect::Pattern) else { continue };
            if pieces_describe_regex(&template) && ends_lazy_group_then_plain_text(pattern) {
                assert!(lazy_last(pattern), "{pattern}");
                read_off += 1;
            }
        }
        assert!(read_off >= 5, "{read_off} patterns read off their text");
    }

    #[test]
    fn the_last_literal_ends_the_text_or_comes_before_white_space() {
        let text = "start of templates/base.html. (at src/x.rs:10)";
        let first = text.find('.').unwrap();
        assert_eq!(last_value_end(text, first, "."), text.find(". (").unwrap());
        let text = "of mw.SyncOnly.";
        assert_eq!(last_value_end(text, 5, "."), text.len() - 1);
        // Already at an end, or no later end: the first occurrence stays.
        assert_eq!(last_value_end("a.b. c.", 3, "."), 3);
        assert_eq!(last_value_end("a.b.c", 1, "."), 1);
        // Not past the line's end.
        assert_eq!(last_value_end("a.b\nc.", 1, "."), 1);
        assert_eq!(last_value_end("'it's'é'\t", 3, "'"), 8);
    }
}
