//! The options of `#[catalog(...)]`.

use catalog_runtime::{Dialect, Filter, Severity};
use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::{Expr, ExprArray, Lit, LitStr};

use crate::ctxt::Ctxt;

const OPTIONS: &str = "`path`, `repo`, `tags`, `severity`, `dialect`, `crate`";

/// Which macro the options are for: `#[derive(Catalog)]` also takes `exhaustive`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Attribute,
    Derive,
}

pub struct Options {
    /// The record directory, relative to the crate's manifest directory.
    pub path: Option<LitStr>,
    pub filter: Filter,
    /// Path of the `error_catalog` crate (`crate = "..."` for re-exports).
    pub krate: syn::Path,
    /// `exhaustive` (derive only): where it was written.
    pub exhaustive: Option<Span>,
}

impl Default for Options {
    fn default() -> Self {
        Options { path: None, filter: Filter::default(), krate: syn::parse_quote!(::error_catalog), exhaustive: None }
    }
}

pub fn parse(attr: TokenStream, cx: &mut Ctxt) -> Options {
    let mut options = Options::default();
    parse_into(&mut options, attr, Form::Attribute, cx);
    options
}

/// Adds the options in `attr` (the inside of one `#[catalog(...)]`) to `options`.
pub fn parse_into(options: &mut Options, attr: TokenStream, form: Form, cx: &mut Ctxt) {
    let parser = syn::meta::parser(|meta| {
        let name = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
        let name = if meta.path.is_ident("crate") { "crate".to_owned() } else { name };
        match name.as_str() {
            "path" => options.path = Some(meta.value()?.parse()?),
            "repo" => options.filter.repo = Some(meta.value()?.parse::<LitStr>()?.value()),
            "tags" => options.filter.tags = strings(meta.value()?.parse()?, cx),
            "severity" => {
                let names = strings(meta.value()?.parse()?, cx);
                options.filter.severities = names.iter().map(|s| Severity::from_text(s)).collect();
            }
            "dialect" => {
                let name: LitStr = meta.value()?.parse()?;
                match Dialect::from_name(&name.value()) {
                    Some(dialect) => options.filter.dialect = Some(dialect),
                    None => {
                        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
                        let message =
                            format!("unknown dialect {:?}; expected one of {}", name.value(), names.join(", "));
                        cx.error(name.span(), message);
                    }
                }
            }
            "crate" => {
                let value = meta.value()?;
                options.krate = if value.peek(LitStr) { value.parse::<LitStr>()?.parse()? } else { value.parse()? };
            }
            "exhaustive" if form == Form::Derive => options.exhaustive = Some(meta.path_span()),
            _ => {
                let expected = match form {
                    Form::Attribute => OPTIONS.to_owned(),
                    Form::Derive => format!("{OPTIONS}, `exhaustive`"),
                };
                cx.error(
                    meta.path_span(),
                    format!("unknown option `{}`; expected one of {expected}", path_text(&meta.path)),
                );
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<Expr>()?;
                }
            }
        }
        Ok(())
    });
    if let Err(err) = parser.parse2(attr) {
        cx.push(err);
    }
}

pub trait PathSpan {
    fn path_span(&self) -> Span;
}

impl PathSpan for syn::meta::ParseNestedMeta<'_> {
    fn path_span(&self) -> Span {
        syn::spanned::Spanned::span(&self.path)
    }
}

pub fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

/// `"a"` or `["a", "b"]`.
fn strings(expr: Expr, cx: &mut Ctxt) -> Vec<String> {
    let items = match expr {
        Expr::Array(ExprArray { elems, .. }) => elems.into_iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => out.push(s.value()),
            other => cx.push(syn::Error::new_spanned(other, "expected a string literal")),
        }
    }
    out
}
