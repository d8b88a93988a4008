//! Arrow in: any array that exports itself through the Arrow PyCapsule
//! interface (`__arrow_c_array__`: pyarrow, polars, ...), read in place (no
//! copy) through the C data interface; string and binary arrays, 32- or
//! 64-bit offsets. The C structs are also those of the result's export
//! (`export.rs`).

use std::ffi::{c_char, c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

use crate::classify::{Column, Offsets};

/// `struct ArrowSchema` of the Arrow C data interface.
#[repr(C)]
pub struct FfiSchema {
    pub format: *const c_char,
    pub name: *const c_char,
    pub metadata: *const c_char,
    pub flags: i64,
    pub n_children: i64,
    pub children: *mut *mut FfiSchema,
    pub dictionary: *mut FfiSchema,
    pub release: Option<unsafe extern "C" fn(*mut FfiSchema)>,
    pub private_data: *mut c_void,
}

/// `struct ArrowArray` of the Arrow C data interface.
#[repr(C)]
pub struct FfiArray {
    pub length: i64,
    pub null_count: i64,
    pub offset: i64,
    pub n_buffers: i64,
    pub n_children: i64,
    pub buffers: *mut *const c_void,
    pub children: *mut *mut FfiArray,
    pub dictionary: *mut FfiArray,
    pub release: Option<unsafe extern "C" fn(*mut FfiArray)>,
    pub private_data: *mut c_void,
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
            return Ok(Column::borrowed(Vec::new(), None));
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
    Column::packed(data, offsets, validity).map_err(PyValueError::new_err)
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
