//! A catalog loaded at run time: the same records, compiled by the same code
//! as the `#[catalog]` macro, so it classifies messages identically.

use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use crate::build::{build_with_names, Filter};
use crate::dataset::{load_dir, Loaded, Origin};
use crate::diagnostic::Diagnostic;
use crate::entry::Entry;
use crate::format::RenderError;
use crate::matcher::{Match, Matcher};
use crate::model::{Text, Value};

#[cfg(feature = "cache")]
mod cache;

/// A set of errors with a matcher over their messages.
#[derive(Debug)]
pub struct Catalog {
    /// Holds the entries, in record order.
    matcher: Matcher<Entry>,
    /// The entries, run by run of one dataset: where each was read from,
    /// and the name of its dataset. Sorted by start; never empty but for
    /// a catalog of no entries.
    parts: Vec<Part>,
    /// Entry indexes sorted by id, by slug and by name ([`Key`] order), for
    /// binary search; each sorted on first use (sorting thousands of strings
    /// is a good part of a start-up that may never look one up).
    orders: [OnceLock<Box<[u32]>>; 3],
}

/// A run of consecutive entries of one dataset.
#[derive(Debug)]
struct Part {
    /// The index of its first entry.
    start: usize,
    /// The dataset's name, when it was given one ([`Catalog::named`]).
    dataset: Option<Text>,
    /// Where each of its entries was read from, from its first.
    origins: Origins,
}

/// Where each entry was read from (`None` for ready entries).
#[derive(Debug)]
enum Origins {
    Known(Vec<Option<Origin>>),
    /// As a cache file holds them, decoded when first asked for: decoding
    /// thousands of origins (dozens of field positions each) was nearly
    /// half of a start-up from the cache (measured), and few callers ask.
    #[cfg(feature = "cache")]
    Cached(cache::CachedOrigins),
}

impl Origins {
    fn get(&self, index: usize) -> Option<&Origin> {
        match self {
            Origins::Known(origins) => origins.get(index)?.as_ref(),
            #[cfg(feature = "cache")]
            Origins::Cached(origins) => origins.get(index),
        }
    }
}

/// What [`Catalog::by_id`], [`Catalog::by_slug`] and [`Catalog::by_name`]
/// look up, in the order of [`Catalog`]'s `orders`.
#[derive(Clone, Copy)]
enum Key {
    Id,
    Slug,
    Name,
}

impl Key {
    fn of(self, entry: &Entry) -> &str {
        match self {
            Key::Id => &entry.record().id,
            Key::Slug => &entry.record().slug,
            Key::Name => &entry.name,
        }
    }

    /// The indexes of `entries` sorted by this key; of entries with one key,
    /// the first in record order comes first (a stable sort).
    fn order(self, entries: &[Entry]) -> Box<[u32]> {
        let mut order: Vec<u32> = (0..entries.len() as u32).collect();
        order.sort_by(|&a, &b| self.of(&entries[a as usize]).cmp(self.of(&entries[b as usize])));
        order.into_boxed_slice()
    }
}

