//! Escaping for the HTML report: every text from a log or a dataset goes
//! through [`esc`] before it is written into the page.

/// `text` safe as HTML text and as a quoted attribute value. Control
/// characters (other than tab and line breaks) become U+FFFD: they are not
/// allowed in HTML and a log may hold anything.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escaping_covers_text_and_attributes() {
        assert_eq!(esc("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(esc("\"><img src=x onerror='x'>"), "&quot;&gt;&lt;img src=x onerror=&#39;x&#39;&gt;");
        assert_eq!(esc("a & b\u{0}\u{1b}[31m"), "a &amp; b\u{FFFD}\u{FFFD}[31m");
    }
}
