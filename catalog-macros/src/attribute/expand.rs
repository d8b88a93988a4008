//! Code generation. The shape keeps compile time flat at thousands of
//! records (measured with `bench/compile-time.sh`): a `#[repr(u32)]` enum
//! whose index is read from the discriminant, the metadata of every variant
//! packed in one string literal and unpacked into a table on first use,
//! lookups by binary search over sorted tables held as byte-string literals,
//! `Display`/`Debug`/`Clone`/`PartialEq` written once in the runtime over the
//! table, and the field values in and out through the enum's layout, an arm
//! per shape of fields rather than per variant (see `fields`).

use catalog_runtime::__private_0_1::tables::lookup_table;
use catalog_runtime::{Entry, ValueKind};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::ast::Input;
use super::fields;
use super::names::{field_type, Names};
use crate::data::Data;
use crate::docs;
use crate::support::{error_and_from_str, support_block};
use crate::text::Code;

pub(super) fn generate(input: &Input, data: &Data, krate: &syn::Path) -> TokenStream {
    let names = Names { error: input.ident.clone(), kind: format_ident!("{}Kind", input.ident) };
    let error_enum = error_enum(input, data, krate);
    let kind_enum = kind_enum(input, data, &names);
    let support = support(input, data, &names);
    let (error_ident, kind_ident) = (&input.ident, &names.kind);
    let support = support_block(
        krate,
        data,
        &data.entries,
        quote! {
            #support
            // serde and miette impls, when the runtime has those features.
            __ec::integrations!(#error_ident, #kind_ident);
        },
    );
    quote! {
        #error_enum
        #kind_enum
        #support
    }
}

fn repr(n: usize) -> TokenStream {
    // A zero-variant enum cannot have a primitive representation.
    if n == 0 {
        quote!()
    } else {
        quote!(#[repr(u32)])
    }
}

fn error_enum(input: &Input, data: &Data, krate: &syn::Path) -> TokenStream {
    let Input { attrs, vis, ident } = input;
    // The runtime's path as text when it is the default one, which has no
    // span of the user's; otherwise a variant with a `ByteString` field is
    // written in tokens, with the path as the user wrote it.
    let default_krate = quote!(#krate).to_string() == ":: error_catalog";
    // The variants as text (see `crate::text`):
    // `#[doc = ".."] Name { #[doc = ".."] field: Type, .. }`.
    let mut code = Code::default();
    for (i, metadata) in data.entries.iter().enumerate() {
        if i > 0 {
            code.text.push_str(", ");
        }
        docs::variant(&mut code, metadata);
        code.text.push_str(&metadata.name);
        let fields = &metadata.template.fields;
        if fields.is_empty() {
            continue;
        }
        if !default_krate && fields.iter().any(|field| field_type_text(field.kind).is_none()) {
            let fields = fields.iter().enumerate().map(|(i, field)| {
                let mut doc = Code::default();
                docs::field(&mut doc, metadata, i);
                let doc = doc.finish();
                let name = format_ident!("{}", field.name.as_ref());
                let ty = field_type(field.kind, &quote!(#krate));
                quote!(#doc #name: #ty)
            });
            code.splice(&quote!({ #(#fields),* }));
            continue;
        }
        code.text.push('{');
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                code.text.push_str(", ");
            }
            docs::field(&mut code, metadata, i);
            code.text.push_str(&field.name);
            code.text.push_str(": ");
            code.text.push_str(field_type_text(field.kind).unwrap_or("::error_catalog::ByteString"));
        }
        code.text.push('}');
    }
    let variants = code.finish();
    let repr = repr(data.entries.len());
    quote! {
        #(#attrs)*
        #repr
        #vis enum #ident { #variants }
    }
}

/// The Rust type of a field of this kind, as text: `None` for the
/// runtime's `ByteString`, which is named through the runtime's path.
fn field_type_text(kind: ValueKind) -> Option<&'static str> {
    match kind.rust_type() {
        "String" => Some("::std::string::String"),
        "ByteString" => None,
        "i128" => Some("::core::primitive::i128"),
        "f64" => Some("::core::primitive::f64"),
        "bool" => Some("::core::primitive::bool"),
        other => unreachable!("no field type {other}"),
    }
}

fn kind_enum(input: &Input, data: &Data, names: &Names) -> TokenStream {
    let Input { vis, ident, attrs } = input;
    // The kind enum has the same variants: if the enum may gain variants
    // without a breaking change, so may its kinds.
    let non_exhaustive = attrs.iter().filter(|attr| attr.path().is_ident("non_exhaustive"));
    let kind = &names.kind;
    let doc = format!(" The kinds of [`{ident}`]: one fieldless variant per record, in the same order.");
    // `#[doc = " [`Enum::Name`]"] Name, ..` as text.
    let mut code = Code::default();
    // Identifiers, backticks and brackets: nothing to escape in the literal.
    let ident_text = ident.to_string();
    for (i, entry) in data.entries.iter().enumerate() {
        if i > 0 {
            code.text.push_str(", ");
        }
        for part in ["#[doc=\" [`", &ident_text, "::", &entry.name, "`]\"]", &entry.name] {
            code.text.push_str(part);
        }
    }
    let variants = code.finish();
    let repr = repr(data.entries.len());
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #(#non_exhaustive)*
        #repr
        #vis enum #kind { #variants }
    }
}

/// A static table of `(key, index)` rows sorted by key, for binary search
/// (`__ec::tables::lookup`), as a byte-string literal.
fn lookup_static(name: &str, data: &Data, key: impl Fn(&Entry) -> &str) -> TokenStream {
    let rows = data.entries.iter().enumerate().map(|(i, e)| (key(e), i as u32));
    let table = Literal::byte_string(&lookup_table(rows));
    let name = format_ident!("{name}");
    quote!(static #name: &[u8] = #table;)
}

fn support(input: &Input, data: &Data, names: &Names) -> TokenStream {
    let ident = &input.ident;
    let kind = &names.kind;
    let n = data.entries.len();
    let catalog_name = ident.to_string();
    let by_id = lookup_static("__BY_ID", data, |m| &m.record().id);
    let by_slug = lookup_static("__BY_SLUG", data, |m| &m.record().slug);
    let by_name = lookup_static("__BY_NAME", data, |m| &m.name);
    let (index_body, kind_index_body, all, from_index) = if n == 0 {
        (
            quote!(match *self {}),
            quote!(match self {}),
            quote!(&[]),
            quote!({
                let _ = index;
                ::core::option::Option::None
            }),
        )
    } else {
        // Sound: both enums are `#[repr(u32)]` with implicit discriminants
        // 0..N, which a primitive representation stores first; so is every
        // `u32` of `__INDICES`, and every index below N, a valid kind.
        // `from_index` does not read `ALL`: rustc checks each kind of a
        // constant it evaluates by a linear search of the variants, so `ALL`
        // costs a quadratic check only to a crate that uses it.
        (
            quote!(unsafe { *(self as *const Self as *const u32) as usize }),
            quote!(self as usize),
            quote!(unsafe { ::core::slice::from_raw_parts(__INDICES.as_ptr().cast::<Self>(), #n) }),
            quote! {
                match index < #n {
                    true => ::core::option::Option::Some(unsafe { ::core::mem::transmute::<u32, Self>(index as u32) }),
                    false => ::core::option::Option::None,
                }
            },
        )
    };
    let (field_items, field_fns, field_trait_fns) = fields::accessors(data, names);
    let error_and_from_str = error_and_from_str(ident);
    quote! {
        // The kinds' discriminants, `ALL` as `u32`s: a literal of `N` kinds
        // costs rustc a linear search of the variants per value.
        static __INDICES: [u32; #n] = __ec::indices::<#n>();
        #field_items
        #by_id
        #by_slug
        #by_name

        impl #kind {
            /// The number of kinds.
            pub const COUNT: usize = #n;
            /// Every kind, in order.
            pub const ALL: &'static [Self] = #all;

            /// Position of the kind in [`Self::ALL`].
            pub fn index(self) -> usize { #kind_index_body }
            /// The kind at a position of [`Self::ALL`].
            pub fn from_index(index: usize) -> ::core::option::Option<Self> { #from_index }
            /// The kind's metadata: its record and compiled message.
            pub fn metadata(self) -> &'static __ec::Entry { &__meta()[self.index()] }
            /// The variant name.
            pub fn name(self) -> &'static str { &__meta()[self.index()].name }
            /// The record id.
            pub fn id(self) -> &'static str { &__meta()[self.index()].record().id }
            /// The record slug.
            pub fn slug(self) -> &'static str { &__meta()[self.index()].record().slug }
            /// The kind whose record has this id.
            pub fn from_id(id: &str) -> ::core::option::Option<Self> {
                __ec::tables::lookup(__BY_ID, id).and_then(Self::from_index)
            }
            /// The first kind whose record has this slug.
            pub fn from_slug(slug: &str) -> ::core::option::Option<Self> {
                __ec::tables::lookup(__BY_SLUG, slug).and_then(Self::from_index)
            }
            /// The kind with this variant name.
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                __ec::tables::lookup(__BY_NAME, name).and_then(Self::from_index)
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #kind {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { f.write_str(self.name()) }
        }

        #[automatically_derived]
        impl ::core::fmt::Display for #kind {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { f.write_str(self.name()) }
        }

        #[automatically_derived]
        impl ::core::str::FromStr for #kind {
            type Err = __ec::NoMatch;
            /// By variant name, id or slug.
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                Self::from_name(s)
                    .or_else(|| Self::from_id(s))
                    .or_else(|| Self::from_slug(s))
                    .ok_or_else(|| __ec::NoMatch { catalog: #catalog_name, input: s.into() })
            }
        }

        impl #ident {
            /// The number of variants.
            pub const COUNT: usize = #n;

            /// The variant's kind.
            pub fn kind(&self) -> #kind { <Self as __ec::CatalogEnum>::kind(self) }
            /// The variant's metadata: its record and compiled message.
            pub fn metadata(&self) -> &'static __ec::Entry { &__meta()[self.__index()] }
            /// The metadata of every variant, in order.
            pub fn entries() -> &'static [__ec::Entry] { __meta() }
            /// The error whose message is exactly `message`.
            pub fn parse(message: &str) -> ::core::option::Option<Self> { <Self as __ec::CatalogEnum>::parse(message) }
            /// The error whose message occurs in `line` (a log line, say).
            pub fn find(line: &str) -> ::core::option::Option<Self> { <Self as __ec::CatalogEnum>::find(line) }
            /// The error whose message occurs in `line`, and its byte range.
            pub fn find_span(line: &str) -> ::core::option::Option<(Self, ::core::ops::Range<usize>)> {
                <Self as __ec::CatalogEnum>::find_span(line)
            }
            /// Every error whose message occurs in `line`, most specific first.
            pub fn find_all(line: &str) -> ::std::vec::Vec<(Self, ::core::ops::Range<usize>)> {
                <Self as __ec::CatalogEnum>::find_all(line)
            }
            /// The field values, in field order.
            pub fn values(&self) -> ::std::vec::Vec<__ec::Value<'_>> { <Self as __ec::CatalogEnum>::values(self) }

            fn __index(&self) -> usize { #index_body }

            #field_fns
        }

        #[automatically_derived]
        impl __ec::CatalogEnum for #ident {
            type Kind = #kind;
            const COUNT: usize = #n;
            fn entries() -> &'static [__ec::Entry] { __meta() }
            fn matcher() -> &'static __ec::Matcher<&'static __ec::Entry> { __matcher() }
            fn index(&self) -> usize { self.__index() }
            fn kind_at(index: usize) -> ::core::option::Option<#kind> { #kind::from_index(index) }
            #field_trait_fns
        }

        #[automatically_derived]
        impl ::core::fmt::Display for #ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { __ec::display(self, f) }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { __ec::debug(self, f) }
        }

        #[automatically_derived]
        impl ::core::clone::Clone for #ident {
            fn clone(&self) -> Self { __ec::clone(self) }
        }

        #[automatically_derived]
        impl ::core::cmp::PartialEq for #ident {
            fn eq(&self, other: &Self) -> bool { __ec::eq(self, other) }
        }

        #error_and_from_str
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    const SEEDS: [&str; 3] = ["443048c6cb7c33f3", "503f49fe39cf5793", "59aa3418e32dd765"];

    fn expand() -> String {
        super::super::catalog(
            quote!(path = "../data/nats-io/nats-server"),
            quote!(
                pub enum E {}
            ),
        )
        .to_string()
    }

    #[test]
    fn the_same_data_gives_identical_code() {
        assert_eq!(expand(), expand());
    }

    #[test]
    fn every_file_read_is_included_by_a_path_relative_to_the_manifest() {
        let code = expand();
        for id in SEEDS {
            let file = format!("\"/../data/nats-io/nats-server/{id}.json\"");
            assert!(code.contains(&file), "{id} is not included");
        }
        let here = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
        assert!(
            code.contains("include_bytes ! (:: core :: concat ! (:: core :: env ! (\"CARGO_MANIFEST_DIR\") , $ file))")
        );
        assert!(!code.contains(&here), "no absolute path in generated code");
        assert!(!code.contains("compile_error"));
    }

    #[test]
    fn variants_are_documented_from_their_records() {
        let code = expand();
        assert!(code.contains("# [doc (alias = \"unable-to-persist-session-q-seq-v-v\")]"));
        // A raw literal (`r"..."`, or `r#"..."#` when the text holds a `"`).
        let doc = code
            .split("# [doc = r")
            .find(|d| d.trim_start_matches('#').starts_with("\" `unable to persist session"))
            .expect("a variant doc");
        assert!(doc.contains("Returned when storing the persisted session record fails"), "documentation");
        assert!(
            doc.contains("**Solutions**") && doc.contains("- Free disk space or fix filestore issues"),
            "solutions"
        );
        assert!(doc.contains("[source](https://github.com/nats-io/nats-server/blob/"), "source link");
        assert!(
            code.contains("Placeholder `%q`: a quoted string, held unquoted (its bytes, UTF-8 or not)."),
            "field docs"
        );
    }

    #[test]
    fn variants_written_as_text_have_the_tokens_quote_would_give() {
        // A field's `:` and its type's leading `::` are apart: rustc lexes
        // `:::` as `::` then `:` (proc_macro2 the other way round).
        let code = expand();
        assert!(code.contains(
            "UnableToPersistSession { # [doc = \" Placeholder `%q`: a quoted string, held unquoted (its bytes, UTF-8 \
             or not).\"] ps_id : :: error_catalog :: ByteString , # [doc = \" Placeholder `%v`: text.\"] seq : :: std \
             :: string :: String"
        ), "{}", code.split("UnableToPersistSession {").nth(1).unwrap_or_default());
        assert!(code.contains("# [doc = \" [`E::UnableToPersistSession`]\"] UnableToPersistSession ,"));
    }

    #[test]
    fn non_exhaustive_goes_to_the_enum_and_its_kinds() {
        let code = super::super::catalog(
            quote!(path = "../data/nats-io/nats-server"),
            quote!(
                #[non_exhaustive]
                pub enum E {}
            ),
        )
        .to_string();
        assert_eq!(code.matches("# [non_exhaustive]").count(), 2, "{code}");
        assert!(code.contains("# [non_exhaustive] # [repr (u32)] pub enum E {"));
        assert!(code.contains("# [non_exhaustive] # [repr (u32)] pub enum EKind {"));
        assert!(!expand().contains("non_exhaustive"));
    }

    #[test]
    fn no_variant_gets_an_n_arm_accessor() {
        // Entry is one packed string unpacked into a table; accessors index it.
        let code = expand();
        assert_eq!(code.matches("static __PACKED : & str =").count(), 1);
        assert!(code.contains("packed :: decode (__PACKED , 3usize)"));
        assert!(!code.contains("const __M"), "no item per record");
        assert!(!code.contains("derive (Debug"), "no derive on the big enum");
    }

    #[test]
    fn no_quadratic_shape_for_rustc() {
        // rustc finds the variant of `Enum::Variant` by a linear search of
        // the variants, and checks every kind of an evaluated constant the
        // same way: no variant is named outside its enum, fields are reached
        // by shape, and `from_index` does not read `ALL`.
        let code = expand();
        assert!(!code.contains("E :: UnableToPersistSession"), "{code}");
        assert!(!code.contains("EKind :: UnableToPersistSession"), "{code}");
        assert!(code.contains("__ec :: indices :: < 3usize > ()"));
        let shapes = code.split("static __SHAPES : & [u8] = ").nth(1).expect("a shape table");
        assert!(shapes.starts_with(r#"b"\0\0\x01\0\x02\0" ;"#), "{shapes}");
        let values = code.split("fn values (& self)").nth(2).expect("CatalogEnum::values");
        assert_eq!(
            values.split("fn from_values").next().unwrap_or("").matches("=> __ec :: layout :: variant_values").count(),
            3
        );
        let from_index = code.split("pub fn from_index").nth(1).expect("from_index");
        assert!(!from_index.split("pub fn").next().unwrap_or("").contains("ALL"));
    }

    #[test]
    fn a_variant_of_more_fields_than_a_layout_takes_has_its_own_arm() {
        // Thirteen fields (`tests/it/wide_variants.rs` round-trips it).
        let code = super::super::catalog(
            quote!(path = "../tests/data/wide"),
            quote!(
                pub enum E {}
            ),
        )
        .to_string();
        assert!(!code.contains("compile_error"), "{code}");
        assert!(code.contains("static __SHAPES : & [u8] = b\"\\xFF\\xFF\" ;"), "{code}");
        assert!(code.contains("_ => self . __values_by_name ()"), "{code}");
        assert!(code.contains("__S (_) => Self :: __from_values_by_name (index , values)"), "{code}");
        assert!(code.contains("E :: Wide { a , b , c , d , e , f , g , h , i , j , k , l , m }"), "{code}");
        let accessors = code.split("impl __ec :: CatalogEnum for E").nth(1).expect("the CatalogEnum impl");
        assert!(!accessors.contains("unsafe"), "no layout call, no unsafe block: {accessors}");
    }
}
