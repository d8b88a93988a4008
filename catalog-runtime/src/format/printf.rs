//! C `printf` and Python `%` format strings.

use super::template::Builder;
use super::{Count, Dialect, Flags, FormatError, Spec, Template, ValueKind};

/// The kind of value a conversion renders; `None` for an unknown conversion.
pub(super) fn kind(conversion: char, dialect: Dialect) -> Option<ValueKind> {
    let python = dialect == Dialect::Python;
    Some(match conversion {
        'd' | 'i' | 'u' | 'o' | 'c' => ValueKind::Int,
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'A' => ValueKind::Float,
        'a' if !python => ValueKind::Float,
        // Python `%a` is `ascii()`, `%r` is `repr()`.
        'a' | 'r' if python => ValueKind::Text,
        'x' | 'X' | 's' | 'p' => ValueKind::Text,
        _ => return None,
    })
}

/// Compiles a C or Python format string. Length modifiers are dropped, `%n`
/// takes an argument but writes nothing, and Python `%(key)s` names its field
/// `key` (its `arg` is the key's rank among the distinct keys).
pub(super) fn compile(format: &str, dialect: Dialect) -> Result<Template, FormatError> {
    let mut builder = Builder::new(dialect);
    let mut parser = Parser { format, dialect, i: 0, arg: 0, keys: Vec::new(), keyed: None };
    while parser.i < format.len() {
        let start = parser.i;
        parser.i = format[start..].find('%').map_or(format.len(), |n| start + n);
        builder.literal(&format[start..parser.i]);
        if parser.i < format.len() {
            parser.directive(&mut builder)?;
        }
    }
    Ok(builder.finish())
}

