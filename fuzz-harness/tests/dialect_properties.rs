//! Property tests, one per dialect, of `fuzz_harness::dialect_line::check`:
//! random templates of that dialect with random values, found inside a log
//! line with their values whole (the module's documentation says what is
//! checked). The fuzz target `dialect_line` checks the same on the
//! fuzzer's inputs.

use catalog_runtime::Dialect;
use fuzz_harness::dialect_line::{check, Drawn, Part};
use proptest::prelude::*;

fn drawn() -> impl Strategy<Value = Drawn> {
    prop_oneof![
        4 => any::<u64>().prop_map(Drawn::Pool),
        1 => any::<String>().prop_map(Drawn::Text),
        1 => "[a-z]{1,8}( [a-z]{1,5}){0,3}".prop_map(Drawn::Text),
        1 => any::<i64>().prop_map(Drawn::Int),
        1 => any::<f64>().prop_map(Drawn::Float),
    ]
}

fn parts() -> impl Strategy<Value = Vec<Part>> {
    let part = prop_oneof![
        4 => (any::<usize>(), any::<usize>()).prop_map(|(s, w)| Part::Literal(s, w)),
        1 => any::<usize>().prop_map(Part::Escape),
        4 => (any::<usize>(), drawn()).prop_map(|(c, v)| Part::Value(c, v)),
    ];
    prop::collection::vec(part, 1..8)
}

macro_rules! dialect_tests {
    ($($name:ident: $dialect:expr,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]
            $(
                #[test]
                fn $name(parts in parts()) {
                    check($dialect, &parts);
                }
            )*
        }

        /// Every dialect has its test above.
        #[test]
        fn every_dialect_is_tested() {
            let tested = [$($dialect),*];
            for &dialect in Dialect::ALL {
                assert!(tested.contains(&dialect), "{dialect:?} has no property test");
            }
        }
    };
}

dialect_tests! {
    go: Dialect::Go,
    plain: Dialect::Plain,
    printf: Dialect::Printf,
    python: Dialect::Python,
    pattern: Dialect::Pattern,
    js_format: Dialect::JsFormat,
    js_template: Dialect::JsTemplate,
    python_brace: Dialect::PythonBrace,
    rust: Dialect::Rust,
    java_format: Dialect::JavaFormat,
    slf4j: Dialect::Slf4j,
    message_format: Dialect::MessageFormat,
    csharp: Dialect::CSharp,
}
