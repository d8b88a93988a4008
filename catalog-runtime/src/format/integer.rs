//! Integers of any size in any base: Python's `%d`/`%x`/`%o` of integers
//! beyond 64 bits, and Go's and C's unsigned 64-bit values.
//!
//! Magnitudes are little-endian 32-bit limbs; only multiplication and
//! division by a small number are needed.

use std::borrow::Cow;

use crate::model::value::integer_value;
use crate::model::Value;

/// A value's sign and magnitude in `base` (2 to 36), lower-case digits;
/// `None` for a value that is not an integer.
pub(super) fn to_radix(value: &Value<'_>, base: u32) -> Option<(bool, String)> {
    let (negative, limbs) = match value {
        Value::Int(v) => (*v < 0, limbs_of(u128::from(v.unsigned_abs()))),
        Value::Uint(v) => (false, limbs_of(u128::from(*v))),
        Value::BigInt(text) => {
            let (negative, digits) = text.strip_prefix('-').map_or((false, &text[..]), |d| (true, d));
            (negative, parse_limbs(digits, 10)?)
        }
        _ => return None,
    };
    Some((negative, format_limbs(limbs, base)))
}

/// The integer with this sign and these digits in `base`: the narrowest of
/// [`Value::Int`], [`Value::Uint`], [`Value::BigInt`]. `None` when `digits`
/// are not all digits of `base` (or are none).
pub(super) fn from_radix(negative: bool, digits: &str, base: u32) -> Option<Value<'static>> {
    let limbs = parse_limbs(digits, base)?;
    Some(integer_value(negative, &format_limbs(limbs, 10)))
}

/// Whether `value` is zero (of an integer kind).
pub(super) fn is_zero(value: &Value<'_>) -> bool {
    match value {
        Value::Int(v) => *v == 0,
        Value::Uint(v) => *v == 0,
        Value::BigInt(text) => text.trim_start_matches('-') == "0",
        _ => false,
    }
}

/// The value as an `i64` bit pattern when it fits 64 bits (an unsigned
/// value as its two's complement): for the conversions that print bits.
pub(super) fn bits64(value: &Value<'_>) -> Option<i64> {
    match value {
        Value::Int(v) => Some(*v),
        Value::Uint(v) => Some(*v as i64),
        _ => None,
    }
}

/// `Value::BigInt` text, for tests and callers that build one.
#[allow(dead_code)]
pub(super) fn big(text: &str) -> Value<'static> {
    Value::BigInt(Cow::Owned(text.to_owned()))
}

fn limbs_of(mut v: u128) -> Vec<u32> {
    let mut limbs = Vec::new();
    while v > 0 {
        limbs.push(v as u32);
        v >>= 32;
    }
    limbs
}

fn parse_limbs(digits: &str, base: u32) -> Option<Vec<u32>> {
    if digits.is_empty() {
        return None;
    }
    let mut limbs: Vec<u32> = Vec::new();
    for c in digits.chars() {
        let mut carry = u64::from(c.to_digit(base)?);
        for limb in &mut limbs {
            let v = u64::from(*limb) * u64::from(base) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    Some(limbs)
}

/// Divides `limbs` by `d` in place; the remainder.
fn div_small(limbs: &mut Vec<u32>, d: u32) -> u32 {
    let mut rem = 0u64;
    for limb in limbs.iter_mut().rev() {
        let v = (rem << 32) | u64::from(*limb);
        *limb = (v / u64::from(d)) as u32;
        rem = v % u64::from(d);
    }
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    rem as u32
}

fn format_limbs(mut limbs: Vec<u32>, base: u32) -> String {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    if limbs.is_empty() {
        return "0".to_owned();
    }
    let mut digits = Vec::new();
    while !limbs.is_empty() {
        let d = div_small(&mut limbs, base);
        digits.push(char::from_digit(d, base).unwrap_or('?'));
    }
    digits.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_in_every_base() {
        let cases = ["0", "1", "-1", "18446744073709551615", "-9223372036854775808", "1267650600228229401496703205376"];
        for text in cases {
            let value = Value::integer(text).unwrap();
            for base in [2, 8, 10, 16, 36] {
                let (negative, digits) = to_radix(&value, base).unwrap();
                assert_eq!(from_radix(negative, &digits, base), Some(value.clone()), "{text} in base {base}");
            }
        }
        assert_eq!(
            to_radix(&Value::integer("1267650600228229401496703205376").unwrap(), 16).unwrap().1,
            format!("1{}", "0".repeat(25))
        );
        assert_eq!(from_radix(false, "ffffffffffffffff", 16), Some(Value::Uint(u64::MAX)));
        assert_eq!(from_radix(true, "8000000000000000", 16), Some(Value::Int(i64::MIN)));
        assert_eq!(from_radix(false, "12", 2), None);
        assert_eq!(from_radix(false, "", 10), None);
    }
}
