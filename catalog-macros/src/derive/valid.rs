//! Every check of a derived enum against the data, each error on the span of
//! the attribute, variant or field at fault: the imported id or slug exists
//! (and passes the enum's filters), no record is imported twice, each declared
//! field is one of the record's and its type fits the placeholder, the shape
//! of `other`, and with `exhaustive`, that every record is imported.

use std::collections::HashMap;

use catalog_runtime::typo_distance;
use catalog_runtime::{Entry, Filter, ValueKind};
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Fields, Ident, Type};

use super::ast::{Import, Input, Variant};
use crate::ctxt::Ctxt;
use crate::data::Data;
use crate::docs;

/// What each variant becomes, and the imported records.
pub struct Plan {
    /// One per variant, in order.
    pub roles: Vec<Role>,
    /// The imported records, in variant order (matcher indexes), each named
    /// after its variant.
    pub entries: Vec<Entry>,
}

pub enum Role {
    /// Imports `entries[index]`, with its declared fields.
    Imported { index: usize, fields: Vec<FieldPlan> },
    /// The catch-all, holding the unmatched message in a field of type `ty`.
    Other { ty: Type },
    /// In error (reported): left out of the generated API.
    Broken,
}

/// A declared field: the record's field `field` of kind `kind`.
pub struct FieldPlan {
    pub ident: Ident,
    pub ty: Type,
    pub field: usize,
    pub kind: ValueKind,
}

/// `loaded`: whether the data loaded without errors (when it did not, an
/// import that is not found may be one of the records in error, so it is
/// not reported again).
pub fn check(input: &Input, data: &Data, loaded: bool, cx: &mut Ctxt) -> Plan {
    let filter = &input.options.filter;
    let dir = input.options.path.as_ref().map(|p| p.value()).unwrap_or_default();
    let mut plan = Plan { roles: Vec::new(), entries: Vec::new() };
    let mut imported_by: HashMap<&str, &Ident> = HashMap::new();
    let mut other: Option<&Ident> = None;
    for variant in &input.variants {
        let role = match &variant.import {
            None => Role::Broken,
            Some(Import::Other(span)) => check_other(variant, *span, &mut other, cx),
            Some(import) => match find_record(import, data, filter, &dir, loaded, cx) {
                None => Role::Broken,
                Some(metadata) => {
                    if let Some(first) = imported_by.get(metadata.record().id.as_ref()) {
                        let message = format!("record {} is already imported by variant `{first}`", describe(metadata));
                        cx.error(import.span(), message);
                        Role::Broken
                    } else {
                        imported_by.insert(&metadata.record().id, &variant.ident);
                        match check_fields(variant, metadata, cx) {
                            Some(fields) => {
                                let mut metadata = metadata.clone();
                                metadata.name = variant.ident.unraw().to_string().into();
                                plan.entries.push(metadata);
                                Role::Imported { index: plan.entries.len() - 1, fields }
                            }
                            None => Role::Broken,
                        }
                    }
                }
            },
        };
        plan.roles.push(role);
    }
    if let (Some(span), true) = (input.options.exhaustive, loaded) {
        let missing: Vec<&Entry> = data
            .entries
            .iter()
            .filter(|m| filter.accepts(m.record()) && !imported_by.contains_key(m.record().id.as_ref()))
            .collect();
        if !missing.is_empty() {
            cx.error(span, not_exhaustive(&missing, &dir));
        }
    }
    plan
}

/// `` `slug` (id `...`) ``, or `` `id` `` when the record has no slug.
fn describe(metadata: &Entry) -> String {
    if metadata.record().slug.is_empty() {
        format!("`{}`", metadata.record().id)
    } else {
        format!("`{}` (id `{}`)", metadata.record().slug, metadata.record().id)
    }
}

