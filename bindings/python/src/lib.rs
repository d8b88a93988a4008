//! `error_catalog._native`: the Python classes of the `error_catalog`
//! package over the Rust engine (`catalog_runtime::Catalog`), the same one
//! `errcat` runs.

use std::path::PathBuf;
use std::sync::Arc;

use catalog_runtime::{
    Catalog as Engine, Diagnostic as RustDiagnostic, Entry as RustEntry, Filter, Match as RustMatch, Value,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

mod arrow;
mod classify;
mod columns;
mod embedded;
mod export;
mod list;

use classify::Column;
use list::type_name;

create_exception!(
    error_catalog,
    CatalogError,
    PyException,
    "Something is wrong with a catalog (its records, or its compiled bytes)."
);
create_exception!(
    error_catalog,
    CatalogLoadError,
    CatalogError,
    "The records of a dataset could not be loaded: `diagnostics` lists every problem, each with its \
     record file, line, column and field; the message shows the errors as `file:line:column: field `name`: message`."
);
create_exception!(
    error_catalog,
    CatalogWarning,
    pyo3::exceptions::PyUserWarning,
    "A record was loaded, but something in it is wrong (a warning of the loader), or lines were skipped by classify()."
);

/// One problem in a record file.
#[pyclass(frozen, get_all, module = "error_catalog")]
#[derive(Clone)]
struct Diagnostic {
    /// `"error"` or `"warning"`.
    level: String,
    /// The record file, as named to the loader.
    path: String,
    /// 1-based line.
    line: usize,
    /// 1-based column, in characters.
    column: usize,
    /// The JSON field concerned (`"errorMessage"`, ...), or None.
    field: Option<String>,
    /// What is wrong.
    message: String,
}

impl Diagnostic {
    fn new(diagnostic: &RustDiagnostic) -> Self {
        Diagnostic {
            level: if diagnostic.is_error() { "error" } else { "warning" }.into(),
            path: diagnostic.path.display().to_string(),
            line: diagnostic.line,
            column: diagnostic.column,
            field: diagnostic.field.clone(),
            message: diagnostic.message.clone(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    /// `file:line:column: field `name`: message`, as errcat prints it.
    fn __str__(&self) -> String {
        let mut text = format!("{}:{}:{}: ", self.path, self.line, self.column);
        if self.level == "warning" {
            text.push_str("warning: ");
        }
        if let Some(field) = &self.field {
            text.push_str(&format!("field `{field}`: "));
        }
        text + &self.message
    }

    fn __repr__(&self) -> String {
        format!("<Diagnostic {}>", self.__str__())
    }
}

/// The `CatalogLoadError` for a failed load, with its `diagnostics`.
fn load_error(py: Python<'_>, error: &catalog_runtime::LoadError) -> PyErr {
    let diagnostics: Vec<Diagnostic> = error.diagnostics.iter().map(Diagnostic::new).collect();
    let err = CatalogLoadError::new_err(error.to_string().trim_end().to_owned());
    let value = err.value(py);
    let attached = PyList::new(py, diagnostics).and_then(|list| value.setattr("diagnostics", list));
    match attached {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// A field value as its Python type: int (of any size), float, bool, str,
/// or bytes for a value that is not UTF-8 (Go's `%q` of invalid UTF-8).
fn value_to_py<'py>(py: Python<'py>, value: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Value::Int(v) => v.into_bound_py_any(py),
        Value::Uint(v) => v.into_bound_py_any(py),
        Value::BigInt(text) => py.import("builtins")?.getattr("int")?.call1((text.as_ref(),)),
        Value::Float(v) => v.into_bound_py_any(py),
        Value::Float32(v) => f64::from(*v).into_bound_py_any(py),
        Value::Bool(v) => v.into_bound_py_any(py),
        Value::Str(v) => v.as_ref().into_bound_py_any(py),
        Value::Bytes(bytes) => PyBytes::new(py, bytes).into_bound_py_any(py),
        // A kind of value a later runtime adds: its text.
        other => other.to_string().into_bound_py_any(py),
    }
}

/// One error of a catalog: its record's metadata and its compiled message.
#[pyclass(frozen, module = "error_catalog")]
struct Entry {
    catalog: Arc<Engine>,
    index: usize,
}

impl Entry {
    fn entry(&self) -> &RustEntry {
        &self.catalog.entries()[self.index]
    }
}

fn optional(text: &Option<std::borrow::Cow<'static, str>>) -> Option<String> {
    text.as_deref().map(str::to_owned)
}

#[pymethods]
impl Entry {
    /// The record's id (16 hex digits in the upstream data).
    #[getter]
    fn id(&self) -> &str {
        &self.entry().record().id
    }
    /// The record's slug (URL-safe name derived from the message).
    #[getter]
    fn slug(&self) -> &str {
        &self.entry().record().slug
    }
    /// The variant name (`UnableToPersistSession`), as in the generated Rust enum.
    #[getter]
    fn name(&self) -> &str {
        &self.entry().name
    }
    /// The severity (`"error"` when the record does not say).
    #[getter]
    fn severity(&self) -> String {
        self.entry().record().severity_or_default().as_str().to_owned()
    }
    /// The message's format string, as written in the source.
    #[getter]
    fn message(&self) -> &str {
        &self.entry().record().error_message
    }
    /// The record's regex for the message, or None.
    #[getter]
    fn message_pattern(&self) -> Option<String> {
        optional(&self.entry().record().message_pattern)
    }
    /// What the error means.
    #[getter]
    fn documentation(&self) -> &str {
        &self.entry().record().documentation
    }
    /// How to fix it.
    #[getter]
    fn solutions(&self) -> Vec<String> {
        self.entry().record().solutions.iter().map(|s| s.to_string()).collect()
    }
    /// How to avoid it.
    #[getter]
    fn prevention_tips(&self) -> Vec<String> {
        self.entry().record().prevention_tips.iter().map(|s| s.to_string()).collect()
    }
    /// What a caller should do (`"retry"`, `"fail"`, ...), or None.
    #[getter]
    fn handling_strategy(&self) -> Option<String> {
        self.entry().record().handling_strategy.as_ref().map(|s| s.as_str().to_owned())
    }
    /// Link to the source lines that raise it, or None.
    #[getter]
    fn source_link(&self) -> Option<String> {
        optional(&self.entry().record().github_url)
    }
    /// The project, `owner/name`.
    #[getter]
    fn repo(&self) -> &str {
        &self.entry().record().repo
    }
    /// The source file that raises it, relative to the repository.
    #[getter]
    fn file_path(&self) -> &str {
        &self.entry().record().file_path
    }
    /// The line of the message in that file, or None.
    #[getter]
    fn line_number(&self) -> Option<u32> {
        self.entry().record().line_number
    }
    /// Free-form tags.
    #[getter]
    fn tags(&self) -> Vec<String> {
        self.entry().record().tags.iter().map(|s| s.to_string()).collect()
    }
    /// The message's fields in order, as `(name, type)` with type one of
    /// `"int"`, `"float"`, `"bool"`, `"str"`.
    #[getter]
    fn fields(&self) -> Vec<(String, &'static str)> {
        self.entry()
            .template
            .fields
            .iter()
            .map(|field| {
                let kind = match field.kind {
                    catalog_runtime::ValueKind::Int => "int",
                    catalog_runtime::ValueKind::Float => "float",
                    catalog_runtime::ValueKind::Bool => "bool",
                    // Quoted, text, and any kind a later runtime adds.
                    _ => "str",
                };
                (field.name.to_string(), kind)
            })
            .collect()
    }
    /// The name of the dataset the record is from (`errcat scan --json`'s
    /// `dataset`): an embedded one's, or the folder's name for `Catalog.load`;
    /// None for a catalog of bytes written without one.
    #[getter]
    fn dataset(&self) -> Option<&str> {
        self.catalog.dataset(self.index)
    }
    /// The record file, line and column it was read from, or None (the
    /// embedded catalog).
    #[getter]
    fn origin(&self) -> Option<(String, usize, usize)> {
        self.catalog.origin(self.index).map(|o| (o.path.display().to_string(), o.line, o.column))
    }
    /// The whole record as a dict, with the dataset's camelCase field names.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.entry().record()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }
    fn __repr__(&self) -> String {
        format!(
            "<Entry {} {} ({}): {:?}>",
            self.entry().record().id,
            self.entry().name,
            self.severity(),
            self.message()
        )
    }
}

/// A record found in a line or message.
#[pyclass(frozen, module = "error_catalog")]
struct Match {
    entry: Py<Entry>,
    /// The message's place in the line, in str indices: `line[start:end]`.
    #[pyo3(get)]
    span: (usize, usize),
    /// The same in UTF-8 bytes, as `errcat scan --json` reports `span`.
    #[pyo3(get)]
    byte_span: (usize, usize),
    fields: Py<PyDict>,
    args: Py<PyList>,
}

#[pymethods]
impl Match {
    /// The record's entry (all its metadata).
    #[getter]
    fn entry(&self, py: Python<'_>) -> Py<Entry> {
        self.entry.clone_ref(py)
    }
    /// The record's id.
    #[getter]
    fn id(&self) -> String {
        self.entry.get().id().to_owned()
    }
    /// The record's slug.
    #[getter]
    fn slug(&self) -> String {
        self.entry.get().slug().to_owned()
    }
    /// The variant name.
    #[getter]
    fn name(&self) -> String {
        self.entry.get().name().to_owned()
    }
    /// The record's severity.
    #[getter]
    fn severity(&self) -> String {
        self.entry.get().severity()
    }
    /// The name of the record's dataset, or None (see `Entry.dataset`).
    #[getter]
    fn dataset(&self) -> Option<String> {
        self.entry.get().dataset().map(str::to_owned)
    }
    /// The captured fields by name, typed (int, float, bool or str). A copy.
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }
    /// The captured values in placeholder order (a value rendered twice
    /// appears twice), as `errcat scan --json`'s `args`.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.args.bind(py).get_slice(0, usize::MAX).into_pyobject(py).map_err(Into::into)
    }
    /// The match as a dict: id, slug, name, severity, dataset, span (UTF-8
    /// bytes, as errcat's), fields, args: the keys of `errcat scan --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("id", self.id())?;
        dict.set_item("slug", self.slug())?;
        dict.set_item("name", self.name())?;
        dict.set_item("severity", self.severity())?;
        dict.set_item("dataset", self.dataset())?;
        dict.set_item("span", [self.byte_span.0, self.byte_span.1])?;
        dict.set_item("fields", self.fields(py)?)?;
        dict.set_item("args", self.args(py)?)?;
        Ok(dict)
    }
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<Match>() else { return Ok(false) };
        let other = other.get();
        Ok(self.entry.get().index == other.entry.get().index
            && Arc::ptr_eq(&self.entry.get().catalog, &other.entry.get().catalog)
            && self.byte_span == other.byte_span
            && self.fields.bind(py).eq(other.fields.bind(py))?)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "<Match {} {} span={:?} fields={}>",
            self.id(),
            self.name(),
            self.span,
            self.fields.bind(py).repr()?
        ))
    }
}

