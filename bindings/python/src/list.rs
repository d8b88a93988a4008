//! Lines given as a Python list or tuple, read in place.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// The elements of a list or tuple of lines (str, bytes or None) as borrowed bytes.
pub struct Borrowed<'a> {
    pub elements: Vec<&'a [u8]>,
    /// A clear bit for each None, when there is one.
    pub validity: Option<Vec<u8>>,
}

impl<'a> Borrowed<'a> {
    /// The elements of `items`, a list or tuple (`Ok(None)` for anything
    /// else). A str is read through its UTF-8 buffer, which CPython keeps
    /// with the object (ASCII text is that buffer already): no copy. `held`
    /// takes a reference to each element, so that the buffers outlive a
    /// change of the list while the GIL is released, in the same visit of
    /// the element (reaching one is a cache miss).
    pub fn of<'py>(items: &Bound<'py, PyAny>, held: &'a mut Vec<Bound<'py, PyAny>>) -> PyResult<Option<Self>> {
        if let Ok(list) = items.cast::<PyList>() {
            return Borrowed::gather(list.len(), list.iter(), held).map(Some);
        }
        if let Ok(tuple) = items.cast::<PyTuple>() {
            return Borrowed::gather(tuple.len(), tuple.iter(), held).map(Some);
        }
        Ok(None)
    }

    fn gather<'py>(
        len: usize,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        held: &'a mut Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        let mut elements = Vec::with_capacity(len);
        let mut validity: Option<Vec<u8>> = None;
        held.reserve(len);
        for (row, item) in items.enumerate() {
            let element: &'a [u8] = if item.is_none() {
                validity.get_or_insert_with(|| vec![0xff; len.div_ceil(8)])[row / 8] &= !(1 << (row % 8));
                &[]
            } else if item.is_exact_instance_of::<PyString>() || item.cast::<PyString>().is_ok() {
                // The exact type is looked at first: a subclass check is a call under abi3.
                let mut size: pyo3::ffi::Py_ssize_t = 0;
                // SAFETY: `item` is a str; the buffer lives as long as the str,
                // which `held` holds for 'a.
                let data = unsafe { pyo3::ffi::PyUnicode_AsUTF8AndSize(item.as_ptr(), &mut size) };
                if data.is_null() {
                    let err = PyErr::fetch(item.py());
                    return Err(PyValueError::new_err(format!("classify(): line {row} is not valid Unicode: {err}")));
                }
                // SAFETY: `size` bytes at `data`, as CPython gave them.
                unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) }
            } else if item.cast::<PyBytes>().is_ok() {
                // SAFETY: `item` is bytes, immutable and held by `held` for 'a.
                unsafe {
                    let data = pyo3::ffi::PyBytes_AsString(item.as_ptr());
                    std::slice::from_raw_parts(data.cast::<u8>(), pyo3::ffi::PyBytes_Size(item.as_ptr()) as usize)
                }
            } else {
                return Err(PyTypeError::new_err(format!(
                    "classify(): line {row} is {}, not str, bytes or None",
                    type_name(&item)
                )));
            };
            elements.push(element);
            held.push(item);
        }
        Ok(Borrowed { elements, validity })
    }
}

/// The name of `value`'s type, for errors.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "?".into(), |name| name.to_string())
}
