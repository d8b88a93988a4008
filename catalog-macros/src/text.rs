//! The parts of the generated code that grow with the records (variants,
//! their docs, the packed metadata, the tracked files) written as source
//! text and lexed once by the compiler, instead of built token by token.
//!
//! The macro runs unoptimised in a user's debug build, where `quote!` and
//! `proc_macro2` cost thousands of instructions a token (and escaping a
//! string literal a hundred a character): at 2,008 records that was most of
//! the code generation. Text costs a copy, and the compiler's lexer is
//! optimised. The tokens are the same (spans are the call site's either
//! way); only the macro's own pieces are written as text, never the user's
//! tokens, which are spliced in as tokens (see [`Code::splice`]).

use std::fmt::Write;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Generated code: text not lexed yet, after the tokens before it.
#[derive(Default)]
pub struct Code {
    tokens: TokenStream,
    pub text: String,
}

impl Code {
    /// Appends `tokens` (the user's, with their spans) after the text so far.
    pub fn splice(&mut self, tokens: &impl ToTokens) {
        self.flush();
        tokens.to_tokens(&mut self.tokens);
    }

    /// Appends `text` as a string literal: escaped as `{:?}` escapes it
    /// (what `Literal::string` writes; `str`'s `Debug` is optimised code
    /// even in a debug build).
    pub fn str(&mut self, text: &str) {
        let _ = write!(self.text, "{text:?}");
    }

    /// Appends `text` as a raw string literal (no escapes for the compiler
    /// to read, nor for the macro to write), or as [`Code::str`] when it
    /// holds a carriage return, which a raw string cannot.
    pub fn raw_str(&mut self, text: &str) {
        if text.contains('\r') {
            return self.str(text);
        }
        // One `#` more than the longest run of them after a `"`.
        let mut hashes = 0;
        for (at, _) in text.match_indices('"') {
            let run = text.as_bytes()[at + 1..].iter().take_while(|&&b| b == b'#').count();
            hashes = hashes.max(run + 1);
        }
        let fence = "#".repeat(hashes);
        self.text.reserve(text.len() + 2 * hashes + 3);
        self.text.push('r');
        self.text.push_str(&fence);
        self.text.push('"');
        self.text.push_str(text);
        self.text.push('"');
        self.text.push_str(&fence);
    }

    /// The tokens: what was spliced in, and the text lexed.
    pub fn finish(mut self) -> TokenStream {
        self.flush();
        self.tokens
    }

    fn flush(&mut self) {
        if !self.text.is_empty() {
            lex(&self.text).to_tokens(&mut self.tokens);
            self.text.clear();
        }
    }
}

/// The tokens of `source`, lexed by the compiler when the macro runs in it
/// (by `proc_macro2`'s own lexer in the macro's unit tests).
fn lex(source: &str) -> TokenStream {
    if proc_macro::is_available() {
        let tokens: proc_macro::TokenStream = source.parse().expect("generated code lexes");
        tokens.into()
    } else {
        source
            .parse()
            .unwrap_or_else(|err| panic!("generated code lexes: {err:?} {}", &source[..source.len().min(300)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(code: Code) -> String {
        let literal: syn::LitStr = syn::parse2(code.finish()).expect("a string literal");
        literal.value()
    }

    #[test]
    fn string_literals_hold_their_text() {
        for text in ["", "plain", "a \"quote\"", "\"#", "x\"##y\"#", "tab\tcr\r\nnul\0 é \u{1F600} \\ {}"] {
            for raw in [false, true] {
                let mut code = Code::default();
                if raw {
                    code.raw_str(text);
                } else {
                    code.str(text);
                }
                assert_eq!(value(code), text);
            }
        }
    }

    #[test]
    fn spliced_tokens_keep_their_place() {
        let mut code = Code::default();
        code.text.push_str("a ::");
        code.splice(&quote::quote!(b::c));
        code.text.push_str("+ d");
        assert_eq!(code.finish().to_string(), "a :: b :: c + d");
    }
}
