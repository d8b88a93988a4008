//! From loaded records to catalog entries: choose each message's dialect,
//! compile it, name its fields and its variant (keeping the names its names
//! file pins), and check everything. The `#[catalog]` macro and the run-time
//! loader both go through [`build_with_names`], so a dataset means the same
//! thing compiled in or loaded at run time.
//!
//! What a tool that checks or names a dataset needs (`errcat check`, `errcat
//! names`); to classify messages, [`Catalog::load`](crate::Catalog::load)
//! does all of this.
//!
//! ```
//! use catalog_runtime::build::{build_with_names, check_names, check_patterns};
//! use catalog_runtime::{load_dir, Filter};
//!
//! let loaded = load_dir("../data/nats-io/nats-server".as_ref());
//! let mut built = build_with_names(loaded.records, &loaded.names, &Filter::default());
//! check_patterns(&mut built);
//! check_names(&mut built);
//! assert_eq!(built.entries.len(), 3);
//! // Two seed records document a `messagePattern` their message does not match:
//! // warnings, which leave the records in.
//! assert!(built.diagnostics.iter().all(|d| !d.is_error()));
//! assert_eq!(built.entries.iter().filter(|e| !e.warnings.is_empty()).count(), 2);
//! ```

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::dataset::limits;
use crate::dataset::{Names, Origin, Pin, SourcedRecord};
use crate::diagnostic::Diagnostic;
use crate::entry::Entry;
use crate::format::{self, Dialect, Template};
use crate::model::{Record, Text};
use arg_names::{argument_names_of, callee_of, finish_names, tokenize, Lang, Token};
use call_shape::{call_arguments, dialect_from_call};
use naming::{assign_names, NameParts};

mod arg_names;
mod call_shape;
// Public at the crate root: `Catalog::load_filtered` takes it too.
pub(crate) mod filter;
mod naming;
mod pins;
mod regex_check;

pub(crate) use filter::Filter;

/// One compiled entry, where it was read, and its warnings.
#[derive(Clone, Debug)]
pub struct BuiltEntry {
    /// The entry.
    pub entry: Entry,
    /// Where its record was read.
    pub origin: Origin,
    /// Problems that did not stop the record from being used (see [`check_patterns`]).
    pub warnings: Vec<Diagnostic>,
}

/// The entries of a catalog and every problem found on the way.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// The usable entries, in record order.
    pub entries: Vec<BuiltEntry>,
    /// Errors (records left out, a stale pin) and warnings (records kept).
    pub diagnostics: Vec<Diagnostic>,
    /// The names file's pins whose record is no longer in the data. Each is
    /// also an error in `diagnostics`: the variant is gone. `errcat names`
    /// and `errcat diff`, which are how one deals with them, go on anyway.
    pub stale_pins: Vec<Pin>,
}

impl Built {
    /// Whether `diagnostic` is the error of one of the [`stale_pins`](Built::stale_pins)
    /// of `names`, the names file this was built with (which a tool that
    /// updates the names file reports in its own words, or goes on despite).
    pub fn is_stale_pin_error(&self, names: &Names, diagnostic: &Diagnostic) -> bool {
        names.path.as_ref() == Some(&diagnostic.path)
            && diagnostic.is_error()
            && self.stale_pins.iter().any(|pin| pin.line == diagnostic.line)
    }
}

/// Compiles, filters and names `records`, without a names file: every
/// variant is named by the rule. [`build_with_names`] is what the macro and
/// the run-time loader use.
///
/// ```
/// use catalog_runtime::build::build;
/// use catalog_runtime::{load_dir, Filter};
///
/// let loaded = load_dir("../data/nats-io/nats-server".as_ref());
/// let filter = Filter::new().tags(["qos2"]);
/// let built = build(loaded.records, &filter);
/// let names: Vec<&str> = built.entries.iter().map(|e| &*e.entry.name).collect();
/// assert_eq!(names, ["CreateQos2IncomingMessagesStreamForAccount"]);
/// ```
pub fn build(records: Vec<SourcedRecord>, filter: &Filter) -> Built {
    build_with_names(records, &Names::default(), filter)
}

