//! The `#[catalog]` attribute of error-catalog: fills an empty enum with one
//! variant per record of a dataset directory.
//!
//! A thin shell: the attribute and the enum are parsed here (`attr`, `ast`),
//! the records are loaded, compiled and named by `catalog-runtime` (`data`),
//! and the code is generated here (`expand`, `tokens`, `docs`). Every problem
//! is collected (`ctxt`) and reported at once, next to an enum of the valid
//! records so that user code does not drown in secondary errors.

mod ast;
mod attr;
mod ctxt;
mod data;
mod docs;
mod expand;
mod tokens;

use proc_macro::TokenStream;

/// Fills an empty enum with one variant per record of a dataset directory.
///
/// See the `error-catalog` crate for the options and the generated API.
#[proc_macro_attribute]
pub fn catalog(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::catalog(attr.into(), item.into()).into()
}
