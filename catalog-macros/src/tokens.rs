//! Metadata as Rust expressions: `const` initializers of the static table.
//! Everything is reached through `__ec`, the generated code's alias of the
//! runtime's `__private` module.

use catalog_runtime::{Count, Field, Metadata, Piece, Record, Spec, Template, Text, ValueKind};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

fn text(s: &str) -> TokenStream {
    let lit = Literal::string(s);
    quote!(__ec::Borrowed(#lit))
}

fn opt_text(s: &Option<Text>) -> TokenStream {
    match s {
        Some(s) => {
            let t = text(s);
            quote!(::core::option::Option::Some(#t))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn opt_u32(n: Option<u32>) -> TokenStream {
    match n {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

fn list(items: &[Text]) -> TokenStream {
    let items = items.iter().map(|s| text(s));
    quote!(__ec::Borrowed(&[#(#items),*]))
}

/// `Some(__ec::Severity::Error)`, `Some(__ec::Severity::Other(..))`, `None`.
fn open_enum(ty: &str, value: Option<(&str, Option<&str>)>) -> TokenStream {
    let ty = format_ident!("{ty}");
    match value {
        None => quote!(::core::option::Option::None),
        Some((_, Some(variant))) => {
            let variant = format_ident!("{variant}");
            quote!(::core::option::Option::Some(__ec::#ty::#variant))
        }
        Some((text_value, None)) => {
            let t = text(text_value);
            quote!(::core::option::Option::Some(__ec::#ty::Other(#t)))
        }
    }
}

macro_rules! known {
    ($value:expr) => {
        $value.as_ref().map(|v| (v.as_str(), v.variant_name()))
    };
}

pub fn record(r: &Record) -> TokenStream {
    let id = text(&r.id);
    let repo = text(&r.repo);
    let slug = text(&r.slug);
    let error_code = opt_text(&r.error_code);
    let error_message = text(&r.error_message);
    let message_pattern = opt_text(&r.message_pattern);
    let error_type = open_enum("ErrorType", known!(r.error_type));
    let error_class = opt_text(&r.error_class);
    let http_status = match r.http_status {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let severity = open_enum("Severity", known!(r.severity));
    let file_path = text(&r.file_path);
    let line_number = opt_u32(r.line_number);
    let source_code = opt_text(&r.source_code);
    let source_code_start = opt_u32(r.source_code_start);
    let source_code_end = opt_u32(r.source_code_end);
    let github_url = opt_text(&r.github_url);
    let documentation = text(&r.documentation);
    let trigger_scenarios = opt_text(&r.trigger_scenarios);
    let common_situations = opt_text(&r.common_situations);
    let solutions = list(&r.solutions);
    let example_fix = opt_text(&r.example_fix);
    let handling_strategy = open_enum("HandlingStrategy", known!(r.handling_strategy));
    let validation_code = opt_text(&r.validation_code);
    let type_guard = opt_text(&r.type_guard);
    let try_catch_pattern = opt_text(&r.try_catch_pattern);
    let prevention_tips = list(&r.prevention_tips);
    let tags = list(&r.tags);
    let background_tag = opt_text(&r.background_tag);
    let analyzed_sha = opt_text(&r.analyzed_sha);
    let analyzed_at = opt_text(&r.analyzed_at);
    let content_changed_at = opt_text(&r.content_changed_at);
    let schema_version = opt_u32(r.schema_version);
    let dataset_version = opt_text(&r.dataset_version);
    quote! {
        __ec::Record {
            id: #id, repo: #repo, slug: #slug, error_code: #error_code, error_message: #error_message,
            message_pattern: #message_pattern, error_type: #error_type, error_class: #error_class,
            http_status: #http_status, severity: #severity, file_path: #file_path, line_number: #line_number,
            source_code: #source_code, source_code_start: #source_code_start, source_code_end: #source_code_end,
            github_url: #github_url, documentation: #documentation, trigger_scenarios: #trigger_scenarios,
            common_situations: #common_situations, solutions: #solutions, example_fix: #example_fix,
            handling_strategy: #handling_strategy, validation_code: #validation_code, type_guard: #type_guard,
            try_catch_pattern: #try_catch_pattern, prevention_tips: #prevention_tips, tags: #tags,
            background_tag: #background_tag, analyzed_sha: #analyzed_sha, analyzed_at: #analyzed_at,
            content_changed_at: #content_changed_at, schema_version: #schema_version,
            dataset_version: #dataset_version,
        }
    }
}

fn count(c: &Count) -> TokenStream {
    match c {
        Count::None => quote!(__ec::Count::None),
        Count::Fixed(n) => quote!(__ec::Count::Fixed(#n)),
        Count::Star => quote!(__ec::Count::Star),
    }
}

fn spec(s: &Spec) -> TokenStream {
    let verb = s.verb;
    let flags = s.flags.0;
    let width = count(&s.width);
    let precision = count(&s.precision);
    quote!(__ec::Spec { verb: #verb, flags: __ec::Flags(#flags), width: #width, precision: #precision })
}

pub fn kind(kind: ValueKind) -> TokenStream {
    let variant = format_ident!("{}", format!("{kind:?}"));
    quote!(__ec::ValueKind::#variant)
}

fn field(f: &Field) -> TokenStream {
    let name = text(&f.name);
    let kind = kind(f.kind);
    let arg = f.arg;
    quote!(__ec::Field { name: #name, kind: #kind, arg: #arg })
}

fn piece(p: &Piece) -> TokenStream {
    match p {
        Piece::Literal(s) => {
            let t = text(s);
            quote!(__ec::Piece::Literal(#t))
        }
        Piece::Value { field, spec: s } => {
            let s = spec(s);
            quote!(__ec::Piece::Value { field: #field, spec: #s })
        }
    }
}

pub fn template(t: &Template) -> TokenStream {
    let dialect = format_ident!("{}", format!("{:?}", t.dialect));
    let pieces = t.pieces.iter().map(piece);
    let fields = t.fields.iter().map(field);
    let regex = text(&t.regex);
    let literal_len = t.literal_len;
    quote! {
        __ec::Template {
            dialect: __ec::Dialect::#dialect,
            pieces: __ec::Borrowed(&[#(#pieces),*]),
            fields: __ec::Borrowed(&[#(#fields),*]),
            regex: #regex,
            literal_len: #literal_len,
        }
    }
}

pub fn metadata(m: &Metadata) -> TokenStream {
    let name = text(&m.name);
    let record = record(&m.record);
    let template = template(&m.template);
    quote!(__ec::Metadata { name: #name, record: #record, template: #template })
}
