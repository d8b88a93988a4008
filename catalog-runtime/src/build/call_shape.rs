//! The shape of the call around a record's message in its `sourceCode`, for
//! the languages whose format syntax depends on the call: is the literal an
//! f-string, a template literal or `$"..."`, what is done to it (`%`,
//! `.format(...)`), and which function or macro receives it. From these,
//! [`dialect_from_call`] chooses the dialect.

use super::arg_names::{is_string_prefix, literal_run_equal_to, split_arguments, tokenize, Lang, Token};
use crate::format::Dialect;

/// Where the message's literal is in the tokens of its source.
struct Site<'t> {
    tokens: &'t [Token],
    /// Index of the first literal token.
    start: usize,
    /// Index just past the literal run.
    after: usize,
}

/// The call whose argument list holds a token: `log.warn(`, `bail!(`,
/// `new Error(`, `#[error(`.
#[derive(Debug, Default)]
struct Call {
    /// The callee's path (`["String", "format"]`).
    path: Vec<String>,
    /// Index of its `(`.
    open: usize,
    /// `new X(...)`.
    is_new: bool,
    /// A Rust macro (`format!(`) or `#[error(...)]` attribute.
    is_macro: bool,
    /// Python's `raise X(...)`.
    is_raised: bool,
}

impl Call {
    fn name(&self) -> &str {
        self.path.last().map_or("", String::as_str)
    }
}

impl<'t> Site<'t> {
    fn find(tokens: &'t [Token], message: &str) -> Option<Self> {
        (0..tokens.len()).find_map(|start| {
            let after = literal_run_equal_to(tokens, start, message)?;
            Some(Site { tokens, start, after })
        })
    }

    fn before(&self, back: usize) -> Option<&Token> {
        self.start.checked_sub(back).and_then(|i| self.tokens.get(i))
    }

    /// The innermost call whose parentheses hold token `index`.
    fn call_around(&self, index: usize) -> Option<Call> {
        let tokens = self.tokens;
        let mut depth = 0usize;
        let open = (0..index).rev().find(|&j| match tokens[j] {
            Token::Punct(')' | ']' | '}') => (depth += 1, false).1,
            Token::Punct('(' | '[' | '{') if depth > 0 => (depth -= 1, false).1,
            Token::Punct('(') => true,
            // A macro called with braces or brackets: `bail! { ... }`.
            Token::Punct('{' | '[') => j >= 1 && tokens[j - 1].is_punct('!'),
            _ => false,
        })?;
        let mut call = Call { open, ..Call::default() };
        let mut j = open;
        if j >= 1 && tokens[j - 1].is_punct('!') {
            call.is_macro = true;
            j -= 1;
        }
        while j >= 1 {
            let Token::Ident(name) = &tokens[j - 1] else { break };
            call.path.insert(0, name.clone());
            j -= 1;
            // `a.b`, `a::b`, `a?.b`
            let separators =
                tokens[..j].iter().rev().take_while(|t| matches!(t, Token::Punct('.' | ':' | '?'))).count();
            if separators == 0 {
                break;
            }
            j -= separators;
        }
        call.is_new = j >= 1 && tokens[j - 1] == Token::Ident("new".to_owned());
        call.is_raised = j >= 1 && tokens[j - 1] == Token::Ident("raise".to_owned());
        if call.path == ["error"] && j >= 2 && tokens[j - 1].is_punct('[') && tokens[j - 2].is_punct('#') {
            call.is_macro = true; // thiserror's `#[error("...")]`
        }
        Some(call)
    }

    /// Whether the literal is followed by `.name(`.
    fn method_after(&self, index: usize, name: &str) -> bool {
        self.tokens.get(index).is_some_and(|t| t.is_punct('.'))
            && self.tokens.get(index + 1) == Some(&Token::Ident(name.to_owned()))
    }

    /// Whether more arguments follow token `index` in its call.
    fn more_arguments(&self, index: usize) -> bool {
        self.tokens.get(index).is_some_and(|t| t.is_punct(','))
            && self.tokens.get(index + 1).is_some_and(|t| !t.is_punct(')'))
    }
}

const PYTHON_LOGGING: &[&str] = &["debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"];
const GETTEXT: &[&str] =
    &["_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop"];
