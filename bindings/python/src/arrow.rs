//! Arrow in and out. In: any array that exports itself through the Arrow
//! PyCapsule interface (`__arrow_c_array__`: pyarrow, polars, ...), read in
//! place (no copy) through the C data interface; string and binary arrays,
//! 32- or 64-bit offsets. Out: the result columns handed to pyarrow as
//! buffers (`pyarrow.Array.from_buffers`), no Python object per row.

use std::ffi::{c_char, c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyList, PyTuple};

use crate::classify::{Assembled, Column, Offsets, Strings};

/// `struct ArrowSchema` of the Arrow C data interface.
#[repr(C)]
struct FfiSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut FfiSchema,
    dictionary: *mut FfiSchema,
    release: Option<unsafe extern "C" fn(*mut FfiSchema)>,
    private_data: *mut c_void,
}

/// `struct ArrowArray` of the Arrow C data interface.
#[repr(C)]
struct FfiArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut FfiArray,
    dictionary: *mut FfiArray,
    release: Option<unsafe extern "C" fn(*mut FfiArray)>,
    private_data: *mut c_void,
}

/// The lines of an arrow array, borrowed from its capsule (which owns the
/// exported array and releases it when dropped).
pub fn column<'a>(schema: &'a Bound<'_, PyCapsule>, array: &'a Bound<'_, PyCapsule>) -> PyResult<Column<'a>> {
    use pyo3::types::PyCapsuleMethods;
    let schema = schema.pointer_checked(Some(c"arrow_schema"))?.cast::<FfiSchema>();
    let array = array.pointer_checked(Some(c"arrow_array"))?.cast::<FfiArray>();
    // SAFETY: the capsules are named as the Arrow PyCapsule interface names
    // them, so they hold a live ArrowSchema and ArrowArray, which stay alive
    // (not released) as long as the capsules, borrowed for 'a.
    let (schema, array): (&'a FfiSchema, &'a FfiArray) = unsafe { (schema.as_ref(), array.as_ref()) };
    if schema.release.is_none() || array.release.is_none() || schema.format.is_null() {
        return Err(PyValueError::new_err("the arrow array was already released"));
    }
    // SAFETY: the format is a NUL-terminated string (checked non-null).
    let format = unsafe { CStr::from_ptr(schema.format) }.to_string_lossy();
    let wide = match format.as_ref() {
        "u" | "z" => false,
        "U" | "Z" => true,
        other => {
            return Err(PyTypeError::new_err(format!(
                "classify() takes an arrow array of strings or binary (string, large_string, binary, \
                 large_binary), not arrow format {other:?}; cast it first, e.g. array.cast(pyarrow.large_string())"
            )))
        }
    };
    if !schema.dictionary.is_null() {
        return Err(PyTypeError::new_err("classify() does not take dictionary-encoded arrays; decode them first"));
    }
    let (Ok(len), Ok(offset)) = (usize::try_from(array.length), usize::try_from(array.offset)) else {
        return Err(PyValueError::new_err("an arrow array with a negative length or offset"));
    };
    if array.n_buffers != 3 || array.buffers.is_null() {
        return Err(PyValueError::new_err("an arrow string array without its three buffers"));
    }
    // SAFETY: `buffers` points to `n_buffers` (3) pointers.
    let buffers = unsafe { std::slice::from_raw_parts(array.buffers, 3) };
    let Some(count) = offset.checked_add(len).and_then(|n| n.checked_add(1)) else {
        return Err(PyValueError::new_err("an arrow array too long"));
    };
    if buffers[1].is_null() {
        if len == 0 {
            return Column::new(&[], Offsets::Owned(vec![0]), None).map_err(PyValueError::new_err);
        }
        return Err(PyValueError::new_err("an arrow string array without offsets"));
    }
    fn aligned<T>(pointer: *const c_void) -> PyResult<*const T> {
        if pointer.align_offset(std::mem::align_of::<T>()) != 0 {
            return Err(PyValueError::new_err("an arrow array's offsets are misaligned"));
        }
        Ok(pointer.cast())
    }
    // SAFETY: an array of `offset + length` elements has that many offsets
    // plus one (checked aligned above).
    let offsets = if wide {
        let all: &'a [i64] = unsafe { std::slice::from_raw_parts(aligned(buffers[1])?, count) };
        Offsets::I64(&all[offset..])
    } else {
        let all: &'a [i32] = unsafe { std::slice::from_raw_parts(aligned(buffers[1])?, count) };
        Offsets::I32(&all[offset..])
    };
    let end = match &offsets {
        Offsets::I32(o) => usize::try_from(o[len]).ok(),
        Offsets::I64(o) => usize::try_from(o[len]).ok(),
        Offsets::Owned(o) => Some(o[len]),
    };
    let Some(end) = end else {
        return Err(PyValueError::new_err("an arrow array has a negative offset"));
    };
    let data: &'a [u8] = if buffers[2].is_null() || end == 0 {
        &[]
    } else {
        // SAFETY: the data buffer holds the bytes up to the last offset.
        unsafe { std::slice::from_raw_parts(buffers[2].cast(), end) }
    };
    let validity = if buffers[0].is_null() || array.null_count == 0 {
        None
    } else {
        // SAFETY: the bitmap has a bit for each of `offset + length` elements.
        let bits: &'a [u8] = unsafe { std::slice::from_raw_parts(buffers[0].cast(), (offset + len).div_ceil(8)) };
        Some((bits, offset))
    };
    Column::new(data, offsets, validity).map_err(PyValueError::new_err)
}

