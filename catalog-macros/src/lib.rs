//! The `#[catalog]` attribute and `#[derive(Catalog)]` of error-catalog.
//!
//! A thin shell over `catalog-runtime`, which loads, compiles and names the
//! records (the same code the run-time loader uses). Here:
//! - `options`: the `#[catalog(path = ..., repo = ..., ...)]` options both
//!   forms take; `data`: loading the records through the runtime;
//! - `attribute/`: the attribute form (`ast`, `expand`);
//! - `derive/`: the derive form (`ast`, `valid`, `expand`);
//! - `support`: the block both forms generate around their code (the
//!   runtime's private module, tracked files, packed metadata, matcher);
//!   `docs`: doc comments of generated items; `text`: the parts that grow
//!   with the records, written as text and lexed by the compiler;
//! - `ctxt`: every problem is collected and reported at once, next to the
//!   code generated for the valid records, so that user code does not drown
//!   in secondary errors.

mod attribute;
mod ctxt;
mod data;
mod derive;
mod docs;
mod options;
#[cfg(test)]
mod pin_props;
#[cfg(test)]
mod snapshots;
mod support;
mod text;

use proc_macro::TokenStream;

/// Fills an empty enum with one variant per record of a dataset directory.
///
/// See the `error-catalog` crate for the options and the generated API.
#[proc_macro_attribute]
pub fn catalog(attr: TokenStream, item: TokenStream) -> TokenStream {
    attribute::catalog(attr.into(), item.into()).into()
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