/// Compiles, filters and names `records`, keeping the names `names` pins
/// (the dataset's names file, [`Loaded::names`](crate::Loaded::names)).
///
/// A pinned record keeps its variant name, and its field names while it has
/// as many fields (a field whose type changed keeps its name); every other record is
/// named by the rule, avoiding every pinned name. A pin whose record is not
/// in `records` is an error (see [`Built::stale_pins`]).
///
/// ```
/// use catalog_runtime::build::build_with_names;
/// use catalog_runtime::{load_dir, Filter, Names, Pin};
///
/// let loaded = load_dir("../data/nats-io/nats-server".as_ref());
/// let pin = Pin { id: "503f49fe39cf5793".into(), variant: "PersistFailed".into(), fields: vec![], line: 1 };
/// let names = Names { path: None, pins: vec![pin] };
/// let built = build_with_names(loaded.records, &names, &Filter::default());
/// assert_eq!(built.entries[1].entry.name, "PersistFailed");
/// ```
pub fn build_with_names(records: Vec<SourcedRecord>, names: &Names, filter: &Filter) -> Built {
    let mut built = Built::default();
    // Thousands of records, each looked up: an index rather than a scan.
    let pinned: HashMap<&str, &Pin> = names.pins.iter().map(|pin| (pin.id.as_str(), pin)).collect();
    // Where each id was first defined: path, line and column (an `Origin`
    // holds every field's position, too much to copy for every record).
    let mut first_seen: HashMap<Text, (std::path::PathBuf, usize, usize)> = HashMap::new();
    let mut compiled = Vec::new();
    let mut value_regexes = regex_check::ValueRegexes::default();
    for SourcedRecord { record, origin } in records {
        if let Some((path, line, column)) = first_seen.get(&record.id) {
            let message = format!("duplicate id `{}` (first defined at {}:{line}:{column})", record.id, path.display());
            built.diagnostics.push(origin.error("id", message));
            continue;
        }
        first_seen.insert(record.id.clone(), (origin.path.clone(), origin.line, origin.column));
        match compile_record(&record, &origin, filter.dialect, &mut value_regexes) {
            Ok(mut template) => {
                if let Some(pin) = pinned.get(record.id.as_ref()) {
                    pins::pin_fields(&mut template, pin);
                }
                if filter.accepts(&record) {
                    compiled.push((record, template, origin));
                }
            }
            Err(mut problems) => built.diagnostics.append(&mut problems),
        }
    }
    for (pin, error) in pins::stale_pins(names, |id| first_seen.contains_key(id)) {
        built.diagnostics.push(error);
        built.stale_pins.push(pin.clone());
    }
    // Every pinned name is reserved, a stale pin's too: a new record must not
    // take over a removed record's variant, which existing code would then
    // match with another meaning.
    let reserved: HashSet<&str> = names.pins.iter().map(|pin| pin.variant.as_str()).collect();
    let unpinned: Vec<NameParts> = compiled
        .iter()
        .filter(|(record, _, _)| !pinned.contains_key(record.id.as_ref()))
        .map(|(record, template, _)| NameParts::new(template, &record.id).with_source(record))
        .collect();
    let mut assigned = assign_names(&unpinned, &reserved).into_iter();
    let variant_names: Vec<String> = compiled
        .iter()
        .map(|(record, _, _)| match pinned.get(record.id.as_ref()) {
            Some(pin) => pin.variant.clone(),
            None => assigned.next().expect("a name per unpinned record"),
        })
        .collect();
    for ((record, template, origin), name) in compiled.into_iter().zip(variant_names) {
        let entry = Entry::new(Cow::Owned(name), record, template);
        built.entries.push(BuiltEntry { entry, origin, warnings: Vec::new() });
    }
    built
}

/// How a record's message is read, from its file's extension and the call
/// that raises it.
#[cfg(test)]
pub(crate) fn dialect_of(record: &Record) -> Dialect {
    dialect_with(record, &mut GoTokens::default())
}

/// The tokens of a Go record's `sourceCode`, made once for both the
/// dialect's call and the field names (the macro runs this for thousands of
/// records, unoptimised in a user's debug build).
#[derive(Default)]
struct GoTokens(Option<Vec<Token>>);

impl GoTokens {
    fn of(&mut self, source: &str) -> &[Token] {
        self.0.get_or_insert_with(|| tokenize(source, Lang::Go))
    }
}

