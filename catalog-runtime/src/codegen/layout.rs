//! The fields of a `#[catalog]` enum's variants, reached through the layout
//! that `#[repr(u32)]` gives the enum, so that generated code names no
//! variant to read or build one.
//!
//! Why: rustc finds the variant of a path such as `Enum::Variant { .. }` by
//! a linear search of the enum's variants, in type checking, privacy and
//! pattern checks. A `match` with an arm per variant (the field values in
//! and out) was quadratic in the number of records, and, with its per-arm
//! code, most of a 20,000-record build (measured with `-Z self-profile`).
//! Here there is one arm per *shape* of fields (the field types in order),
//! of which a catalog has few: `Layout` is implemented once per arity, and
//! the generated code instantiates it once per shape.
//!
//! Soundness: a `#[repr(u32)]` enum with fields is laid out as a
//! `#[repr(C)]` union of one `#[repr(C)]` struct per variant, whose first
//! field is the `u32` tag and whose other fields are the variant's, in order
//! (the Reference, "Primitive representation of enums with fields";
//! RFC 2195). [`Fields1`] to [`Fields12`] are those structs for one to
//! twelve fields, [`Fields0`] the tag alone. The macro rejects any other
//! `repr` on the enum (`repr(C)` with `repr(u32)` would lay it out
//! differently: the fields after a union aligned for all of them), gives
//! variant `i` the tag `i`, and instantiates a struct only with the
//! variant's own field types, in order. (An attribute macro placed after
//! `#[catalog]` runs on its output and could still add a `repr`:
//! docs/guide.md says not to.)

use std::mem::{align_of, size_of, MaybeUninit};

use crate::model::{FieldValue, Value};

/// One variant's fields, laid out as a `#[repr(u32)]` enum lays them out.
///
/// # Safety
///
/// Implemented only for `#[repr(C)]` structs of a `u32` tag followed by the
/// fields, in order (the structs of this module).
pub unsafe trait Layout: Sized {
    /// The field values, in order.
    fn values(&self) -> Vec<Value<'_>>;

    /// The variant of tag `tag` built from field values; `None` when a value
    /// is missing or does not fit its field. Values beyond the fields are
    /// ignored.
    fn from_values(tag: u32, values: Vec<Value<'_>>) -> Option<Self>;
}

/// The variant with no field: the tag alone.
#[repr(C)]
pub struct Fields0(u32);

// SAFETY: a `#[repr(C)]` struct of the tag alone.
unsafe impl Layout for Fields0 {
    fn values(&self) -> Vec<Value<'_>> {
        Vec::new()
    }

    fn from_values(tag: u32, _values: Vec<Value<'_>>) -> Option<Self> {
        Some(Fields0(tag))
    }
}

macro_rules! layouts {
    ($($name:ident: $($field:ident $position:tt)+;)+) => {$(
        /// A variant's tag and fields, as `#[repr(u32)]` lays them out.
        #[repr(C)]
        pub struct $name<$($field),+>(u32, $($field),+);

        // SAFETY: a `#[repr(C)]` struct of the tag, then the fields in order.
        unsafe impl<$($field: FieldValue),+> Layout for $name<$($field),+> {
            fn values(&self) -> Vec<Value<'_>> {
                vec![$(self.$position.to_value()),+]
            }

            fn from_values(tag: u32, values: Vec<Value<'_>>) -> Option<Self> {
                let mut values = values.into_iter();
                Some($name(tag, $($field::from_value(values.next()?)?),+))
            }
        }
    )+};
}

layouts! {
    Fields1: A 1;
    Fields2: A 1 B 2;
    Fields3: A 1 B 2 C 3;
    Fields4: A 1 B 2 C 3 D 4;
    Fields5: A 1 B 2 C 3 D 4 E 5;
    Fields6: A 1 B 2 C 3 D 4 E 5 F 6;
    Fields7: A 1 B 2 C 3 D 4 E 5 F 6 G 7;
    Fields8: A 1 B 2 C 3 D 4 E 5 F 6 G 7 H 8;
    Fields9: A 1 B 2 C 3 D 4 E 5 F 6 G 7 H 8 I 9;
    Fields10: A 1 B 2 C 3 D 4 E 5 F 6 G 7 H 8 I 9 J 10;
    Fields11: A 1 B 2 C 3 D 4 E 5 F 6 G 7 H 8 I 9 J 10 K 11;
    Fields12: A 1 B 2 C 3 D 4 E 5 F 6 G 7 H 8 I 9 J 10 K 11 L 12;
}

/// The most fields a variant may have to be reached through a [`Layout`];
/// the macro writes a `match` arm for a variant with more.
pub const MAX_LAYOUT_FIELDS: usize = 12;

/// Whether a variant's struct `L` fits in the enum `E`, as one of its
/// variants does: asserted when compiled, once per shape.
const fn fits<E, L>() -> bool {
    size_of::<L>() <= size_of::<E>() && align_of::<L>() <= align_of::<E>()
}

