//! `#[catalog]`: fills an empty enum with one variant per record of a
//! dataset directory. One module per phase: parse the enum (`ast`; the
//! options are `crate::options`, shared with the derive), load the records
//! (`crate::data`), generate the enums and their API (`expand`, with the field
//! accessors in `fields` and the names both use in `names`).

mod ast;
mod expand;
mod fields;
mod names;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ctxt::Ctxt;
use crate::data::{self, Data};
use crate::options;

pub fn catalog(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::new();
    let options = options::parse(attr, &mut cx);
    let Some(input) = ast::parse(item.clone(), &mut cx) else {
        return cx.into_compile_errors();
    };
    let data = match &options.path {
        Some(path) => data::load(path, &options.filter, &mut cx),
        None => {
            cx.error(proc_macro2::Span::call_site(), "missing the record directory: #[catalog(path = \"data/...\")]");
            Data::empty()
        }
    };
    // The valid records are always generated, so that an error in one record
    // does not cascade into errors at every use of the others.
    let code = expand::generate(&input, &data, &options.krate);
    let errors = cx.into_compile_errors();
    quote!(#errors #code)
}