const JAVA_LOGGING: &[&str] = &["trace", "debug", "info", "warn", "error", "fatal"];
const CSHARP_FORMATTING: &[&str] = &["Format", "AppendFormat", "WriteLine", "Write", "TraceInformation", "TraceError"];

/// The dialect of `message` in a `lang` source, from the call in `source`;
/// `None` when the message's literal is not found there (or for Go and C,
/// which `dialect_of` decides by itself).
pub(super) fn dialect_from_call(source: &str, message: &str, lang: Lang) -> Option<Dialect> {
    let tokens = tokenize(source, lang);
    let site = Site::find(&tokens, message)?;
    Some(match lang {
        Lang::Go => return None,
        Lang::Python => python(&site),
        Lang::Js if site.before(1).is_some_and(|t| t.is_punct('`')) => Dialect::JsTemplate,
        Lang::Js if site.call_around(site.start).is_some_and(|call| call.is_new) => Dialect::Plain,
        Lang::Js => Dialect::JsFormat,
        Lang::Rust if site.call_around(site.start).is_some_and(|call| call.is_macro) => Dialect::Rust,
        Lang::Rust => Dialect::Plain,
        Lang::Java => java(&site),
        Lang::CSharp => csharp(&site),
    })
}

fn python(site: &Site<'_>) -> Dialect {
    // An f-string, or plain literals joined to one (whose braces the
    // message then has doubled, as they would be written inside it).
    let run = &site.tokens[site.start.saturating_sub(1)..site.after];
    if run.iter().any(|t| matches!(t, Token::Ident(prefix) if is_string_prefix(prefix) && prefix.contains(['f', 'F'])))
    {
        return Dialect::PythonBrace;
    }
    let mut after = site.after;
    let mut call = site.call_around(site.start);
    // `_("...") % args`: look past the translation call.
    if site.tokens.get(after).is_some_and(|t| t.is_punct(')'))
        && call.as_ref().is_some_and(|c| GETTEXT.contains(&c.name()) && c.open + 1 == site.start)
    {
        after += 1;
        call = call.and_then(|c| site.call_around(c.open));
    }
    if site.tokens.get(after).is_some_and(|t| t.is_punct('%')) {
        return Dialect::Python;
    }
    if site.method_after(after, "format") {
        return Dialect::PythonBrace;
    }
    let Some(call) = call else { return Dialect::Plain };
    let keyword_params =
        site.tokens[after..].windows(2).any(|w| w[0] == Token::Ident("params".into()) && w[1].is_punct('='));
    // Logging formats with `%` only when given positional arguments
    // (`extra=...`, `exc_info=...` are not).
    let positional = site.tokens.get(after).is_some_and(|t| t.is_punct(','))
        && split_arguments(&site.tokens[after + 1..])
            .iter()
            .any(|arg| !matches!(arg.as_slice(), [Token::Ident(_), Token::Punct('='), ..]));
    // `raise VariableDoesNotExist("Failed lookup for key [%s] in %r", (bit,
    // current))`: an exception given its format and arguments apart formats
    // them in its `__str__`.
    let raised_with_arguments = call.is_raised && call.open + 1 == site.start && site.more_arguments(after);
    if (PYTHON_LOGGING.contains(&call.name()) && positional)
        || (keyword_params && site.more_arguments(after))
        || (raised_with_arguments && message_has_conversions(site))
    {
        Dialect::Python
    } else {
        Dialect::Plain
    }
}

/// Whether the literal at `site` holds a `%` conversion (`%s`, `%r`,
/// `%(name)s`), not only `%%` or a lone `%`.
fn message_has_conversions(site: &Site<'_>) -> bool {
    let literal: String = (site.tokens[site.start..site.after].iter())
        .filter_map(|token| if let Token::Str(text) = token { Some(text.as_str()) } else { None })
        .collect();
    let mut rest = literal.as_str();
    while let Some(at) = rest.find('%') {
        match rest[at + 1..].chars().next() {
            Some('%') => rest = &rest[at + 2..],
            Some(c) if c == '(' || c == '.' || c == '-' || c.is_ascii_alphanumeric() => return true,
            _ => rest = &rest[at + 1..],
        }
    }
    false
}