struct Parser<'a> {
    format: &'a str,
    dialect: Dialect,
    /// Byte position.
    i: usize,
    /// The next positional argument.
    arg: usize,
    /// Python mapping keys, in order of first use.
    keys: Vec<String>,
    /// Whether conversions use mapping keys (known after the first one).
    keyed: Option<bool>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.format.as_bytes().get(self.i).copied()
    }

    /// Parses one `%...` directive; `self.i` is at the `%`.
    fn directive(&mut self, builder: &mut Builder) -> Result<(), FormatError> {
        let percent = self.i;
        self.i += 1;
        let key = if self.dialect == Dialect::Python && self.peek() == Some(b'(') { Some(self.key()?) } else { None };
        let mut flags = Flags::NONE;
        while let Some(c) = self.peek() {
            match flags.with_printf_flag(c) {
                Some(with) => flags = with,
                // Thousands grouping: none in the C locale.
                None if c == b'\'' && self.dialect == Dialect::Printf => {}
                None => break,
            }
            self.i += 1;
        }
        if flags.minus() {
            flags = flags.without_zero();
        }
        let width = self.count(key.is_some(), builder)?;
        let precision = if self.peek() == Some(b'.') {
            self.i += 1;
            match self.count(key.is_some(), builder)? {
                Count::None => Count::Fixed(0),
                count => count,
            }
        } else {
            Count::None
        };
        self.length_modifier();
        let at = self.i;
        let Some(conversion) = self.format[self.i..].chars().next() else {
            return Err(FormatError::new(percent, "missing conversion at the end of the format"));
        };
        self.i += conversion.len_utf8();
        if conversion == '%' {
            builder.literal("%");
            return Ok(());
        }
        if self.keyed.is_some_and(|keyed| keyed != key.is_some()) {
            return Err(FormatError::new(percent, "mapping keys and positional conversions are mixed"));
        }
        self.keyed = Some(key.is_some());
        let arg = match &key {
            Some(key) => self.keys.iter().position(|k| k == key).unwrap_or_else(|| {
                self.keys.push(key.clone());
                self.keys.len() - 1
            }),
            None => {
                self.arg += 1;
                self.arg - 1
            }
        };
        let arg = u16::try_from(arg).map_err(|_| FormatError::new(at, "too many arguments"))?;
        if conversion == 'n' {
            return Ok(()); // writes nothing
        }
        let kind = kind(conversion, self.dialect)
            .ok_or_else(|| FormatError::new(at, format!("unknown conversion {conversion:?}")))?;
        let spec = Spec { verb: conversion, flags, width, precision };
        builder.value(arg, key.as_deref(), spec, kind);
        Ok(())
    }

    /// A Python mapping key `(name)`; parentheses may nest, as in Python.
    fn key(&mut self) -> Result<String, FormatError> {
        let open = self.i;
        let mut depth = 0;
        for (n, c) in self.format[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 1 => {
                    self.i = open + n + 1;
                    return Ok(self.format[open + 1..open + n].to_owned());
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        Err(FormatError::new(open, "unterminated mapping key: missing `)`"))
    }

    /// A width or precision: digits, `*` (takes an argument, an integer
    /// field) or nothing.
    fn count(&mut self, keyed: bool, builder: &mut Builder) -> Result<Count, FormatError> {
        if self.peek() == Some(b'*') {
            if keyed {
                return Err(FormatError::new(self.i, "`*` cannot be used with a mapping key"));
            }
            let arg = u16::try_from(self.arg).map_err(|_| FormatError::new(self.i, "too many arguments"))?;
            builder.star(arg);
            self.i += 1;
            self.arg += 1;
            return Ok(Count::Star);
        }
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return Ok(Count::None);
        }
        let text = &self.format[start..self.i];
        let n = text.parse().map_err(|_| FormatError::new(start, format!("width or precision {text} is too large")))?;
        Ok(Count::Fixed(n))
    }

    /// Skips a length modifier (`hh h l ll L q j z t`).
    fn length_modifier(&mut self) {
        let rest = &self.format[self.i..];
        let len = ["hh", "ll", "h", "l", "L", "q", "j", "z", "t"]
            .iter()
            .find(|modifier| rest.starts_with(*modifier))
            .map_or(0, |modifier| modifier.len());
        self.i += len;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compile, Field, Piece};
    use super::*;

    fn values(format: &str, dialect: Dialect) -> Vec<(Field, Spec)> {
        let template = compile(format, dialect).unwrap();
        let values = template.pieces.iter().filter_map(|piece| match piece {
            Piece::Value { field, spec } => Some((template.fields[usize::from(*field)].clone(), *spec)),
            Piece::Literal(_) => None,
        });
        values.collect()
    }

    fn spec(verb: char, flags: Flags, width: Count, precision: Count) -> Spec {
        Spec { verb, flags, width, precision }
    }

    #[test]
    fn c_conversions() {
        let found = values("%-08.3lf|%'+5lld|%#hhx|%zu|%*.*s|%n|%c|%Lg|%jd%%", Dialect::Printf);
        let specs: Vec<Spec> = found.iter().map(|(_, spec)| *spec).collect();
        assert_eq!(
            specs,
            [
                spec('f', Flags::NONE.with_minus(), Count::Fixed(8), Count::Fixed(3)),
                spec('d', Flags::NONE.with_plus(), Count::Fixed(5), Count::None),
                spec('x', Flags::NONE.with_alt(), Count::None, Count::None),
                spec('u', Flags::NONE, Count::None, Count::None),
                spec('s', Flags::NONE, Count::Star, Count::Star),
                spec('c', Flags::NONE, Count::None, Count::None),
                spec('g', Flags::NONE, Count::None, Count::None),
                spec('d', Flags::NONE, Count::None, Count::None),
            ]
        );
        let args: Vec<u16> = found.iter().map(|(field, _)| field.arg).collect();
        assert_eq!(args, [0, 1, 2, 3, 6, 8, 9, 10]); // `*` and `%n` take arguments
        let kinds: Vec<ValueKind> = found.iter().map(|(field, _)| field.kind).collect();
        use ValueKind::*;
        assert_eq!(kinds, [Float, Int, Text, Int, Text, Int, Float, Int]);
    }

    #[test]
    fn python_mapping_keys() {
        let found = values("%(name)s is %(age)05d, %(name)r; %(f(x))s", Dialect::Python);
        let fields: Vec<(&str, u16, ValueKind)> =
            found.iter().map(|(field, _)| (field.name.as_ref(), field.arg, field.kind)).collect();
        assert_eq!(
            fields,
            [
                ("name", 0, ValueKind::Text),
                ("age", 1, ValueKind::Int),
                ("name", 0, ValueKind::Text),
                ("f(x)", 2, ValueKind::Text)
            ]
        );
        assert_eq!(found[1].1, spec('d', Flags::NONE.with_zero(), Count::Fixed(5), Count::None));
        let kinds = values("%r %a %s", Dialect::Python);
        assert!(kinds.iter().all(|(field, _)| field.kind == ValueKind::Text));
        assert_eq!(values("%a", Dialect::Printf)[0].0.kind, ValueKind::Float);
    }

    #[test]
    fn bad_formats_are_errors() {
        let error = |format: &str, dialect| compile(format, dialect).unwrap_err();
        assert_eq!(error("50%", Dialect::Printf).offset, 2);
        assert_eq!(error("%5.2", Dialect::Printf).offset, 0);
        assert_eq!(error("%y", Dialect::Printf).offset, 1);
        assert!(error("%y", Dialect::Printf).message.contains("unknown conversion"));
        assert!(error("%r", Dialect::Printf).message.contains("unknown conversion"));
        assert!(error("%'d", Dialect::Python).message.contains("unknown conversion"));
        assert!(error("%(name", Dialect::Python).message.contains("unterminated"));
        assert!(error("%(a)s %s", Dialect::Python).message.contains("mixed"));
        assert!(error("%s %(a)s", Dialect::Python).message.contains("mixed"));
        assert!(error("%(a)*d", Dialect::Python).message.contains("`*`"));
        assert!(error("%99999d", Dialect::Printf).message.contains("too large"));
    }
}
