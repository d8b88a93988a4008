//! Go `fmt` format strings, parsed as `fmt.Printf` reads them.

use super::template::Builder;
use super::{Count, Dialect, Flags, FormatError, Spec, Template, ValueKind};

/// The kind of value a Go verb renders; `None` for an unknown verb.
pub(super) fn kind(verb: char) -> Option<ValueKind> {
    Some(match verb {
        'd' | 'b' | 'o' | 'O' | 'c' | 'U' => ValueKind::Int,
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => ValueKind::Float,
        't' => ValueKind::Bool,
        'q' => ValueKind::Quoted,
        'v' | 's' | 'w' | 'x' | 'X' | 'T' | 'p' => ValueKind::Text,
        _ => return None,
    })
}

/// Compiles a Go format string. Argument numbering follows `fmt.Printf`:
/// each verb and each `*` takes the next argument, and `%[n]` moves the next
/// argument to `n` (one-based).
pub(super) fn compile(format: &str) -> Result<Template, FormatError> {
    let mut builder = Builder::new(Dialect::Go);
    let mut parser = Parser { format, bytes: format.as_bytes(), i: 0, arg: 0 };
    while parser.i < parser.bytes.len() {
        let start = parser.i;
        while parser.i < parser.bytes.len() && parser.bytes[parser.i] != b'%' {
            parser.i += 1;
        }
        builder.literal(&format[start..parser.i]);
        if parser.i < parser.bytes.len() {
            parser.directive(&mut builder)?;
        }
    }
    Ok(builder.finish())
}