/// The result as a pyarrow `StructArray`.
pub fn to_pyarrow<'py>(py: Python<'py>, out: &Assembled) -> PyResult<Bound<'py, PyAny>> {
    let pa = py.import("pyarrow")?;
    let buffer = |bytes: &[u8]| pa.call_method1("py_buffer", (PyBytes::new(py, bytes),));
    let validity = if out.null_count == 0 { py.None().into_bound(py) } else { buffer(&out.validity)? };
    let array_class = pa.getattr("Array")?;
    let strings_with = |column: &Strings, validity: &Bound<'py, PyAny>, nulls: usize| -> PyResult<Bound<'py, PyAny>> {
        let (kind, offsets): (&str, Vec<u8>) = if column.fits_i32() {
            ("string", column.offsets.iter().flat_map(|&o| (o as i32).to_le_bytes()).collect())
        } else {
            ("large_string", column.offsets.iter().flat_map(|&o| o.to_le_bytes()).collect())
        };
        let buffers = PyList::new(py, [validity.clone(), buffer(&offsets)?, buffer(&column.data)?])?;
        array_class.call_method1("from_buffers", (pa.call_method0(kind)?, out.len, buffers, nulls))
    };
    let strings = |column: &Strings| strings_with(column, &validity, out.null_count);
    let context_validity =
        if out.context_nulls == 0 { py.None().into_bound(py) } else { buffer(&out.context_validity)? };
    let span_values: Vec<u8> = out.span.iter().flat_map(|v| v.to_le_bytes()).collect();
    let span_values = array_class.call_method1(
        "from_buffers",
        (
            pa.call_method0("int64")?,
            out.span.len(),
            PyList::new(py, [py.None().into_bound(py), buffer(&span_values)?])?,
            0,
        ),
    )?;
    let Ok(span_len) = i32::try_from(out.span.len()) else {
        return Err(PyValueError::new_err("classify() takes at most 2**30 lines at once"));
    };
    let span_offsets: Vec<u8> = (0..=span_len).step_by(2).flat_map(|o: i32| o.to_le_bytes()).collect();
    let span = pa.getattr("Array")?.call_method(
        "from_buffers",
        (
            pa.call_method1("list_", (pa.call_method0("int64")?,))?,
            out.len,
            PyList::new(py, [validity.clone(), buffer(&span_offsets)?])?,
            out.null_count,
        ),
        Some(&[("children", PyList::new(py, [span_values])?)].into_py_dict(py)?),
    )?;
    let columns = [
        ("id", strings(&out.id)?),
        ("slug", strings(&out.slug)?),
        ("name", strings(&out.name)?),
        ("severity", strings(&out.severity)?),
        ("span", span),
        ("fields", strings(&out.fields)?),
        ("args", strings(&out.args)?),
        ("field_spans", strings(&out.field_spans)?),
        ("message_span", strings(&out.message_span)?),
        ("envelope", strings(&out.envelope)?),
        ("context", strings_with(&out.context, &context_validity, out.context_nulls)?),
    ];
    let fields = columns
        .iter()
        .map(|(name, column)| pa.call_method1("field", (*name, column.getattr("type")?)))
        .collect::<PyResult<Vec<_>>>()?;
    let children = PyList::new(py, columns.iter().map(|(_, column)| column))?;
    array_class.call_method(
        "from_buffers",
        (pa.call_method1("struct", (fields,))?, out.len, PyList::new(py, [validity])?, out.null_count),
        Some(&[("children", children)].into_py_dict(py)?),
    )
}

/// The `(schema, array)` capsules of an object with `__arrow_c_array__`.
pub fn capsules<'py>(lines: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
    let exported = lines.call_method0("__arrow_c_array__")?;
    let pair = exported.cast_into::<PyTuple>().map_err(|_| PyTypeError::new_err("__arrow_c_array__ gave no tuple"))?;
    if pair.len() != 2 {
        return Err(PyTypeError::new_err("__arrow_c_array__ gave no (schema, array) pair"));
    }
    let capsule = |i: usize| -> PyResult<Bound<'py, PyCapsule>> {
        pair.get_item(i)?
            .cast_into::<PyCapsule>()
            .map_err(|_| PyTypeError::new_err("__arrow_c_array__ gave no capsules"))
    };
    Ok((capsule(0)?, capsule(1)?))
}

use pyo3::types::IntoPyDict;
