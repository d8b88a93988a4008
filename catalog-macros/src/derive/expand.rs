//! The API of a derived enum: `parse`, `find`, `find_span`, `find_all`,
//! `metadata`, `entries`, `Display`, `std::error::Error` and `FromStr`, over
//! a matcher of the imported records only. Fields are converted through
//! their text by `catalog_runtime::derived`, so each variant costs one match
//! arm per direction; the user's enum itself is left as written (its `Debug`
//! and other derives are the user's).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::ast::Input;
use super::valid::{Plan, Role};
use crate::data::Data;
use crate::support::{error_and_from_str, support_block};

pub fn generate(input: &Input, data: &Data, plan: &Plan) -> TokenStream {
    let ident = &input.ident;
    let krate = &input.options.krate;
    let other = input.variants.iter().zip(&plan.roles).find_map(|(variant, role)| match role {
        Role::Other { ty } => Some((&variant.ident, ty)),
        _ => None,
    });
    let from_match = from_match(input, plan);
    let index_arms = input.variants.iter().zip(&plan.roles).map(|(variant, role)| {
        let v = &variant.ident;
        match role {
            Role::Imported { index, .. } => quote!(#ident::#v { .. } => __S(#index),),
            Role::Other { .. } => quote!(#ident::#v { .. } => __N,),
            Role::Broken => quote!(#ident::#v { .. } => ::core::unreachable!(),),
        }
    });
    let values_arms = values_arms(input, plan);
    let error_and_from_str = error_and_from_str(ident);
    // With a catch-all, `parse` and `find` never fail and `metadata` is optional.
    let (metadata_type, metadata_body, parse_else, find_else, other_fn, display_other) = match other {
        Some((variant, ty)) => (
            quote!(::core::option::Option<&'static __ec::Entry>),
            quote!(__metadata(self)),
            quote!(.or_else(|| __S(#ident::#variant(__other(message))))),
            quote! {
                .or_else(|| {
                    let line = __ec::imported::line_text(line);
                    __S((#ident::#variant(__other(line)), 0..line.len()))
                })
            },
            quote_spanned! {ty.span()=>
                fn __other(text: &str) -> #ty { ::core::convert::From::from(::std::string::String::from(text)) }
            },
            quote_spanned! {ty.span()=>
                match self { #ident::#variant(__text) => ::core::fmt::Display::fmt(__text, f), _ => ::core::result::Result::Ok(()) }
            },
        ),
        None => (
            quote!(&'static __ec::Entry),
            quote!(__metadata(self).expect("every variant imports a record")),
            quote!(),
            quote!(),
            quote!(),
            quote!(::core::result::Result::Ok(())),
        ),
    };
    let metadata_doc = match other {
        Some((variant, _)) => format!(" The variant's record and compiled message; `None` for `{variant}`, which holds messages no record matches."),
        None => " The variant's record and compiled message.".to_owned(),
    };
    support_block(
        krate,
        data,
        &plan.entries,
        quote! {
                #from_match
                #[allow(unreachable_code)]
                fn __metadata(error: &#ident) -> ::core::option::Option<&'static __ec::Entry> {
                    let index: ::core::option::Option<usize> = match error { #(#index_arms)* };
                    index.map(|index| &__meta()[index])
                }
                /// The declared fields' values, indexed like the record's fields.
                #[allow(unused_variables)]
                fn __values(error: &#ident) -> ::std::vec::Vec<::core::option::Option<__ec::Value<'static>>> {
                    match error { #(#values_arms)* }
                }
                #other_fn

                impl #ident {
                    #[doc = #metadata_doc]
                    pub fn metadata(&self) -> #metadata_type { #metadata_body }
                    /// The imported records, in variant order.
                    pub fn entries() -> &'static [__ec::Entry] { __meta() }
                    /// The error whose message is exactly `message`.
                    pub fn parse(message: &str) -> ::core::option::Option<Self> {
                        __matcher().parse_map(message, |m| __from_match(m.index, &m.values)) #parse_else
                    }
                    /// The error whose message occurs in `line` (a log line, say).
                    pub fn find(line: &str) -> ::core::option::Option<Self> {
                        Self::find_span(line).map(|(error, _)| error)
                    }
                    /// The error whose message occurs in `line`, and its byte range.
                    pub fn find_span(line: &str) -> ::core::option::Option<(Self, ::core::ops::Range<usize>)> {
                        __matcher().find_map(line, |m| __S((__from_match(m.index, &m.values)?, m.span))) #find_else
                    }
                    /// Every imported error whose message occurs in `line`, most specific first.
                    pub fn find_all(line: &str) -> ::std::vec::Vec<(Self, ::core::ops::Range<usize>)> {
                        __matcher()
                            .find_all(line)
                            .into_iter()
                            .filter_map(|m| __S((__from_match(m.index, &m.values)?, m.span)))
                            .collect()
                    }
                }

                #[automatically_derived]
                impl ::core::fmt::Display for #ident {
                    /// The record's message with the variant's fields; omitted fields
                    /// are written as their placeholders (`%d`).
                    #[allow(unreachable_patterns)]
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        match __metadata(self) {
                            __S(metadata) => __ec::imported::render_declared(f, &metadata.template, &__values(self)),
                            __N => #display_other,
                        }
                    }
                }

                #error_and_from_str
        },
    )
}

/// `fn __from_match(index, values)`: the imported variant `index` from a
/// match's values; `None` when a field does not parse.
fn from_match(input: &Input, plan: &Plan) -> TokenStream {
    let ident = &input.ident;
    let arms = input.variants.iter().zip(&plan.roles).filter_map(|(variant, role)| {
        let Role::Imported { index, fields } = role else { return None };
        let v = &variant.ident;
        let index = Literal::usize_unsuffixed(*index);
        let build = match &variant.fields {
            syn::Fields::Unit => quote!(#ident::#v),
            _ => {
                let fields = fields.iter().map(|field| {
                    let (name, ty, at) = (&field.ident, &field.ty, field.field);
                    quote_spanned!(ty.span()=> #name: __ec::imported::field_from_value::<#ty>(&values[#at])?)
                });
                quote!(#ident::#v { #(#fields),* })
            }
        };
        Some(quote!(#index => __S(#build),))
    });
    quote! {
        #[allow(unused_variables)]
        fn __from_match(index: usize, values: &[__ec::Value<'_>]) -> ::core::option::Option<#ident> {
            match index { #(#arms)* _ => __N }
        }
    }
}

/// The arms of `__values`: one `Option` per record field, `Some` for the
/// declared ones.
fn values_arms(input: &Input, plan: &Plan) -> Vec<TokenStream> {
    let ident = &input.ident;
    input
        .variants
        .iter()
        .zip(&plan.roles)
        .map(|(variant, role)| {
            let v = &variant.ident;
            let Role::Imported { index, fields } = role else {
                return quote!(#ident::#v { .. } => ::std::vec::Vec::new(),);
            };
            let template = &plan.entries[*index].template;
            let bindings: Vec<_> = (0..fields.len()).map(|i| format_ident!("__f{i}")).collect();
            let names = fields.iter().map(|f| &f.ident);
            let values = (0..template.fields.len()).map(|at| match fields.iter().position(|f| f.field == at) {
                Some(i) => {
                    let (binding, field) = (&bindings[i], &fields[i]);
                    let kind = format_ident!("{}", format!("{:?}", field.kind));
                    quote_spanned!(field.ty.span()=> __S(__ec::imported::value_from_field(#binding, __ec::ValueKind::#kind)))
                }
                None => quote!(__N),
            });
            quote!(#ident::#v { #(#names: #bindings,)* .. } => ::std::vec![#(#values),*],)
        })
        .collect()
}
