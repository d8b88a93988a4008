//! Snapshot tests of the generated code: the attribute over the seed records
//! and a `#[derive(Catalog)]` enum, pretty-printed into `snapshots/`, where
//! a change shows up in review like any other diff. After a deliberate
//! change, `UPDATE_SNAPSHOTS=1 cargo test -p catalog-macros snapshots`
//! rewrites them.

use std::path::Path;

use proc_macro2::TokenStream;
use quote::quote;

/// Compares `code`, pretty-printed, with `snapshots/<name>.rs`.
fn assert_snapshot(name: &str, code: TokenStream) {
    let file: syn::File = syn::parse2(code).expect("generated code parses as a file");
    let pretty = prettyplease::unparse(&file);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots").join(format!("{name}.rs"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &pretty).expect("the snapshot is written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != pretty {
        let first = expected.lines().zip(pretty.lines()).position(|(a, b)| a != b);
        let line = first.map_or(expected.lines().count().min(pretty.lines().count()), |n| n);
        panic!(
            "the code generated for {name} differs from {} from line {}:\n  snapshot:  {:?}\n  generated: {:?}\n\
             review the change; if it is meant, run `UPDATE_SNAPSHOTS=1 cargo test -p catalog-macros snapshots`",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            pretty.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

#[test]
fn attribute_over_the_seeds() {
    let code = crate::attribute::catalog(
        quote!(path = "../data/nats-io/nats-server"),
        quote! {
            /// Errors of nats-server.
            pub enum NatsServerError {}
        },
    );
    assert_snapshot("attribute_seeds", code);
}

#[test]
fn derive_with_imports_and_a_catch_all() {
    let code = crate::derive::derive(quote! {
        #[catalog(path = "../data/nats-io/nats-server")]
        enum MqttFailure {
            #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
            PersistSession { ps_id: String, seq: u64, err: String },
            #[catalog(id = "59aa3418e32dd765")]
            InFlightWindowFull,
            #[catalog(other)]
            Unknown(String),
        }
    });
    assert_snapshot("derive_seeds", code);
}