/// [`dialect_of`], with the Go tokens kept for [`name_fields`].
fn dialect_with(record: &Record, go_tokens: &mut GoTokens) -> Dialect {
    if record.error_message.is_empty() {
        return Dialect::Pattern;
    }
    let extension = record.file_path.rsplit_once('.').map_or("", |(_, ext)| ext);
    match extension.to_ascii_lowercase().as_str() {
        "go" => {
            let call =
                record.source_code.as_deref().and_then(|source| callee_of(go_tokens.of(source), &record.error_message));
            match call.as_deref() {
                // Calls that print their argument as is, without formatting.
                Some("New" | "Print" | "Println" | "Panic" | "Panicln" | "Fatal" | "Fatalln" | "panic") => {
                    Dialect::Plain
                }
                _ => Dialect::Go,
            }
        }
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" => Dialect::Printf,
        "py" | "pyi" | "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "rs" | "java" | "cs" => {
            let lang = Lang::of(&record.file_path);
            let call =
                record.source_code.as_deref().and_then(|source| dialect_from_call(source, &record.error_message, lang));
            match call {
                Some(Dialect::Plain) => formatted_by_own_pattern(record, lang).unwrap_or(Dialect::Plain),
                Some(dialect) => dialect,
                None => dialect_without_call(record, lang),
            }
        }
        _ if record.message_pattern.as_deref().is_some_and(|p| !p.is_empty()) => Dialect::Pattern,
        _ => Dialect::Plain,
    }
}

/// Whether `dialect_of` chooses `dialect` from the call's shape, which can
/// be wrong (a `.java` logging call given a prebuilt `%` string, say).
fn is_guessed(dialect: Dialect) -> bool {
    !matches!(dialect, Dialect::Go | Dialect::Plain | Dialect::Printf | Dialect::Python | Dialect::Pattern)
}

/// The dialect of a record whose message's literal is not found in its
/// `sourceCode` (or that has none): the language's most common formatted
/// call, told by the message itself where the languages have several.
fn dialect_without_call(record: &Record, lang: Lang) -> Dialect {
    let message = &record.error_message;
    match lang {
        Lang::Python => Dialect::Python,
        Lang::Js if message.contains("${") => Dialect::JsTemplate,
        Lang::Js => Dialect::JsFormat,
        Lang::Rust => Dialect::Rust,
        Lang::Java if message.contains("{}") => Dialect::Slf4j,
        Lang::Java => Dialect::JavaFormat,
        Lang::CSharp => Dialect::CSharp,
        Lang::Go => Dialect::Go,
    }
}

/// The language's formatted dialect for a message its call seems to print
/// as is, where the record's own `messagePattern` shows that its
/// placeholders are filled: the pattern matches the message rendered with
/// sample values. A helper that formats for its caller
/// (`log_response("Method Not Allowed (%s): %s", request.method, ...)`)
/// is not a call the call's shape knows; a literal `50%s done` keeps a
/// pattern that only matches itself.
fn formatted_by_own_pattern(record: &Record, lang: Lang) -> Option<Dialect> {
    let pattern = record.message_pattern.as_deref().filter(|p| !p.is_empty())?;
    let dialect = dialect_without_call(record, lang);
    let template = format::compile(&record.error_message, dialect).ok()?;
    if template.fields.is_empty() {
        return None;
    }
    let rendered = template.render(&template.sample_values()).ok()?;
    let regex = regex::Regex::new(&format!("^(?s:{pattern})$")).ok()?;
    regex.is_match(&rendered).then_some(dialect)
}

/// Compiles one record's message and names its fields. Regexes are only
/// checked here, not compiled, and most without a parse (`regex_check`): the
/// macro runs this for thousands of records, often unoptimised. The slower
/// check of the record's own pattern against its message is
/// [`check_patterns`].
fn compile_record(
    record: &Record,
    origin: &Origin,
    forced: Option<Dialect>,
    value_regexes: &mut regex_check::ValueRegexes,
) -> Result<Template, Vec<Diagnostic>> {
    let mut go_tokens = GoTokens::default();
    let dialect = forced.unwrap_or_else(|| dialect_with(record, &mut go_tokens));
    let own_pattern = record.message_pattern.as_deref().filter(|p| !p.is_empty());
    limits::check_length(&record.error_message).map_err(|e| vec![origin.error("errorMessage", e)])?;
    if let Some(pattern) = own_pattern {
        let refused = |message: String| vec![origin.error("messagePattern", message)];
        limits::check_length(pattern).map_err(refused)?;
        regex_check::check_own_pattern(pattern).map_err(refused)?;
    }
    let mut template = match dialect {
        Dialect::Pattern => format::compile_pattern(own_pattern.unwrap_or_default())
            .map_err(|err| vec![origin.error("messagePattern", format!("unsupported pattern: {err}"))])?,
        _ => match format::compile(&record.error_message, dialect) {
            Ok(template) => template,
            // A chosen (not forced) dialect of a language with several
            // format syntaxes may be wrong for this message: its own
            // pattern still describes it.
            Err(_) if forced.is_none() && is_guessed(dialect) && own_pattern.is_some() => {
                format::compile_pattern(own_pattern.unwrap_or_default())
                    .map_err(|err| vec![origin.error("messagePattern", format!("unsupported pattern: {err}"))])?
            }
            Err(err) => {
                return Err(vec![origin.error("errorMessage", format!("unparseable {dialect:?} format: {err}"))]);
            }
        },
    };
    let placeholders = template.pieces.iter().filter(|piece| matches!(piece, format::Piece::Value { .. })).count();
    if placeholders > limits::MAX_PLACEHOLDERS {
        let message = format!("the message has {placeholders} placeholders; the limit is {}", limits::MAX_PLACEHOLDERS);
        return Err(vec![origin.error("errorMessage", message)]);
    }
    if let Err(problem) = value_regexes.check(&template) {
        let message = format!("the compiled pattern is not a valid regex: {problem}");
        return Err(vec![origin.error("errorMessage", message)]);
    }
    name_fields(record, &mut template, &mut go_tokens);
    Ok(template)
}

