//! The extractors through the public API: the shapes each reads, what it
//! leaves out, and source text no extractor may crash on.

use catalog_extract::lang::{self, Language};
use catalog_extract::Found;

fn messages(lang: &dyn Language, file: &str, text: &str) -> Vec<(String, String, String)> {
    lang.extract_file(file, text).into_iter().map(|f: Found| (f.message, f.error_type, f.severity)).collect()
}

#[test]
fn a_rust_message_built_first_is_found_when_it_reaches_an_error_or_a_warning() {
    let rust = lang::language("rust").expect("rust");
    let src = r#"
fn resolve(dep: &str, warnings: &mut Vec<String>) -> anyhow::Result<()> {
    let mut msg = String::new();
    let _ = writeln!(&mut msg, "no matching package named `{}` found", dep);
    let hint = format!("perhaps you meant: {dep} with a longer name");
    let unused = format!("unused manifest key: {}", dep);
    warnings.push(unused);
    let kept_aside = format!("never raised anywhere at all: {}", dep);
    println!("{kept_aside}");
    anyhow::bail!("{msg}{hint}")
}
"#;
    let found = messages(rust, "src/resolver.rs", src);
    let expect = |m: &str, t: &str, s: &str| (m.to_string(), t.to_string(), s.to_string());
    assert_eq!(
        found,
        [
            expect("no matching package named `{}` found", "exception", "error"),
            expect("perhaps you meant: {dep} with a longer name", "exception", "error"),
            expect("unused manifest key: {}", "log", "warning"),
        ]
    );
    let record = &rust.extract_file("src/resolver.rs", src)[0];
    assert_eq!(record.call_lines, (4, 4));
    assert_eq!(rust.message_pattern(record), "no matching package named `(.*?)` found");
}

/// Cargo's shapes: a message given by the branches of an `if`, written
/// with `write!(msg, ..)`, handed to annotate-snippets' `primary_title`, and
/// the value of a `.with_context(|| { .. })` block after its `let`s.
#[test]
fn a_rust_message_built_in_branches_a_block_or_a_report_title_is_found() {
    let rust = lang::language("rust").expect("rust");
    let src = r#"
fn features(one: bool, name: &str) -> anyhow::Result<()> {
    let mut msg = if one {
        format!("the package '{}' does not contain this feature: {}", name, name)
    } else {
        format!("none of the selected packages contains this feature: {}", name)
    };
    anyhow::bail!(msg)
}
fn targets(kind: &str) -> anyhow::Result<()> {
    let mut msg = String::new();
    write!(msg, "no {kind} target named `{}` in default-run packages", kind)?;
    anyhow::bail!(msg);
}
fn path(gctx: &Ctx) {
    let err_msg = format!("can't find {} `{}` at path `{}`", a, b, c);
    let group = Group::with_title(Level::ERROR.primary_title(err_msg));
    let note = format!("a report title that is only a note: {}", a);
    let other = Group::with_title(Level::NOTE.primary_title(note));
}
fn compile() -> anyhow::Result<()> {
    run().with_context(|| {
        let errors = match seen {
            1 => " due to 1 previous error".to_string(),
            count => format!(" due to {} previous errors", count),
        };
        format!("could not compile {name}{errors}")
    })
}
"#;
    let found: Vec<String> = messages(rust, "src/ops/compile.rs", src).into_iter().map(|(m, _, _)| m).collect();
    assert_eq!(
        found,
        [
            "could not compile {name}{errors}",
            "the package '{}' does not contain this feature: {}",
            "none of the selected packages contains this feature: {}",
            "no {kind} target named `{}` in default-run packages",
            "can't find {} `{}` at path `{}`",
        ]
    );
}

