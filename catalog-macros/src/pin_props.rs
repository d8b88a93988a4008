//! Property test of names files: a random dataset is pinned (what `errcat
//! names` writes), then records are added, removed and reworded at random.
//! Every pinned record still there keeps its variant name (and its field
//! names while it has as many fields), no two records share a name, a new
//! record never takes a pinned name, every removed pinned record is reported
//! (and nothing else is), and the enum the macro generates has exactly the
//! variants and fields the run-time loader builds.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use catalog_runtime::build::{build_with_names, Built};
use catalog_runtime::{load_dir, Catalog, Filter, Names, NAMES_FILE};
use proptest::prelude::*;
use quote::quote;

/// Few words, so that messages often start alike and the rule has to
/// lengthen names: the case names files are for.
const WORDS: [&str; 6] = ["gateway", "stream", "session", "lost", "full", "closed"];
const ARGUMENTS: [&str; 5] = ["name", "seq", "err", "acc.Name", "size"];
const VERBS: [&str; 4] = ["%q", "%d", "%v", "%t"];

/// A record's message, as words and placeholders (a verb and its argument).
#[derive(Clone, Debug)]
struct Message(Vec<Token>);

#[derive(Clone, Debug)]
enum Token {
    Word(usize),
    Placeholder { verb: usize, argument: usize },
}

fn message() -> impl Strategy<Value = Message> {
    let token = prop_oneof![
        3 => (0..WORDS.len()).prop_map(Token::Word),
        1 => (0..VERBS.len(), 0..ARGUMENTS.len()).prop_map(|(verb, argument)| Token::Placeholder { verb, argument }),
    ];
    (0..WORDS.len(), proptest::collection::vec(token, 0..5)).prop_map(|(first, rest)| {
        let mut tokens = vec![Token::Word(first)];
        tokens.extend(rest);
        Message(tokens)
    })
}

impl Message {
    /// The record file: a Go call, so fields are named from its arguments.
    fn record(&self, id: &str) -> String {
        let mut format = Vec::new();
        let mut arguments = Vec::new();
        for token in &self.0 {
            match token {
                Token::Word(word) => format.push(WORDS[*word].to_owned()),
                Token::Placeholder { verb, argument } => {
                    format.push(VERBS[*verb].to_owned());
                    arguments.push(ARGUMENTS[*argument]);
                }
            }
        }
        let format = format.join(" ");
        let call = std::iter::once(format!("\\\"{format}\\\"")).chain(arguments.iter().map(|a| a.to_string()));
        let source = format!("return fmt.Errorf({})", call.collect::<Vec<_>>().join(", "));
        format!(
            r#"{{"record": {{"id": "{id}", "errorMessage": "{format}", "filePath": "server/x.go", "sourceCode": "{source}"}}}}"#
        )
    }
}

/// A dataset, then the update: records added, removed and reworded.
#[derive(Debug)]
struct Case {
    first: Vec<Message>,
    added: Vec<Message>,
    /// Indexes into `first`.
    removed: HashSet<usize>,
    reworded: BTreeMap<usize, Message>,
}

fn case() -> impl Strategy<Value = Case> {
    proptest::collection::vec(message(), 1..25).prop_flat_map(|first| {
        let n = first.len();
        (
            Just(first),
            proptest::collection::vec(message(), 0..12),
            proptest::collection::hash_set(0..n, 0..=n / 3),
            proptest::collection::btree_map(0..n, message(), 0..=n / 3),
        )
            .prop_map(|(first, added, removed, reworded)| Case { first, added, removed, reworded })
    })
}

/// A dataset directory below the workspace's `target/` (the macro takes
/// paths relative to the manifest directory only), removed on drop.
struct CaseDir {
    relative: String,
    path: PathBuf,
}

impl CaseDir {
    fn new() -> CaseDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let relative = format!("../target/pin-props/{}-{n}", std::process::id());
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&relative);
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        CaseDir { relative, path }
    }

    fn write(&self, id: &str, message: &Message) {
        fs::write(self.path.join(format!("{id}.json")), message.record(id)).unwrap();
    }
}

impl Drop for CaseDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

fn id(n: usize) -> String {
    format!("{:016x}", 0x5eed_0000_0000_0000_u64 + n as u64 * 0x1_0001)
}

/// `(id, variant, fields)` of every entry, in catalog order.
type Shape = Vec<(String, String, Vec<String>)>;

fn shape_of(built: &Built) -> Shape {
    built
        .entries
        .iter()
        .map(|e| {
            (
                e.entry.record().id.to_string(),
                e.entry.name.to_string(),
                e.entry.field_names().map(str::to_owned).collect(),
            )
        })
        .collect()
}

