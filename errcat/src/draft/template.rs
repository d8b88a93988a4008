//! A group's template: its tokens, each a constant (with masked values in
//! it, as in `(seq=%d):`) or a value; written as a format string in a
//! dialect and as the regex of the draft's `messagePattern`.

use std::ops::Range;

use error_catalog::Dialect;

use super::keys::Key;
use super::mask::{has_mask, has_spaced_value, is_glued, parts, whole_mask, Mask, Part, GLUE};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A token every line has (masked, see [`super::mask`]).
    Const(Box<str>),
    /// A value: one token, or several (`words`) once lines whose values
    /// take several words are in its group.
    /// `glued`: it follows the slot before without a space; `either`: in
    /// some lines with a space, in others without (the space is then the
    /// value's).
    Var { kind: Mask, may_be_empty: bool, words: bool, glued: bool, either: bool },
}

impl Slot {
    /// Whether the slot follows the one before it without a space.
    pub fn glued(&self) -> bool {
        match self {
            Slot::Const(word) => is_glued(word),
            Slot::Var { glued, .. } => *glued,
        }
    }
}

/// The template of `members`, keys of one length (a key of another length
/// makes every position a value).
pub fn of_keys(keys: &[Key], members: &[usize]) -> Vec<Slot> {
    let first = &keys[members[0]].tokens;
    let one_length = members.iter().all(|&i| keys[i].tokens.len() == first.len());
    (0..first.len())
        .map(|position| {
            let all = || members.iter().map(|&i| keys[i].tokens.get(position).map_or("", |w| &**w));
            let word = &*first[position];
            // A masked value alone is a value even when every line has its
            // kind there (it may take several words in another line).
            if one_length && all().all(|w| w == word) && whole_mask(word).is_none() {
                return Slot::Const(word.into());
            }
            let kind = whole_mask(word).filter(|k| all().all(|w| whole_mask(w) == Some(*k))).unwrap_or(Mask::Text);
            // A quoted value or a date may have spaces: the value may be several words.
            let words = kind == Mask::Text && all().any(has_spaced_value);
            // Tokens glued in some lines and not in others (`x,` and `y z`):
            // the value takes the space, when there is one, as text.
            let either = all().any(is_glued) && !all().all(is_glued);
            let kind = if either { Mask::Text } else { kind };
            Slot::Var { kind, may_be_empty: all().any(str::is_empty), words, glued: either || is_glued(word), either }
        })
        .collect()
}

/// Where each slot of `template` lies in `tokens` (a value takes any
/// number of tokens, none for an empty value; a constant exactly its own,
/// with or without a space before it), if it lies anywhere.
pub fn align(template: &[Slot], tokens: &[Box<str>]) -> Option<Vec<Range<usize>>> {
    let (slots, words) = (template.len(), tokens.len());
    let constant_count = constants(template);
    if words < constant_count || words > 512 {
        return None;
    }
    // The constant words in order, each at a token of its own: most
    // templates tried fail here, before the table below is filled.
    let mut rest = tokens.iter();
    for slot in template {
        if let Slot::Const(word) = slot {
            if !flexible(slot) {
                let bare = word.strip_prefix(GLUE);
                rest.find(|token| ***token == **word || bare == Some(&***token))?;
            }
        }
    }
    // fits[i][j]: the first i slots take exactly the first j tokens.
    let width = words + 1;
    let mut fits = vec![false; (slots + 1) * width];
    fits[0] = true;
    for i in 1..=slots {
        for j in 0..=words {
            fits[i * width + j] = match &template[i - 1] {
                slot if flexible(slot) => fits[(i - 1) * width + j] || (j > 0 && fits[i * width + j - 1]),
                Slot::Const(word) => {
                    j > 0 && fits[(i - 1) * width + j - 1] && {
                        let token = &*tokens[j - 1];
                        // `: ,` for `: %s,` with the value empty: the space
                        // before the value is before the comma.
                        let after_empty_value = i >= 2
                            && matches!(template[i - 2], Slot::Var { glued: false, .. })
                            && fits[(i - 2) * width + j - 1];
                        **word == *token || after_empty_value && word.strip_prefix(GLUE) == Some(token)
                    }
                }
                Slot::Var { .. } => fits[(i - 1) * width + j] || (j > 0 && fits[i * width + j - 1]),
            };
        }
    }
    if !fits[slots * width + words] {
        return None;
    }
    // Back from the end: each value takes as few tokens as it can.
    let mut ranges = vec![0..0; slots];
    let mut j = words;
    for i in (1..=slots).rev() {
        let end = j;
        if flexible(&template[i - 1]) {
            while !fits[(i - 1) * width + j] {
                j -= 1;
            }
        } else {
            j -= 1;
        }
        ranges[i - 1] = j..end;
    }
    Some(ranges)
}

