//! The enum `#[derive(Catalog)]` is applied to, and its `#[catalog(...)]`
//! attributes: the attribute form's options plus `exhaustive` on the enum;
//! `id = "..."`, `slug = "..."` or `other` on each variant.

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Fields, Ident, LitStr};

use crate::ctxt::Ctxt;
use crate::options::{self, Form, Options, PathSpan};

pub struct Input {
    pub ident: Ident,
    pub options: Options,
    pub variants: Vec<Variant>,
}

pub struct Variant {
    pub ident: Ident,
    pub fields: Fields,
    /// `None` when the variant has no valid import attribute (already reported).
    pub import: Option<Import>,
}

pub enum Import {
    Id(LitStr),
    Slug(LitStr),
    /// The catch-all for unmatched messages; the span of `other`.
    Other(Span),
}

impl Import {
    fn option(&self) -> &'static str {
        match self {
            Import::Id(_) => "id",
            Import::Slug(_) => "slug",
            Import::Other(_) => "other",
        }
    }

    /// Where the import is written, for errors about it.
    pub fn span(&self) -> Span {
        match self {
            Import::Id(lit) | Import::Slug(lit) => lit.span(),
            Import::Other(span) => *span,
        }
    }
}

pub fn parse(item: TokenStream, cx: &mut Ctxt) -> Option<Input> {
    let input: syn::DeriveInput = match syn::parse2(item) {
        Ok(input) => input,
        Err(err) => {
            cx.push(err);
            return None;
        }
    };
    let syn::Data::Enum(data) = input.data else {
        cx.error(input.ident.span(), "#[derive(Catalog)] applies to enums whose variants import records");
        return None;
    };
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        cx.push(syn::Error::new_spanned(&input.generics, "#[derive(Catalog)] does not support generic enums"));
    }
    if data.variants.is_empty() {
        let message = "#[derive(Catalog)] needs variants: add one per record, such as `#[catalog(id = \"...\")] Name { field: String }`";
        cx.error(input.ident.span(), message);
        return None;
    }
    let mut options = Options::default();
    for attr in catalog_attrs(&input.attrs, cx) {
        options::parse_into(&mut options, attr, Form::Derive, cx);
    }
    let variants = data
        .variants
        .into_iter()
        .map(|v| {
            let import = variant_import(&v.ident, &v.attrs, cx);
            Variant { ident: v.ident, fields: v.fields, import }
        })
        .collect();
    Some(Input { ident: input.ident, options, variants })
}

/// The insides of every `#[catalog(...)]`.
fn catalog_attrs(attrs: &[Attribute], cx: &mut Ctxt) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("catalog")) {
        match attr.meta.require_list() {
            Ok(list) => out.push(list.tokens.clone()),
            Err(err) => cx.push(err),
        }
    }
    out
}

fn variant_import(variant: &Ident, attrs: &[Attribute], cx: &mut Ctxt) -> Option<Import> {
    let mut import: Option<Import> = None;
    let mut written = false;
    for tokens in catalog_attrs(attrs, cx) {
        let parser = syn::meta::parser(|meta| {
            let name = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            let this = match name.as_str() {
                "id" => Import::Id(meta.value()?.parse()?),
                "slug" => Import::Slug(meta.value()?.parse()?),
                "other" => Import::Other(meta.path_span()),
                _ => {
                    let message = format!(
                        "unknown variant option `{}`; expected `id = \"...\"`, `slug = \"...\"` or `other`",
                        options::path_text(&meta.path)
                    );
                    cx.error(meta.path_span(), message);
                    if meta.input.peek(syn::Token![=]) {
                        meta.value()?.parse::<syn::Expr>()?;
                    }
                    written = true;
                    return Ok(());
                }
            };
            written = true;
            match &import {
                Some(first) => cx.error(
                    this.span(),
                    format!(
                        "variant `{variant}` already has `{}`: a variant takes one of `id`, `slug` and `other`",
                        first.option()
                    ),
                ),
                None => import = Some(this),
            }
            Ok(())
        });
        if let Err(err) = syn::parse::Parser::parse2(parser, tokens) {
            cx.push(err);
            written = true;
        }
    }
    if import.is_none() && !written {
        let message = format!(
            "variant `{variant}` imports no record: add `#[catalog(id = \"...\")]` or `#[catalog(slug = \"...\")]`, \
             or `#[catalog(other)]` for the catch-all of unmatched messages"
        );
        cx.error(variant.span(), message);
    }
    import
}
