//! Floating-point formatting as Go's `fmt`/`strconv` and C's `printf` do it.
//!
//! Decimal digits come from Rust's formatter, which is exact: shortest
//! round-trip digits for `{:e}`, correct rounding (ties to even, on the exact
//! binary value, like Go) for `{:.N}` and `{:.Ne}`.

use std::fmt::{self, Write};

use super::opts::{pad, Opts};

/// Decimal digits of a finite non-negative number: `d` without trailing
/// zeros (empty for zero) and the position `dp` of the decimal point.
struct Digits {
    d: Vec<u8>,
    dp: i32,
}

impl Digits {
    /// From Rust's `{:e}` output, e.g. `1.2345e-7`.
    fn from_scientific(s: &str) -> Self {
        let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
        let mut d: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
        while d.last() == Some(&b'0') {
            d.pop();
        }
        let dp = if d.is_empty() { 0 } else { exp.parse::<i32>().unwrap_or(0) + 1 };
        Digits { d, dp }
    }

    /// The shortest digits that read back as `v` (as a float32 when `single`).
    fn shortest(v: f64, single: bool) -> Self {
        if single {
            Self::from_scientific(&format!("{:e}", v as f32))
        } else {
            Self::from_scientific(&format!("{v:e}"))
        }
    }

    /// `v` rounded to `n >= 1` significant digits.
    fn rounded(v: f64, n: usize) -> Self {
        Self::from_scientific(&format!("{v:.*e}", n.saturating_sub(1)))
    }

    fn nd(&self) -> i32 {
        i32::try_from(self.d.len()).unwrap_or(i32::MAX)
    }