/// Node's shapes: a message built in a variable before `new Error(message)`
/// or `genericNodeError(msg, ...)`, and an error class's constructor
/// giving `super` its message (with the class's code), and the messages of
/// a table of literals the constructor reads.
#[test]
fn a_javascript_message_built_first_or_by_an_error_class_is_found() {
    let javascript = lang::language("javascript").expect("javascript");
    let src = r#"
class UnhandledPromiseRejection extends Error {
  code = 'ERR_UNHANDLED_REJECTION';
  constructor(reason) {
    super('The promise rejected with the reason "' + noSideEffectsToString(reason) + '".');
  }
}
function notFound(request, requireStack) {
  let message = `Cannot find module '${request}'`;
  if (requireStack.length > 0) {
    message = message + '\nRequire stack:\n- ' + requireStack.join('\n- ');
  }
  const err = new Error(message);
  throw err;
}
function checkExecSyncError(ret, cmd) {
  let msg = 'Command failed: ';
  msg += cmd;
  return genericNodeError(msg, ret);
}
function passedThrough(message) {
  throw new TypeError(message);
}
const kReadableOperator = {
  strictEqual: 'Expected values to be strictly equal:',
  deepEqual: 'Expected values to be loosely deep-equal:',
};
class AssertionError extends Error {
  constructor(options) {
    const base = kReadableOperator[options.operator];
    super(`${base}\n\n${options.diff}`);
    this.code = 'ERR_ASSERTION';
  }
}
"#;
    let found = javascript.extract_file("lib/internal/modules.js", src);
    let shown: Vec<(&str, Option<&str>, Option<&str>)> =
        found.iter().map(|f| (f.message.as_str(), f.error_class.as_deref(), f.error_code.as_deref())).collect();
    assert_eq!(
        shown,
        [
            ("Cannot find module '${request}'\nRequire stack:\n- ${requireStack.join('\\n- ')}", Some("Error"), None),
            ("Cannot find module '${request}'", Some("Error"), None),
            ("Command failed: ${cmd}", Some("Error"), None),
            (
                "The promise rejected with the reason \"${noSideEffectsToString(reason)}\".",
                Some("UnhandledPromiseRejection"),
                Some("ERR_UNHANDLED_REJECTION")
            ),
            ("Expected values to be strictly equal:", Some("AssertionError"), Some("ERR_ASSERTION")),
            ("Expected values to be loosely deep-equal:", Some("AssertionError"), Some("ERR_ASSERTION")),
        ]
    );
    // The record spans the message's building and the error's making.
    assert_eq!(found[0].call_lines, (9, 13));
}

/// Django's `check`: a message built from styled text and the values after
/// it, then raised.
#[test]
fn a_python_message_built_from_styled_text_is_found() {
    let python = lang::language("python").expect("python");
    let src = r#"
class BaseCommand:
    def check(self, issues):
        header, body, footer = "", "", ""
        if issues:
            header = "System check identified some issues:\n"
        if any(e.is_serious() for e in issues):
            msg = self.style.ERROR("SystemCheckError: %s" % header) + body + footer
            raise SystemCheckError(msg)
"#;
    let found = messages(python, "django/core/management/base.py", src);
    assert_eq!(found, [("SystemCheckError: %s".to_string(), "exception".to_string(), "error".to_string())]);
}

#[test]
fn plain_and_format_messages_get_their_patterns() {
    let go = lang::language("go").expect("go");
    let src = "package server\n\nfunc f() error {\n\tif x {\n\t\treturn errors.New(\"needs %USERPROFILE% set\")\n\t}\n\treturn fmt.Errorf(\"bad listen port %d (%s)\", p, s)\n}\n";
    let found = go.extract_file("server/a.go", src);
    let patterns: Vec<String> = found.iter().map(|f| go.message_pattern(f)).collect();
    assert_eq!(patterns, [r"needs %USERPROFILE% set", r"bad listen port (.+?) \((.+?)\)"]);
    assert_eq!(found[0].context.as_deref(), Some("Returned by f in server/a.go when `x`."));
}

#[test]
fn hostile_source_never_crashes_an_extractor() {
    let samples = [
        include_str!("fixtures/go/server/jwt.go"),
        include_str!("fixtures/rust/src/resolver/errors.rs"),
        include_str!("fixtures/java/connect/mirror/src/main/java/org/apache/kafka/connect/mirror/MirrorHerder.java"),
        "fmt.Errorf(\"é\\",
        "bail!(r##\"unterminated",
        "b'\\",
        "log.error(\"\\u12",
        "\"\\x",
        "'é",
        "}}}{{{)))(((",
        "let m = format!(\"{:>0$}\");writeln!(&mut",
    ];
    for lang in lang::languages() {
        for sample in samples {
            // Prefixes (at character boundaries; of a whole file about 300,
            // each byte for the short samples): literals, comments and calls
            // cut anywhere.
            let cuts = (0..=sample.len())
                .step_by((sample.len() / 300).max(1))
                .chain([sample.len()])
                .filter(|&i| sample.is_char_boundary(i));
            for cut in cuts {
                let text = &sample[..cut];
                for found in lang.extract_file("server/src/main/java/x", text) {
                    let _ = lang.message_pattern(&found);
                    let _ = lang.tag(&found);
                }
            }
        }
    }
}
