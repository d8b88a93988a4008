//! `Catalog.classify`'s result handed out through the Arrow C data
//! interface: the columns built in Rust become the arrow array's buffers as
//! they are (no copy); the array's release callback frees them, whichever
//! thread the consumer (pyarrow, polars, ...) calls it from.

use std::any::Any;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::arrow::{FfiArray, FfiSchema};
use crate::columns::{Assembled, Nullable, Offset, Strings};

/// `ARROW_FLAG_NULLABLE`: every field of the result may be null.
const NULLABLE: i64 = 2;

/// An array to export: its type, buffers and children.
struct Node {
    format: &'static str,
    name: &'static str,
    len: usize,
    null_count: usize,
    /// Each buffer's address, null for an absent validity bitmap.
    buffers: Vec<*const c_void>,
    /// What owns the buffers.
    owners: Vec<Box<dyn Any + Send>>,
    children: Vec<Node>,
}

impl Node {
    fn new(format: &'static str, name: &'static str, len: usize, validity: &Validity) -> Self {
        let mut node = Node {
            format,
            name,
            len,
            null_count: validity.nulls,
            buffers: Vec::new(),
            owners: Vec::new(),
            children: Vec::new(),
        };
        match &validity.bits {
            Some(bits) => node.buffer(bits.clone(), bits.as_ptr()),
            None => node.buffers.push(null()),
        }
        node
    }

    /// Adds a buffer at `address`, owned by `owner`.
    fn buffer<T: Send + 'static, U>(&mut self, owner: T, address: *const U) {
        self.buffers.push(address.cast());
        self.owners.push(Box::new(owner));
    }

    fn vec<T: Send + 'static>(&mut self, data: Vec<T>) {
        let address = data.as_ptr();
        self.buffer(data, address);
    }

    fn strings<O: Offset>(name: &'static str, column: Strings<O>, len: usize, validity: &Validity) -> Node {
        let mut node = Node::new(O::STRING_FORMAT, name, len, validity);
        node.vec(column.offsets);
        node.vec(column.data);
        node
    }

    fn int64s(name: &'static str, values: Arc<Vec<i64>>, len: usize, validity: &Validity) -> Node {
        let mut node = Node::new("l", name, len, validity);
        let address = values.as_ptr();
        node.buffer(values, address);
        node
    }

    fn nullable<O: Offset>(name: &'static str, column: Nullable<O>, len: usize) -> Node {
        Node::strings(name, column.strings, len, &Validity::new(column.validity, column.nulls))
    }

    /// The C structs of the node and its children, which own them.
    fn into_ffi(self) -> (FfiSchema, FfiArray) {
        let (schemas, arrays): (Vec<_>, Vec<_>) = self.children.into_iter().map(Node::into_ffi).unzip();
        let mut schema_owner = Box::new(SchemaOwner {
            // Formats and names are the constants of this module: no NUL.
            format: CString::new(self.format).unwrap_or_default(),
            name: CString::new(self.name).unwrap_or_default(),
            children: schemas.into_iter().map(|schema| Box::into_raw(Box::new(schema))).collect(),
        });
        let schema = FfiSchema {
            format: schema_owner.format.as_ptr(),
            name: schema_owner.name.as_ptr(),
            metadata: null(),
            flags: NULLABLE,
            n_children: schema_owner.children.len() as i64,
            children: schema_owner.children.as_mut_ptr(),
            dictionary: null_mut(),
            release: Some(release_schema),
            private_data: Box::into_raw(schema_owner).cast(),
        };
        let mut array_owner = Box::new(ArrayOwner {
            _owners: self.owners,
            buffers: self.buffers,
            children: arrays.into_iter().map(|array| Box::into_raw(Box::new(array))).collect(),
        });
        let array = FfiArray {
            length: self.len as i64,
            null_count: self.null_count as i64,
            offset: 0,
            n_buffers: array_owner.buffers.len() as i64,
            n_children: array_owner.children.len() as i64,
            buffers: array_owner.buffers.as_mut_ptr(),
            children: array_owner.children.as_mut_ptr(),
            dictionary: null_mut(),
            release: Some(release_array),
            private_data: Box::into_raw(array_owner).cast(),
        };
        (schema, array)
    }
}

/// A validity bitmap shared by the columns that have it, or none (no null).
#[derive(Clone)]
struct Validity {
    bits: Option<Arc<Vec<u8>>>,
    nulls: usize,
}

impl Validity {
    fn new(bits: Vec<u8>, nulls: usize) -> Self {
        Validity { bits: (nulls > 0).then(|| Arc::new(bits)), nulls }
    }

    const NONE: Validity = Validity { bits: None, nulls: 0 };
}

struct SchemaOwner {
    format: CString,
    name: CString,
    children: Vec<*mut FfiSchema>,
}

struct ArrayOwner {
    _owners: Vec<Box<dyn Any + Send>>,
    buffers: Vec<*const c_void>,
    children: Vec<*mut FfiArray>,
}

/// Frees boxed children, each released first unless its consumer moved it out.
///
/// # Safety
/// Each pointer is a box of `Node::into_ffi`'s, freed once.
unsafe fn free_children<T: Releasable>(children: &[*mut T]) {
    for &child in children {
        // SAFETY: as the caller says.
        unsafe { Box::from_raw(child) }.release();
    }
}

