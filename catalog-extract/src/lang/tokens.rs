//! The tokens the hand-written tokenizers make, and what the extractors ask of them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Num,
    Str,
    Raw,
    Char,
    /// Rust's `'a`.
    Lifetime,
    Op,
}

#[derive(Clone, Debug)]
pub(crate) struct Tok<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub end_line: u32,
    /// The first thing on its line, at column 0.
    pub bol: bool,
}

impl Tok<'_> {
    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }

    pub fn is_op(&self, ops: &str) -> bool {
        self.kind == Kind::Op && ops.contains(self.text)
    }

    pub fn is_literal(&self) -> bool {
        matches!(self.kind, Kind::Str | Kind::Raw)
    }
}

/// The source text from token `a` to token `b`, whitespace collapsed.
pub(crate) fn text_between(src: &str, toks: &[Tok], a: usize, b: usize) -> String {
    if a > b {
        return String::new();
    }
    src[toks[a].start..toks[b].end].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index of the token closing the bracket at `toks[i]`.
pub(crate) fn matching_close(toks: &[Tok], i: usize) -> usize {
    let (open, close) = match toks[i].text {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0i32;
    for (j, t) in toks.iter().enumerate().skip(i) {
        if t.kind != Kind::Op {
            continue;
        }
        if t.is(open) {
            depth += 1;
        } else if t.is(close) {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    toks.len() - 1
}

/// The index of the token opening the bracket closed at `toks[j]`.
pub(crate) fn matching_open(toks: &[Tok], j: usize) -> usize {
    let (close, open) = match toks[j].text {
        ")" => (")", "("),
        "]" => ("]", "["),
        _ => ("}", "{"),
    };
    let mut depth = 0i32;
    for k in (0..=j).rev() {
        let t = &toks[k];
        if t.kind != Kind::Op {
            continue;
        }
        if t.is(close) {
            depth += 1;
        } else if t.is(open) {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    0
}

/// `i + delta`, counted from the end when below 0 (as the original script's indexing does).
pub(crate) fn wrapping(i: usize, delta: isize, len: usize) -> usize {
    (i as isize + delta).rem_euclid(len as isize) as usize
}