/// Whether a slot may take any tokens in [`align`]: a value, or a constant
/// with a masked value in it (`seq=<int>`, the same in the lines so far, a
/// value all the same).
pub fn flexible(slot: &Slot) -> bool {
    match slot {
        Slot::Const(word) => has_mask(word),
        Slot::Var { .. } => true,
    }
}

/// How many constant words `template` has (a constant with a masked value
/// in it is not one).
pub fn constants(template: &[Slot]) -> usize {
    template.iter().filter(|slot| !flexible(slot)).count()
}

/// `template` with each run of values as one: two templates the same
/// under this are one event whose values were logged with different numbers
/// of words.
pub fn collapsed(template: &[Slot]) -> Vec<Slot> {
    let mut out: Vec<Slot> = Vec::with_capacity(template.len());
    for slot in template {
        match (out.last_mut(), slot) {
            (
                Some(Slot::Var { kind, may_be_empty, words, either, .. }),
                Slot::Var { kind: next, may_be_empty: next_empty, either: next_either, .. },
            ) => {
                *either |= *next_either;
                if kind != next {
                    *kind = Mask::Text;
                }
                *may_be_empty |= *next_empty;
                *words = true;
            }
            _ => out.push(slot.clone()),
        }
    }
    out
}

/// The dialects drafts can be written in.
pub const DIALECTS: [Dialect; 5] = [Dialect::Go, Dialect::Printf, Dialect::Python, Dialect::Rust, Dialect::PythonBrace];

/// `template` as a format string in `dialect` (one of [`DIALECTS`]).
pub fn format_string(template: &[Slot], dialect: Dialect) -> String {
    let mut out = String::new();
    let brace = matches!(dialect, Dialect::Rust | Dialect::PythonBrace);
    let placeholder = |mask: Mask| -> &'static str {
        match dialect {
            Dialect::Go => mask.go_verb(),
            Dialect::Python => match mask {
                Mask::Int => "%d",
                Mask::Quoted => "%r",
                Mask::SingleQuoted => "'%s'",
                _ => "%s",
            },
            Dialect::Printf => match mask {
                Mask::Int => "%d",
                Mask::Float => "%g",
                Mask::SingleQuoted => "'%s'",
                _ => "%s",
            },
            _ => match mask {
                Mask::Quoted => "{:?}",
                Mask::SingleQuoted => "'{}'",
                _ => "{}",
            },
        }
    };
    let literal = |out: &mut String, text: &str| {
        for c in text.chars() {
            match c {
                '%' if !brace => out.push_str("%%"),
                '{' if brace => out.push_str("{{"),
                '}' if brace => out.push_str("}}"),
                c => out.push(c),
            }
        }
    };
    for (i, slot) in template.iter().enumerate() {
        if i > 0 && !slot.glued() {
            out.push(' ');
        }
        match slot {
            Slot::Var { kind, .. } => out.push_str(placeholder(*kind)),
            Slot::Const(word) => {
                for part in parts(word) {
                    match part {
                        Part::Literal(text) => literal(&mut out, &text),
                        Part::Value(mask) => out.push_str(placeholder(mask)),
                    }
                }
            }
        }
    }
    out
}