    /// `%e`: `d.ddde±dd` with `prec` digits after the point.
    fn fmt_e(&self, out: &mut String, prec: usize, e: char) {
        out.push(self.d.first().map_or('0', |&c| char::from(c)));
        if prec > 0 {
            out.push('.');
            for i in 1..=prec {
                out.push(self.d.get(i).map_or('0', |&c| char::from(c)));
            }
        }
        let exp = if self.d.is_empty() { 0 } else { self.dp - 1 };
        let _ = write!(out, "{e}{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    }

    /// `%f`: `ddd.ddd` with `prec` digits after the point.
    fn fmt_f(&self, out: &mut String, prec: usize) {
        let digit = |i: i32| usize::try_from(i).ok().and_then(|i| self.d.get(i)).map_or('0', |&c| char::from(c));
        if self.dp > 0 {
            (0..self.dp).for_each(|i| out.push(digit(i)));
        } else {
            out.push('0');
        }
        if prec > 0 {
            out.push('.');
            for i in 0..i32::try_from(prec).unwrap_or(i32::MAX) {
                out.push(digit(self.dp + i));
            }
        }
    }
}

/// Go's `strconv.FormatFloat(v, fmt, prec, 64)` (`32` when `single`) for
/// finite `v >= 0`; `prec` `None` is Go's `-1` (shortest).
fn strconv(v: f64, fmt: char, prec: Option<usize>, single: bool) -> String {
    let mut out = String::new();
    match (fmt, prec) {
        ('f', Some(prec)) => return format!("{v:.prec$}"),
        ('x' | 'X', _) => return go_hex(v, prec, fmt == 'X', single),
        ('b', _) => {
            let (mant, exp) = mantissa_exponent(v, single);
            let bits = if single { 23 } else { 52 };
            return format!("{mant}p{:+}", exp - bits);
        }
        _ => {}
    }
    let shortest = prec.is_none();
    let e = if fmt.is_ascii_uppercase() { 'E' } else { 'e' };
    let digits = match (fmt, prec) {
        (_, None) => Digits::shortest(v, single),
        ('e' | 'E', Some(prec)) => Digits::rounded(v, prec + 1),
        (_, Some(prec)) => Digits::rounded(v, prec.max(1)),
    };
    let (nd, dp) = (digits.nd(), digits.dp);
    let to_usize = |n: i32| usize::try_from(n.max(0)).unwrap_or(0);
    match fmt {
        'e' | 'E' => digits.fmt_e(&mut out, prec.unwrap_or(to_usize(nd - 1)), e),
        'f' => digits.fmt_f(&mut out, to_usize(nd - dp)),
        _ => {
            // %g: %e for large and small exponents, else %f; no trailing zeros.
            let mut prec = prec.map_or(nd, |p| i32::try_from(p.max(1)).unwrap_or(i32::MAX));
            let mut eprec = prec;
            if eprec > nd && nd >= dp {
                eprec = nd;
            }
            if shortest {
                eprec = 6;
            }
            let exp = dp - 1;
            if exp < -4 || exp >= eprec {
                prec = prec.min(nd);
                digits.fmt_e(&mut out, to_usize(prec - 1), e);
            } else {
                if prec > dp {
                    prec = nd;
                }
                digits.fmt_f(&mut out, to_usize(prec - dp));
            }
        }
    }
    out
}

/// The mantissa (with its leading bit) and the exponent of the leading
/// bit of finite `v >= 0`, from its float64 (float32 when `single`) bits, as
/// Go's `strconv` takes them apart.
fn mantissa_exponent(v: f64, single: bool) -> (u64, i32) {
    let (bits, frac_bits, bias) =
        if single { (u64::from((v as f32).to_bits()), 23, 127) } else { (v.to_bits(), 52, 1023) };
    let biased = i32::try_from(bits >> frac_bits).unwrap_or(0);
    let mut mant = bits & ((1 << frac_bits) - 1);
    let mut exp = biased;
    if exp == 0 {
        exp += 1; // subnormal
    } else {
        mant |= 1 << frac_bits;
    }
    (mant, exp - bias)
}

/// Go's `%x` of finite `v >= 0`: `0x1.8p+01`, normalized to a leading 1
/// (subnormals too), rounded to `prec` hex digits (ties to even).
fn go_hex(v: f64, prec: Option<usize>, upper: bool, single: bool) -> String {
    let frac_bits = if single { 23 } else { 52 };
    let (mut mant, mut exp) = mantissa_exponent(v, single);
    if mant == 0 {
        exp = 0;
    }
    mant <<= 60 - frac_bits;
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if let Some(prec) = prec.filter(|&p| p < 15) {
        let shift = 4 * prec as u32;
        let extra = (mant << shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let digit = |d: u64| {
        let c = char::from_digit((d & 15) as u32, 16).unwrap_or('0');
        if upper {
            c.to_ascii_uppercase()
        } else {
            c
        }
    };
    let mut out = String::from(if upper { "0X" } else { "0x" });
    out.push(digit((mant >> 60) & 1));
    mant <<= 4;
    match prec {
        None if mant != 0 => {
            out.push('.');
            while mant != 0 {
                out.push(digit(mant >> 60));
                mant <<= 4;
            }
        }
        Some(prec) if prec > 0 => {
            out.push('.');
            for _ in 0..prec {
                out.push(digit(mant >> 60));
                mant <<= 4;
            }
        }
        _ => {}
    }
    out.push(if upper { 'P' } else { 'p' });
    out.push(if exp < 0 { '-' } else { '+' });
    let _ = write!(out, "{:02}", exp.unsigned_abs());
    out
}

/// Writes `v` as Go's `fmt` does for `verb` (`v e E f F g G x X b`); a
/// `float32` (`single`) with its shortest float32 digits.
pub(super) fn go(out: &mut dyn Write, v: f64, verb: char, o: &Opts, single: bool) -> fmt::Result {
    let (fmt, default) = match verb {
        'e' | 'E' | 'f' => (verb, Some(6)),
        'F' => ('f', Some(6)),
        'G' | 'x' | 'X' | 'b' => (verb, None),
        _ => ('g', None),
    };
    let mut num = String::with_capacity(24);
    if v.is_nan() {
        num.push_str("+NaN");
    } else if v.is_infinite() {
        num.push_str(if v > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        num.push(if v.is_sign_negative() { '-' } else { '+' });
        // `%b` has no precision.
        let prec = if fmt == 'b' { None } else { o.prec.or(default) };
        num.push_str(&strconv(v.abs(), fmt, prec, single));
    }
    if o.space && !o.plus && num.starts_with('+') {
        num.replace_range(..1, " ");
    }
    if !v.is_finite() {
        // Not padded with zeros; NaN has no sign unless asked for.
        let body = if v.is_nan() && !o.space && !o.plus { &num[1..] } else { &num[..] };
        return pad(out, body, o, false);
    }
    if o.sharp && fmt != 'b' {
        go_sharp(&mut num, fmt, o.prec);
    }
    if o.plus || !num.starts_with('+') {
        if o.zero && o.width > num.len() {
            // The sign goes before the zeros.
            out.write_str(&num[..1])?;
            (num.len()..o.width).try_for_each(|_| out.write_char('0'))?;
            return out.write_str(&num[1..]);
        }
        return pad(out, &num, o, false);
    }
    pad(out, &num[1..], o, o.zero)
}

/// Go's `#` flag (`fmt.fmtFloat`): always a decimal point; `%#g` and
/// `%#x` keep trailing zeros up to the precision (6 by default).
fn go_sharp(num: &mut String, fmt: char, prec: Option<usize>) {
    let mut digits: i64 = match fmt {
        'g' | 'G' | 'x' | 'X' => prec.map_or(6, |p| i64::try_from(p).unwrap_or(i64::MAX)),
        _ => 0,
    };
    let hex = matches!(fmt, 'x' | 'X');
    let exponent = num[1..].find(|c| matches!(c, 'p' | 'P') || (!hex && matches!(c, 'e' | 'E')));
    let tail = num.split_off(exponent.map_or(num.len(), |i| i + 1));
    let mut nonzero = false;
    for c in num[1..].chars().filter(|&c| c != '.') {
        // As in Go, any character but `0` (the `x` of `0x` too) starts the count.
        nonzero |= c != '0';
        if nonzero {
            digits -= 1;
        }
    }
    if !num.contains('.') {
        if num.len() == 2 && num.ends_with('0') {
            digits -= 1;
        }
        num.push('.');
    }
    for _ in 0..digits.max(0) {
        num.push('0');
    }
    num.push_str(&tail);
}

/// Writes `v` as C's `printf` (and Python's `%`) does for `verb`
/// (`f F e E g G a A`).
/// glibc writes a NaN's sign bit (`-nan`); Python does not, and pads
/// `inf` and `nan` with zeros as it pads numbers.
pub(super) fn c(out: &mut dyn Write, v: f64, verb: char, o: &Opts, python: bool) -> fmt::Result {
    let upper = verb.is_ascii_uppercase();
    let sign = o.sign(v.is_sign_negative() && !(python && v.is_nan()));
    if !v.is_finite() {
        let word = if v.is_nan() { "nan" } else { "inf" };
        let word = if upper { word.to_ascii_uppercase() } else { word.to_owned() };
        if python && o.zero && o.width > sign.len() + word.len() {
            let zeros = "0".repeat(o.width - sign.len() - word.len());
            return out.write_str(&format!("{sign}{zeros}{word}"));
        }
        return pad(out, &format!("{sign}{word}"), o, false);
    }
    let (a, e) = (v.abs(), if upper { 'E' } else { 'e' });
    let mut body = String::new();
    match verb.to_ascii_lowercase() {
        'f' => body = format!("{a:.*}", o.prec.unwrap_or(6)),
        'e' => {
            let prec = o.prec.unwrap_or(6);
            Digits::rounded(a, prec + 1).fmt_e(&mut body, prec, e);
        }
        'g' => c_g(&mut body, a, o.prec.unwrap_or(6).max(1), o.sharp, e),
        _ => body = hex(a, o.prec, upper),
    }
    let is_hex = body.starts_with("0x") || body.starts_with("0X");
    if o.sharp && !body.contains('.') {
        let exponent = if is_hex { body.find(['p', 'P']) } else { body.find(['e', 'E']) };
        body.insert(exponent.unwrap_or(body.len()), '.');
    }
    let len = sign.len() + body.len();
    if o.zero && o.width > len {
        // Zeros go after the sign and the `0x` of hex floats.
        let prefix = if is_hex { 2 } else { 0 };
        out.write_str(sign)?;
        out.write_str(&body[..prefix])?;
        (len..o.width).try_for_each(|_| out.write_char('0'))?;
        return out.write_str(&body[prefix..]);
    }
    pad(out, &format!("{sign}{body}"), o, false)
}

/// C's `%g` with precision `p >= 1`.
fn c_g(out: &mut String, a: f64, p: usize, sharp: bool, e: char) {
    let digits = Digits::rounded(a, p);
    let p = i32::try_from(p).unwrap_or(i32::MAX);
    let to_usize = |n: i32| usize::try_from(n.max(0)).unwrap_or(0);
    let exp = if digits.d.is_empty() { 0 } else { digits.dp - 1 };
    if exp < -4 || exp >= p {
        let prec = if sharp { p - 1 } else { digits.nd().max(1) - 1 };
        digits.fmt_e(out, to_usize(prec), e);
    } else {
        let prec = if sharp { p - 1 - exp } else { digits.nd() - digits.dp };
        digits.fmt_f(out, to_usize(prec));
    }
}

/// C's `%a` of `a >= 0`: `0x1.8p+1` (glibc style; subnormals `0x0.…p-1022`).
fn hex(a: f64, prec: Option<usize>, upper: bool) -> String {
    let bits = a.to_bits();
    let biased = i32::try_from(bits >> 52).unwrap_or(0);
    let mut frac = bits & ((1 << 52) - 1);
    let (mut lead, exp) = match (biased, frac) {
        (0, 0) => (0, 0),
        (0, _) => (0, -1022),
        _ => (1u64, biased - 1023),
    };
    let mut digits = 13;
    match prec {
        None => {
            while digits > 0 && frac & 0xf == 0 {
                frac >>= 4;
                digits -= 1;
            }
        }
        Some(p) if p < 13 => {
            let shift = 4 * (13 - p);
            let full = (lead << 52) | frac;
            let (mut q, rem, half) = (full >> shift, full & ((1 << shift) - 1), 1 << (shift - 1));
            if rem > half || (rem == half && q & 1 == 1) {
                q += 1; // ties to even
            }
            (lead, frac, digits) = (q >> (4 * p), q & ((1 << (4 * p)) - 1), p);
        }
        Some(p) => digits = p,
    }
    let mut s = format!("0x{lead:x}");
    if digits > 0 {
        let _ = write!(s, ".{frac:0width$x}", width = digits.min(13));
        (13..digits).for_each(|_| s.push('0'));
    }
    let _ = write!(s, "p{exp:+}");
    if upper {
        s.make_ascii_uppercase();
    }
    s
}

/// Reads a float as Go or C writes it: decimal or hex (`0x1.8p+1`), with
/// `Inf`/`inf`/`infinity`/`NaN`/`nan` in any case, after an optional sign.
pub(super) fn parse(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    // Python pads `inf` and `nan` with zeros too (`%010f`).
    let word = body.trim_start_matches('0');
    let value = if word.eq_ignore_ascii_case("inf") || word.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if word.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        parse_hex(hex)?
    } else if body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        body.parse().ok()?
    } else {
        return None;
    };
    // A finite text is the rounding of a finite value: past `f64::MAX`
    // (`%.3e` of it is `1.798e+308`) it reads back as the largest float.
    let value = if value.is_infinite() && word.bytes().any(|b| b.is_ascii_digit()) { f64::MAX } else { value };
    Some(if negative { -value } else { value })
}

/// The hex float after its `0x`: `1.8p+1`.
fn parse_hex(text: &str) -> Option<f64> {
    let (mantissa, exp) = text.split_once(['p', 'P'])?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let frac = frac.trim_end_matches('0');
    let int = int.trim_start_matches('0');
    let digits = format!("{int}{frac}");
    if digits.len() > 14 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let m = if digits.is_empty() { 0 } else { u64::from_str_radix(&digits, 16).ok()? };
    // Clamped: the loop in `scale` is bounded, and beyond this the value is 0 or infinite anyway.
    let exp = exp.checked_sub(4 * i32::try_from(frac.len()).ok()?)?.clamp(-5000, 5000);
    // `%a` writes at most 53 significant bits, which `as f64` keeps exactly.
    Some(scale(m as f64, exp))
}

/// `value * 2^exp`, in steps that neither overflow nor underflow early.
pub(super) fn scale(mut value: f64, mut exp: i32) -> f64 {
    while !(-1000..=1000).contains(&exp) {
        let step = exp.clamp(-1000, 1000);
        value *= 2f64.powi(step);
        exp -= step;
    }
    value * 2f64.powi(exp)
}
