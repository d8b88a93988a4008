//! An expression written back as Python's `ast.unparse` writes it (its
//! parentheses by precedence, `repr` of constants, `, ` and ` op `
//! spacing), so that a condition quoted in a record's documentation reads as
//! the extractor in `corpus-tools/` quoted it.

use super::expr::{Arg, Expr, For, Unsupported};
use super::strings::Literal;

/// `ast._Precedence`, lowest first.
mod prec {
    pub const NAMED_EXPR: u8 = 0;
    pub const TUPLE: u8 = 1;
    pub const TEST: u8 = 3;
    pub const OR: u8 = 4;
    pub const AND: u8 = 5;
    pub const NOT: u8 = 6;
    pub const CMP: u8 = 7;
    pub const EXPR: u8 = 8;
    pub const FACTOR: u8 = 14;
    pub const POWER: u8 = 15;
    pub const ATOM: u8 = 17;

    pub fn next(p: u8) -> u8 {
        (p + 1).min(ATOM)
    }

    pub fn of_binary(op: &str) -> u8 {
        match op {
            "|" => EXPR,
            "^" => 9,
            "&" => 10,
            "<<" | ">>" => 11,
            "+" | "-" => 12,
            "**" => POWER,
            _ => 13,
        }
    }
}

/// Writes expressions of one source (string tokens are read from it).
pub struct Unparser<'a> {
    /// The text of each token, by index.
    pub token_text: &'a dyn Fn(usize) -> &'a str,
}

type Written = Result<(), Unsupported>;

impl Unparser<'_> {
    /// `ast.unparse(expr)`.
    pub fn unparse(&self, expr: &Expr) -> Result<String, Unsupported> {
        let mut out = String::new();
        self.write(expr, prec::TEST, &mut out)?;
        Ok(out)
    }

    fn write(&self, expr: &Expr, level: u8, out: &mut String) -> Written {
        let open = |needed: bool, out: &mut String| {
            if needed {
                out.push('(');
            }
            needed
        };
        let close = |opened: bool, out: &mut String| {
            if opened {
                out.push(')');
            }
        };
        match expr {
            Expr::Name(name) => out.push_str(name),
            Expr::Number(text) => out.push_str(&number_repr(text)),
            Expr::Ellipsis => out.push_str("..."),
            Expr::Str(tokens) => {
                let literals: Vec<Literal> = tokens.iter().map(|&t| Literal::parse((self.token_text)(t))).collect();
                if literals.iter().any(Literal::is_fstring) {
                    return Err(Unsupported);
                }
                let value: String = literals.iter().map(Literal::value).collect();
                if literals.first().is_some_and(Literal::is_bytes) {
                    out.push('b');
                }
                out.push_str(&str_repr(&value));
            }
            Expr::BoolOp(op, values) => {
                let mut operand_level = if *op == "and" { prec::AND } else { prec::OR };
                let opened = open(level > operand_level, out);
                for (k, value) in values.iter().enumerate() {
                    if k > 0 {
                        out.push_str(&format!(" {op} "));
                    }
                    operand_level = prec::next(operand_level);
                    self.write(value, operand_level, out)?;
                }
                close(opened, out);
            }
            Expr::Compare(left, ops) => {
                let opened = open(level > prec::CMP, out);
                self.write(left, prec::EXPR, out)?;
                for (op, right) in ops {
                    out.push_str(&format!(" {op} "));
                    self.write(right, prec::EXPR, out)?;
                }
                close(opened, out);
            }
            Expr::BinOp(left, op, right) => {
                let op_level = prec::of_binary(op);
                let opened = open(level > op_level, out);
                let (left_level, right_level) =
                    if *op == "**" { (prec::next(op_level), op_level) } else { (op_level, prec::next(op_level)) };
                self.write(left, left_level, out)?;
                out.push_str(&format!(" {op} "));
                self.write(right, right_level, out)?;
                close(opened, out);
            }
            Expr::Unary(op, operand) => {
                let op_level = if *op == "not" { prec::NOT } else { prec::FACTOR };
                let opened = open(level > op_level, out);
                out.push_str(op);
                if *op == "not" {
                    out.push(' ');
                }
                self.write(operand, op_level, out)?;
                close(opened, out);
            }
            Expr::IfExp(body, test, orelse) => {
                let opened = open(level > prec::TEST, out);
                self.write(body, prec::next(prec::TEST), out)?;
                out.push_str(" if ");
                self.write(test, prec::next(prec::TEST), out)?;
                out.push_str(" else ");
                self.write(orelse, prec::TEST, out)?;
                close(opened, out);
            }
            Expr::Named(target, value) => {
                let opened = open(level > prec::NAMED_EXPR, out);
                self.write(target, prec::ATOM, out)?;
                out.push_str(" := ");
                self.write(value, prec::ATOM, out)?;
                close(opened, out);
            }
            Expr::Call(func, args) => {
                self.write(func, prec::ATOM, out)?;
                out.push('(');
                for (k, arg) in args.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    match arg {
                        Arg::Positional(value) => self.write(value, prec::TEST, out)?,
                        Arg::Keyword(name, value) => {
                            match name {
                                Some(name) => {
                                    out.push_str(name);
                                    out.push('=');
                                }
                                None => out.push_str("**"),
                            }
                            self.write(value, prec::TEST, out)?;
                        }
                    }
                }
                out.push(')');
            }
            Expr::Attribute(value, attr) => {
                self.write(value, prec::ATOM, out)?;
                if matches!(**value, Expr::Number(ref n) if !n.contains(['.', 'e', 'E', 'j'])) {
                    out.push(' ');
                }
                out.push('.');
                out.push_str(attr);
            }
            Expr::Subscript(value, slice) => {
                self.write(value, prec::ATOM, out)?;
                out.push('[');
                match &**slice {
                    Expr::Tuple(items) if !items.is_empty() => self.items_view(items, out)?,
                    other => self.write(other, prec::TEST, out)?,
                }
                out.push(']');
            }
            Expr::Slice(lower, upper, step) => {
                if let Some(lower) = lower {
                    self.write(lower, prec::TEST, out)?;
                }
                out.push(':');
                if let Some(upper) = upper {
                    self.write(upper, prec::TEST, out)?;
                }
                if let Some(step) = step {
                    out.push(':');
                    self.write(step, prec::TEST, out)?;
                }
            }
            Expr::Tuple(items) => {
                let opened = open(items.is_empty() || level > prec::TUPLE, out);
                self.items_view(items, out)?;
                close(opened, out);
            }
            Expr::List(items) => self.delimited('[', items, ']', out)?,
            Expr::Set(items) => self.delimited('{', items, '}', out)?,
            Expr::Dict(pairs) => {
                out.push('{');
                for (k, (key, value)) in pairs.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    match key {
                        Some(key) => {
                            self.write(key, prec::TEST, out)?;
                            out.push_str(": ");
                            self.write(value, prec::TEST, out)?;
                        }
                        None => {
                            out.push_str("**");
                            self.write(value, prec::EXPR, out)?;
                        }
                    }
                }
                out.push('}');
            }
            Expr::Comprehension(kind, element, value, clauses) => {
                let (open_char, close_char) = match kind {
                    '(' => ('(', ')'),
                    '[' => ('[', ']'),
                    _ => ('{', '}'),
                };
                out.push(open_char);
                self.write(element, prec::TEST, out)?;
                if let Some(value) = value {
                    out.push_str(": ");
                    self.write(value, prec::TEST, out)?;
                }
                for clause in clauses {
                    self.write_for(clause, out)?;
                }
                out.push(close_char);
            }
            Expr::Lambda(_) => return Err(Unsupported),
            Expr::Starred(value) => {
                out.push('*');
                self.write(value, prec::EXPR, out)?;
            }
        }
        Ok(())
    }

    fn write_for(&self, clause: &For, out: &mut String) -> Written {
        out.push_str(if clause.is_async { " async for " } else { " for " });
        self.write(&clause.target, prec::TUPLE, out)?;
        out.push_str(" in ");
        self.write(&clause.iter, prec::next(prec::TEST), out)?;
        for condition in &clause.ifs {
            out.push_str(" if ");
            self.write(condition, prec::next(prec::TEST), out)?;
        }
        Ok(())
    }

    fn delimited(&self, open: char, items: &[Expr], close: char, out: &mut String) -> Written {
        out.push(open);
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            self.write(item, prec::TEST, out)?;
        }
        out.push(close);
        Ok(())
    }

    /// Items joined by `, `; a single item gets a trailing comma.
    fn items_view(&self, items: &[Expr], out: &mut String) -> Written {
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            self.write(item, prec::TEST, out)?;
        }
        if items.len() == 1 {
            out.push(',');
        }
        Ok(())
    }
}