/// A line given as str or bytes, read as `errcat` reads a line: bytes that
/// are not UTF-8 with replacement characters.
enum Line<'py> {
    Str(Bound<'py, PyString>),
    Bytes(Vec<u8>),
}

fn line_arg<'py>(what: &str, line: &Bound<'py, PyAny>) -> PyResult<Line<'py>> {
    if let Ok(text) = line.cast::<PyString>() {
        return Ok(Line::Str(text.clone()));
    }
    if let Ok(bytes) = line.cast::<PyBytes>() {
        return Ok(Line::Bytes(bytes.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!("{what}() takes a str or bytes, not {}", type_name(line))))
}

/// The compiled catalog of errors: finds and classifies their messages in
/// log lines with the engine of `errcat`.
#[pyclass(frozen, module = "error_catalog")]
struct Catalog {
    engine: Arc<Engine>,
    /// The entries' Python objects, made on first use.
    entries: std::sync::OnceLock<Vec<Py<Entry>>>,
    /// The names of its datasets when it is the embedded ones (`embedded()`):
    /// `error_catalog.spark` sends the names, not the compiled bytes.
    embedded: Option<Vec<String>>,
}

impl Catalog {
    fn new(engine: Engine) -> Self {
        Catalog { engine: Arc::new(engine), entries: std::sync::OnceLock::new(), embedded: None }
    }

