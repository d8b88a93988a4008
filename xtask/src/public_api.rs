//! The public API of the libraries, one item per line, from rustdoc's JSON
//! output: what `public-api/<crate>.txt` holds, checked by the test in
//! `xtask/tests/public_api.rs` so that a change to the public surface is
//! always seen in review.
//!
//! rustdoc's JSON output is unstable; it is read here with
//! `RUSTC_BOOTSTRAP=1` on the stable toolchain, the one that CI uses. Each
//! line is an item's kind and path, with a function's signature, a field's
//! type, a trait impl's trait; `#[doc(hidden)]` items (the generated code's
//! `__private` module) are not public API and are left out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The library crates whose API is a promise: (package, crate name).
pub const CRATES: [(&str, &str); 3] = [
    ("catalog-extract", "catalog_extract"),
    ("catalog-runtime", "catalog_runtime"),
    ("error-catalog", "error_catalog"),
];

/// The workspace root (xtask's parent).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is inside the workspace").to_owned()
}

/// Where the listing of `krate` is checked in.
pub fn listing_path(krate: &str) -> PathBuf {
    workspace_root().join("public-api").join(format!("{krate}.txt"))
}

/// The public API of `package` (every feature on), one item per line.
pub fn listing(package: &str, krate: &str) -> Result<String, String> {
    let root = workspace_root();
    let target = root.join("target").join("public-api");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .current_dir(&root)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTDOCFLAGS")
        .args(["rustdoc", "--quiet", "--lib", "--all-features", "-p", package, "--"])
        .args(["-Z", "unstable-options", "--output-format", "json", "--cap-lints", "allow"])
        .status()
        .map_err(|err| format!("cannot run cargo rustdoc: {err}"))?;
    if !status.success() {
        return Err(format!("cargo rustdoc -p {package} failed"));
    }
    let path = target.join("doc").join(format!("{krate}.json"));
    let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|err| format!("{}: {err}", path.display()))?;
    let mut lines = BTreeSet::new();
    let walker = Walker { index: &doc["index"] };
    let root_id = id_of(&doc["root"]);
    walker.module(&root_id, krate, &mut lines);
    Ok(lines.into_iter().map(|line| line + "\n").collect())
}

/// An id as the index's key (a number in recent formats, a string in older).
fn id_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

struct Walker<'a> {
    index: &'a Value,
}

