//! `#[derive(Catalog)]`: a user-written enum whose variants import records.
//! One module per phase: parse the enum and its `#[catalog(...)]` attributes
//! (`ast`), check them against the data (`valid`), generate the API (`expand`).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;

use crate::ctxt::Ctxt;
use crate::data::{self, Data};
use crate::options::Options;

pub fn derive(item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::new();
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

#[cfg(test)]
mod tests {
    use quote::quote;

    fn expand() -> String {
        super::derive(quote! {
            #[catalog(path = "../data/nats-io/nats-server", exhaustive)]
            enum E {
                #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
                Persist { seq: u64, ps_id: String },
                #[catalog(id = "59aa3418e32dd765")]
                Window,
                #[catalog(id = "443048c6cb7c33f3")]
                Create { err: String },
                #[catalog(other)]
                Other(String),
            }
        })
        .to_string()
    }

    #[test]
    fn the_same_input_gives_identical_code_without_errors() {
        let code = expand();
        assert_eq!(code, expand());
        assert!(!code.contains("compile_error"), "{code}");
    }

    #[test]
    fn only_the_imported_records_are_packed_in_variant_order() {
        let code = expand();
        assert!(code.contains("packed :: decode (__PACKED , 3usize)"));
        let order = ["7:Persist", "6:Window", "6:Create"].map(|name| code.find(name).expect(name));
        assert!(order.is_sorted(), "{order:?}");
        assert!(!code.contains("derive (Debug"), "Debug is the user's");
    }
}
