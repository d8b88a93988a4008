//! `thiserror DATA OUT`: the records of DATA as the enum a user would write
//! by hand with `thiserror`, the baseline of `bench/compile-time.sh`.
//!
//! One variant per record (the catalog's variant names, so that both enums
//! have the same identifiers), a tuple field per placeholder field, typed as
//! a person would type it (`String` for text and quoted values, `i64`,
//! `f64`, `bool`), and `#[error("...")]` built from the message: its literal
//! text with braces doubled, `{N}` for each placeholder. Display only: no
//! `#[source]`, `#[from]` or other derives than the `Debug` that
//! `std::error::Error` needs.

use std::fmt::Write as _;
use std::path::Path;

use catalog_runtime::build::build_with_names;
use catalog_runtime::{load_dir, Filter, Piece, ValueKind};

pub fn run(data: &Path, out: &Path) -> Result<(), String> {
    let loaded = load_dir(data);
    let built = build_with_names(loaded.records, &loaded.names, &Filter::default());
    if let Some(error) = loaded.diagnostics.iter().chain(&built.diagnostics).find(|d| d.is_error()) {
        return Err(error.to_string());
    }
    let mut code = String::from("#[derive(Debug, thiserror::Error)]\npub enum HandError {\n");
    for built in &built.entries {
        let entry = &built.entry;
        let mut message = String::new();
        for piece in entry.template.pieces.iter() {
            match piece {
                Piece::Literal(text) => message.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Piece::Value { field, .. } => write!(message, "{{{field}}}").expect("a String"),
                other => panic!("no thiserror form for the piece {other:?}"),
            }
        }
        // `{:?}` of a `str` is a valid Rust string literal.
        writeln!(code, "    #[error({message:?})]").expect("a String");
        let fields: Vec<&str> = entry
            .template
            .fields
            .iter()
            .map(|field| match field.kind {
                ValueKind::Int => "i64",
                ValueKind::Float => "f64",
                ValueKind::Bool => "bool",
                // Quoted, text, and any kind a later runtime adds.
                _ => "String",
            })
            .collect();
        if fields.is_empty() {
            writeln!(code, "    {},", entry.name).expect("a String");
        } else {
            writeln!(code, "    {}({}),", entry.name, fields.join(", ")).expect("a String");
        }
    }
    code.push_str("}\n");
    std::fs::write(out, code).map_err(|err| format!("{}: {err}", out.display()))?;
    eprintln!("{} variants in {}", built.entries.len(), out.display());
    Ok(())
}
