//! Variant names: the message's leading literal words in UpperCamelCase
//! (`unable to persist session %q ...` → `UnableToPersistSession`).
//!
//! The name material is, in order of preference: the words of the message,
//! then the words of its source (the function that raises it, when the
//! record's `sourceCode` shows its declaration or its `documentation` names
//! it; the file's name; the function or class the message is passed to,
//! `Warnf`, `bail`, `IllegalStateException`; the condition the documentation
//! says it is raised on), and only last the record id. Words of URLs and domains in the message
//! (`https://docs.nats.io/jetstream`, `www.example.org`, `docs.nats.io`) are
//! not name material, and a name is never only prepositions, articles and
//! conjunctions (`For`, `ToThe`): a message with no other words is named by
//! its source (see [`assign_names`] for the whole rule). A message that opens
//! with a value and goes on with a preposition (`%w for stream '%s > %s'`)
//! is named after that value's argument, else its function, else its file
//! (`CatchupAbortedNoLeaderForStream`, not `ForStream`).
//!
//! Names are unique and stable: a record's name depends only on the records
//! whose names would collide with it, never on unrelated records or on order.
//! A record that gets a longer name when another record's message starts
//! with the same words is what a dataset's names file prevents (see
//! `crate::dataset::Names`): pinned names are reserved, and only the other
//! records are named here.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::arg_names::Lang;
use super::call_shape::callee_of;
use crate::format::{Piece, Template};
use crate::model::Record;

/// Most words taken from the leading literal text.
const LEADING_WORDS: usize = 8;
/// Most words taken from all literal text, to tell colliding records apart.
const ALL_WORDS: usize = 12;

/// Words that are no name on their own: articles, prepositions and
/// conjunctions (lower case).
const FUNCTION_WORDS: &[&str] = &[
    "a", "about", "after", "an", "and", "as", "at", "before", "but", "by", "during", "for", "from", "if", "in", "into",
    "nor", "of", "on", "onto", "or", "over", "per", "since", "so", "than", "the", "then", "to", "under", "until",
    "upon", "via", "while", "with", "within", "without", "yet",
];

/// The function words that open a phrase qualifying something else (lower case).
const PREPOSITIONS: &[&str] = &[
    "about", "after", "at", "before", "by", "during", "for", "from", "in", "into", "of", "on", "onto", "over", "per",
    "since", "to", "under", "until", "upon", "via", "with", "within", "without",
];

/// Top-level domains that make a dotted word a host name (`docs.nats.io`).
const DOMAINS: &[&str] = &["com", "org", "net", "io", "dev", "edu", "gov", "info", "app"];

/// The naming input of one record.
#[derive(Clone, Debug, Default)]
pub struct NameParts<'r> {
    /// Name from the leading literal words.
    pub leading: String,
    /// Name from all literal words (the first twelve).
    pub extended: String,
    /// The message's words after those of `extended`, each in UpperCamelCase.
    pub later: Vec<String>,
    /// The record id, for a suffix of last resort.
    pub id: String,
    /// The message has no name material of its own: the source names it.
    wordless: bool,
    /// The message opens with a value and then a function word (`%v for
    /// account %q`): the value's argument, else the source, comes first.
    headless: bool,
    /// The record, for its source's words.
    record: Option<&'r Record>,
    /// Its source's words, read when a collision needs them (most records
    /// never do, and reading them tokenizes the source).
    source: OnceCell<Source>,
}

/// The words of a record's source that may tell it from others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The function that raises the message, when its source shows its
    /// declaration (`StoreSession`).
    pub function: Option<String>,
    /// The file's name (`JetstreamCluster` for `server/jetstream_cluster.go`;
    /// the directory's for `mod.rs`, `__init__.py`, `index.js`).
    pub file: Option<String>,
    /// The function, macro or class the message is passed to (`Warnf`).
    pub callee: Option<String>,
    /// The record's error code, without the words of its message
    /// (`Http2` for `ERR_HTTP2_STATUS_INVALID`, message `Invalid status
    /// code: %s`), or whole when they are all the message's.
    pub code: Option<String>,
    /// The type whose method raises the message, when the documentation
    /// names it (`ReplayPolicy` for `(*ReplayPolicy).UnmarshalJSON`).
    pub owner: Option<String>,
    /// The last word of the condition the documentation says the message is
    /// raised on (`RemoteServerUpdate` for ``when `_, err :=
    /// s.sysSubscribe(subject, s.noInlineCallback(s.remoteServerUpdate))`
    /// fails``), the words of the ones it shares with the others left out
    /// when telling apart (see [`condition_keys`]).
    pub condition: Vec<String>,
}

impl Source {
    /// The source words of `record`.
    pub fn of(record: &Record) -> Self {
        let lang = Lang::of(&record.file_path);
        let documented = Documented::of(record);
        let function = enclosing_function(record, lang)
            .or_else(|| documented.function.map(str::to_owned))
            .map(|name| identifier_camel(&name))
            .filter(|n| !n.is_empty());
        let callee = record
            .source_code
            .as_deref()
            .and_then(|source| callee_of(source, &record.error_message, lang))
            .map(|name| identifier_camel(&name))
            .filter(|name| !name.is_empty());
        let condition = documented.condition.map(condition_words).unwrap_or_default();
        let owner = documented.owner.map(identifier_camel).filter(|name| !name.is_empty());
        let code = record.error_code.as_deref().and_then(|code| code_words(code, &record.error_message));
        Source { function, file: file_name(&record.file_path), callee, owner, condition, code }
    }
}

/// What a record's documentation says of where the message is raised, in the
/// phrasing ``... by FUNCTION in FILE when `CONDITION` ...`` (with the
/// record's own file): `Returned by (*Account).EnableJetStream in
/// server/jetstream.go when `s == nil`.`
#[derive(Debug, Default, PartialEq, Eq)]
struct Documented<'r> {
    /// The function's own name, its type left out (`EnableJetStream`).
    function: Option<&'r str>,
    /// The type the function is a method of (`Account`).
    owner: Option<&'r str>,
    /// The code quoted where it says when (`` `s == nil` ``), with its
    /// backticks and the words between them.
    condition: Option<&'r str>,
}