/// Adds a warning to every entry whose own `messagePattern` does not match the
/// message it documents (the message rendered with [`Template::sample_values`]
/// must match it); the compiled pattern
/// is used either way.
pub fn check_patterns(built: &mut Built) {
    for entry in &mut built.entries {
        let Some(pattern) = entry.entry.record().message_pattern.as_deref().filter(|p| !p.is_empty()) else {
            continue;
        };
        if entry.entry.template.dialect == Dialect::Pattern {
            continue;
        }
        if let Some(problem) = pattern_disagreement(pattern, &entry.entry.template) {
            let warning = entry.origin.error("messagePattern", problem).warning();
            entry.warnings.push(warning.clone());
            built.diagnostics.push(warning);
        }
    }
}

/// Adds a warning to every entry whose message's leading words give the same
/// variant name as another's: each is named with more words (of its
/// message or its source) or its id instead, which the dataset's users may
/// not expect.
pub fn check_names(built: &mut Built) {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, entry) in built.entries.iter().enumerate() {
        let parts = NameParts::new(&entry.entry.template, &entry.entry.record().id).with_source(entry.entry.record());
        groups.entry(parts.leading).or_default().push(index);
    }
    let mut shared: Vec<(&String, &Vec<usize>)> = groups.iter().filter(|(_, members)| members.len() > 1).collect();
    shared.sort();
    for (name, members) in shared {
        for &index in members {
            let entry = &mut built.entries[index];
            let message = format!(
                "variant name `{name}` is shared by {} records; this one is named `{}`",
                members.len(),
                entry.entry.name
            );
            let warning = entry.origin.error("errorMessage", message).warning();
            entry.warnings.push(warning.clone());
            built.diagnostics.push(warning);
        }
    }
}

/// The last line of a regex error (`error: unclosed group`), without the
/// pattern and caret drawing above it.
fn regex_problem(text: &str) -> String {
    let last = text.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or(text);
    last.trim().trim_start_matches("error: ").to_owned()
}

/// Replaces `argN` names with the names of the call's arguments.
fn name_fields(record: &Record, template: &mut Template, go_tokens: &mut GoTokens) {
    let lang = Lang::of(&record.file_path);
    let arguments = record
        .source_code
        .as_deref()
        .and_then(|source| match lang {
            Lang::Go => argument_names_of(go_tokens.of(source), &record.error_message),
            _ => call_arguments(source, &record.error_message, lang),
        })
        .unwrap_or_default();
    let names: Vec<Option<String>> = template
        .fields
        .iter()
        .map(|field| {
            if field.name != format!("arg{}", field.arg) {
                return Some(field.name.to_string()); // a Python mapping key or a regex group name
            }
            arguments.get(usize::from(field.arg)).cloned().flatten()
        })
        .collect();
    let mut fields = template.fields.to_vec();
    for (field, name) in fields.iter_mut().zip(finish_names(names)) {
        field.name = Cow::Owned(name);
    }
    template.fields = Cow::Owned(fields);
}

