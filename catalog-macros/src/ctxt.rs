//! Collects every error of an expansion so all are reported together
//! (serde_derive's `Ctxt`). Dropping a context whose errors were not taken
//! with [`Ctxt::into_compile_errors`] is a bug in this crate: it would lose
//! them silently, so it panics (in debug builds of the macro and in tests).

use proc_macro2::{Span, TokenStream};

pub struct Ctxt {
    /// `None` once the errors were taken.
    errors: Option<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt { errors: Some(Vec::new()) }
    }

    fn errors(&mut self) -> &mut Vec<syn::Error> {
        self.errors.as_mut().expect("errors taken already")
    }

    pub fn error(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors().push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        self.errors().push(error);
    }

    /// How many errors so far.
    pub fn count(&self) -> usize {
        self.errors.as_ref().map_or(0, Vec::len)
    }

    /// One `compile_error!` per error.
    pub fn into_compile_errors(mut self) -> TokenStream {
        let errors = self.errors.take().expect("errors taken already");
        errors.into_iter().map(|e| e.to_compile_error()).collect()
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if self.errors.is_some() && !std::thread::panicking() {
            panic!("a Ctxt was dropped with its errors unreported");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_errors_leave_nothing_behind() {
        let mut cx = Ctxt::new();
        cx.error(Span::call_site(), "one");
        cx.error(Span::call_site(), "two");
        assert_eq!(cx.count(), 2);
        assert_eq!(cx.into_compile_errors().to_string().matches("compile_error").count(), 2);
    }

    #[test]
    #[should_panic(expected = "dropped with its errors unreported")]
    fn dropping_unreported_errors_panics() {
        let mut cx = Ctxt::new();
        cx.error(Span::call_site(), "lost");
    }
}
