//! Invariants of a compiled template, shared by the format compiler and
//! record loader targets.

use std::collections::HashSet;

use catalog_runtime::Matcher;
use std::borrow::Cow;

use catalog_runtime::{Count, Dialect, Piece, Template, Value, ValueKind};
use regex::Regex;

/// Checks a template compiled from a format string or a record:
///
/// - every placeholder names a field, and every field is rendered by one
///   (or is the `*` width or precision of one);
/// - its regex compiles (a record's own `messagePattern` may only fail by
///   being too big: its syntax was checked) with one capture group per
///   placeholder and no other;
/// - for formats (not patterns): `literal_len` counts the literal characters,
///   and the message rendered with sample values matches the template's own
///   anchored regex and parses back as this template (neither when a text
///   field is rendered with different verbs or precisions), with sample
///   values and with the values beyond the plain kinds (`u64::MAX`, a string
///   that is not UTF-8, a float32).
pub fn check(template: &Template) {
    let placeholders: Vec<usize> = template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Value { field, .. } => Some(usize::from(*field)),
            _ => None,
        })
        .collect();
    for &field in &placeholders {
        assert!(field < template.fields.len(), "placeholder of field {field}, of {} fields", template.fields.len());
    }
    // Every field is rendered by a placeholder, or is the `*` width or
    // precision of one: an integer argument just before the value's, or the
    // one a `Count::Arg` names (Go's `%[2]*[1]d`).
    let mut rendered: HashSet<usize> = placeholders.iter().copied().collect();
    let mut star_counts: HashSet<usize> = HashSet::new();
    // Fields named as a `*` count, whatever their kind.
    let mut counted: HashSet<usize> = HashSet::new();
    for piece in template.pieces.iter() {
        let Piece::Value { field, spec } = piece else { continue };
        let arg = template.fields[usize::from(*field)].arg;
        let star_arg = |count: Count, back: u16| match count {
            Count::Star => arg.checked_sub(back),
            Count::Arg(star) => Some(star),
            _ => None,
        };
        let width_back = if spec.precision.is_star() { 2 } else { 1 };
        for star_arg in [star_arg(spec.precision, 1), star_arg(spec.width, width_back)].into_iter().flatten() {
            let star = template.fields.iter().position(|f| f.arg == star_arg);
            counted.extend(star);
            if let Some(star) = star.filter(|&star| template.fields[star].kind == ValueKind::Int) {
                rendered.insert(star);
                star_counts.insert(star);
            }
        }
    }
    assert_eq!(rendered.len(), template.fields.len(), "a field no placeholder renders: {template:?}");

    // Anchored as `parse` anchors it (which adds no capture group); one
    // compilation, the slowest step, serves every check below.
    let anchored = match Regex::new(&format!("^(?s:{})$", template.regex)) {
        Ok(regex) => regex,
        Err(regex::Error::CompiledTooBig(_)) if template.dialect == Dialect::Pattern => return,
        Err(err) => panic!("the template's regex {:?} does not compile: {err}", template.regex),
    };
    assert_eq!(anchored.captures_len(), placeholders.len() + 1, "capture groups of {:?}", template.regex);
    if template.dialect == Dialect::Pattern {
        // A pattern's pieces only describe it when it is simple; rendering
        // it is not meant to round-trip.
        return;
    }

    let literal_chars: usize = template
        .pieces
        .iter()
        .map(|piece| match piece {
            Piece::Literal(text) => text.chars().count(),
            _ => 0,
        })
        .sum();
    assert_eq!(template.literal_len as usize, literal_chars.min(u32::MAX as usize), "literal_len of {template:?}");

    // A text field rendered differently twice does not round-trip: an
    // argument used with verbs of different kinds is text (`%v ... %[1]d`),
    // which `sample_values` can only make fit all of them, and text cut to
    // different precisions (`%[1].2s ... %[1]s`) captures different values.
    let mixed = template.fields.iter().enumerate().any(|(index, field)| {
        let renderings: HashSet<(char, Count)> = template
            .pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Value { field, spec } if usize::from(*field) == index => Some((spec.verb, spec.precision)),
                _ => None,
            })
            .collect();
        // A `*` count (an integer) that a verb of another kind also writes
        // (`%t`, `%F`, `%s`) is text too; Go writes `%!t(int=7)` for it,
        // which no template reads. Only `%v` writes an integer as it is.
        let counted_and_retyped = renderings.iter().any(|(verb, _)| *verb != 'v') && counted.contains(&index);
        field.kind == ValueKind::Text && (renderings.len() > 1 || counted_and_retyped)
    });
    if mixed {
        return;
    }
    let samples = template.sample_values();
    let message = template.render(&samples).expect("a sample value per field");
    assert!(
        anchored.is_match(&message),
        "{:?} does not match its own rendering {message:?} ({template:?})",
        template.regex
    );
    // A text field rendered twice, or a number followed by literal digits,
    // may be split wrongly by the regex (`%(k)s%(k)s` of `samplesample` as
    // `s`, `amplesample`; `%0o0%099F` with the octal's digits taking the
    // next number's padding): the matcher then tries other splits (see
    // `catalog_runtime`'s `matcher/resplit.rs`), so these parse back too.
    // Those other splits are tried within a bounded budget (no line costs
    // more than a fixed amount): a field written again among three or more
    // placeholders that touch may need more splits than that, and is then
    // not read back, by design.
    let touching_run = template.pieces.windows(3).any(|w| w.iter().all(|p| matches!(p, Piece::Value { .. })));
    let matcher = Matcher::new([template]);
    let parsed = matcher.parse(&message);
    if parsed.is_none() && touching_run {
        return;
    }
    assert!(parsed.is_some(), "the rendering {message:?} of {template:?} does not parse back");
    let parsed = parsed.unwrap();
    assert_eq!(parsed.values.len(), template.fields.len());

    // The values beyond the plain kinds: an unsigned 64-bit integer, a
    // string that is not UTF-8, a float32. Each renders a message that its
    // template matches and reads back.
    let edge: Vec<Value<'static>> = (template.fields.iter().enumerate())
        .map(|(index, field)| {
            let verb = template.first_spec(index).map_or('v', |spec| spec.verb);
            // A `*` count keeps its sample: a width of `u64::MAX` is not written.
            let star = !placeholders.contains(&index) || star_counts.contains(&index);
            match (field.kind, template.dialect) {
                (ValueKind::Int, _) if !star && "dxXob".contains(verb) => Value::Uint(u64::MAX),
                (ValueKind::Quoted, Dialect::Go) => Value::Bytes(Cow::Borrowed(b"\xc3(ab")),
                (ValueKind::Float, Dialect::Go) if "vgG".contains(verb) => Value::Float32(0.1),
                _ => samples[index].clone(),
            }
        })
        .collect();
    let message = template.render(&edge).expect("a value per field");
    assert!(
        anchored.is_match(&message),
        "{:?} does not match its own rendering {message:?} ({template:?})",
        template.regex
    );
    // As above, three or more touching placeholders may need more splits
    // than the budget allows.
    let parsed = matcher.parse(&message);
    assert!(parsed.is_some() || touching_run, "the rendering {message:?} of {template:?} does not parse back");
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use catalog_runtime::{Dialect, Template};

    use super::check;

    #[test]
    fn a_sound_template_passes() {
        check(&Template::compile("unable to persist session %q (seq=%v): %v", Dialect::Go).unwrap());
    }

    #[test]
    #[should_panic(expected = "does not match its own rendering")]
    fn a_regex_that_misses_the_rendering_fails() {
        let mut template = Template::compile("seq=%d done", Dialect::Go).unwrap();
        template.regex = Cow::Borrowed(r"seq=([a-z]+) done");
        check(&template);
    }

    #[test]
    #[should_panic(expected = "capture groups")]
    fn an_extra_capture_group_fails() {
        let mut template = Template::compile("seq=%d done", Dialect::Go).unwrap();
        template.regex = Cow::Owned(format!("({})", template.regex));
        check(&template);
    }

    #[test]
    #[should_panic(expected = "literal_len")]
    fn a_wrong_literal_count_fails() {
        let mut template = Template::compile("seq=%d done", Dialect::Go).unwrap();
        template.literal_len += 1;
        check(&template);
    }
}