/// Why the record's own pattern disagrees with its message, if it does: the
/// message rendered with sample values must match the pattern.
fn pattern_disagreement(pattern: &str, template: &Template) -> Option<String> {
    let regex = match regex::Regex::new(&format!("^(?s:{pattern})$")) {
        Ok(regex) => regex,
        Err(err) => return Some(format!("messagePattern does not compile: {}", regex_problem(&err.to_string()))),
    };
    let rendered = template.render(&template.sample_values()).ok()?;
    (!regex.is_match(&rendered)).then(|| {
        format!(
            "messagePattern does not match the message it documents (it fails on {rendered:?}); \
             the pattern compiled from errorMessage is used"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Value;

    fn go_record(id: &str, message: &str, source: &str) -> SourcedRecord {
        let mut record = Record::new(id.to_owned(), message.to_owned());
        record.file_path = "server/gateway.go".into();
        record.source_code = Some(source.to_owned().into());
        let origin = Origin { path: format!("{id}.json").into(), line: 1, column: 1, fields: Vec::new() };
        SourcedRecord { record, origin }
    }

    fn names_of(built: &Built) -> Vec<(String, Vec<String>)> {
        built
            .entries
            .iter()
            .map(|e| (e.entry.name.to_string(), e.entry.field_names().map(str::to_owned).collect()))
            .collect()
    }

    /// The issue's example: a record named `Gateway` was renamed when a
    /// second record's message started with the same word.
    #[test]
    fn a_pinned_record_keeps_its_names_when_a_record_with_the_same_words_comes() {
        let port = || {
            let source = r#"return fmt.Errorf("gateway %q has no port specified", o.Gateway.Name)"#;
            go_record("0c531f01b5a0fef2", "gateway %q has no port specified", source)
        };
        let url =
            go_record("3ac9e3bf93c9dce4", "gateway %q has no URL", r#"fmt.Errorf("gateway %q has no URL", gw.Name)"#);
        let before = build(vec![port()], &Filter::default());
        assert_eq!(names_of(&before), [("Gateway".to_owned(), vec!["o_gateway_name".to_owned()])]);
        let unpinned = build(vec![port(), url.clone()], &Filter::default());
        assert_eq!(unpinned.entries[0].entry.name, "GatewayHasNoPortSpecified", "the rule renames it");
        let names = Names::of_entries(before.entries.iter().map(|e| &e.entry));
        let pinned = build_with_names(vec![port(), url], &names, &Filter::default());
        assert!(pinned.diagnostics.is_empty(), "{:?}", pinned.diagnostics);
        assert_eq!(
            names_of(&pinned),
            [
                ("Gateway".to_owned(), vec!["o_gateway_name".to_owned()]),
                ("GatewayHasNoUrl".to_owned(), vec!["gw_name".to_owned()])
            ]
        );
        // The pinned record gone: an error, and its name stays reserved.
        let gone = go_record("3ac9e3bf93c9dce4", "gateway %q", r#"fmt.Errorf("gateway %q", gw.Name)"#);
        let names = Names { path: Some("d/error-catalog.names".into()), ..names };
        let stale = build_with_names(vec![gone], &names, &Filter::default());
        assert_eq!(stale.stale_pins.len(), 1);
        assert!(stale.is_stale_pin_error(&names, &stale.diagnostics[0]), "{:?}", stale.diagnostics);
        // Told from the reserved name by its file's name (`server/gateway.go`).
        assert_eq!(names_of(&stale)[0].0, "GatewayGateway");
    }

    /// Django's `log_response("Method Not Allowed (%s): %s", request.method,
    /// request.path, ...)`: a helper the call's shape does not know, whose
    /// record's pattern shows the placeholders filled.
    #[test]
    fn a_message_its_own_pattern_shows_formatted_is_read_in_its_language_s_format() {
        let record = |message: &str, pattern: &str| {
            let mut record = Record::new("0".repeat(16), message.to_owned());
            record.file_path = "django/views/decorators/http.py".into();
            record.source_code = Some(format!("log_response(\n    \"{message}\",\n    request.method,\n)").into());
            record.message_pattern = Some(pattern.to_owned().into());
            record
        };
        let logged = record("Method Not Allowed (%s): %s", r"Method Not Allowed \((.*?)\): (.*?)");
        assert_eq!(dialect_of(&logged), Dialect::Python);
        // A pattern that only matches the literal text keeps it literal.
        assert_eq!(dialect_of(&record("50%s done", "50%s done")), Dialect::Plain);
        let mut without_pattern = record("Method Not Allowed (%s): %s", "");
        without_pattern.message_pattern = None;
        assert_eq!(dialect_of(&without_pattern), Dialect::Plain);
    }

    #[test]
    fn an_argument_with_verbs_of_different_kinds_gets_a_sample_every_verb_writes() {
        let template = format::compile("wrong %v and %[1]d (%s)", Dialect::Go).unwrap();
        assert_eq!(template.fields[0].kind, format::ValueKind::Text);
        assert_eq!(template.sample_values(), [Value::Str("7".into()), Value::Str("sample".into())]);
        // Found by the format_compiler fuzz target: the sample word rendered
        // by `%[1]d` made a correct pattern look wrong.
        assert_eq!(pattern_disagreement(r"wrong (.+) and (\d+) \((.*)\)", &template), None);
        assert!(pattern_disagreement(r"wrong (\d+) and (\d+) \((\d+)\)", &template).is_some());
    }
}
