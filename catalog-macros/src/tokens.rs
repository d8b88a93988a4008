//! Metadata as Rust items: per record, `const`s built with the runtime's
//! compact constructors (`catalog_runtime::consts`), which keeps the tokens
//! per record few. Names starting with `__` are the aliases `expand` declares
//! in the generated block (`__ec` the runtime, `__c` its constructors,
//! `__S`/`__N` `Some`/`None`, `__B` `Cow::Borrowed`).

use catalog_runtime::consts::{record_numbers, record_strings};
use catalog_runtime::{Count, Field, Metadata, Piece, Record, Template, Text};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn opt<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    match value {
        Some(value) => quote!(__S(#value)),
        None => quote!(__N),
    }
}

fn list(items: &[Text]) -> TokenStream {
    let items = items.iter().map(|s| s.as_ref());
    quote!(&[#(__B(#items)),*])
}

/// `__S(__ec::Severity::Error)`, `__S(__ec::Severity::Other(__B("..")))`, `__N`.
fn open_enum(ty: &str, value: Option<(&str, Option<&str>)>) -> TokenStream {
    let ty = format_ident!("{ty}");
    opt(value.map(|(text, variant)| match variant {
        Some(variant) => {
            let variant = format_ident!("{variant}");
            quote!(__ec::#ty::#variant)
        }
        None => quote!(__ec::#ty::Other(__B(#text))),
    }))
}

fn record(r: &Record) -> TokenStream {
    let (text, optional) = record_strings(r);
    let optional = optional.into_iter().map(opt);
    let numbers = record_numbers(r).into_iter().map(opt);
    let http_status = opt(r.http_status);
    let lists = [&r.solutions, &r.prevention_tips, &r.tags].map(|l| list(l));
    let error_type = open_enum("ErrorType", r.error_type.as_ref().map(|v| (v.as_str(), v.variant_name())));
    let severity = open_enum("Severity", r.severity.as_ref().map(|v| (v.as_str(), v.variant_name())));
    let strategy = open_enum("HandlingStrategy", r.handling_strategy.as_ref().map(|v| (v.as_str(), v.variant_name())));
    quote! {
        __c::record(
            [#(#text),*], [#(#optional),*], [#(#numbers),*], #http_status, [#(#lists),*],
            #error_type, #severity, #strategy,
        )
    }
}

fn count(c: Count) -> TokenStream {
    match c {
        Count::None => quote!(__ec::Count::None),
        Count::Star => quote!(__ec::Count::Star),
        Count::Fixed(n) => quote!(__ec::Count::Fixed(#n)),
    }
}

/// Pieces and fields are written as plain constructors, not `const fn`
/// calls: only those can be promoted to `'static` slices inside the one
/// `const` item of a record (each extra item costs rustc more than its text).
fn piece(p: &Piece) -> TokenStream {
    match p {
        Piece::Literal(text) => {
            let text = text.as_ref();
            quote!(__ec::Piece::Literal(__B(#text)))
        }
        Piece::Value { field, spec } => {
            let (verb, flags) = (spec.verb, spec.flags.0);
            let (width, precision) = (count(spec.width), count(spec.precision));
            quote! {
                __ec::Piece::Value {
                    field: #field,
                    spec: __ec::Spec { verb: #verb, flags: __ec::Flags(#flags), width: #width, precision: #precision },
                }
            }
        }
    }
}

pub fn kind(kind: catalog_runtime::ValueKind) -> TokenStream {
    let variant = format_ident!("{}", format!("{kind:?}"));
    quote!(__ec::ValueKind::#variant)
}

fn field(f: &Field) -> TokenStream {
    let name = f.name.as_ref();
    let kind = kind(f.kind);
    let arg = f.arg;
    quote!(__ec::Field { name: __B(#name), kind: #kind, arg: #arg })
}

fn template(t: &Template) -> TokenStream {
    let dialect = format_ident!("{}", format!("{:?}", t.dialect));
    let pieces = t.pieces.iter().map(piece);
    let fields = t.fields.iter().map(field);
    let regex = t.regex.as_ref();
    let literal_len = t.literal_len;
    quote!(__c::template(__ec::Dialect::#dialect, &[#(#pieces),*], &[#(#fields),*], #regex, #literal_len))
}

/// `const __M{i}: Metadata`: one item per record.
pub fn metadata_item(index: usize, m: &Metadata) -> TokenStream {
    let name = format_ident!("__M{index}");
    let variant = m.name.as_ref();
    let record = record(&m.record);
    let template = template(&m.template);
    quote!(const #name: __ec::Metadata = __c::metadata(#variant, #record, #template);)
}