unsafe extern "C" fn release_schema(schema: *mut FfiSchema) {
    // SAFETY: the consumer calls this once, on a schema of `Node::into_ffi`,
    // whose private data is its `SchemaOwner` and whose children are boxed.
    unsafe {
        let owner = Box::from_raw((*schema).private_data.cast::<SchemaOwner>());
        free_children(&owner.children);
        (*schema).release = None;
    }
}

unsafe extern "C" fn release_array(array: *mut FfiArray) {
    // SAFETY: as `release_schema`'s, with an `ArrayOwner`.
    unsafe {
        let owner = Box::from_raw((*array).private_data.cast::<ArrayOwner>());
        free_children(&owner.children);
        (*array).release = None;
    }
}

/// An exported C struct: released when dropped unless a consumer took it.
pub trait Releasable {
    fn release(&mut self);
}

impl Releasable for FfiSchema {
    fn release(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: not released yet (a consumer that moves it out clears `release`).
            unsafe { release(self) }
        }
    }
}

impl Releasable for FfiArray {
    fn release(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: as for the schema.
            unsafe { release(self) }
        }
    }
}

/// The C structs, movable to the thread that releases them; a capsule's
/// pointer to it is a pointer to the struct.
#[repr(transparent)]
pub struct Exported<T: Releasable>(pub T);

// SAFETY: the structs own what they point to (nothing is shared with this
// thread), and their release callbacks may run on any thread.
unsafe impl<T: Releasable> Send for Exported<T> {}

impl<T: Releasable> Drop for Exported<T> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// `out` as an arrow struct array: `id`, `slug`, `name`, `severity`
/// (strings), `span` (a list of two int64), `fields`, `args`,
/// `field_spans`, `message_span`, `envelope`, `context`, `dataset`
/// (strings), `start_row`, `end_row` (int64) and `intro`, `causes`
/// (strings); a row null where nothing matched. An error when the span column's 32-bit
/// list offsets cannot count its values (over 2**30 rows).
pub fn struct_array<O: Offset>(out: Assembled<O>) -> Result<(Exported<FfiSchema>, Exported<FfiArray>), String> {
    let len = out.len;
    let Ok(values) = i32::try_from(len * 2) else {
        return Err("classify() takes at most 2**30 lines at once".into());
    };
    let rows = Validity::new(out.validity, out.null_count);
    let events = Validity::new(out.event.validity, out.event.nulls);
    let spans = Arc::new(out.span);
    // Without an event, both columns are all null: the values of null slots
    // may be anything, so they lie over the spans' buffer (2 values a row)
    // instead of buffers of their own.
    let (first, last) = if out.event.first.is_empty() {
        (spans.clone(), spans.clone())
    } else {
        (Arc::new(out.event.first), Arc::new(out.event.last))
    };
    let mut root = Node::new("+s", "", len, &rows);
    let mut span = Node::new("+l", "span", len, &rows);
    span.vec((0..=values / 2).map(|row| 2 * row).collect::<Vec<i32>>());
    let mut span_values = Node::new("l", "item", len * 2, &Validity::NONE);
    let address = spans.as_ptr();
    span_values.buffer(spans, address);
    span.children.push(span_values);
    root.children = vec![
        Node::strings("id", out.id, len, &rows),
        Node::strings("slug", out.slug, len, &rows),
        Node::strings("name", out.name, len, &rows),
        Node::strings("severity", out.severity, len, &rows),
        span,
        Node::strings("fields", out.fields, len, &rows),
        Node::strings("args", out.args, len, &rows),
        Node::strings("field_spans", out.field_spans, len, &rows),
        Node::strings("message_span", out.message_span, len, &rows),
        Node::strings("envelope", out.envelope, len, &rows),
        Node::nullable("context", out.context, len),
        Node::nullable("dataset", out.dataset, len),
        Node::int64s("start_row", first, len, &events),
        Node::int64s("end_row", last, len, &events),
        Node::nullable("intro", out.intro, len),
        Node::nullable("causes", out.causes, len),
    ];
    let (schema, array) = root.into_ffi();
    Ok((Exported(schema), Exported(array)))
}

/// The exported result as a pyarrow array: pyarrow imports it through the
/// Arrow PyCapsule interface (`pyarrow.array` of an object with
/// `__arrow_c_array__`), taking the buffers as they are.
pub fn to_pyarrow<'py>(
    py: Python<'py>,
    schema: Exported<FfiSchema>,
    array: Exported<FfiArray>,
) -> PyResult<Bound<'py, PyAny>> {
    // Dropping a capsule's value releases what the consumer did not take.
    let schema = PyCapsule::new_with_value_and_destructor(py, schema, c"arrow_schema", |_, _| {})?;
    let array = PyCapsule::new_with_value_and_destructor(py, array, c"arrow_array", |_, _| {})?;
    let capsules = Mutex::new(Some((schema.unbind(), array.unbind())));
    py.import("pyarrow")?.call_method1("array", (ArrowCapsules { capsules },))
}

/// A result's capsules, for one `__arrow_c_array__` call.
#[pyclass(frozen, module = "error_catalog")]
struct ArrowCapsules {
    capsules: Mutex<Option<(Py<PyCapsule>, Py<PyCapsule>)>>,
}

#[pymethods]
impl ArrowCapsules {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__(
        &self,
        requested_schema: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(Py<PyCapsule>, Py<PyCapsule>)> {
        // The array is given in its own type: a consumer that wants another casts it.
        let _ = requested_schema;
        let taken = self.capsules.lock().unwrap_or_else(|e| e.into_inner()).take();
        taken.ok_or_else(|| PyValueError::new_err("the result was exported already"))
    }
}
