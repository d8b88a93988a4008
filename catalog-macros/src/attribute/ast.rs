//! The enum the attribute is applied to.

use proc_macro2::TokenStream;
use syn::{Attribute, Ident, Visibility};

use crate::ctxt::Ctxt;

/// An empty enum to fill.
pub struct Input {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub ident: Ident,
}

pub fn parse(item: TokenStream, cx: &mut Ctxt) -> Option<Input> {
    let item: syn::ItemEnum = match syn::parse2(item) {
        Ok(item) => item,
        Err(err) => {
            cx.error(err.span(), "#[catalog] applies to an empty enum, such as `pub enum NatsServerError {}`");
            return None;
        }
    };
    if !item.variants.is_empty() {
        cx.push(syn::Error::new_spanned(&item.variants, "#[catalog] fills the enum itself: leave it empty"));
    }
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        cx.push(syn::Error::new_spanned(&item.generics, "#[catalog] does not support generic enums"));
    }
    // The generated code reads and builds variants through the layout of
    // `#[repr(u32)]` alone: another `repr` (`C` beside it) would change it.
    for attr in item.attrs.iter().filter(|attr| attr.path().is_ident("repr")) {
        cx.push(syn::Error::new_spanned(
            attr,
            "#[catalog] chooses the enum's representation (`#[repr(u32)]`): remove this `#[repr]`",
        ));
    }
    Some(Input { attrs: item.attrs, vis: item.vis, ident: item.ident })
}
