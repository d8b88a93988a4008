//! Width, precision and flags of a conversion as the printf family and the
//! float formatter read them, and padding to the width.

use std::fmt::{self, Write};

use super::{Count, Spec};

/// Width, precision and flags of a conversion. `*` counts are ignored.
#[derive(Clone, Copy, Debug)]
pub(super) struct Opts {
    pub(super) width: usize,
    pub(super) prec: Option<usize>,
    pub(super) minus: bool,
    pub(super) plus: bool,
    pub(super) sharp: bool,
    pub(super) space: bool,
    /// `0`, unless `-` is also given.
    pub(super) zero: bool,
}

impl Opts {
    /// The sign written before a number: `-`, or `+`/space by the flags.
    pub(super) fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    pub(super) fn new(spec: &Spec) -> Self {
        let fixed = |count| match count {
            Count::Fixed(n) => Some(usize::from(n)),
            Count::None | Count::Star | Count::Arg(_) => None,
        };
        let flags = spec.flags;
        Opts {
            width: fixed(spec.width).unwrap_or(0),
            prec: fixed(spec.precision),
            minus: flags.minus(),
            plus: flags.plus(),
            sharp: flags.alt(),
            space: flags.space(),
            zero: flags.zero() && !flags.minus(),
        }
    }
}

/// Writes `body` padded to the width: on the right with `-`, else on the
/// left with zeros (when `zero`) or spaces.
pub(super) fn pad(out: &mut dyn Write, body: &str, o: &Opts, zero: bool) -> fmt::Result {
    let fill = o.width.saturating_sub(body.chars().count());
    if o.minus {
        out.write_str(body)?;
        (0..fill).try_for_each(|_| out.write_char(' '))
    } else {
        (0..fill).try_for_each(|_| out.write_char(if zero { '0' } else { ' ' }))?;
        out.write_str(body)
    }
}