    fn entry_objects(&self, py: Python<'_>) -> PyResult<&Vec<Py<Entry>>> {
        if let Some(entries) = self.entries.get() {
            return Ok(entries);
        }
        let made = (0..self.engine.len())
            .map(|index| Py::new(py, Entry { catalog: self.engine.clone(), index }))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(self.entries.get_or_init(|| made))
    }

    fn to_match(&self, py: Python<'_>, text: &str, original: Option<&[u8]>, found: &RustMatch<'_>) -> PyResult<Match> {
        let entry = self.entry_objects(py)?[found.index].clone_ref(py);
        let rust_entry = &self.engine.entries()[found.index];
        let fields = PyDict::new(py);
        for (name, value) in rust_entry.field_names().zip(&found.values) {
            fields.set_item(name, value_to_py(py, value)?)?;
        }
        let args = PyList::empty(py);
        for piece in rust_entry.template.pieces.iter() {
            if let catalog_runtime::Piece::Value { field, .. } = piece {
                args.append(value_to_py(py, &found.values[usize::from(*field)])?)?;
            }
        }
        let chars = |offset: usize| text[..offset].chars().count();
        let span = (chars(found.span.start), chars(found.span.end));
        let byte_span = original.map_or(found.span.clone(), |bytes| found.span_in_bytes(bytes));
        let byte_span = (byte_span.start, byte_span.end);
        Ok(Match { entry, span, byte_span, fields: fields.unbind(), args: args.unbind() })
    }

