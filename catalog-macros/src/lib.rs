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
mod derive;
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

/// Fills in the API of a user-written enum whose variants import records:
/// `#[catalog(id = "...")]` or `#[catalog(slug = "...")]` on each variant,
/// `#[catalog(other)]` on an optional catch-all, `#[catalog(path = "...")]`
/// (and the attribute form's filters, `crate`, and `exhaustive`) on the enum.
///
/// Everything is checked against the data at compile time. See `Catalog` in
/// the `error-catalog` crate for the rules and an example.
#[proc_macro_derive(Catalog, attributes(catalog))]
pub fn derive_catalog(item: TokenStream) -> TokenStream {
    derive::derive(item.into()).into()
}