fn java(site: &Site<'_>) -> Dialect {
    if site.method_after(site.after, "formatted") {
        return Dialect::JavaFormat;
    }
    let Some(call) = site.call_around(site.start) else { return Dialect::Plain };
    match call.name() {
        "format" if call.path.iter().any(|p| p == "MessageFormat") => Dialect::MessageFormat,
        "format" | "printf" => Dialect::JavaFormat,
        _ if call.is_new => Dialect::Plain,
        name if JAVA_LOGGING.contains(&name) => Dialect::Slf4j,
        _ => Dialect::Plain,
    }
}

fn csharp(site: &Site<'_>) -> Dialect {
    let interpolated = |t: Option<&Token>| t.is_some_and(|t| t.is_punct('$'));
    if interpolated(site.before(1)) || (site.before(1).is_some_and(|t| t.is_punct('@')) && interpolated(site.before(2)))
    {
        return Dialect::CSharp;
    }
    let Some(call) = site.call_around(site.start) else { return Dialect::Plain };
    let logging = call.name().starts_with("Log");
    if (CSHARP_FORMATTING.contains(&call.name()) || logging) && site.more_arguments(site.after) {
        Dialect::CSharp
    } else {
        Dialect::Plain
    }
}

/// The names of the arguments that fill the message's placeholders, for
/// languages whose arguments are not simply those after the literal:
/// Python's `"..." % (a, b)` and `"...".format(a, b)`, and none for Node's
/// `E('ERR_X', '...', TypeError)` (the arguments after the message are base
/// classes; the values come when the error is thrown).
pub(super) fn call_arguments(source: &str, message: &str, lang: Lang) -> Option<Vec<Option<String>>> {
    let tokens = tokenize(source, lang);
    let site = Site::find(&tokens, message)?;
    let names = |from: usize| -> Vec<Option<String>> {
        split_arguments(&tokens[from..]).iter().map(|arg| super::arg_names::name_of(arg)).collect()
    };
    let call = site.call_around(site.start);
    match lang {
        Lang::Js if call.is_some_and(|call| call.name() == "E") => Some(Vec::new()),
        Lang::Python if tokens.get(site.after).is_some_and(|t| t.is_punct('%')) => {
            if tokens.get(site.after + 1).is_some_and(|t| t.is_punct('(')) {
                Some(names(site.after + 2))
            } else {
                Some(names(site.after + 1).into_iter().take(1).collect())
            }
        }
        Lang::Python if site.method_after(site.after, "format") => {
            tokens.get(site.after + 2).is_some_and(|t| t.is_punct('(')).then(|| names(site.after + 3))
        }
        _ if tokens.get(site.after).is_some_and(|t| t.is_punct(',')) => Some(names(site.after + 1)),
        _ => None,
    }
}

/// The name of the function, macro or class the message's literal is passed
/// to (`Warnf` in `s.Warnf("...")`, `bail` in `bail!("...")`,
/// `IllegalStateException` in `throw new IllegalStateException("...")`),
/// looking through a translation call (`_("...")`); `None` when the literal
/// is not found in `source` or is not a call's argument.
pub(super) fn callee_of(source: &str, message: &str, lang: Lang) -> Option<String> {
    let tokens = tokenize(source, lang);
    let site = Site::find(&tokens, message)?;
    let mut call = site.call_around(site.start)?;
    if GETTEXT.contains(&call.name()) {
        call = site.call_around(call.open)?;
    }
    Some(call.name().to_owned()).filter(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exception_raised_with_its_format_and_arguments_is_python() {
        let dialect = |source: &str, message: &str| dialect_from_call(source, message, Lang::Python);
        let raised = "raise VariableDoesNotExist(\n    \"Failed lookup for key [%s] in %r\",\n    (bit, current),\n)";
        assert_eq!(dialect(raised, "Failed lookup for key [%s] in %r"), Some(Dialect::Python));
        // Alone, or with a percent that converts nothing, the literal is the text.
        assert_eq!(dialect("raise ValueError(\"50%s done\")", "50%s done"), Some(Dialect::Plain));
        assert_eq!(dialect("raise ValueError(\"100% done\", code)", "100% done"), Some(Dialect::Plain));
    }
}