    /// Runs `each` on the line as text (with its original bytes when given as bytes).
    fn with_line<R>(
        &self,
        what: &str,
        line: &Bound<'_, PyAny>,
        each: impl FnOnce(&str, Option<&[u8]>) -> PyResult<R>,
    ) -> PyResult<R> {
        match line_arg(what, line)? {
            Line::Str(text) => each(&text.to_cow()?, None),
            Line::Bytes(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let original = matches!(text, std::borrow::Cow::Owned(_)).then_some(&bytes[..]);
                each(&text, original)
            }
        }
    }
}

#[pymethods]
impl Catalog {
    /// Loads and compiles every record file under `dir` (the loader of
    /// `errcat --data`). The compiled catalog is cached (in `cache_dir`, by
    /// default where errcat caches: `$ERRCAT_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/error-catalog`, else `~/.cache/error-catalog`) and
    /// reused while no record file changes; `cache=False` reads the files
    /// alone. Raises `CatalogLoadError` (with `diagnostics`: file, line,
    /// column, field and message of every problem) when a record is bad;
    /// warnings are issued as `CatalogWarning`.
    #[staticmethod]
    #[pyo3(signature = (dir, *, cache = true, cache_dir = None))]
    fn load(py: Python<'_>, dir: PathBuf, cache: bool, cache_dir: Option<PathBuf>) -> PyResult<Catalog> {
        let cache_dir = if cache { cache_dir.or_else(catalog_runtime::default_cache_dir) } else { None };
        let loaded = py.detach(|| match &cache_dir {
            Some(cache_dir) => Engine::load_cached(&dir, &Filter::default(), cache_dir),
            None => Engine::load_filtered(&dir, &Filter::default()),
        });
        let (engine, warnings) = loaded.map_err(|error| load_error(py, &error))?;
        // Named as `errcat --data DIR` names it: the `dataset` of its matches.
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |name| name.to_string_lossy().into());
        let engine = engine.named(name);
        for warning in &warnings {
            let category = py.get_type::<CatalogWarning>();
            PyErr::warn(py, &category, &std::ffi::CString::new(warning.to_string()).unwrap_or_default(), 1)?;
        }
        Ok(Catalog::new(engine))
    }

    /// The seed records of error-catalog's `data/` (the Rust enum
    /// `error_catalog::nats_server::NatsServerError`), the dataset `seeds`:
    /// the catalog of `errcat --dataset seeds`.
    #[staticmethod]
    fn default() -> Catalog {
        let seeds = Engine::from_entries(error_catalog::nats_server::NatsServerError::entries().to_vec());
        Catalog::new(seeds.named(embedded::DATASETS[0].name))
    }

    /// The datasets compiled into the package (`error_catalog.datasets()`
    /// lists them), as errcat embeds them: all of them when `datasets` is
    /// None (errcat's default catalog), else those named (a name, or a list
    /// of names, as `errcat --dataset` takes them), in catalog order. The
    /// records are compiled already: no record file is read. Raises
    /// `ValueError` for a name that is no dataset's.
    #[staticmethod]
    #[pyo3(signature = (datasets = None))]
    fn embedded(py: Python<'_>, datasets: Option<&Bound<'_, PyAny>>) -> PyResult<Catalog> {
        let chosen: Option<Vec<String>> = match datasets {
            None => None,
            Some(one) if one.is_instance_of::<PyString>() => Some(vec![one.extract()?]),
            Some(many) => Some(
                many.try_iter()
                    .map_err(|_| {
                        PyTypeError::new_err(format!("datasets= takes a str or a list of str, not {}", type_name(many)))
                    })?
                    .map(|name| name.and_then(|name| name.extract::<String>()))
                    .collect::<PyResult<_>>()?,
            ),
        };
        let engine = py.detach(|| embedded::catalog(chosen.as_deref())).map_err(PyValueError::new_err)?;
        let names = embedded::DATASETS.iter().map(|dataset| dataset.name.to_owned());
        let names = names.filter(|name| chosen.as_ref().is_none_or(|chosen| chosen.contains(name))).collect();
        Ok(Catalog { embedded: Some(names), ..Catalog::new(engine) })
    }

    /// The names of the datasets of a catalog `embedded()` gave, in catalog
    /// order, else None (for `error_catalog.spark`).
    fn _embedded_datasets(&self) -> Option<Vec<String>> {
        self.embedded.clone()
    }

    /// The compiled catalog as bytes, for `Catalog.from_bytes` in another
    /// process (of the same package version): no record is read or compiled
    /// there. What `error_catalog.spark` broadcasts to the executors.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.engine.to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// The catalog `to_bytes` gave these bytes for. Raises `CatalogError`
    /// when they are damaged or were written by another version.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyBytes>) -> PyResult<Catalog> {
        let bytes = data.as_bytes();
        let engine = py.detach(|| Engine::from_bytes(bytes)).ok_or_else(|| {
            CatalogError::new_err(format!(
                "not a compiled catalog of error-catalog {} (damaged, or written by another version)",
                env!("CARGO_PKG_VERSION")
            ))
        })?;
        Ok(Catalog::new(engine))
    }

    /// Pickling goes through `to_bytes`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_bytes = slf.get_type().getattr("from_bytes")?;
        (from_bytes, (slf.get().to_bytes(py),)).into_pyobject(py)
    }

    fn __len__(&self) -> usize {
        self.engine.len()
    }

    /// The entries in record order.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.entry_objects(py)?.iter().map(|e| e.clone_ref(py)))?.try_iter().map(Bound::into_any)
    }

    /// Entry `i` (record order; negative from the end), or the entry with
    /// this id, slug or variant name.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<Entry>> {
        let entries = self.entry_objects(py)?;
        if let Ok(index) = key.extract::<isize>() {
            let len = entries.len() as isize;
            let at = if index < 0 { index + len } else { index };
            if !(0..len).contains(&at) {
                return Err(PyIndexError::new_err(format!("entry {index} of {len}")));
            }
            return Ok(entries[at as usize].clone_ref(py));
        }
        let Ok(text) = key.extract::<String>() else {
            return Err(PyTypeError::new_err(format!("a catalog is indexed by int or str, not {}", type_name(key))));
        };
        let found =
            self.engine.by_id(&text).or_else(|| self.engine.by_slug(&text)).or_else(|| self.engine.by_name(&text));
        found
            .map(|index| entries[index].clone_ref(py))
            .ok_or_else(|| PyKeyError::new_err(format!("no entry with id, slug or name {text:?}")))
    }

    /// The best record for a message inside a log line (after its log
    /// prefix, `[1] 2026/11/29 ... [ERR] `), or None. `line` is a str, or
    /// bytes read as UTF-8 with replacement characters (as errcat reads them).
    fn find(&self, py: Python<'_>, line: &Bound<'_, PyAny>) -> PyResult<Option<Match>> {
        self.with_line("find", line, |text, original| {
            self.engine.find(text).map(|found| self.to_match(py, text, original, &found)).transpose()
        })
    }

    /// The best record for a whole message (no log prefix), or None.
    fn parse(&self, py: Python<'_>, message: &Bound<'_, PyAny>) -> PyResult<Option<Match>> {
        self.with_line("parse", message, |text, original| {
            self.engine.parse(text).map(|found| self.to_match(py, text, original, &found)).transpose()
        })
    }

    /// Every record that matches inside a log line, best first.
    fn find_all(&self, py: Python<'_>, line: &Bound<'_, PyAny>) -> PyResult<Vec<Match>> {
        self.with_line("find_all", line, |text, original| {
            self.engine.find_all(text).iter().map(|found| self.to_match(py, text, original, found)).collect()
        })
    }

    /// Classifies many lines at once, on every core with the GIL released.
    ///
    /// `lines`: a list (or tuple) of str or bytes, one line each, or a
    /// pyarrow array (or chunked array) of strings or binary; None and null
    /// elements give null. Returns a pyarrow `StructArray`, one row per line:
    /// null when nothing matched, else `id`, `slug`, `name`, `severity`,
    /// `span` (UTF-8 byte offsets in the line), `fields`, `args`,
    /// `field_spans`, `message_span` (JSON texts), `envelope`, `context`
    /// (a multi-line event's trace, or null), `dataset` (the name of the
    /// record's dataset, or null), and for the message of an event of
    /// several lines `start_row` and `end_row` (its first and last rows),
    /// `intro` (the line that introduced it) and `causes` (JSON texts, a
    /// part's `row` for errcat's `line`), null for other rows: what `errcat scan --json`
    /// prints for that line, from the same chunk classifier. The elements
    /// are read where they are (a str's UTF-8 buffer, an arrow array's
    /// buffers) and the result's buffers handed to pyarrow as built, through
    /// the Arrow C data interface: no Python object per line. Each element is
    /// classified as errcat classifies a line of a file: a trailing line
    /// break is dropped, bytes that are not UTF-8 are read with replacement
    /// characters (spans in the original bytes), lines over 16 MiB are
    /// skipped (null, with a `CatalogWarning`), and the lines of a Java,
    /// Python or Go trace are grouped into one event (their rows null, the
    /// message's row carrying them as `context`).
    /// `threads`: how many threads (default: one per core).
    ///
    /// `envelope`: how the lines are wrapped, as `errcat scan --envelope`
    /// takes it: "auto" (chosen from the first lines), "none", "docker",
    /// "cri", "journald", "syslog", "logfmt", "json" or "json:KEY". The
    /// message is taken out of its envelope and unescaped before it is
    /// matched (else the line as it is); spans stay in the line (where
    /// escapes were undone, `span` is the message's and `field_spans` null);
    /// the pieces of a long Docker or CRI line are joined, and its match is
    /// the row of its first piece.
    #[pyo3(signature = (lines, *, threads = None, envelope = "auto"))]
    fn classify<'py>(
        &self,
        py: Python<'py>,
        lines: &Bound<'py, PyAny>,
        threads: Option<usize>,
        envelope: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let threads = match threads {
            Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if lines.hasattr("__arrow_c_array__")? {
            // The C data interface carries no buffer sizes: pyarrow's cheap
            // check (offsets within the data buffer) runs first, the rest
            // (non-decreasing offsets) in `arrow::column`.
            if lines.hasattr("validate")? {
                lines.call_method0("validate")?;
            }
            let (schema, array) = arrow::capsules(lines)?;
            let column = arrow::column(&schema, &array)?;
            return self.classify_column(py, &column, threads, envelope);
        }
        if lines.hasattr("chunks")? && lines.hasattr("__arrow_c_stream__")? {
            // A pyarrow ChunkedArray: each chunk, then one chunked result.
            let results = lines
                .getattr("chunks")?
                .try_iter()?
                .map(|chunk| self.classify(py, &chunk?, Some(threads), envelope))
                .collect::<PyResult<Vec<_>>>()?;
            let pa = py.import("pyarrow")?;
            if results.is_empty() {
                let empty = self.classify(py, &PyList::empty(py), Some(1), envelope)?;
                return pa.call_method1("chunked_array", (PyList::empty(py), empty.getattr("type")?));
            }
            return pa.call_method1("chunked_array", (results,));
        }
        // A reference to each element is held while the GIL is released (a
        // list could change meanwhile): their own UTF-8 buffers are read in place.
        let mut held = Vec::new();
        let Some(borrowed) = list::Borrowed::of(lines, &mut held)? else {
            return Err(PyTypeError::new_err(format!(
                "classify() takes a list of str or bytes, or a pyarrow string array, not {}",
                type_name(lines)
            )));
        };
        let column = Column::borrowed(borrowed.elements, borrowed.validity.as_deref());
        self.classify_column(py, &column, threads, envelope)
    }

    fn __repr__(&self) -> String {
        format!("<Catalog of {} errors>", self.engine.len())
    }
}