fn find_record<'d>(
    import: &Import,
    data: &'d Data,
    filter: &Filter,
    dir: &str,
    loaded: bool,
    cx: &mut Ctxt,
) -> Option<&'d Entry> {
    let (what, wanted, key): (&str, String, fn(&Entry) -> &str) = match import {
        Import::Id(lit) => ("id", lit.value(), |m| &m.record().id),
        Import::Slug(lit) => ("slug", lit.value(), |m| &m.record().slug),
        Import::Other(_) => return None,
    };
    let found: Vec<&Entry> = data.entries.iter().filter(|m| key(m) == wanted).collect();
    if found.is_empty() {
        if loaded {
            let mut message = format!("no record with {what} `{wanted}` in `{dir}`");
            if let Some(near) = nearest(&wanted, data.entries.iter().map(key)) {
                message.push_str(&format!("; did you mean `{near}`?"));
            }
            cx.error(import.span(), message);
        }
        return None;
    }
    let kept: Vec<&Entry> = found.iter().copied().filter(|m| filter.accepts(m.record())).collect();
    match kept.as_slice() {
        [] => {
            let message =
                format!("record {} is left out by the enum's filters (`repo`, `tags`, `severity`)", describe(found[0]));
            cx.error(import.span(), message);
            None
        }
        [one] => Some(one),
        several => {
            let ids: Vec<String> = several.iter().map(|m| format!("`{}`", m.record().id)).collect();
            let message =
                format!("slug `{wanted}` names {} records (ids {}): import one by `id`", several.len(), ids.join(", "));
            cx.error(import.span(), message);
            None
        }
    }
}

/// The closest key by edit distance, if it is close enough to be a typo
/// (see [`typo_distance`]); of keys as close, the first in sort order.
fn nearest<'k>(wanted: &str, keys: impl Iterator<Item = &'k str>) -> Option<&'k str> {
    keys.filter_map(|key| Some((typo_distance(wanted, key)?, key))).min().map(|(_, key)| key)
}

fn field_list(metadata: &Entry) -> String {
    let names: Vec<String> = metadata.field_names().map(|n| format!("`{n}`")).collect();
    names.join(", ")
}

/// The declared fields, or `None` after reporting what is wrong with them.
fn check_fields(variant: &Variant, metadata: &Entry, cx: &mut Ctxt) -> Option<Vec<FieldPlan>> {
    let named = match &variant.fields {
        Fields::Unit => return Some(Vec::new()),
        Fields::Named(named) => named,
        Fields::Unnamed(unnamed) => {
            let message = if metadata.template.fields.is_empty() {
                "tuple variants are only for `#[catalog(other)]`: this record has no fields, so make it a unit variant"
                    .to_owned()
            } else {
                format!(
                    "tuple variants are only for `#[catalog(other)]`: name the fields after the record's ({})",
                    field_list(metadata)
                )
            };
            cx.error(unnamed.span(), message);
            return None;
        }
    };
    let mut fields = Vec::new();
    let mut ok = true;
    for declared in &named.named {
        let ident = declared.ident.clone().expect("named fields have names");
        let name = ident.unraw().to_string();
        let Some(index) = metadata.field_names().position(|n| n == name) else {
            let has = if metadata.template.fields.is_empty() {
                "it has no fields".to_owned()
            } else {
                format!("its fields are {}", field_list(metadata))
            };
            cx.error(ident.span(), format!("record {} has no field `{name}`; {has}", describe(metadata)));
            ok = false;
            continue;
        };
        let kind = metadata.template.fields[index].kind;
        if let Some((wanted, found)) = mismatch(kind, &declared.ty) {
            let verbs = docs::verbs(metadata, index).join("`, `");
            let message = format!(
                "field `{name}` holds `{verbs}` ({}) of record `{}`: use {wanted}, not `{found}`",
                docs::kind_text(kind),
                if metadata.record().slug.is_empty() { &metadata.record().id } else { &metadata.record().slug },
            );
            cx.error(declared.ty.span(), message);
            ok = false;
            continue;
        }
        fields.push(FieldPlan { ident, ty: declared.ty.clone(), field: index, kind });
    }
    ok.then_some(fields)
}

