//! Per-record data as tokens. The metadata of every record is one string
//! literal, packed by `catalog_runtime::packed` and unpacked by the generated
//! code on first use: a literal costs rustc next to nothing, where a `const`
//! item per record cost it about 2.5 ms each (type checking and const
//! evaluation). Field values go in and out through one plain function per
//! field type, so that rustc has no type to infer per field.

use catalog_runtime::{Metadata, ValueKind};
use proc_macro2::{Ident, Literal};
use quote::format_ident;

/// The packed metadata of every entry, as a string literal.
pub fn packed(entries: &[Metadata]) -> Literal {
    Literal::string(&catalog_runtime::packed::encode(entries))
}

/// The runtime function that turns a field of this kind into a value.
pub fn to_value(kind: ValueKind) -> Ident {
    format_ident!("{}", typed(kind).0)
}

/// The runtime function that takes a value for a field of this kind.
pub fn take(kind: ValueKind) -> Ident {
    format_ident!("{}", typed(kind).1)
}

fn typed(kind: ValueKind) -> (&'static str, &'static str) {
    match kind {
        ValueKind::Int => ("int_value", "take_int"),
        ValueKind::Float => ("float_value", "take_float"),
        ValueKind::Bool => ("bool_value", "take_bool"),
        ValueKind::Quoted | ValueKind::Text => ("str_value", "take_str"),
    }
}
