//! Writing a whole message: its literal pieces and each placeholder's value,
//! `*` widths and precisions taken from their fields.

use std::fmt::{self, Write};

use super::{render, Count, Piece, Spec, Template, ValueKind};
use crate::model::Value;

/// Writes a whole message: the literal pieces, and each placeholder with the
/// value of its field (`values` is indexed like [`Template::fields`]).
/// Fails with [`fmt::Error`] when a field has no value.
pub fn render_template(out: &mut dyn Write, template: &Template, values: &[Value<'_>]) -> fmt::Result {
    render_pieces(out, template, |field| values.get(field).map(Some))
}

/// [`render_template`] with some fields unknown: their placeholders are
/// written as `%` and the verb (`%d`), without flags, width or precision.
pub fn render_partial(out: &mut dyn Write, template: &Template, values: &[Option<Value<'_>>]) -> fmt::Result {
    render_pieces(out, template, |field| values.get(field).map(Option::as_ref))
}

/// The pieces of `template`, each placeholder with `value(field)`: `None`
/// (no such field) fails, `Some(None)` writes the verb.
fn render_pieces<'v>(
    out: &mut dyn Write,
    template: &Template,
    value: impl Fn(usize) -> Option<Option<&'v Value<'v>>>,
) -> fmt::Result {
    for piece in template.pieces.iter() {
        match piece {
            Piece::Literal(text) => out.write_str(text)?,
            Piece::Value { field, spec } => match value(usize::from(*field)).ok_or(fmt::Error)? {
                Some(found) => {
                    let spec = resolve_stars(template, usize::from(*field), spec, &value);
                    render(out, &spec, template.dialect, found)?
                }
                None => write!(out, "%{}", spec.verb)?,
            },
        }
    }
    Ok(())
}

/// One placeholder of `template` (the piece writing `field` with `spec`) as
/// it renders with the values known so far: `None` when its own value is
/// unknown. Its `*` counts come from `values` like a whole message's.
pub(crate) fn render_placeholder(
    template: &Template,
    field: usize,
    spec: &Spec,
    values: &[Option<Value<'_>>],
) -> Option<String> {
    let value = |field: usize| values.get(field).map(Option::as_ref);
    let own = value(field).flatten()?;
    let spec = resolve_stars(template, field, spec, &value);
    let mut text = String::new();
    render(&mut text, &spec, template.dialect, own).ok()?;
    Some(text)
}

/// `spec` with its `*` width and precision taken from the fields that hold
/// them (see [`star_fields`]); a negative width is the `-` flag, a negative
/// precision none, as in Go, C and Python. A count without a field (Go's
/// `%[2]*[1]d`) is left out.
fn resolve_stars<'v>(
    template: &Template,
    field: usize,
    spec: &Spec,
    value: &impl Fn(usize) -> Option<Option<&'v Value<'v>>>,
) -> Spec {
    let mut spec = *spec;
    if !spec.width.is_star() && !spec.precision.is_star() {
        return spec;
    }
    let (width_field, precision_field) = star_fields(template, field, &spec);
    let count = |field: Option<usize>| match field.and_then(|f| value(f).flatten()) {
        Some(Value::Int(n)) => Some(*n),
        _ => None,
    };
    if spec.width.is_star() {
        spec.width = match count(width_field) {
            Some(n) if n < 0 => {
                spec.flags = spec.flags.with_minus().without_zero();
                Count::Fixed(u16::try_from(n.unsigned_abs()).unwrap_or(u16::MAX))
            }
            Some(n) => Count::Fixed(u16::try_from(n).unwrap_or(u16::MAX)),
            None => Count::None,
        };
    }
    if spec.precision.is_star() {
        spec.precision = match count(precision_field) {
            Some(n) if n >= 0 => Count::Fixed(u16::try_from(n).unwrap_or(u16::MAX)),
            _ => Count::None,
        };
    }
    spec
}

/// The fields holding the `*` width and precision of a placeholder of
/// `field`: the arguments just before the value's (`%*.*f` takes width,
/// precision, value), or those a [`Count::Arg`] names (Go's `%[2]*[1]d`),
/// when the format gave them fields.
pub(crate) fn star_fields(template: &Template, field: usize, spec: &Spec) -> (Option<usize>, Option<usize>) {
    let Some(arg) = template.fields.get(field).map(|f| f.arg) else {
        return (None, None);
    };
    let field_of =
        |arg: Option<u16>| template.fields.iter().position(|f| Some(f.arg) == arg && f.kind == ValueKind::Int);
    let (width, precision) = star_args(arg, spec);
    (width.and_then(|_| field_of(width)), precision.and_then(|_| field_of(precision)))
}

/// The call arguments of the `*` width and precision of a placeholder of
/// call argument `arg`: those just before it ([`Count::Star`]) or the ones
/// named ([`Count::Arg`]).
pub(crate) fn star_args(arg: u16, spec: &Spec) -> (Option<u16>, Option<u16>) {
    let star_arg = |count: Count, back: u16| match count {
        Count::Star => arg.checked_sub(back),
        Count::Arg(star) => Some(star),
        Count::None | Count::Fixed(_) => None,
    };
    (star_arg(spec.width, if spec.precision.is_star() { 2 } else { 1 }), star_arg(spec.precision, 1))
}
