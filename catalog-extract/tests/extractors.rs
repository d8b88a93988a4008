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