struct Parser<'a> {
    format: &'a str,
    bytes: &'a [u8],
    /// Byte position.
    i: usize,
    /// The next argument to use.
    arg: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    /// Parses one `%...` directive; `self.i` is at the `%`.
    fn directive(&mut self, builder: &mut Builder) -> Result<(), FormatError> {
        let percent = self.i;
        self.i += 1;
        let mut flags = Flags::NONE;
        while let Some(with) = self.peek().and_then(|c| flags.with_printf_flag(c)) {
            flags = with;
            self.i += 1;
        }
        if flags.minus() {
            // Go: zero padding only to the left.
            flags = flags.without_zero();
        }
        let mut after_index = self.index()?;
        let mut width_arg = None;
        let width = if self.peek() == Some(b'*') {
            width_arg = Some(self.star(builder)?);
            Count::Star
        } else {
            let at = self.i;
            let width = self.number()?;
            if after_index && width.is_some() {
                return Err(FormatError::new(at, "width after an argument index (write `%5[1]d`)"));
            }
            width.map_or(Count::None, Count::Fixed)
        };
        if width == Count::Star {
            after_index = false;
        }
        let mut precision = Count::None;
        let mut precision_arg = None;
        if self.i + 1 < self.bytes.len() && self.bytes[self.i] == b'.' {
            if after_index {
                return Err(FormatError::new(self.i, "precision after an argument index (write `%.2[1]f`)"));
            }
            self.i += 1;
            after_index = self.index()?;
            precision = if self.peek() == Some(b'*') {
                after_index = false;
                precision_arg = Some(self.star(builder)?);
                Count::Star
            } else {
                Count::Fixed(self.number()?.unwrap_or(0))
            };
        }
        if !after_index {
            self.index()?;
        }
        let Some(verb) = self.format[self.i..].chars().next() else {
            return Err(FormatError::new(percent, "missing verb at the end of the format"));
        };
        let at = self.i;
        self.i += verb.len_utf8();
        if verb == '%' {
            builder.literal("%");
            return Ok(());
        }
        let kind = kind(verb).ok_or_else(|| FormatError::new(at, format!("unknown verb {verb:?}")))?;
        let arg = self.take_arg(at)?;
        // A `*` whose argument is not the one just before the value's (the
        // precision's, for a width) names its argument: `%[2]*[1]d`.
        let named = |count: Count, star: Option<u16>, back: u16| match star {
            Some(star) if arg.checked_sub(back) != Some(star) => Count::Arg(star),
            _ => count,
        };
        let precision = named(precision, precision_arg, 1);
        let width = named(width, width_arg, if precision_arg.is_some() { 2 } else { 1 });
        let spec = Spec { verb, flags, width, precision };
        builder.value(arg, None, spec, kind);
        Ok(())
    }

    /// The next argument index, advanced past.
    fn take_arg(&mut self, at: usize) -> Result<u16, FormatError> {
        let arg = u16::try_from(self.arg).map_err(|_| FormatError::new(at, "too many arguments"))?;
        self.arg += 1;
        Ok(arg)
    }

    /// A `*` width or precision: it takes an argument, an integer field
    /// (returned: its call argument index).
    fn star(&mut self, builder: &mut Builder) -> Result<u16, FormatError> {
        let arg = self.take_arg(self.i)?;
        builder.star(arg);
        self.i += 1;
        Ok(arg)
    }

    /// A decimal number, if there is one.
    fn number(&mut self) -> Result<Option<u16>, FormatError> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return Ok(None);
        }
        let text = &self.format[start..self.i];
        text.parse().map(Some).map_err(|_| FormatError::new(start, format!("width or precision {text} is too large")))
    }

    /// An explicit argument index `[n]`, if there is one: sets the next argument.
    fn index(&mut self) -> Result<bool, FormatError> {
        if self.peek() != Some(b'[') {
            return Ok(false);
        }
        let open = self.i;
        let Some(len) = self.bytes[open..].iter().position(|&c| c == b']') else {
            return Err(FormatError::new(open, "unterminated argument index: missing `]`"));
        };
        let text = &self.format[open + 1..open + len];
        if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
            return Err(FormatError::new(open, format!("bad argument index [{text}]: not a number")));
        }
        match text.parse::<usize>() {
            Ok(0) => return Err(FormatError::new(open, "bad argument index [0]: indexes start at 1")),
            Ok(n) if n <= usize::from(u16::MAX) + 1 => self.arg = n - 1,
            _ => return Err(FormatError::new(open, format!("argument index [{text}] is too large"))),
        }
        self.i = open + len + 1;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compile, Piece};
    use super::*;

    /// (argument index, verb) of each placeholder.
    fn args(format: &str) -> Vec<(u16, char)> {
        let template = compile(format, Dialect::Go).unwrap();
        let arg = |field: &u16| template.fields[usize::from(*field)].arg;
        let values = template.pieces.iter().filter_map(|piece| match piece {
            Piece::Value { field, spec } => Some((arg(field), spec.verb)),
            Piece::Literal(_) => None,
        });
        values.collect()
    }

    #[test]
    fn argument_indexes_follow_go() {
        assert_eq!(args("%d %s"), [(0, 'd'), (1, 's')]);
        assert_eq!(args("%[2]d %[1]d"), [(1, 'd'), (0, 'd')]);
        assert_eq!(args("%[2]d %d"), [(1, 'd'), (2, 'd')]);
        assert_eq!(args("%[1]s %[1]q"), [(0, 's'), (0, 'q')]);
        assert_eq!(args("%*d"), [(1, 'd')]);
        assert_eq!(args("%-*.*f|%s"), [(2, 'f'), (3, 's')]);
        assert_eq!(args("%[2]*[1]d %d"), [(0, 'd'), (1, 'd')]);
        assert_eq!(args("%.[2]d"), [(1, 'd')]);
        assert_eq!(args("%[3]*.[2]*[1]f"), [(0, 'f')]);
        assert_eq!(args("100%% %v"), [(0, 'v')]);
    }

    #[test]
    fn stars_with_argument_indexes_follow_go() {
        use crate::model::Value;
        // Renders with the call's arguments (the fields are in order of
        // first appearance, the stars' first).
        let sprintf = |format: &str, args: &[Value<'static>]| {
            let template = compile(format, Dialect::Go).unwrap();
            let values: Vec<Value<'_>> = template.fields.iter().map(|f| args[usize::from(f.arg)].clone()).collect();
            assert_eq!(template.fields.len(), args.len(), "{format}: a field per argument");
            template.render(&values).unwrap()
        };
        let (int, float) = (Value::Int, Value::Float);
        // Each expected text is what Go 1.19's fmt.Sprintf writes.
        assert_eq!(sprintf("[%[2]*[1]d]", &[int(42), int(5)]), "[   42]");
        assert_eq!(sprintf("[%[2]*[1]d]", &[int(42), int(-5)]), "[42   ]");
        assert_eq!(sprintf("[%[3]*.[2]*[1]f]", &[float(12.0), int(2), int(6)]), "[ 12.00]");
        assert_eq!(sprintf("[%[1]*.[3]*[2]f]", &[int(8), float(1.5), int(3)]), "[   1.500]");
        // A star that is the argument before the value's is a plain `*`.
        let template = compile("%[1]*d", Dialect::Go).unwrap();
        assert!(matches!(template.pieces[0], Piece::Value { spec: Spec { width: Count::Star, .. }, .. }));
        let template = compile("%[2]*[1]d", Dialect::Go).unwrap();
        assert!(matches!(template.pieces[0], Piece::Value { spec: Spec { width: Count::Arg(1), .. }, .. }));
    }

    #[test]
    fn specs_are_parsed() {
        let template = compile("%-08.3f %+#x %[1]*d % 5.t %.s %5%", Dialect::Go).unwrap();
        let specs: Vec<Spec> = template
            .pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Value { spec, .. } => Some(*spec),
                Piece::Literal(_) => None,
            })
            .collect();
        let spec = |verb, flags, width, precision| Spec { verb, flags, width, precision };
        assert_eq!(
            specs,
            [
                spec('f', Flags::NONE.with_minus(), Count::Fixed(8), Count::Fixed(3)),
                spec('x', Flags::NONE.with_plus().with_alt(), Count::None, Count::None),
                spec('d', Flags::NONE, Count::Star, Count::None),
                spec('t', Flags::NONE.with_space(), Count::Fixed(5), Count::Fixed(0)),
                spec('s', Flags::NONE, Count::None, Count::Fixed(0)),
            ]
        );
        assert_eq!(template.pieces.last(), Some(&Piece::Literal(" %".into())));
    }

    #[test]
    fn bad_formats_are_errors() {
        let error = |format: &str| compile(format, Dialect::Go).unwrap_err();
        assert_eq!(error("abc %").offset, 4);
        assert_eq!(error("abc %-").offset, 4);
        assert_eq!(error("%y").offset, 1);
        assert!(error("%y").message.contains("unknown verb"));
        assert_eq!(error("ok %é").offset, 4);
        assert!(error("%[x]d").message.contains("not a number"));
        assert!(error("%[]d").message.contains("not a number"));
        assert!(error("%[0]d").message.contains("start at 1"));
        assert!(error("%[1d").message.contains("unterminated"));
        assert!(error("%[2]5d").message.contains("width after"));
        assert!(error("%[2].5d").message.contains("precision after"));
        assert!(error("%99999d").message.contains("too large"));
        assert!(error("%[99999999]d").message.contains("too large"));
        assert_eq!(error("%5.").offset, 2); // "." is read as the verb
    }
}