const INTEGERS: [&str; 12] = ["i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize"];

/// A clear mismatch between a placeholder's kind and a field type, read from
/// the type's last path segment: what to use instead, and the type found.
/// Every other type (`String`, integers for text, newtypes, aliases) is
/// accepted and converted through `FromStr` and `Display`.
fn mismatch(kind: ValueKind, ty: &Type) -> Option<(&'static str, String)> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?.ident.to_string();
    let wrong = match kind {
        ValueKind::Int => matches!(last.as_str(), "bool" | "f32" | "f64" | "char"),
        ValueKind::Float => matches!(last.as_str(), "bool" | "char"),
        ValueKind::Bool => INTEGERS.contains(&last.as_str()) || matches!(last.as_str(), "f32" | "f64" | "char"),
        // Quoted, text, and any kind a later runtime adds: converted
        // through `FromStr` and `Display`.
        _ => false,
    };
    let wanted = match kind {
        ValueKind::Int => "an integer type such as `i64` or `u64`",
        ValueKind::Float => "a floating-point type such as `f64`",
        _ => "`bool`",
    };
    wrong.then_some((wanted, last))
}

fn check_other<'v>(variant: &'v Variant, span: Span, other: &mut Option<&'v Ident>, cx: &mut Ctxt) -> Role {
    if let Some(first) = other {
        let message = format!("a second `#[catalog(other)]` variant: `{first}` already catches unmatched messages");
        cx.error(span, message);
        return Role::Broken;
    }
    *other = Some(&variant.ident);
    match &variant.fields {
        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => Role::Other { ty: fields.unnamed[0].ty.clone() },
        _ => {
            let message = format!(
                "`#[catalog(other)]` holds the unmatched message in one field: write `{}(String)` \
                 (any type that is `From<String>` and `Display`)",
                variant.ident
            );
            cx.error(variant.ident.span(), message);
            Role::Broken
        }
    }
}

/// The error of `exhaustive`: the records left out, as variants to add.
fn not_exhaustive(missing: &[&Entry], dir: &str) -> String {
    const SHOWN: usize = 10;
    let n = missing.len();
    let mut message = format!(
        "`exhaustive`: the enum does not import {n} record{} of `{dir}` (after its filters); add a variant for {}:",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "each" },
    );
    for metadata in missing.iter().take(SHOWN) {
        let fields: Vec<String> =
            metadata.template.fields.iter().map(|f| format!("{}: {}", f.name, imported_type(f.kind))).collect();
        let fields = if fields.is_empty() { String::new() } else { format!(" {{ {} }}", fields.join(", ")) };
        message.push_str(&format!("\n    #[catalog(id = \"{}\")] {}{fields},", metadata.record().id, metadata.name));
    }
    if n > SHOWN {
        message.push_str(&format!("\n    ... and {} more", n - SHOWN));
    }
    message
}

/// The type suggested for an imported field: the attribute's, except
/// `String` for a quoted string (an imported field is converted through its
/// text, which `String` holds as well as `ByteString`, with no import).
fn imported_type(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Quoted => "String",
        kind => kind.rust_type(),
    }
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn nearest_is_the_closest_typo_first_in_sort_order() {
        let keys = ["unable-to-persist-session", "unable-to-persist-sessions", "stream-not-found"];
        assert_eq!(nearest("unable-to-persist-sesion", keys.into_iter()), Some("unable-to-persist-session"));
        assert_eq!(nearest("stream-not-fund", keys.into_iter()), Some("stream-not-found"));
        // As close: the first in sort order, whatever the keys' order.
        assert_eq!(nearest("ab", ["ac", "aa"].into_iter()), Some("aa"));
        assert_eq!(nearest("nope", keys.into_iter()), None);
        assert_eq!(nearest("x", std::iter::empty()), None);
    }
}
