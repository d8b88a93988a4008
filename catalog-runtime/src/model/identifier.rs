//! What may name a generated variant or field: Rust identifiers that are not
//! keywords. Shared by the field namer and the names file reader, which
//! checks names people wrote by hand.

/// Whether `name` is a Rust keyword (strict, reserved or weak ones that
/// cannot name a field or variant), in any edition.
pub(crate) fn is_keyword(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn",
        "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro",
        "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self", "static", "struct", "super",
        "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
        "Self",
    ];
    KEYWORDS.contains(&name)
}

/// Whether `name` can name a generated variant or field as written: ASCII
/// letters, digits and `_`, not starting with a digit, not `_` alone, not a
/// keyword (generated code writes names without `r#`).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !is_keyword(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_ascii_words_that_are_not_keywords() {
        for good in ["Gateway", "ps_id", "_1st", "E2pcFailed", "self_"] {
            assert!(is_identifier(good), "{good}");
        }
        for bad in ["", "_", "1st", "match", "Self", "self", "gate-way", "été", "a b"] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }
}
