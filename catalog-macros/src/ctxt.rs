//! Collects every error of an expansion so all are reported together
//! (serde_derive's `Ctxt`).

use proc_macro2::{Span, TokenStream};

#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    pub fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// How many errors so far.
    pub fn count(&self) -> usize {
        self.errors.len()
    }

    /// One `compile_error!` per error.
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors.into_iter().map(|e| e.to_compile_error()).collect()
    }
}