/// The regex of `template`, in the dataset's convention: literal text
/// escapes `.^$*+?()[]{}|\`, a value of several words that can be empty is
/// `(.*?)`, another `(.+?)`, a value of one word `(\S*)` or `(\S+)`, a
/// number `(-?[0-9]+)`... (A value of one word keeps a draft from taking
/// the lines of another group when they are scanned with the drafts. No
/// `$` at the end: the matcher anchors a pattern that ends with a value
/// itself, and a pattern with an assertion is no longer the plain sequence
/// of literals and groups that its literal shortcuts read.)
pub fn regex(template: &[Slot]) -> String {
    let mut out = String::new();
    // A value that may take no token takes the space before it (the first
    // value, the space after it): `either` without `glued`.
    let first_either = matches!(template.first(), Some(Slot::Var { either: true, .. }));
    for (i, slot) in template.iter().enumerate() {
        let optional_space = matches!(slot, Slot::Var { either: true, glued: false, .. });
        let after_first_either = i == 1 && first_either;
        if i > 0 && !slot.glued() && !optional_space && !after_first_either {
            out.push(' ');
        }
        match slot {
            Slot::Var { words: false, either: true, .. } if i == 0 => out.push_str("(\\S* ?)"),
            Slot::Var { words: true, either: true, .. } if i == 0 => out.push_str("(.*?)"),
            Slot::Var { words: true, either: true, glued: false, may_be_empty, .. } => {
                out.push_str(if *may_be_empty { "( ?.*?)" } else { "( ?.+?)" })
            }
            Slot::Var { may_be_empty, words: false, either: true, .. } => {
                out.push_str(if *may_be_empty { "( ?\\S*)" } else { "( ?\\S+)" })
            }
            Slot::Var { kind, may_be_empty, words, .. } => out.push_str(kind.regex(*may_be_empty, *words)),
            Slot::Const(word) => {
                for part in parts(word) {
                    match part {
                        Part::Literal(text) => {
                            for c in text.chars() {
                                if ".^$*+?()[]{}|\\".contains(c) {
                                    out.push('\\');
                                }
                                out.push(c);
                            }
                        }
                        Part::Value(mask) => out.push_str(mask.regex(false, false)),
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::keys::{Keys, Place};

    fn template(lines: &[&str]) -> (Keys, Vec<Slot>) {
        let mut keys = Keys::new(100);
        for (i, line) in lines.iter().enumerate() {
            keys.add(line, 0, Place { input: 0, line: i as u64 }, None);
        }
        let members: Vec<usize> = (0..keys.keys.len()).collect();
        let template = of_keys(&keys.keys, &members);
        (keys, template)
    }

    #[test]
    fn writes_typed_placeholders_in_each_dialect() {
        let (_, t) = template(&["persist \"s1\" (seq=3): 50% of disk", "persist \"s 2\" (seq=4): 50% of tape"]);
        assert_eq!(format_string(&t, Dialect::Go), "persist %q (seq=%d): %d%% of %s");
        assert_eq!(format_string(&t, Dialect::Python), "persist %r (seq=%d): %d%% of %s");
        assert_eq!(format_string(&t, Dialect::Rust), "persist {:?} (seq={}): {}% of {}");
        assert_eq!(regex(&t), "persist (\"(?:[^\"\\\\]|\\\\.)*\") \\(seq=(-?[0-9]+)\\): (-?[0-9]+)% of (\\S+)");
    }

    #[test]
    fn a_value_seen_empty_may_be_empty() {
        let (_, t) = template(&["user  left {x}", "user bob left {x}"]);
        assert_eq!(regex(&t), "user (\\S*) left \\{x\\}");
        assert_eq!(format_string(&t, Dialect::Rust), "user {} left {{x}}");
    }

    #[test]
    fn values_of_several_words_align_to_one_slot() {
        let (_, t) = template(&["connect to alpha failed", "connect to beta failed"]);
        let tokens = crate::draft::mask::tokens("connect to a b c failed");
        assert_eq!(align(&t, &tokens), Some(vec![0..1, 1..2, 2..5, 5..6]));
        let other = crate::draft::mask::tokens("connect to a b c succeeded");
        assert_eq!(align(&t, &other), None);
        let several = Slot::Var { kind: Mask::Text, may_be_empty: false, words: true, glued: false, either: false };
        assert_eq!(collapsed(&[t[2].clone(), t[2].clone(), t[3].clone()]), [several.clone(), t[3].clone()]);
        assert_eq!(regex(&[t[0].clone(), several]), "connect (.+?)");
    }
}