impl<'r> Documented<'r> {
    fn of(record: &'r Record) -> Self {
        let (doc, file): (&str, &str) = (&record.documentation, &record.file_path);
        if file.is_empty() {
            return Documented::default();
        }
        let Some(at) = doc.match_indices(" in ").map(|(at, _)| at).find(|&at| doc[at + 4..].starts_with(file)) else {
            return Documented::default();
        };
        let before = &doc[..at];
        // `the LinearBinScheme constructor` is the class's.
        let path = before
            .rfind(" by ")
            .map(|by| &before[by + 4..])
            .map(|path| path.strip_prefix("the ").and_then(|path| path.strip_suffix(" constructor")).unwrap_or(path))
            .filter(|path| path.chars().all(|c| c.is_alphanumeric() || "_.:()*<>[]".contains(c)));
        // `(*Server).start`, `Consumer.close`, `Config::load`: the last
        // segment is the function, the one before it its type.
        let mut segments = path
            .into_iter()
            .flat_map(|path| path.rsplit(['.', ':']))
            .map(|segment| segment.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_')));
        let is_name = |name: &&str| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        let function = segments.next().filter(is_name);
        let owner = segments.find(|segment| !segment.is_empty()).filter(is_name).filter(|_| function.is_some());
        // The code quoted in the rest of the sentence: ``when `CODE` ``,
        // ``in the `default` branch of `switch CODE` ``.
        let after = &doc[at + 4 + file.len()..];
        let after = &after[..after.find(". ").unwrap_or(after.len())];
        let condition = after.find('`').map(|first| &after[first..]).filter(|code| code.len() > 2);
        Documented { function, owner, condition }
    }
}

/// The words of an error code that its message does not have, in
/// UpperCamelCase (all of them when the message has every one); `Err`,
/// `Error` and `E` are no words of a code.
fn code_words(code: &str, message: &str) -> Option<String> {
    let message: HashSet<String> = words(message).map(str::to_ascii_lowercase).collect();
    let code: Vec<&str> =
        words(code).filter(|w| !["e", "err", "error"].contains(&w.to_ascii_lowercase().as_str())).collect();
    let new: Vec<&str> = code.iter().copied().filter(|w| !message.contains(&w.to_ascii_lowercase())).collect();
    let words = if new.is_empty() { code } else { new };
    (!words.is_empty()).then(|| camel(&words))
}

/// The identifiers of the code quoted in `text` (between backticks) worth a
/// name, in UpperCamelCase: not the words every condition has (`err`, `nil`,
/// `self`, `switch`) or one letter.
fn condition_words(text: &str) -> Vec<String> {
    const NOT_NAMES: &[&str] = &[
        "err",
        "nil",
        "null",
        "none",
        "true",
        "false",
        "self",
        "this",
        "ok",
        "not",
        "and",
        "or",
        "is",
        "in",
        "new",
        "return",
        "instanceof",
        "typeof",
        "undefined",
        "switch",
        "case",
        "default",
        "match",
    ];
    let mut seen = HashSet::new();
    let quoted = text.split('`').skip(1).step_by(2);
    quoted
        .flat_map(|code| code.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .filter(|word| word.chars().filter(char::is_ascii_alphanumeric).count() > 1)
        .filter(|word| !word.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|word| !NOT_NAMES.iter().any(|n| n.eq_ignore_ascii_case(word)))
        .map(identifier_camel)
        .filter(|word| !word.is_empty() && seen.insert(word.clone()))
        .collect()
}

impl<'r> NameParts<'r> {
    /// Naming input from a record's compiled template and id alone (no
    /// source words; see [`NameParts::with_source`]).
    pub fn new(template: &Template, id: &str) -> Self {
        let runs = message_runs(template);
        let all: Vec<&str> = runs.iter().flatten().copied().collect();
        let content = all.iter().position(|word| !is_function_word(word));
        let Some(content) = content else {
            return NameParts {
                leading: camel(&[]),
                extended: camel(&[]),
                id: id.to_owned(),
                wordless: true,
                ..NameParts::default()
            };
        };
        // The first run of words (up to a placeholder), with the next runs
        // while it is only function words (`for %s: cannot connect to %s` is
        // `ForCannotConnectTo`, not `For`).
        let mut leading = 0;
        for run in &runs {
            leading += run.len();
            if leading > content {
                break;
            }
        }
        if is_preposition(all[0]) {
            // A phrase that only qualifies what follows names nothing alone
            // (`with QoS=%v, packet identifier cannot be 0` is not `WithQos`).
            leading = all.len();
        }
        let mut leading = leading.min(LEADING_WORDS.max(content + 1));
        if leading > runs[0].len() && leading < all.len() {
            // Runs joined and then cut: not cut after a function word
            // (`TheSettingMustBeAList`, not `TheSettingMustBeAListOrA`).
            while leading > content + 1 && is_function_word(all[leading - 1]) {
                leading -= 1;
            }
        }
        let extended = all.len().min(ALL_WORDS.max(leading));
        let mut parts = NameParts {
            leading: camel(&all[..leading]),
            extended: camel(&all[..extended]),
            later: all[extended..].iter().map(|word| camel(&[word])).collect(),
            id: id.to_owned(),
            ..NameParts::default()
        };
        // `%w for stream '%s > %s'`: the words qualify the value they follow,
        // which the name then starts with.
        if let (true, Some(Piece::Value { field, .. })) = (content > 0, template.pieces.first()) {
            match template.fields.get(usize::from(*field)).and_then(|field| subject_name(&field.name)) {
                Some(subject) => parts.prefix(&subject),
                None => parts.headless = true,
            }
        }
        parts
    }

    /// Puts `words` in front of the names.
    fn prefix(&mut self, words: &str) {
        self.leading.insert_str(0, words);
        self.extended.insert_str(0, words);
    }

    /// Adds the record's source: the function that raises it, its file's
    /// name and the function it is passed to, read when needed. A message
    /// without words of its own is named by them (the function, else the
    /// file), which are read at once.
    pub fn with_source(mut self, record: &'r Record) -> Self {
        self.record = Some(record);
        if self.wordless {
            let mut source = Source::of(record);
            if let Some(name) = source.function.take().or_else(|| source.file.take()) {
                let name = finish(name);
                self.leading.clone_from(&name);
                self.extended = name;
            }
            self.source = OnceCell::from(source);
        }
        if self.headless {
            let source = self.source();
            if let Some(words) = source.function.clone().or_else(|| source.file.clone()) {
                self.prefix(&words);
            }
        }
        self
    }

    /// Sets the source's words (instead of reading them from a record).
    #[cfg(test)]
    fn with_words(self, source: Source) -> Self {
        NameParts { source: OnceCell::from(source), ..self }
    }

    /// The source's words (none without a record).
    pub fn source(&self) -> &Source {
        self.source.get_or_init(|| self.record.map(Source::of).unwrap_or_default())
    }
}

/// The name of the value a message opens with, from its field's name,
/// without the words that only say it is an error
/// (`err_catchup_aborted_no_leader` → `CatchupAbortedNoLeader`; none for
/// `err` or an unnamed `arg0`).
fn subject_name(field: &str) -> Option<String> {
    const ERROR_WORDS: &[&str] = &["e", "err", "error", "ex", "exc", "exception", "cause"];
    if field.strip_prefix("arg").is_some_and(|n| n.chars().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let words: Vec<&str> =
        words(field).skip_while(|word| ERROR_WORDS.iter().any(|e| e.eq_ignore_ascii_case(word))).collect();
    (!words.is_empty()).then(|| camel(&words))
}

/// Whether `word` is a preposition.
fn is_preposition(word: &str) -> bool {
    PREPOSITIONS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether `word` is an article, a preposition or a conjunction.
fn is_function_word(word: &str) -> bool {
    FUNCTION_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The words of the template's literal text, in runs between placeholders,
/// without the words of URLs and host names. A URL may run on across a
/// placeholder (`https://%s/docs`): the text that follows it without a
/// space is part of it.
fn message_runs(template: &Template) -> Vec<Vec<&str>> {
    let mut runs: Vec<Vec<&str>> = vec![Vec::new()];
    let mut in_url = false;
    for piece in template.pieces.iter() {
        let Piece::Literal(text) = piece else {
            if runs.last().is_some_and(|run| !run.is_empty()) {
                runs.push(Vec::new());
            }
            continue;
        };
        let text: &str = text;
        if text.is_empty() {
            continue;
        }
        let mut continues = in_url && !text.starts_with(char::is_whitespace);
        let mut last_url = false;
        for token in text.split_whitespace() {
            last_url = continues || is_url(token);
            continues = false;
            if !last_url {
                runs.last_mut().expect("one run at least").extend(words(token));
            }
        }
        in_url = last_url && !text.ends_with(char::is_whitespace);
    }
    runs.retain(|run| !run.is_empty());
    runs
}

/// Whether a word of the message (text between white space) is or holds a
/// URL or a host name: a scheme (`https://`), `www.`, or dotted labels
/// ending in a common top-level domain, of three labels at least or with a
/// path (`docs.nats.io`, `nats.io/docs`; `crates.io` alone is the name of a
/// thing, and stays a word).
fn is_url(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    if lower.contains("://") || lower.contains("www.") || lower.starts_with("mailto:") {
        return true;
    }
    let trimmed = lower.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let (host, path) = match trimmed.find(['/', '?', '#']) {
        Some(at) => (&trimmed[..at], true),
        None => (trimmed, false),
    };
    let host = host.split(':').next().unwrap_or(host);
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && (labels.len() >= 3 || path)
        && labels.iter().all(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && DOMAINS.contains(labels.last().expect("two labels"))
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty())
}

fn camel(words: &[&str]) -> String {
    let mut name = String::new();
    for word in words {
        let mut chars = word.chars();
        name.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        name.extend(chars.map(|c| c.to_ascii_lowercase()));
    }
    finish(name)
}

/// Makes a name an identifier: `Error` when empty, `E` before a digit,
/// `SelfError` for `Self`.
fn finish(mut name: String) -> String {
    if name.is_empty() {
        name.push_str("Error");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'E');
    }
    if name == "Self" {
        name.push_str("Error");
    }
    name
}

/// An identifier of the source in UpperCamelCase, split at its underscores,
/// dashes and humps: `storeSessionMsg` → `StoreSessionMsg`, `jetstream_cluster`
/// → `JetstreamCluster`, `HTTPServer` → `HttpServer`.
fn identifier_camel(ident: &str) -> String {
    let mut name = String::new();
    for part in words(ident) {
        let chars: Vec<char> = part.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            let starts_word = i == 0
                || (c.is_ascii_uppercase()
                    && (chars[i - 1].is_ascii_lowercase()
                        || chars[i - 1].is_ascii_digit()
                        || (chars[i - 1].is_ascii_uppercase()
                            && chars.get(i + 1).is_some_and(char::is_ascii_lowercase))));
            name.push(if starts_word { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() });
        }
    }
    name
}

/// The name of a record's file, for telling apart records of several files:
/// its stem, or its directory's name when the stem says nothing
/// (`mod.rs`, `__init__.py`, `index.js`).
fn file_name(path: &str) -> Option<String> {
    let mut parts = path.rsplit(['/', '\\']).filter(|part| !part.is_empty());
    let base = parts.next()?;
    let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    let stem = if matches!(stem, "mod" | "__init__" | "index") { parts.next().unwrap_or(stem) } else { stem };
    Some(identifier_camel(stem)).filter(|name| !name.is_empty())
}

/// The function whose body holds the message, when the record's source
/// shows its declaration: the nearest declaration above the message's line
/// that is indented less than it, with nothing between them indented as
/// little as the declaration (which would have ended its body).
fn enclosing_function(record: &Record, lang: Lang) -> Option<String> {
    let source = record.source_code.as_deref()?;
    let lines: Vec<&str> = source.lines().collect();
    let by_number = match (record.line_number, record.source_code_start) {
        (Some(line), Some(start)) if line >= start => Some((line - start) as usize),
        _ => None,
    };
    let first_text = record.error_message.lines().next().unwrap_or("").trim();
    let first_text = &first_text[..first_text.char_indices().nth(24).map_or(first_text.len(), |(i, _)| i)];
    let at = by_number.filter(|&at| at < lines.len()).or_else(|| {
        (!first_text.is_empty()).then(|| lines.iter().position(|line| line.contains(first_text))).flatten()
    })?;
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut outer = indent(lines[at]);
    for line in lines[..at].iter().rev() {
        let trimmed = line.trim();
        // Blank lines, comments and the closing line of a signature
        // (`) error {`, `):`) say nothing about the blocks.
        if trimmed.is_empty() || trimmed.starts_with(['#', '/', '*', ')', '@']) {
            continue;
        }
        if indent(line) >= outer {
            continue;
        }
        outer = indent(line);
        if let Some(name) = declared_function(trimmed, lang) {
            return Some(name.to_owned());
        }
        if outer == 0 {
            return None;
        }
    }
    None
}

/// The identifier `text` starts with, and the character after it.
fn ident_at(text: &str) -> Option<(&str, char)> {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    let next = text[end..].trim_start().chars().next()?;
    (end > 0).then(|| (&text[..end], next))
}

/// The function a line declares (`func (s *Server) Start() {` → `Start`,
/// `def clean(self):` → `clean`, `pub fn load<P>(` → `load`,
/// `public void close() {` → `close`).
fn declared_function(line: &str, lang: Lang) -> Option<&str> {
    let mut rest = line;
    match lang {
        Lang::Go => {
            rest = rest.strip_prefix("func ")?.trim_start();
            if rest.starts_with('(') {
                rest = rest[rest.find(')')? + 1..].trim_start();
            }
            let (name, next) = ident_at(rest)?;
            matches!(next, '(' | '[').then_some(name)
        }
        Lang::Python => {
            rest = rest.strip_prefix("async ").unwrap_or(rest);
            let (name, next) = ident_at(rest.strip_prefix("def ")?.trim_start())?;
            (next == '(').then_some(name)
        }
        Lang::Rust => {
            for prefix in
                ["pub(crate) ", "pub(super) ", "pub ", "default ", "const ", "async ", "unsafe ", "extern \"C\" "]
            {
                rest = rest.strip_prefix(prefix).unwrap_or(rest);
            }
            let (name, next) = ident_at(rest.strip_prefix("fn ")?.trim_start())?;
            matches!(next, '(' | '<').then_some(name)
        }
        Lang::Js => {
            for prefix in ["export ", "default ", "async "] {
                rest = rest.strip_prefix(prefix).unwrap_or(rest);
            }
            let rest = rest.strip_prefix("function")?.trim_start_matches('*').trim_start();
            let (name, next) = ident_at(rest)?;
            (next == '(').then_some(name)
        }
        Lang::Java | Lang::CSharp => {
            // `[modifiers] Type name(...)` opening a body: two words at least
            // before the `(`, none of them a statement's keyword, no `=`.
            let head = &rest[..rest.find('(')?];
            if head.contains(['=', '.']) || rest.ends_with(';') {
                return None;
            }
            let words: Vec<&str> = head.split_whitespace().collect();
            const STATEMENTS: &[&str] = &[
                "if", "for", "foreach", "while", "switch", "catch", "return", "new", "throw", "else", "using", "lock",
            ];
            if words.len() < 2 || words.iter().any(|w| STATEMENTS.contains(w)) {
                return None;
            }
            let name = *words.last()?;
            name.chars().all(|c| c.is_alphanumeric() || c == '_').then_some(name)
        }
    }
}

/// How records of one collision group are told apart, in order of
/// preference: more words of the message, then of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Message,
    Code,
    Function,
    File,
    Owner,
    Callee,
    Condition,
}

const KINDS: [Kind; 7] =
    [Kind::Message, Kind::Code, Kind::Function, Kind::File, Kind::Owner, Kind::Callee, Kind::Condition];

/// Assigns a unique name to every record, none of them in `reserved` (the
/// pinned names).
///
/// 1. The leading-words name, when no other record has it.
/// 2. Otherwise the all-words name, when no other record of step 2 has it
///    and it is not a name given in step 1.
/// 3. Otherwise the records sharing an all-words name (or the one record
///    whose all-words name is taken) are told apart by words: of the rest of
///    the message (past the words they all share, the first word that
///    differs, with the words after it up to one that is not a function
///    word), else the record's error code (its words the message does not
///    have), else the function that raises the message (declared in the
///    source, or named by the documentation), else the file's name, else the
///    type the function is a method of, else the function the message is
///    passed to, else the documented condition it is raised on (its word
///    that the fewest of the group's other conditions have). The first of these
///    that tells every record of the group from the others is taken; when
///    none does, the first that tells some apart, and the records it leaves
///    together go on with the next ones. A record whose message ends where
///    the others' go on keeps the shorter name, and so does one with no
///    function or file when the others have one.
/// 4. A record no word tells apart from another (or whose name from step 3
///    is any other record's name) is named by its all-words name plus the
///    shortest prefix of its id (upper case, at least 4 digits) that no other
///    record with that all-words name shares: the hex suffix is the last resort.
///
/// A name of steps 1 to 3 that is reserved falls to the next step. Records
/// whose message has no name material of its own (named by their source)
/// come after all the others: their names avoid every other record's.
pub fn assign_names(parts: &[NameParts<'_>], reserved: &HashSet<&str>) -> Vec<String> {
    if parts.iter().all(|p| !p.wordless) {
        return assign(parts, reserved);
    }
    let (worded, wordless): (Vec<usize>, Vec<usize>) = (0..parts.len()).partition(|&i| !parts[i].wordless);
    let subset = |indices: &[usize]| indices.iter().map(|&i| parts[i].clone()).collect::<Vec<_>>();
    let first = assign(&subset(&worded), reserved);
    let mut taken = reserved.clone();
    taken.extend(first.iter().map(String::as_str));
    let second = assign(&subset(&wordless), &taken);
    let mut names = vec![String::new(); parts.len()];
    for (i, name) in worded.into_iter().zip(first.iter()).chain(wordless.into_iter().zip(second.iter())) {
        names[i].clone_from(name);
    }
    names
}

/// [`assign_names`] for records all of which have words, or none.
fn assign(parts: &[NameParts<'_>], reserved: &HashSet<&str>) -> Vec<String> {
    let mut leading_count: HashMap<&str, usize> = HashMap::new();
    for p in parts {
        *leading_count.entry(&p.leading).or_default() += 1;
    }
    let gets_leading =
        |p: &NameParts<'_>| leading_count[p.leading.as_str()] == 1 && !reserved.contains(p.leading.as_str());
    let given_leading: HashSet<&str> = parts.iter().filter(|p| gets_leading(p)).map(|p| p.leading.as_str()).collect();
    // The all-words names of the records that cannot have their leading one.
    let mut extended_count: HashMap<&str, usize> = HashMap::new();
    for p in parts.iter().filter(|p| !gets_leading(p)) {
        *extended_count.entry(&p.extended).or_default() += 1;
    }
    let mut names: Vec<Option<String>> = parts
        .iter()
        .map(|p| {
            if gets_leading(p) {
                Some(p.leading.clone())
            } else if extended_count[p.extended.as_str()] == 1
                && !given_leading.contains(p.extended.as_str())
                && !reserved.contains(p.extended.as_str())
            {
                Some(p.extended.clone())
            } else {
                None
            }
        })
        .collect();
    let mut fixed: HashSet<String> = names.iter().flatten().cloned().collect();
    fixed.extend(reserved.iter().map(|name| (*name).to_owned()));

    // Step 3, group by group (in name order: the result does not depend on it).
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, p) in parts.iter().enumerate() {
        if names[i].is_none() {
            groups.entry(&p.extended).or_default().push(i);
        }
    }
    let mut told: Vec<Option<String>> = vec![None; parts.len()];
    for (base, members) in &groups {
        tell_apart(parts, members, (*base).to_owned(), 0, &[], &fixed, &mut told);
    }
    // A name of step 3 that another record of step 3 also got (with other
    // words: `AB` + `C` and `A` + `BC`), or that is taken, helps neither.
    let mut told_count: HashMap<&str, usize> = HashMap::new();
    for name in told.iter().flatten() {
        *told_count.entry(name).or_default() += 1;
    }
    let told: Vec<Option<String>> = told
        .iter()
        .map(|name| name.as_ref().filter(|n| told_count[n.as_str()] == 1 && !fixed.contains(*n)).cloned())
        .collect();
    for (i, name) in told.into_iter().enumerate() {
        if name.is_some() {
            names[i] = name;
        }
    }

    let mut taken: HashSet<String> = names.iter().flatten().cloned().collect();
    taken.extend(reserved.iter().map(|name| (*name).to_owned()));
    for (i, p) in parts.iter().enumerate() {
        if names[i].is_some() {
            continue;
        }
        let id = p.id.to_ascii_uppercase();
        let id: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
        let rivals: Vec<String> = parts
            .iter()
            .enumerate()
            .filter(|&(j, q)| j != i && q.extended == p.extended)
            .map(|(_, q)| q.id.to_ascii_uppercase())
            .collect();
        let mut len = 4.min(id.len());
        while len < id.len() && rivals.iter().any(|r| r.starts_with(&id[..len])) {
            len += 2;
        }
        let mut name = format!("{}{}", p.extended, &id[..len.min(id.len())]);
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{}{}V{n}", p.extended, id);
            n += 1;
        }
        taken.insert(name.clone());
        names[i] = Some(name);
    }
    names.into_iter().map(|n| n.unwrap_or_default()).collect()
}

/// Step 3 of [`assign_names`] for `members`, which share the name `base`
/// (the all-words name plus the words already added): their message words
/// from `at` on are not looked at yet, and the kinds in `used` have been
/// added. Members no word tells apart are left unnamed in `told`.
fn tell_apart(
    parts: &[NameParts<'_>],
    members: &[usize],
    base: String,
    at: usize,
    used: &[Kind],
    fixed: &HashSet<String>,
    told: &mut [Option<String>],
) {
    if let [only] = members {
        if !fixed.contains(&base) {
            told[*only] = Some(base);
            return;
        }
    }
    let mut candidates = Vec::new();
    for kind in KINDS.into_iter().filter(|kind| !used.contains(kind)) {
        let keys: Vec<(Option<String>, usize)> = match kind {
            Kind::Message => message_keys(parts, members, at),
            Kind::Function => members.iter().map(|&m| (parts[m].source().function.clone(), 0)).collect(),
            Kind::File => members.iter().map(|&m| (parts[m].source().file.clone(), 0)).collect(),
            Kind::Code => members.iter().map(|&m| (parts[m].source().code.clone(), 0)).collect(),
            Kind::Owner => members.iter().map(|&m| (parts[m].source().owner.clone(), 0)).collect(),
            Kind::Callee => members.iter().map(|&m| (parts[m].source().callee.clone(), 0)).collect(),
            Kind::Condition => condition_keys(parts, members),
        };
        let distinct: HashSet<&Option<String>> = keys.iter().map(|(key, _)| key).collect();
        let splits = distinct.len() > 1 || (members.len() == 1 && keys[0].0.is_some());
        if splits {
            let separates = distinct.len() == members.len();
            candidates.push((kind, keys, separates));
        }
    }
    let chosen = match candidates.iter().position(|c| c.2) {
        Some(at) => candidates.swap_remove(at),
        None if !candidates.is_empty() => candidates.remove(0),
        None => return, // no word tells them apart: the id will
    };
    let (kind, keys, _) = chosen;
    let mut groups: BTreeMap<&Option<String>, (usize, Vec<usize>)> = BTreeMap::new();
    for (&member, (key, next)) in members.iter().zip(&keys) {
        groups.entry(key).or_insert((*next, Vec::new())).1.push(member);
    }
    for (key, (next, group)) in groups {
        let name = key.as_ref().map_or_else(|| base.clone(), |words| format!("{base}{words}"));
        match (kind, key) {
            // More of their messages may tell them apart.
            (Kind::Message, Some(_)) => tell_apart(parts, &group, name, next, used, fixed, told),
            _ => {
                let used: Vec<Kind> = used.iter().copied().chain([kind]).collect();
                tell_apart(parts, &group, name, at, &used, fixed, told);
            }
        }
    }
}

/// The message words that tell `members` apart, from word `at` of their
/// later words on: past the words they all share, each member's next word
/// (with the words after it up to one that is not a function word: `OrSet`,
/// not `Or`), or none where its message ends; and the position after them.
/// A lone member takes its next word.
fn message_keys(parts: &[NameParts<'_>], members: &[usize], at: usize) -> Vec<(Option<String>, usize)> {
    let later = |m: usize| &parts[m].later[at.min(parts[m].later.len())..];
    let shared = match members {
        [_] => 0,
        _ => {
            let first = later(members[0]);
            (0..first.len()).take_while(|&k| members.iter().all(|&m| later(m).get(k) == Some(&first[k]))).count()
        }
    };
    members
        .iter()
        .map(|&m| {
            let words = &later(m)[shared.min(later(m).len())..];
            if words.is_empty() {
                return (None, 0);
            }
            let len = words.iter().position(|w| !is_function_word(w)).map_or(words.len(), |content| content + 1);
            (Some(words[..len].concat()), at + shared + len)
        })
        .collect()
}

/// The condition words that tell `members` apart: each member's word of
/// its documented condition that the fewest other members have (the last
/// of those), when not all of them have it; else its last word (none for a
/// member without one).
fn condition_keys(parts: &[NameParts<'_>], members: &[usize]) -> Vec<(Option<String>, usize)> {
    let conditions: Vec<&[String]> = members.iter().map(|&m| parts[m].source().condition.as_slice()).collect();
    let mut having: HashMap<&str, usize> = HashMap::new();
    for words in &conditions {
        for word in words.iter() {
            *having.entry(word).or_default() += 1;
        }
    }
    let with_one = conditions.iter().filter(|words| !words.is_empty()).count();
    conditions
        .iter()
        .map(|words| {
            let rarest = words
                .iter()
                .enumerate()
                .filter(|(_, word)| with_one < 2 || having[word.as_str()] < with_one)
                .min_by_key(|&(at, word)| (having[word.as_str()], std::cmp::Reverse(at)))
                .map(|(_, word)| word);
            (rarest.or(words.last()).cloned(), 0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{compile, Dialect};

    fn parts(leading: &str, extended: &str, id: &str) -> NameParts<'static> {
        NameParts { leading: leading.into(), extended: extended.into(), id: id.into(), ..NameParts::default() }
    }

    fn file(file: &str) -> Source {
        Source { file: Some(file.into()), ..Source::default() }
    }

    /// The naming input of a Go record: its message, file and source.
    fn record(id: &str, message: &str, file: &str, source: &str) -> NameParts<'static> {
        let template = compile(message, Dialect::Go).expect("a Go format");
        let mut record = Record::new(id.to_owned(), message.to_owned());
        record.file_path = file.to_owned().into();
        record.source_code = Some(source.to_owned().into());
        NameParts::new(&template, id).with_source(Box::leak(Box::new(record)))
    }

    fn names(records: &[NameParts<'_>]) -> Vec<String> {
        assign_names(records, &HashSet::new())
    }

    #[test]
    fn camel_cases_words() {
        assert_eq!(camel(&["create", "QoS2", "incoming"]), "CreateQos2Incoming");
        assert_eq!(camel(&["2pc", "failed"]), "E2pcFailed");
        assert_eq!(camel(&[]), "Error");
        assert_eq!(camel(&["self"]), "SelfError");
        assert_eq!(identifier_camel("storeSessionMsg"), "StoreSessionMsg");
        assert_eq!(identifier_camel("jetstream_cluster"), "JetstreamCluster");
        assert_eq!(identifier_camel("HTTPServer"), "HttpServer");
        assert_eq!(identifier_camel("cargo-util"), "CargoUtil");
        assert_eq!(identifier_camel("Errorf"), "Errorf");
    }

    #[test]
    fn resolves_collisions_without_looking_at_unrelated_records() {
        let base = vec![
            parts("Stream", "StreamNotFound", "aa11"),
            parts("Stream", "StreamAlreadyExists", "bb22"),
            parts("Timeout", "Timeout", "cc33"),
            parts("Dup", "DupMessage", "dd440000"),
            parts("Dup", "DupMessage", "dd450000"),
        ];
        let names = assign_names(&base, &HashSet::new());
        assert_eq!(names, ["StreamNotFound", "StreamAlreadyExists", "Timeout", "DupMessageDD44", "DupMessageDD45"]);
        let mut more = base.clone();
        more.insert(0, parts("Unrelated", "UnrelatedThing", "0000"));
        more.push(parts("Other", "Other", "ffff"));
        assert_eq!(&assign_names(&more, &HashSet::new())[1..6], &names[..]);
    }

    #[test]
    fn reserved_names_are_never_given() {
        let base = [
            parts("Gateway", "GatewayHasNoUrl", "3ac9"),
            parts("Timeout", "Timeout", "cc33"),
            parts("Stream", "StreamGone", "aa11"),
        ];
        let reserved = HashSet::from(["Gateway", "StreamGone", "Timeout"]);
        let names = assign_names(&base, &reserved);
        assert_eq!(names, ["GatewayHasNoUrl", "TimeoutCC33", "Stream"]);
        // Two records whose leading name is reserved share the all-words one.
        let both = [parts("Gateway", "GatewayX", "1111"), parts("Gateway", "GatewayX", "2222")];
        assert_eq!(assign_names(&both, &HashSet::from(["Gateway"])), ["GatewayX1111", "GatewayX2222"]);
        // A reserved name is not given by step 3 either.
        let timeout = parts("Timeout", "Timeout", "cc33").with_words(file("Raft"));
        assert_eq!(assign_names(std::slice::from_ref(&timeout), &HashSet::from(["Timeout"])), ["TimeoutRaft"]);
        assert_eq!(assign_names(&[timeout], &HashSet::from(["Timeout", "TimeoutRaft"])), ["TimeoutCC33"]);
    }

    #[test]
    fn an_extended_name_never_takes_a_leading_name() {
        let names = assign_names(
            &[
                parts("StreamNotFound", "StreamNotFound", "1111"),
                parts("Stream", "StreamNotFound", "2222"),
                parts("Stream", "StreamGone", "3333"),
            ],
            &HashSet::new(),
        );
        assert_eq!(names, ["StreamNotFound", "StreamNotFound2222", "StreamGone"]);
    }

    #[test]
    fn an_extended_name_may_be_a_leading_name_no_record_gets() {
        // `config reload not supported for %s: %v` and eight
        // `config reload not supported for %s: old=%v, new=%v`: the first's
        // all words are the leading words they all share.
        let source = "return fmt.Errorf(\"...\")";
        let short = record("f1c3", "config reload not supported for %s: %v", "server/reload.go", source);
        let long = "config reload not supported for %s: old=%v, new=%v";
        let records =
            [short, record("0491", long, "server/reload.go", source), record("11d3", long, "server/reload.go", source)];
        assert_eq!(
            names(&records),
            [
                "ConfigReloadNotSupportedFor",
                "ConfigReloadNotSupportedForOldNew0491",
                "ConfigReloadNotSupportedForOldNew11D3"
            ]
        );
    }

    #[test]
    fn urls_are_not_name_material() {
        let source = "s.Noticef(\"...\")";
        let docs = record("2474", "         https://docs.nats.io/jetstream", "server/jetstream.go", source);
        assert_eq!((docs.leading.as_str(), docs.extended.as_str()), ("Jetstream", "Jetstream"));
        // A message named by its source comes after the messages named by
        // their words.
        let banner = "---------------- JETSTREAM ----------------";
        let records = [
            record(
                "2474",
                "         https://docs.nats.io/jetstream",
                "server/jetstream.go",
                r#"s.Noticef("         https://docs.nats.io/jetstream")"#,
            ),
            record("3f53", banner, "server/jetstream.go", &format!("s.Noticef({banner:?})")),
            record("ab4d", "JetStream %s resource limits exceeded for server", "server/jetstream.go", source),
        ];
        assert_eq!(names(&records), ["JetstreamNoticef", "Jetstream", "JetstreamResourceLimitsExceededForServer"]);
        // A URL runs on across a placeholder.
        let see = record("aa", "see https://docs.nats.io/%s/config for %s", "server/opts.go", source);
        assert_eq!((see.leading.as_str(), see.extended.as_str()), ("See", "SeeFor"));
        let host = record("bb", "could not reach www.example.org: %v", "a.go", source);
        assert_eq!(host.leading, "CouldNotReach");
        let domain = record("cc", "fetch docs.example.com failed", "a.go", source);
        assert_eq!(domain.leading, "FetchFailed");
        // A host name of two labels alone is the name of a thing.
        let crates = record("dd", "failed to publish to crates.io", "a.go", source);
        assert_eq!(crates.leading, "FailedToPublishToCratesIo");
        // File names are words.
        let file = record("ee", "cannot read Cargo.toml", "a.go", source);
        assert_eq!(file.leading, "CannotReadCargoToml");
    }

    #[test]
    fn a_name_is_never_a_lone_preposition() {
        let source = "return fmt.Errorf(\"...\")";
        let leading = record("aa", "for %s: cannot connect to %s", "server/route.go", source);
        assert_eq!(leading.leading, "ForCannotConnectTo");
        // Cut at eight words, not after a function word.
        let long = record("ab", "The %s setting must be a list or a tuple.", "conf.py", source);
        assert_eq!(long.leading, "TheSettingMustBeAList");
        assert_eq!(record("bb", "%s to the %s", "server/route.go", source).leading, "Route");
        assert_eq!(record("cc", "%w for %s", "server/stream.go", source).extended, "Stream");
        // With neither a function nor a file, the name of last resort.
        let template = compile("%s of %s", Dialect::Go).expect("a Go format");
        assert_eq!(NameParts::new(&template, "dd").leading, "Error");
    }

    /// The naming input of a record with the given field names and
    /// documentation (with the file `server/stream.go`).
    fn documented(id: &str, message: &str, fields: &[&str], documentation: &str) -> NameParts<'static> {
        let mut template = compile(message, Dialect::Go).expect("a Go format");
        let mut named = template.fields.to_vec();
        for (field, name) in named.iter_mut().zip(fields) {
            field.name = (*name).to_owned().into();
        }
        template.fields = named.into();
        let mut record = Record::new(id.to_owned(), message.to_owned());
        record.file_path = "server/stream.go".into();
        record.source_code = Some("\t\treturn fmt.Errorf(\"...\")".into());
        record.documentation = documentation.to_owned().into();
        NameParts::new(&template, id).with_source(Box::leak(Box::new(record)))
    }

    #[test]
    fn a_message_opening_with_a_value_and_a_preposition_is_named_after_the_value() {
        let catchup = documented("aa", "%w for stream '%s > %s'", &["err_catchup_aborted", "acc", "name"], "");
        assert_eq!(catchup.leading, "CatchupAbortedForStream");
        // An argument that only says it is an error: the function, else the file.
        let by = "Returned by (*Server).mqttProcessConnect in server/stream.go.";
        assert_eq!(documented("bb", "%v for account %q", &["err", "acc"], by).leading, "MqttProcessConnectForAccount");
        assert_eq!(documented("cc", "%v for account %q", &["arg0", "acc"], "").leading, "StreamForAccount");
        // A message opening with a preposition goes on past its first value.
        let qos = documented("dd", "with QoS=%v, packet identifier cannot be 0", &["qos"], "");
        assert_eq!(qos.leading, "WithQosPacketIdentifierCannotBe0");
        // An article is no preposition: `The consumer %s ...` names a subject.
        assert_eq!(documented("ee", "the consumer %s is gone", &["name"], "").leading, "TheConsumer");
    }

    #[test]
    fn the_documentation_names_the_function_its_type_and_condition() {
        let doc = "Logged at error level by (*Server).initEventTracking in server/stream.go when `_, err := \
                   s.sysSubscribe(subject, s.noInlineCallback(s.remoteServerUpdate))` fails.";
        let source = documented("aa", "boom", &[], doc).source().clone();
        assert_eq!(source.function.as_deref(), Some("InitEventTracking"));
        assert_eq!(source.owner.as_deref(), Some("Server"));
        assert_eq!(source.condition, ["SysSubscribe", "Subject", "NoInlineCallback", "RemoteServerUpdate"]);
        let constructor = "Thrown by the LinearBinScheme constructor in server/stream.go.";
        assert_eq!(documented("ab", "boom", &[], constructor).source().function.as_deref(), Some("LinearBinScheme"));
        let java = "Thrown by ConsumerNetworkThread.cleanup in server/stream.go and assigned to err when `x == null`.";
        let source = documented("bb", "boom", &[], java).source().clone();
        assert_eq!(
            (source.function.as_deref(), source.owner.as_deref()),
            (Some("Cleanup"), Some("ConsumerNetworkThread"))
        );
        assert!(source.condition.is_empty(), "`x` and `null` are no names: {:?}", source.condition);
        // Another file, prose or a call that is not a path: nothing.
        for doc in [
            "Returned by (*Server).start in server/other.go when `x`.",
            "Raised by the admin in server/stream.go.",
            "Defined by E('ERR_X') in server/stream.go.",
        ] {
            let source = documented("cc", "boom", &[], doc).source().clone();
            assert_eq!((source.function, source.owner), (None, None), "{doc}");
        }
    }

    #[test]
    fn the_error_code_tells_records_apart_by_its_own_words() {
        let coded = |id: &str, code: &str| {
            let mut parts = documented(id, "Invalid status code: %s", &["code"], "");
            let mut record = parts.record.expect("a record").clone();
            record.error_code = Some(code.to_owned().into());
            parts.record = Some(Box::leak(Box::new(record)));
            parts.source = OnceCell::new();
            parts
        };
        let records = [coded("aa", "ERR_HTTP_INVALID_STATUS_CODE"), coded("bb", "ERR_HTTP2_STATUS_INVALID")];
        assert_eq!(names(&records), ["InvalidStatusCodeHttp", "InvalidStatusCodeHttp2"]);
        assert_eq!(code_words("ERR_INVALID_STATUS_CODE", "Invalid status code"), Some("InvalidStatusCode".into()));
        assert_eq!(code_words("ERR", "Invalid status code"), None);
    }

    #[test]
    fn the_type_and_then_the_condition_tell_records_of_one_function_apart() {
        let unmarshal = |id, owner| {
            documented(
                id,
                "can not unmarshal %q",
                &["data"],
                &format!("Returned by (*{owner}).UnmarshalJSON in server/stream.go."),
            )
        };
        assert_eq!(
            names(&[unmarshal("aa", "ReplayPolicy"), unmarshal("bb", "StorageType")]),
            ["CanNotUnmarshalReplayPolicy", "CanNotUnmarshalStorageType"]
        );
        let tracking = |id, when: &str| {
            let doc = format!("Logged at error level by (*Server).initEventTracking in server/stream.go{when}.");
            documented(id, "Error setting up internal tracking: %v", &["err"], &doc)
        };
        let records = [
            tracking("aa11", " when `_, err := s.sysSubscribe(subject, s.inboxReply)` fails"),
            tracking(
                "bb22",
                " when `_, err := s.sysSubscribe(subject, s.noInlineCallback(s.remoteConnsUpdate))` fails",
            ),
            tracking("cc33", ""),
            tracking("dd44", " when `_, err := s.sysSubscribe(subject, h)` fails"),
            tracking("ee55", " when `_, err := s.sysSubscribe(subject, h)` fails"),
        ];
        // The words all conditions share (`SysSubscribe`, `Subject`) are
        // left out unless nothing else is there; the same condition twice
        // is told apart by the id, and no condition keeps the shorter name.
        assert_eq!(
            names(&records),
            [
                "ErrorSettingUpInternalTrackingInboxReply",
                "ErrorSettingUpInternalTrackingRemoteConnsUpdate",
                "ErrorSettingUpInternalTracking",
                "ErrorSettingUpInternalTrackingDD44",
                "ErrorSettingUpInternalTrackingEE55",
            ]
        );
    }

    #[test]
    fn a_later_message_word_tells_records_apart() {
        let source = "log.Printf(\"...\")";
        let twelve = "one two three four five six seven eight nine ten eleven twelve";
        let records = [
            record("aa11", &format!("{twelve} thirteen fourteen %s"), "a.go", source),
            record("bb22", &format!("{twelve} thirteen fifteen %s"), "a.go", source),
            record("cc33", &format!("{twelve} %s"), "a.go", source),
            record("dd44", &format!("{twelve} sixteen"), "b.go", source),
        ];
        let base = "OneTwoThreeFourFiveSixSevenEightNineTenElevenTwelve";
        assert_eq!(
            names(&records),
            [
                format!("{base}ThirteenFourteen"),
                format!("{base}ThirteenFifteen"),
                base.to_owned(),
                format!("{base}Sixteen")
            ]
        );
        // The words they all share are not repeated; a function word comes
        // with the word after it.
        let records = [
            record("aa11", &format!("{twelve} skew problem, exiting"), "a.go", source),
            record("bb22", &format!("{twelve} skew problem, or not starting"), "a.go", source),
            record("cc33", &format!("{twelve} skew problem"), "a.go", source),
        ];
        assert_eq!(names(&records), [format!("{base}Exiting"), format!("{base}OrNot"), base.to_owned()]);
    }

    #[test]
    fn the_function_name_tells_records_apart() {
        let source = |function: &str| {
            format!("func (fs *fileStore) {function}() error {{\n\tif fs.closed {{\n\t\treturn fmt.Errorf(\"bad ack floor\")\n\t}}\n")
        };
        let a = record("aa11", "bad ack floor", "server/filestore.go", &source("checkAcks"));
        let b = record("bb22", "bad ack floor", "server/memstore.go", &source("writeState"));
        let functions = (a.source().function.as_deref(), b.source().function.as_deref());
        assert_eq!(functions, (Some("CheckAcks"), Some("WriteState")));
        // Preferred to the file's name, which tells them apart too.
        assert_eq!(names(&[a, b]), ["BadAckFloorCheckAcks", "BadAckFloorWriteState"]);
    }

    #[test]
    fn the_file_name_tells_records_apart() {
        let source = "return nil, fmt.Errorf(\"bad consumer config\")";
        let records = [
            record("8e8e", "bad consumer config", "server/memstore.go", source),
            record("f47e", "bad consumer config", "server/filestore.go", source),
            record("0000", "bad consumer config", "server/jetstream/mod.rs", source),
        ];
        assert_eq!(
            names(&records),
            ["BadConsumerConfigMemstore", "BadConsumerConfigFilestore", "BadConsumerConfigJetstream"]
        );
    }

    #[test]
    fn the_called_function_tells_records_apart_last() {
        let records = [
            record(
                "170e",
                "Account [%s] fetch took %v",
                "server/server.go",
                "s.Debugf(\"Account [%s] fetch took %v\", name, d)",
            ),
            record(
                "6e1c",
                "Account [%s] fetch took %v",
                "server/server.go",
                "s.Warnf(\"Account [%s] fetch took %v\", name, d)",
            ),
        ];
        assert_eq!(names(&records), ["AccountFetchTookDebugf", "AccountFetchTookWarnf"]);
        // The file first when it tells all apart, the call does not.
        let records = [
            record(
                "1fbc",
                "Can't start JetStream: %v",
                "server/jetstream.go",
                "s.Warnf(\"Can't start JetStream: %v\", err)",
            ),
            record(
                "2ed3",
                "Can't start JetStream: %v",
                "server/server.go",
                "s.Fatalf(\"Can't start JetStream: %v\", err)",
            ),
            record(
                "ce3c",
                "Can't start JetStream: %v",
                "server/reload.go",
                "s.Warnf(\"Can't start JetStream: %v\", err)",
            ),
        ];
        assert_eq!(
            names(&records),
            ["CanTStartJetstreamJetstream", "CanTStartJetstreamServer", "CanTStartJetstreamReload"]
        );
    }

    #[test]
    fn the_id_is_the_last_resort() {
        let source = "return fmt.Errorf(\"bad ack floor for consumer\")";
        let records = [
            record("2e7375609e51975d", "bad ack floor for consumer", "server/filestore.go", source),
            record("51c98200bedda04c", "bad ack floor for consumer", "server/memstore.go", source),
            record("73c7408d8a15368e", "bad ack floor for consumer", "server/filestore.go", source),
            record("0000000000000001", "bad ack floor for consumer", "server/raft.go", source),
        ];
        // The file tells the raft and memstore records apart, not the two of filestore.
        assert_eq!(
            names(&records),
            [
                "BadAckFloorForConsumer2E73",
                "BadAckFloorForConsumerMemstore",
                "BadAckFloorForConsumer73C7",
                "BadAckFloorForConsumerRaft"
            ]
        );
    }

    #[test]
    fn names_do_not_depend_on_order_and_are_deterministic() {
        let source = "c.Errorf(\"...\")";
        let records = vec![
            record("aa11", "could not insert subscription: %v", "server/route.go", source),
            record("bb22", "could not insert subscription: %v", "server/leafnode.go", source),
            record("cc33", "could not insert subscription: %v", "server/leafnode.go", source),
            record("dd44", "bad consumer config", "server/memstore.go", source),
            record("ee55", "see https://docs.nats.io/x", "server/opts.go", source),
            record("ff66", "%s for %s", "server/opts.go", source),
        ];
        let forward = names(&records);
        assert_eq!(forward, names(&records));
        let mut reversed = records.clone();
        reversed.reverse();
        let mut backward = names(&reversed);
        backward.reverse();
        assert_eq!(forward, backward);
        assert_eq!(
            forward,
            [
                "CouldNotInsertSubscriptionRoute",
                "CouldNotInsertSubscriptionBB22",
                "CouldNotInsertSubscriptionCC33",
                "BadConsumerConfig",
                "See",
                "Opts"
            ]
        );
    }

    #[test]
    fn step_three_names_never_collide() {
        // `AB` plus the file `C` and `A` plus the words `B C`.
        let x = parts("Ab", "Ab", "1111").with_words(file("C"));
        let y = parts("Ab", "Ab", "2222").with_words(file("D"));
        let z = parts("AbC", "AbC", "3333");
        assert_eq!(names(&[x, y, z]), ["Ab1111", "AbD", "AbC"]);
    }

    #[test]
    fn declarations_are_found_above_the_message() {
        let record = |message: &str, file: &str, source: &str| {
            let mut record = Record::new("1", message.to_owned());
            record.file_path = file.to_owned().into();
            record.source_code = Some(source.to_owned().into());
            enclosing_function(&record, Lang::of(file))
        };
        let go = "func (s *Server) start() {\n\tif err != nil {\n\t\ts.Errorf(\"boom\")\n\t}\n}";
        assert_eq!(record("boom", "a.go", go).as_deref(), Some("start"));
        // A function that ended before the message does not hold it.
        let ended = "func other() {\n}\n\tx := 1\n\ts.Errorf(\"boom\")";
        assert_eq!(record("boom", "a.go", ended), None);
        let python = "def clean(self):\n    def inner():\n        pass\n    raise ValueError(\"boom\")";
        assert_eq!(record("boom", "a.py", python).as_deref(), Some("clean"));
        let rust = "pub(crate) fn load<P: AsRef<Path>>(\n    path: P,\n) -> Result<()> {\n    bail!(\"boom\")";
        assert_eq!(record("boom", "a.rs", rust).as_deref(), Some("load"));
        let java = "    public void close() throws IOException {\n        if (x) {\n            throw new IOException(\"boom\");";
        assert_eq!(record("boom", "A.java", java).as_deref(), Some("close"));
        let js = "function validate(value) {\n  throw new Error('boom');";
        assert_eq!(record("boom", "a.js", js).as_deref(), Some("validate"));
        // Only the call: no function.
        assert_eq!(record("boom", "a.go", "\treturn fmt.Errorf(\"boom\")"), None);
    }
}
