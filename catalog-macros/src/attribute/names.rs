//! The Rust names and types that the generated code gives the enums, their
//! variants and the variants' fields, shared by the enum (`expand`) and the
//! field accessors (`fields`).

use catalog_runtime::{Entry, ValueKind};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

pub(super) struct Names {
    /// The enum's own name: generated code names its variants `Enum::Variant`,
    /// never `Self::Variant`, which rustc resolves by a linear search of the
    /// variants' names (a query per variant) in type checking: quadratic in
    /// the number of records (21 s of 32 s for `cargo check` at 20,000).
    pub(super) error: Ident,
    pub(super) kind: Ident,
}

/// The Rust type of a field of this kind, as `catalog_runtime` maps it;
/// `runtime` is where the runtime's types are (the crate, or `__ec`).
pub(super) fn field_type(kind: ValueKind, runtime: &TokenStream) -> TokenStream {
    match kind.rust_type() {
        "String" => quote!(::std::string::String),
        "ByteString" => quote!(#runtime::ByteString),
        primitive => {
            let ident = format_ident!("{primitive}");
            quote!(::core::primitive::#ident)
        }
    }
}

pub(super) fn field_idents(metadata: &Entry) -> Vec<Ident> {
    metadata.template.fields.iter().map(|f| format_ident!("{}", f.name.as_ref())).collect()
}