impl Catalog {
    fn classify_column<'py>(
        &self,
        py: Python<'py>,
        column: &Column<'_>,
        threads: usize,
        envelope: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let engine = &*self.engine;
        let envelope = classify::envelope_of(envelope, column).map_err(PyValueError::new_err)?;
        let (exported, too_long) = py.detach(|| {
            let results = classify::classify(engine, column, threads, &envelope);
            let too_long: Vec<usize> = results.iter().flat_map(|result| result.too_long.iter().copied()).collect();
            let exported = if columns::needs_large(engine, &results) {
                export::struct_array(columns::assemble::<i64>(engine, column.len(), &results))
            } else {
                export::struct_array(columns::assemble::<i32>(engine, column.len(), &results))
            };
            (exported, too_long)
        });
        let (schema, array) = exported.map_err(PyValueError::new_err)?;
        if let Some(first) = too_long.first() {
            let message = format!(
                "classify(): {} line(s) longer than {} MiB skipped (the first: line {first}), as errcat skips them",
                too_long.len(),
                catalog_runtime::MAX_LINE >> 20
            );
            let category = py.get_type::<CatalogWarning>();
            PyErr::warn(py, &category, &std::ffi::CString::new(message).unwrap_or_default(), 1)?;
        }
        export::to_pyarrow(py, schema, array)
    }
}

/// The datasets compiled into the package, in catalog order: a dict each
/// with `name`, `records`, `project` and `version`, as `errcat datasets
/// --json` lists them.
#[pyfunction]
fn datasets(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for dataset in embedded::DATASETS {
        let dict = PyDict::new(py);
        dict.set_item("name", dataset.name)?;
        dict.set_item("records", dataset.records)?;
        dict.set_item("project", dataset.project)?;
        dict.set_item("version", dataset.version)?;
        list.append(dict)?;
    }
    Ok(list)
}

/// The package's version (the Rust crate's).
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Catalog>()?;
    m.add_class::<Entry>()?;
    m.add_class::<Match>()?;
    m.add_class::<Diagnostic>()?;
    m.add("CatalogError", py.get_type::<CatalogError>())?;
    m.add("CatalogLoadError", py.get_type::<CatalogLoadError>())?;
    m.add("CatalogWarning", py.get_type::<CatalogWarning>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(datasets, m)?)?;
    Ok(())
}