impl Walker<'_> {
    fn item(&self, id: &str) -> Option<&Value> {
        self.index.get(id)
    }

    fn module(&self, id: &str, path: &str, out: &mut BTreeSet<String>) {
        let Some(module) = self.item(id) else { return };
        for child in module["inner"]["module"]["items"].as_array().into_iter().flatten() {
            let child_id = id_of(child);
            let Some(item) = self.item(&child_id) else { continue };
            if let Some(import) = item["inner"].get("use") {
                // A re-export: the item under its exported name.
                let name = import["name"].as_str().unwrap_or_default();
                if let Some(target) = import.get("id").filter(|id| !id.is_null()) {
                    self.public_item(&id_of(target), &format!("{path}::{name}"), out);
                } else {
                    out.insert(format!("pub use {path}::{name} = {}", import["source"].as_str().unwrap_or("?")));
                }
            } else {
                let name = item["name"].as_str().unwrap_or_default();
                self.public_item(&child_id, &format!("{path}::{name}"), out);
            }
        }
    }

    fn public_item(&self, id: &str, path: &str, out: &mut BTreeSet<String>) {
        let Some(item) = self.item(id) else {
            // An item of another crate, re-exported.
            out.insert(format!("pub use {path}"));
            return;
        };
        let inner = &item["inner"];
        let kind = inner.as_object().and_then(|o| o.keys().next()).map(String::as_str).unwrap_or("?");
        match kind {
            "module" => {
                out.insert(format!("pub mod {path}"));
                self.module(id, path, out);
            }
            "function" => {
                out.insert(format!("pub fn {path}{}", signature(&inner["function"])));
            }
            "struct" => {
                let s = &inner["struct"];
                out.insert(format!("{}pub struct {path}{}", attributes(item), generics(&s["generics"])));
                let fields = s["kind"]["plain"]["fields"].as_array().into_iter().flatten();
                let tuple = s["kind"]["tuple"].as_array().into_iter().flatten().filter(|f| !f.is_null());
                for field in fields.chain(tuple) {
                    if let Some(field) = self.item(&id_of(field)) {
                        let ty = render_type(&field["inner"]["struct_field"]);
                        out.insert(format!("pub {path}::{}: {ty}", field["name"].as_str().unwrap_or("?")));
                    }
                }
                self.impls(&s["impls"], path, out);
            }
            "enum" => {
                let e = &inner["enum"];
                out.insert(format!("{}pub enum {path}{}", attributes(item), generics(&e["generics"])));
                for variant in e["variants"].as_array().into_iter().flatten() {
                    if let Some(variant) = self.item(&id_of(variant)) {
                        out.insert(format!("pub {path}::{}", variant["name"].as_str().unwrap_or("?")));
                    }
                }
                self.impls(&e["impls"], path, out);
            }
            "trait" => {
                let t = &inner["trait"];
                out.insert(format!("pub trait {path}{}", generics(&t["generics"])));
                for member in t["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.item(&id_of(member)) {
                        self.member(member, path, out);
                    }
                }
            }
            "type_alias" => {
                let ty = render_type(&inner["type_alias"]["type"]);
                out.insert(format!("pub type {path} = {ty}"));
            }
            "constant" => {
                let ty = render_type(&inner["constant"]["type"]);
                out.insert(format!("pub const {path}: {ty}"));
            }
            "macro" | "proc_macro" => {
                out.insert(format!("pub macro {path}!"));
            }
            other => {
                out.insert(format!("pub {other} {path}"));
            }
        }
    }

    /// Inherent methods and (non-blanket, written) trait impls.
    fn impls(&self, impls: &Value, path: &str, out: &mut BTreeSet<String>) {
        for id in impls.as_array().into_iter().flatten() {
            let Some(item) = self.item(&id_of(id)) else { continue };
            let imp = &item["inner"]["impl"];
            if imp["is_synthetic"].as_bool() == Some(true) || !imp["blanket_impl"].is_null() {
                continue;
            }
            match imp.get("trait").filter(|t| !t.is_null()) {
                Some(tr) => {
                    let name = render_path(tr);
                    out.insert(format!("impl {name} for {path}"));
                }
                None => {
                    for member in imp["items"].as_array().into_iter().flatten() {
                        if let Some(member) = self.item(&id_of(member)) {
                            if member["visibility"].as_str() == Some("public") {
                                self.member(member, path, out);
                            }
                        }
                    }
                }
            }
        }
    }

    /// A method, associated constant or type of `path`.
    fn member(&self, member: &Value, path: &str, out: &mut BTreeSet<String>) {
        let name = member["name"].as_str().unwrap_or("?");
        let inner = &member["inner"];
        if let Some(function) = inner.get("function") {
            out.insert(format!("pub fn {path}::{name}{}", signature(function)));
        } else if let Some(constant) = inner.get("assoc_const") {
            out.insert(format!("pub const {path}::{name}: {}", render_type(&constant["type"])));
        } else if inner.get("assoc_type").is_some() {
            out.insert(format!("pub type {path}::{name}"));
        }
    }
}

/// The attributes of an item that are part of its promise, written before it:
/// `#[non_exhaustive] ` (users may not build it or match it exhaustively).
fn attributes(item: &Value) -> &'static str {
    let attrs = item["attrs"].as_array().into_iter().flatten();
    let non_exhaustive = attrs.into_iter().any(|attr| {
        attr.as_str().is_some_and(|a| a.contains("non_exhaustive"))
            || attr.get("other").and_then(Value::as_str).is_some_and(|a| a.contains("non_exhaustive"))
    });
    if non_exhaustive {
        "#[non_exhaustive] "
    } else {
        ""
    }
}