fn build_dir(dir: &Path) -> (Built, Names) {
    let loaded = load_dir(dir);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let built = build_with_names(loaded.records, &loaded.names, &Filter::default());
    (built, loaded.names)
}

/// The variants and fields of the enum the attribute generates, and its
/// number of compile errors.
fn compiled(dir: &CaseDir) -> (Vec<(String, Vec<String>)>, usize) {
    let relative = &dir.relative;
    let code = crate::attribute::catalog(
        quote!(path = #relative),
        quote!(
            pub enum E {}
        ),
    );
    let errors = code.to_string().matches("compile_error").count();
    let file: syn::File = syn::parse2(code).expect("generated code parses");
    let variants = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Enum(e) if e.ident == "E" => Some(e),
            _ => None,
        })
        .expect("the enum is generated")
        .variants
        .iter()
        .map(|v| (v.ident.to_string(), v.fields.iter().map(|f| f.ident.as_ref().unwrap().to_string()).collect()))
        .collect();
    (variants, errors)
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let dir = CaseDir::new();
    for (n, message) in case.first.iter().enumerate() {
        dir.write(&id(n), message);
    }
    // `errcat names`: the names as built, pinned.
    let (first, _) = build_dir(&dir.path);
    let pins = Names::of_entries(first.entries.iter().map(|e| &e.entry));
    fs::write(dir.path.join(NAMES_FILE), pins.to_text()).unwrap();
    let pinned: HashMap<String, (String, Vec<String>)> =
        shape_of(&first).into_iter().map(|(id, name, fields)| (id, (name, fields))).collect();

    for &n in &case.removed {
        fs::remove_file(dir.path.join(format!("{}.json", id(n)))).unwrap();
    }
    for (&n, message) in &case.reworded {
        if !case.removed.contains(&n) {
            dir.write(&id(n), message);
        }
    }
    for (n, message) in case.added.iter().enumerate() {
        dir.write(&id(1000 + n), message);
    }

    let (after, names) = build_dir(&dir.path);
    let shape = shape_of(&after);
    let pinned_names: HashSet<&str> = pinned.values().map(|(name, _)| name.as_str()).collect();
    for (id, name, fields) in &shape {
        match pinned.get(id) {
            Some((pinned_name, pinned_fields)) => {
                prop_assert_eq!(name, pinned_name, "record {} was renamed", id);
                if fields.len() == pinned_fields.len() {
                    let (mut a, mut b) = (fields.clone(), pinned_fields.clone());
                    a.sort();
                    b.sort();
                    prop_assert_eq!(a, b, "fields of {} were renamed", id);
                }
            }
            None => prop_assert!(!pinned_names.contains(name.as_str()), "new record {} took pinned name {}", id, name),
        }
    }
    let unique: HashSet<&str> = shape.iter().map(|(_, name, _)| name.as_str()).collect();
    prop_assert_eq!(unique.len(), shape.len(), "two records share a name: {:?}", shape);
    let mut stale: Vec<String> = after.stale_pins.iter().map(|pin| pin.id.clone()).collect();
    let mut removed: Vec<String> = case.removed.iter().map(|&n| id(n)).collect();
    stale.sort();
    removed.sort();
    prop_assert_eq!(&stale, &removed, "stale pins");
    let errors: Vec<_> = after.diagnostics.iter().filter(|d| d.is_error()).collect();
    prop_assert!(errors.iter().all(|d| after.is_stale_pin_error(&names, d)), "{:?}", errors);

    // Compiled and loaded agree, variant by variant.
    let (variants, compile_errors) = compiled(&dir);
    let loaded: Vec<(String, Vec<String>)> =
        shape.iter().map(|(_, name, fields)| (name.clone(), fields.clone())).collect();
    prop_assert_eq!(&variants, &loaded);
    prop_assert_eq!(compile_errors, removed.len());
    if removed.is_empty() {
        let catalog = Catalog::load(&dir.path).expect("loads without stale pins");
        let names: Vec<&str> = catalog.entries().iter().map(|e| e.name.as_ref()).collect();
        let expected: Vec<&str> = loaded.iter().map(|(name, _)| name.as_str()).collect();
        prop_assert_eq!(names, expected);
    }

    // `errcat names` again: it pins the names in use, and drops the stale pins.
    let repinned = Names::of_entries(after.entries.iter().map(|e| &e.entry));
    fs::write(dir.path.join(NAMES_FILE), repinned.to_text()).unwrap();
    let (again, _) = build_dir(&dir.path);
    prop_assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
    prop_assert_eq!(shape_of(&again), shape);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn pinned_names_survive_any_update(case in case()) {
        check(&case)?;
    }
}