/// Python's `repr` of a string.
pub fn str_repr(value: &str) -> String {
    let quote = if value.contains('\'') && !value.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(value.len() + 2);
    out.push(quote);
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if !c.is_ascii() && !is_printable(c) => {
                let code = c as u32;
                out.push_str(&match code {
                    0..=0xff => format!("\\x{code:02x}"),
                    0x100..=0xffff => format!("\\u{code:04x}"),
                    _ => format!("\\U{code:08x}"),
                });
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable` for one character, approximately: control,
/// format and separator characters other than the space are not.
fn is_printable(c: char) -> bool {
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}'))
}

/// Python's `repr` of a number literal: decimal integers, floats as
/// `repr(float)` writes them; complex numbers as written.
fn number_repr(text: &str) -> String {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let lower = digits.to_ascii_lowercase();
    let radix = match lower.get(..2) {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => 10,
    };
    if radix != 10 {
        return u128::from_str_radix(&lower[2..], radix).map_or(digits.clone(), |v| v.to_string());
    }
    if lower.ends_with('j') {
        return digits;
    }
    if lower.contains(['.', 'e']) {
        return lower.parse::<f64>().map_or(digits, float_repr);
    }
    lower.parse::<u128>().map_or(digits, |v| v.to_string())
}

fn float_repr(value: f64) -> String {
    let text = format!("{value:?}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let (sign, magnitude) = exponent.strip_prefix('-').map_or(("+", exponent), |m| ("-", m));
            format!("{mantissa}e{sign}{magnitude:0>2}")
        }
        None => text,
    }
}