fn generics(generics: &Value) -> String {
    let params: Vec<String> = generics["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["kind"]["type"]["is_synthetic"].as_bool() != Some(true))
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("?").to_owned();
            match p["kind"]["type"].get("default").filter(|d| !d.is_null()) {
                Some(default) => format!("{name} = {}", render_type(default)),
                None => name,
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

fn signature(function: &Value) -> String {
    let sig = &function["sig"];
    let inputs: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|input| {
            let name = input[0].as_str().unwrap_or("_");
            let ty = render_type(&input[1]);
            if name == "self" {
                match ty.as_str() {
                    "Self" => "self".to_owned(),
                    "&Self" => "&self".to_owned(),
                    "&mut Self" => "&mut self".to_owned(),
                    _ => format!("self: {ty}"),
                }
            } else {
                format!("{name}: {ty}")
            }
        })
        .collect();
    let output = match &sig["output"] {
        Value::Null => String::new(),
        ty => format!(" -> {}", render_type(ty)),
    };
    format!("{}({}){output}", generics(&function["generics"]), inputs.join(", "))
}

/// The last segment of a path with its generic arguments (`Option<Text>`).
fn render_path(path: &Value) -> String {
    let full = path["path"].as_str().or_else(|| path["name"].as_str()).unwrap_or("?");
    let name = full.rsplit("::").next().unwrap_or(full);
    let args = &path["args"];
    let Some(angle) = args.get("angle_bracketed") else {
        if let Some(paren) = args.get("parenthesized") {
            let inputs: Vec<String> = paren["inputs"].as_array().into_iter().flatten().map(render_type).collect();
            let output = match &paren["output"] {
                Value::Null => String::new(),
                ty => format!(" -> {}", render_type(ty)),
            };
            return format!("{name}({}){output}", inputs.join(", "));
        }
        return name.to_owned();
    };
    let mut parts: Vec<String> = angle["args"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|arg| match arg {
            Value::Object(o) if o.contains_key("type") => render_type(&o["type"]),
            Value::Object(o) if o.contains_key("lifetime") => o["lifetime"].as_str().unwrap_or("'_").to_owned(),
            Value::Object(o) if o.contains_key("const") => "{const}".to_owned(),
            _ => "_".to_owned(),
        })
        .collect();
    for constraint in angle["constraints"].as_array().into_iter().flatten() {
        let ty = constraint["binding"]["equality"].get("type").map(render_type).unwrap_or_default();
        parts.push(format!("{} = {ty}", constraint["name"].as_str().unwrap_or("?")));
    }
    if parts.is_empty() {
        name.to_owned()
    } else {
        format!("{name}<{}>", parts.join(", "))
    }
}

fn bounds(bounds: &Value) -> String {
    let parts: Vec<String> = bounds
        .as_array()
        .into_iter()
        .flatten()
        .map(|bound| match bound.get("trait_bound") {
            Some(tb) => render_path(&tb["trait"]),
            None => bound["outlives"].as_str().unwrap_or("'_").to_owned(),
        })
        .collect();
    parts.join(" + ")
}

fn render_type(ty: &Value) -> String {
    let Some((kind, value)) = ty.as_object().and_then(|o| o.iter().next()) else {
        return "?".to_owned();
    };
    match kind.as_str() {
        "resolved_path" => render_path(value),
        "generic" | "primitive" => value.as_str().unwrap_or("?").to_owned(),
        "borrowed_ref" => {
            let lifetime = value["lifetime"].as_str().map(|l| format!("{l} ")).unwrap_or_default();
            let mutable = if value["is_mutable"].as_bool() == Some(true) { "mut " } else { "" };
            format!("&{lifetime}{mutable}{}", render_type(&value["type"]))
        }
        "slice" => format!("[{}]", render_type(value)),
        "array" => format!("[{}; {}]", render_type(&value["type"]), value["len"].as_str().unwrap_or("?")),
        "tuple" => {
            let parts: Vec<String> = value.as_array().into_iter().flatten().map(render_type).collect();
            format!("({})", parts.join(", "))
        }
        "impl_trait" => format!("impl {}", bounds(value)),
        "dyn_trait" => {
            let traits: Vec<String> =
                value["traits"].as_array().into_iter().flatten().map(|t| render_path(&t["trait"])).collect();
            let lifetime = value["lifetime"].as_str().map(|l| format!(" + {l}")).unwrap_or_default();
            format!("dyn {}{lifetime}", traits.join(" + "))
        }
        "raw_pointer" => {
            let mutable = if value["is_mutable"].as_bool() == Some(true) { "mut" } else { "const" };
            format!("*{mutable} {}", render_type(&value["type"]))
        }
        "qualified_path" => {
            let self_type = render_type(&value["self_type"]);
            let name = value["name"].as_str().unwrap_or("?");
            match value.get("trait").filter(|t| !t.is_null()).map(render_path).filter(|t| !t.is_empty()) {
                Some(tr) => format!("<{self_type} as {tr}>::{name}"),
                None => format!("{self_type}::{name}"),
            }
        }
        "function_pointer" => "fn(..)".to_owned(),
        "infer" => "_".to_owned(),
        other => other.to_owned(),
    }
}
