//! The field values of the generated enum, out and in
//! (`CatalogEnum::values` and `from_values`): one `match` arm per *shape*
//! (the field types in order) through the runtime's `layout` module, which
//! says why (rustc's cost of naming thousands of variants) and why it is
//! sound; a catalog has few shapes. A variant with more fields than a
//! layout takes, or past the last shape a table can number, gets an arm of
//! its own, by name.

use catalog_runtime::__private_0_1::layout::MAX_LAYOUT_FIELDS;
use catalog_runtime::__private_0_1::tables::shape_table;
use catalog_runtime::{Entry, ValueKind};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::names::{field_idents, field_type, Names};
use crate::data::Data;

/// The shape number of a variant that has an arm of its own.
const OWN_ARM: u16 = u16::MAX;

/// The shapes of a catalog's variants, numbered in order of first use.
struct Shapes<'a> {
    /// Each variant's shape number, or [`OWN_ARM`].
    of_variant: Vec<u16>,
    /// Each shape's field kinds.
    kinds: Vec<&'a [ValueKind]>,
}

/// The field kinds of each entry.
fn field_kinds(entries: &[Entry]) -> Vec<Vec<ValueKind>> {
    entries.iter().map(|e| e.template.fields.iter().map(|f| f.kind).collect()).collect()
}

/// Numbers the shapes of `all`, each variant's field kinds.
fn number(all: &[Vec<ValueKind>]) -> Shapes<'_> {
    let mut numbers: std::collections::HashMap<&[ValueKind], u16> = std::collections::HashMap::new();
    let mut shapes = Shapes { of_variant: Vec::with_capacity(all.len()), kinds: Vec::new() };
    for kinds in all {
        let number = if kinds.len() > MAX_LAYOUT_FIELDS {
            OWN_ARM
        } else if let Some(&number) = numbers.get(kinds.as_slice()) {
            number
        } else if shapes.kinds.len() < usize::from(OWN_ARM) {
            let number = shapes.kinds.len() as u16;
            numbers.insert(kinds, number);
            shapes.kinds.push(kinds);
            number
        } else {
            OWN_ARM
        };
        shapes.of_variant.push(number);
    }
    shapes
}

