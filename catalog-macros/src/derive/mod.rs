//! `#[derive(Catalog)]`: a user-written enum whose variants import records.
//! One module per phase: parse the enum and its `#[catalog(...)]` attributes
//! (`ast`), check them against the data (`valid`), generate the API (`expand`).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;

use crate::attr::Options;
use crate::ctxt::Ctxt;
use crate::data::{self, Data};

pub fn derive(item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let Some(input) = ast::parse(item, &mut cx) else {
        return cx.into_compile_errors();
    };
    let before = cx.count();
    let data = load(&input.options, input.ident.span(), &mut cx);
    // Records that failed to load are not reported again as unknown imports.
    let loaded = cx.count() == before;
    let plan = valid::check(&input, &data, loaded, &mut cx);
    // The API is generated even when some variants are wrong (they are left
    // out of it), so that user code does not drown in secondary errors.
    let code = expand::generate(&input, &data, &plan);
    let errors = cx.into_compile_errors();
    quote::quote!(#errors #code)
}

/// Every record of the directory, unfiltered: the filters are applied by
/// `valid`, which can then say that a record exists but is filtered out.
/// Load and compile errors are the attribute form's, since `build` compiles
/// every record before it filters.
fn load(options: &Options, enum_span: proc_macro2::Span, cx: &mut Ctxt) -> Data {
    match &options.path {
        Some(path) => data::load(path, &catalog_runtime::Filter::default(), cx),
        None => {
            cx.error(enum_span, "missing the record directory: add #[catalog(path = \"data/...\")] to the enum");
            Data::empty()
        }
    }
}