/// The field values of `error`.
///
/// # Safety
///
/// `E` is a `#[repr(u32)]` enum (and no other `repr`), and `error`'s variant
/// has fields of exactly `L`'s field types, in order.
pub unsafe fn variant_values<'a, E, L: Layout + 'a>(error: &'a E) -> Vec<Value<'a>> {
    const { assert!(fits::<E, L>()) };
    // SAFETY: by the layout of a `#[repr(u32)]` enum (see the module), the
    // variant's bytes are those of `L`, borrowed for as long as `error`.
    unsafe { &*(error as *const E).cast::<L>() }.values()
}

/// Variant `index` of `E` built from field values.
///
/// # Safety
///
/// `E` is a `#[repr(u32)]` enum (and no other `repr`) whose variant of tag
/// `index` has fields of exactly `L`'s field types, in order.
pub unsafe fn variant_from_values<E, L: Layout>(index: usize, values: Vec<Value<'_>>) -> Option<E> {
    const { assert!(fits::<E, L>()) };
    let variant = L::from_values(u32::try_from(index).ok()?, values)?;
    let mut error = MaybeUninit::<E>::uninit();
    // SAFETY: `L` fits in `E` (checked above) and is the layout of variant
    // `index` (the caller's promise), whose tag it holds: written at the
    // start of the enum, it is that variant, whole.
    unsafe {
        error.as_mut_ptr().cast::<L>().write(variant);
        Some(error.assume_init())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ByteString;

    // An enum laid out as `#[catalog]` lays its enums out.
    #[repr(u32)]
    #[derive(Debug, PartialEq)]
    enum Mixed {
        Empty,
        One { text: String },
        Several { quoted: ByteString, count: i128, ratio: f64, flag: bool, text: String },
        // A field of low alignment first: right after the tag, where
        // `repr(C, u32)` would put it after the union's alignment instead.
        Flags { first: bool, second: bool, count: i128 },
    }

    #[test]
    fn every_shape_reads_and_builds_its_variant() {
        let values = |error: &Mixed| -> Vec<String> {
            // SAFETY: each variant with its own fields' layout.
            let values = unsafe {
                match error {
                    Mixed::Empty => variant_values::<_, Fields0>(error),
                    Mixed::One { .. } => variant_values::<_, Fields1<String>>(error),
                    Mixed::Several { .. } => variant_values::<_, Fields5<ByteString, i128, f64, bool, String>>(error),
                    Mixed::Flags { .. } => variant_values::<_, Fields3<bool, bool, i128>>(error),
                }
            };
            values.iter().map(|value| value.to_string()).collect()
        };
        let several = Mixed::Several {
            quoted: ByteString::from(b"a\xffb".to_vec()),
            count: -170_141_183_460_469_231_731_687_303_715_884_105_728,
            ratio: 0.5,
            flag: true,
            text: "x".repeat(100),
        };
        assert_eq!(values(&Mixed::Empty), Vec::<String>::new());
        assert_eq!(values(&Mixed::One { text: "hello".into() }), ["hello"]);
        let shown = values(&several);
        assert_eq!(shown[1..], ["-170141183460469231731687303715884105728", "0.5", "true", &"x".repeat(100)]);

        // SAFETY: each tag with its variant's layout.
        let built: Option<Mixed> = unsafe { variant_from_values::<_, Fields0>(0, vec![Value::Bool(true)]) };
        assert_eq!(built, Some(Mixed::Empty));
        let one = unsafe { variant_from_values::<Mixed, Fields1<String>>(1, vec![Value::Str("hi".into())]) };
        assert_eq!(one, Some(Mixed::One { text: "hi".into() }));
        let Mixed::Several { quoted, count, ratio, flag, text } = &several else { unreachable!() };
        let again = vec![quoted.to_value(), count.to_value(), ratio.to_value(), flag.to_value(), text.to_value()];
        let rebuilt = unsafe { variant_from_values::<Mixed, Fields5<ByteString, i128, f64, bool, String>>(2, again) };
        assert_eq!(rebuilt.as_ref(), Some(&several));

        let flags = Mixed::Flags { first: true, second: false, count: 7 };
        assert_eq!(values(&flags), ["true", "false", "7"]);
        let again = vec![Value::Bool(true), Value::Bool(false), Value::Int(7)];
        let rebuilt = unsafe { variant_from_values::<Mixed, Fields3<bool, bool, i128>>(3, again) };
        assert_eq!(rebuilt, Some(flags));
    }

    #[test]
    fn a_value_missing_or_of_another_type_builds_nothing() {
        // SAFETY: the tag with its variant's layout.
        let missing = unsafe { variant_from_values::<Mixed, Fields1<String>>(1, Vec::new()) };
        assert_eq!(missing, None);
        let wrong = unsafe {
            variant_from_values::<Mixed, Fields5<ByteString, i128, f64, bool, String>>(2, vec![Value::Bool(true); 5])
        };
        assert_eq!(wrong, None);
    }
}