/// What the fields need: `(items, inherent, trait_fns)`, the `__SHAPES`
/// table (in the support block), the by-name functions (in the enum's
/// inherent impl), and `values` and `from_values` (in its `CatalogEnum`
/// impl).
pub(super) fn accessors(data: &Data, names: &Names) -> (TokenStream, TokenStream, TokenStream) {
    if data.entries.is_empty() {
        let trait_fns = quote! {
            fn values(&self) -> ::std::vec::Vec<__ec::Value<'_>> { match *self {} }
            fn from_values(index: usize, values: ::std::vec::Vec<__ec::Value<'_>>) -> ::core::option::Option<Self> {
                let _ = (index, values);
                ::core::option::Option::None
            }
        };
        return (quote!(), quote!(), trait_fns);
    }
    let kinds = field_kinds(&data.entries);
    let shapes = number(&kinds);
    let table = Literal::byte_string(&shape_table(shapes.of_variant.iter().copied()));
    let layouts = shapes.kinds.iter().map(|kinds| {
        let layout = format_ident!("Fields{}", kinds.len());
        let types = kinds.iter().map(|&kind| field_type(kind, &quote!(__ec)));
        quote!(__ec::layout::#layout<#(#types),*>)
    });
    let numbers = (0..shapes.kinds.len()).map(|n| Literal::u16_suffixed(n as u16));
    let values_arms = numbers
        .clone()
        .zip(layouts.clone())
        .map(|(number, layout)| quote!(__S(#number) => __ec::layout::variant_values::<Self, #layout>(self),));
    let from_arms = numbers.zip(layouts).map(
        |(number, layout)| quote!(__S(#number) => __ec::layout::variant_from_values::<Self, #layout>(index, values),),
    );
    let by_name: Vec<usize> = (0..data.entries.len()).filter(|&i| shapes.of_variant[i] == OWN_ARM).collect();
    let (inherent, values_rest, from_rest) = if by_name.is_empty() {
        (quote!(), quote!(_ => ::std::vec::Vec::new(),), quote!(_ => __N,))
    } else {
        (
            by_name_fns(data, names, &by_name),
            quote!(_ => self.__values_by_name(),),
            quote!(__S(_) => Self::__from_values_by_name(index, values), __N => __N,),
        )
    };
    // Only the layout calls are unsafe: a catalog whose every variant has
    // its own arm gets no `unsafe` block.
    let unsafe_ = (!shapes.kinds.is_empty()).then(|| quote!(unsafe));
    let items = quote! {
        // Each variant's shape of fields, a little-endian `u16`: an arm of
        // `values` and `from_values`.
        static __SHAPES: &[u8] = #table;
    };
    let trait_fns = quote! {
        fn values(&self) -> ::std::vec::Vec<__ec::Value<'_>> {
            // SAFETY: the enum is `#[repr(u32)]` and nothing else, and
            // `__SHAPES` gives each variant the layout of its own fields.
            #unsafe_ { match __ec::tables::shape(__SHAPES, self.__index()) { #(#values_arms)* #values_rest } }
        }
        fn from_values(index: usize, values: ::std::vec::Vec<__ec::Value<'_>>) -> ::core::option::Option<Self> {
            // SAFETY: as in `values`; variant `index` has tag `index`.
            #unsafe_ { match __ec::tables::shape(__SHAPES, index) { #(#from_arms)* #from_rest } }
        }
    };
    (items, inherent, trait_fns)
}

/// `__values_by_name` and `__from_values_by_name`: an arm per variant of
/// `by_name`, named.
fn by_name_fns(data: &Data, names: &Names, by_name: &[usize]) -> TokenStream {
    let error = &names.error;
    let (values_arms, from_arms): (Vec<TokenStream>, Vec<TokenStream>) = by_name
        .iter()
        .map(|&i| {
            let variant = format_ident!("{}", data.entries[i].name.as_ref());
            let index = Literal::usize_unsuffixed(i);
            let fields = field_idents(&data.entries[i]);
            if fields.is_empty() {
                return (quote!(#error::#variant => ::std::vec::Vec::new(),), quote!(#index => __S(#error::#variant),));
            }
            let types: Vec<TokenStream> =
                data.entries[i].template.fields.iter().map(|f| field_type(f.kind, &quote!(__ec))).collect();
            let values_arm = quote! {
                #error::#variant { #(#fields),* } => __ec::values([#(__ec::to_value::<#types>(#fields)),*]),
            };
            let from_arm = quote! {
                #index => {
                    let mut values = values.into_iter();
                    match (#(__ec::take::<#types>(&mut values),)*) {
                        (#(__S(#fields),)*) => __S(#error::#variant { #(#fields),* }),
                        _ => __N,
                    }
                }
            };
            (values_arm, from_arm)
        })
        .unzip();
    quote! {
        #[inline(never)]
        #[allow(unreachable_patterns)]
        fn __values_by_name(&self) -> ::std::vec::Vec<__ec::Value<'_>> {
            match self { #(#values_arms)* _ => ::std::vec::Vec::new() }
        }
        #[inline(never)]
        #[allow(unused_mut, unused_variables)]
        fn __from_values_by_name(index: usize, values: ::std::vec::Vec<__ec::Value<'_>>) -> ::core::option::Option<Self> {
            match index { #(#from_arms)* _ => __N }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_numbered_in_order_of_first_use_until_the_table_is_full() {
        // Every sequence of 7 kinds (78,125 of them), in order, then the
        // first again, then one of 13 fields.
        let kinds = [ValueKind::Int, ValueKind::Float, ValueKind::Bool, ValueKind::Quoted, ValueKind::Text];
        let mut all: Vec<Vec<ValueKind>> =
            (0..5usize.pow(7)).map(|n| (0..7).map(|digit| kinds[n / 5usize.pow(digit) % 5]).collect()).collect();
        all.push(all[0].clone());
        all.push(vec![ValueKind::Text; MAX_LAYOUT_FIELDS + 1]);
        let shapes = number(&all);
        let full = usize::from(OWN_ARM);
        assert_eq!(shapes.kinds.len(), full);
        assert!(shapes.of_variant[..full].iter().enumerate().all(|(i, &n)| usize::from(n) == i));
        assert!(shapes.of_variant[full..all.len() - 2].iter().all(|&n| n == OWN_ARM));
        assert_eq!(shapes.of_variant[all.len() - 2], 0, "a shape seen before keeps its number");
        assert_eq!(shapes.of_variant[all.len() - 1], OWN_ARM, "more fields than a layout takes");
        assert_eq!(shapes.kinds[7], &all[7][..]);
    }
}