/// Loading failed: every problem found, errors first.
#[derive(Clone, Debug)]
pub struct LoadError {
    /// Every problem, errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.diagnostics.iter().filter(|d| d.is_error()).count();
        writeln!(f, "the dataset has {errors} error(s):")?;
        for diagnostic in self.diagnostics.iter().filter(|d| d.is_error()) {
            writeln!(f, "{diagnostic}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

/// A loaded dataset compiled into entries, before the matcher is built: what
/// [`Catalog::load_filtered`] computes from the files, and what the cache
/// (`cache.rs`) stores in their place.
#[derive(Debug, PartialEq)]
pub(crate) struct Compiled {
    pub entries: Vec<Entry>,
    pub origins: Vec<Origin>,
    /// Warnings only: a load with errors is a [`LoadError`].
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// Compiles and filters the records of `loaded`.
    pub fn new(loaded: Loaded, filter: &Filter) -> Result<Compiled, LoadError> {
        // The slower check of each record's own pattern is left to
        // `check_patterns` (`errcat check`): loading stays fast.
        let built = build_with_names(loaded.records, &loaded.names, filter);
        let mut diagnostics = loaded.diagnostics;
        diagnostics.extend(built.diagnostics);
        diagnostics.sort_by_key(|d| d.level);
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Err(LoadError { diagnostics });
        }
        let (entries, origins) = built.entries.into_iter().map(|e| (e.entry, e.origin)).unzip();
        Ok(Compiled { entries, origins, diagnostics })
    }

    /// The catalog, and the warnings.
    pub fn into_catalog(self) -> (Catalog, Vec<Diagnostic>) {
        let origins = self.origins.into_iter().map(Some).collect();
        (Catalog::with_origins(self.entries, origins), self.diagnostics)
    }
}

impl Catalog {
    /// Loads every record under `dir` (see [`load_dir`]). Any error fails the
    /// load. The check of each record's own `messagePattern` against its
    /// message is [`check_patterns`](crate::build::check_patterns), apart, as it is slower.
    ///
    /// ```
    /// let catalog = catalog_runtime::Catalog::load("../data/nats-io/nats-server").unwrap();
    /// assert_eq!(catalog.len(), 3);
    /// assert!(catalog_runtime::Catalog::load("no/such/dir").is_err());
    /// ```
    pub fn load(dir: impl AsRef<Path>) -> Result<Catalog, LoadError> {
        Catalog::load_filtered(dir, &Filter::default()).map(|(catalog, _)| catalog)
    }

    /// Loads the records under `dir` that pass `filter`, with any warnings.
    pub fn load_filtered(dir: impl AsRef<Path>, filter: &Filter) -> Result<(Catalog, Vec<Diagnostic>), LoadError> {
        Compiled::new(load_dir(dir.as_ref()), filter).map(Compiled::into_catalog)
    }

    /// A catalog of ready entries (for example a generated enum's metadata).
    pub fn from_entries(entries: Vec<Entry>) -> Catalog {
        let origins = vec![None; entries.len()];
        Catalog::with_origins(entries, origins)
    }

    /// One catalog of the entries of `catalogs`, in order, each with where
    /// it was read from and its dataset's name: several datasets scanned at
    /// once. Lookups by id, slug or name give the first entry that has it,
    /// so callers that need ids unique check them first.
    ///
    /// ```
    /// use catalog_runtime::Catalog;
    /// let nats = || Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let both = Catalog::concat(vec![nats(), nats().named("copy")]);
    /// assert_eq!(both.len(), 2 * nats().len());
    /// assert_eq!(both.origin(3), nats().origin(0));
    /// assert_eq!((both.dataset(0), both.dataset(3)), (None, Some("copy")));
    /// ```
    pub fn concat(catalogs: Vec<Catalog>) -> Catalog {
        let mut entries = Vec::new();
        let mut parts = Vec::new();
        for catalog in catalogs {
            let start = entries.len();
            parts.extend(catalog.parts.into_iter().map(|part| Part { start: start + part.start, ..part }));
            entries.extend(catalog.matcher.into_items());
        }
        Catalog::with_parts(entries, parts)
    }

    /// The catalog of the entries of the datasets that `keep` keeps (by
    /// name; `None` for entries of no named dataset), in order.
    ///
    /// ```
    /// use catalog_runtime::Catalog;
    /// let nats = || Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let both = Catalog::concat(vec![nats().named("a"), nats().named("b")]);
    /// let b = both.retain_datasets(|name| name == Some("b"));
    /// assert_eq!((b.len(), b.dataset(0)), (nats().len(), Some("b")));
    /// ```
    pub fn retain_datasets(self, mut keep: impl FnMut(Option<&str>) -> bool) -> Catalog {
        let ends: Vec<usize> = self.parts.iter().skip(1).map(|part| part.start).chain([self.len()]).collect();
        let mut items = self.matcher.into_items().into_iter();
        let mut entries = Vec::new();
        let mut parts = Vec::new();
        for (part, end) in self.parts.into_iter().zip(ends) {
            let run = items.by_ref().take(end - part.start);
            if keep(part.dataset.as_deref()) {
                parts.push(Part { start: entries.len(), ..part });
                entries.extend(run);
            } else {
                run.for_each(drop);
            }
        }
        Catalog::with_parts(entries, parts)
    }

    /// The same catalog, its entries all of the dataset `name` (see
    /// [`dataset`](Self::dataset)).
    pub fn named(mut self, name: impl Into<Text>) -> Catalog {
        let name = name.into();
        for part in &mut self.parts {
            part.dataset = Some(name.clone());
        }
        self
    }

    /// The name of the dataset of entry `index`, if it was given one
    /// ([`named`](Self::named)).
    pub fn dataset(&self, index: usize) -> Option<&str> {
        self.part_of(index)?.dataset.as_deref()
    }

    /// The runs of entries of one dataset, in order: each dataset's name
    /// (if given one) and the indexes of its entries.
    pub fn datasets(&self) -> impl Iterator<Item = (Option<&str>, Range<usize>)> {
        let ends = self.parts.iter().skip(1).map(|part| part.start).chain([self.len()]);
        self.parts.iter().zip(ends).map(|(part, end)| (part.dataset.as_deref(), part.start..end))
    }

    /// The catalog of `entries`, read from `origins` (one each).
    pub(crate) fn with_origins(entries: Vec<Entry>, origins: Vec<Option<Origin>>) -> Catalog {
        Catalog::with(entries, Origins::Known(origins))
    }

    fn with(entries: Vec<Entry>, origins: Origins) -> Catalog {
        Catalog::with_parts(entries, vec![Part { start: 0, dataset: None, origins }])
    }

    fn with_parts(entries: Vec<Entry>, parts: Vec<Part>) -> Catalog {
        Catalog::with_matcher(Matcher::from_items(entries), parts)
    }

    /// The catalog of `matcher`'s entries, in the runs of `parts`.
    fn with_matcher(matcher: Matcher<Entry>, mut parts: Vec<Part>) -> Catalog {
        // An empty run would hide nothing, but lookups skip it all the same.
        let len = matcher.items().len();
        let mut ends = parts.iter().skip(1).map(|part| part.start).chain([len]).collect::<Vec<_>>().into_iter();
        parts.retain(|part| ends.next().is_some_and(|end| end > part.start));
        Catalog { matcher, parts, orders: Default::default() }
    }

    /// The run that entry `index` is in.
    fn part_of(&self, index: usize) -> Option<&Part> {
        if index >= self.len() {
            return None;
        }
        let after = self.parts.partition_point(|part| part.start <= index);
        self.parts.get(after.checked_sub(1)?)
    }

    /// The entries, in record order.
    ///
    /// ```
    /// let catalog = catalog_runtime::Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let entries: &[catalog_runtime::Entry] = catalog.entries();
    /// assert_eq!(entries.len(), 3);
    /// assert!(entries.iter().all(|entry| !entry.name.is_empty()));
    /// ```
    pub fn entries(&self) -> &[Entry] {
        self.matcher.items()
    }

    /// Entry `index` (as `entries()[index]`).
    ///
    /// # Panics
    ///
    /// When `index` is not below [`len`](Self::len).
    pub fn entry(&self, index: usize) -> &Entry {
        &self.entries()[index]
    }

    /// The first entry, in record order, whose `key` is `wanted`.
    fn lookup(&self, key: Key, wanted: &str) -> Option<usize> {
        let entries = self.entries();
        let sorted = self.orders[key as usize].get_or_init(|| key.order(entries));
        let first = sorted.partition_point(|&index| key.of(&entries[index as usize]) < wanted);
        sorted.get(first).map(|&index| index as usize).filter(|&index| key.of(&entries[index]) == wanted)
    }

    /// Where entry `index` was read from, when loaded from files.
    pub fn origin(&self, index: usize) -> Option<&Origin> {
        let part = self.part_of(index)?;
        part.origins.get(index - part.start)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether the catalog has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The matcher over the entries' messages.
    pub fn matcher(&self) -> &Matcher<Entry> {
        &self.matcher
    }

    /// The entry with this id.
    pub fn by_id(&self, id: &str) -> Option<usize> {
        self.lookup(Key::Id, id)
    }

    /// The first entry with this slug.
    pub fn by_slug(&self, slug: &str) -> Option<usize> {
        self.lookup(Key::Slug, slug)
    }

    /// The entry with this variant name.
    pub fn by_name(&self, name: &str) -> Option<usize> {
        self.lookup(Key::Name, name)
    }

    /// The best entry for a whole message.
    ///
    /// ```
    /// # let catalog = catalog_runtime::Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let found = catalog.parse(r#"unable to persist session "s1" (seq=3): nats: timeout"#).unwrap();
    /// assert_eq!(catalog.entries()[found.index].record().id, "503f49fe39cf5793");
    /// // A whole message only: a log prefix is `find`'s business.
    /// assert!(catalog.parse(r#"[ERR] unable to persist session "s1" (seq=3): x"#).is_none());
    /// ```
    pub fn parse<'h>(&self, message: &'h str) -> Option<Match<'h>> {
        self.matcher.parse(message)
    }

    /// The best entry for a message inside a log line.
    pub fn find<'h>(&self, line: &'h str) -> Option<Match<'h>> {
        self.matcher.find(line)
    }

    /// Every entry that matches inside a log line, best first.
    pub fn find_all<'h>(&self, line: &'h str) -> Vec<Match<'h>> {
        self.matcher.find_all(line)
    }

    /// Renders entry `index`'s message with `values` (one per field); an
    /// error when values are missing.
    ///
    /// # Panics
    ///
    /// When `index` is not below [`len`](Self::len).
    ///
    /// ```
    /// # use catalog_runtime::Value;
    /// # let catalog = catalog_runtime::Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let index = catalog.by_id("503f49fe39cf5793").unwrap();
    /// let values = [Value::Str("s1".into()), Value::Str("3".into()), Value::Str("nats: timeout".into())];
    /// let message = catalog.render(index, &values).unwrap();
    /// assert_eq!(message, r#"unable to persist session "s1" (seq=3): nats: timeout"#);
    /// assert!(catalog.render(index, &values[..1]).is_err());
    /// ```
    pub fn render(&self, index: usize, values: &[Value<'_>]) -> Result<String, RenderError> {
        self.entry(index).template.render(values)
    }
}
