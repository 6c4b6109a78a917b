//! Futhark's textual value format: the parser for one text value and the
//! writer that prints values as Futhark executables do.
//!
//! Accepted (anchor-futhark.md §2.2): integer and float literals with or
//! without a type suffix (`1i8`, `0xffu8`, `0b101i32`, `1_000i64`, `1.5f32`,
//! `2e3`, `16f32`), unsuffixed defaults (`i32` for integers, `f64` for
//! decimals), `true`/`false`, `f32.nan`, `f64.inf`, `-f16.inf`, regular
//! arrays `[…]` whose first element fixes the element type of the unsuffixed
//! ones after it, `empty([0][3]i32)`, strings `"abc"` as `[]u8`, `--` line
//! comments anywhere whitespace may go, and trailing commas.
//!
//! Range rules, Futhark's: an integer literal is taken modulo 2^bits of its
//! type, so a negative literal of an unsigned type wraps (`-1u32` is
//! `4294967295u32`) and so does a signed type's bit pattern (`255i8`,
//! `0xffi8` are `-1i8`). A literal with a type suffix wraps whatever its
//! size, up to 2^64 − 1 (`32767i8` is `-1i8`, as Futhark's readers give);
//! an unsuffixed one outside both the signed and the unsigned range of its
//! width is rejected. A decimal literal (with `.` or an
//! exponent) cannot have an integer type.
//!
//! With a type hint (reading an entry point's arguments, as a compiled
//! executable does), an unsuffixed integer may be read as a float, and a
//! float may be written in hexadecimal (`0x1.8p3`, as C's `strtod` reads it).

use ogham_prim::{PrimType, PrimValue};

use crate::value::{element_count, shape_text};
use crate::{Buffer, DataError, Dim, Value, ValueType};

/// Deepest array nesting accepted, so hostile input cannot overflow the stack.
/// (The binary format stores the rank in one byte, so nothing deeper is writable.)
const MAX_RANK: usize = 255;

/// Skips whitespace and `--` comments from `pos`; returns the new offset.
pub(crate) fn skip_blank(input: &[u8], mut pos: usize) -> usize {
    loop {
        while pos < input.len() && input[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if input[pos..].starts_with(b"--") {
            while pos < input.len() && input[pos] != b'\n' {
                pos += 1;
            }
        } else {
            return pos;
        }
    }
}

/// A cursor over the input that parses text values.
pub(crate) struct TextParser<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> TextParser<'a> {
    pub(crate) fn new(input: &'a [u8], pos: usize) -> TextParser<'a> {
        TextParser { input, pos }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> DataError {
        DataError::at(self.input, offset, message)
    }

    fn skip_blank(&mut self) {
        self.pos = skip_blank(self.input, self.pos);
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn rest(&self) -> &'a [u8] {
        &self.input[self.pos..]
    }

    /// Parses one value starting at the current position (after blanks).
    /// `hint` is the element type fixed by earlier array elements; it types
    /// unsuffixed literals.
    pub(crate) fn parse_value(&mut self, hint: Option<PrimType>) -> Result<Value, DataError> {
        self.parse_value_at_depth(hint, 0)
    }

    fn parse_value_at_depth(&mut self, hint: Option<PrimType>, depth: usize) -> Result<Value, DataError> {
        self.skip_blank();
        match self.peek() {
            None => Err(self.error_at(self.pos, "expected a value, but the input ended")),
            Some(b'[') => self.parse_array(hint, depth),
            Some(b'"') => self.parse_string(),
            Some(_) if self.rest().starts_with(b"empty") && !continues_word(self.input, self.pos + 5) => {
                self.parse_empty()
            }
            Some(_) => self.parse_scalar(hint).map(Value::Scalar),
        }
    }

    fn parse_array(&mut self, mut hint: Option<PrimType>, depth: usize) -> Result<Value, DataError> {
        let open = self.pos;
        if depth >= MAX_RANK {
            return Err(self.error_at(open, format!("arrays nested more than {MAX_RANK} deep")));
        }
        self.pos += 1;
        self.skip_blank();
        if self.peek() == Some(b']') {
            return Err(self.error_at(open, "an empty array must be written with its type, e.g. `empty([0]i32)`"));
        }
        let mut data: Option<Buffer> = None;
        let mut row_shape: Vec<i64> = Vec::new();
        let mut rows: i64 = 0;
        loop {
            self.skip_blank();
            let elem_start = self.pos;
            let elem = self.parse_value_at_depth(hint, depth + 1)?;
            match &data {
                None => {
                    hint = Some(elem.elem_type());
                    row_shape = elem.shape().to_vec();
                    data = Some(Buffer::new(elem.elem_type()));
                }
                Some(buf) => {
                    if elem.elem_type() != buf.elem_type() {
                        return Err(self.error_at(
                            elem_start,
                            format!(
                                "array element has type {}, but the array's elements are {}",
                                elem.elem_type(),
                                buf.elem_type()
                            ),
                        ));
                    }
                    if elem.shape() != row_shape.as_slice() {
                        return Err(self.error_at(
                            elem_start,
                            format!(
                                "irregular array: element has shape {}, but the first element has shape {}",
                                describe_shape(elem.shape()),
                                describe_shape(&row_shape)
                            ),
                        ));
                    }
                }
            }
            let buf = data.as_mut().expect("buffer created for the first element");
            match elem {
                Value::Scalar(v) => buf.push(v),
                Value::Array(a) => buf.extend_from(a.data()),
            }
            rows += 1;
            self.skip_blank();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_blank();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        break;
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => return Err(self.error_at(self.pos, "expected `,` or `]` in array")),
                None => return Err(self.error_at(open, "unclosed `[`: the input ended inside this array")),
            }
        }
        let mut shape = vec![rows];
        shape.extend(row_shape);
        Value::array(shape, data.expect("array has at least one element")).map_err(|e| self.error_at(open, e.message))
    }

    fn parse_empty(&mut self) -> Result<Value, DataError> {
        let start = self.pos;
        self.pos += "empty".len();
        self.skip_blank();
        if self.peek() != Some(b'(') {
            return Err(self.error_at(self.pos, "expected `(` after `empty`"));
        }
        self.pos += 1;
        let type_start = skip_blank(self.input, self.pos);
        let (ty, end) = ValueType::parse_prefix(self.input, type_start)?;
        self.pos = skip_blank(self.input, end);
        if self.peek() != Some(b')') {
            return Err(self.error_at(self.pos, "expected `)` closing `empty(`"));
        }
        self.pos += 1;
        let shape = match empty_shape(&ty) {
            Ok(shape) => shape,
            Err(msg) => return Err(self.error_at(start, msg)),
        };
        Value::array(shape, Buffer::new(ty.elem)).map_err(|e| self.error_at(start, e.message))
    }

    fn parse_string(&mut self) -> Result<Value, DataError> {
        let open = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at(open, "unterminated string literal"));
            };
            self.pos += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let escape_at = self.pos - 1;
                    let Some(e) = self.peek() else {
                        return Err(self.error_at(open, "unterminated string literal"));
                    };
                    self.pos += 1;
                    match e {
                        b'n' => bytes.push(b'\n'),
                        b't' => bytes.push(b'\t'),
                        b'r' => bytes.push(b'\r'),
                        b'0' => bytes.push(0),
                        b'\\' | b'"' | b'\'' => bytes.push(e),
                        b'u' => {
                            let c = self.parse_unicode_escape(escape_at)?;
                            let mut tmp = [0u8; 4];
                            bytes.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                        }
                        _ => return Err(self.error_at(escape_at, format!("unknown escape `\\{}`", e as char))),
                    }
                }
                _ => bytes.push(c),
            }
        }
        Ok(Value::vector(Buffer::U8(bytes)))
    }

    /// Parses the `{hex}` part of a `\u{hex}` escape.
    fn parse_unicode_escape(&mut self, escape_at: usize) -> Result<char, DataError> {
        let bad = |p: &Self| p.error_at(escape_at, "malformed `\\u{…}` escape");
        if self.peek() != Some(b'{') {
            return Err(bad(self));
        }
        let digits_start = self.pos + 1;
        let Some(len) = self.input[digits_start..].iter().position(|&b| b == b'}') else {
            return Err(bad(self));
        };
        let digits = std::str::from_utf8(&self.input[digits_start..digits_start + len]).map_err(|_| bad(self))?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| bad(self))?;
        let c = char::from_u32(code).ok_or_else(|| bad(self))?;
        self.pos = digits_start + len + 1;
        Ok(c)
    }

    /// Parses `true`, `false`, a number, or a special float (`f32.nan`, `-f64.inf`).
    pub(crate) fn parse_scalar(&mut self, hint: Option<PrimType>) -> Result<PrimValue, DataError> {
        let start = self.pos;
        for (word, b) in [("true", true), ("false", false)] {
            if self.rest().starts_with(word.as_bytes()) && !continues_word(self.input, start + word.len()) {
                self.pos += word.len();
                return Ok(PrimValue::Bool(b));
            }
        }
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        if self.peek() == Some(b'f') {
            return self.parse_special_float(start, negative);
        }
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {}
            Some(_) => {
                let word_end = word_end(self.input, start);
                let word = String::from_utf8_lossy(&self.input[start..word_end.max(start + 1)]);
                return Err(self.error_at(start, format!("expected a value, found `{word}`")));
            }
            None => return Err(self.error_at(start, "expected a number, but the input ended")),
        }
        let literal = self.lex_number()?;
        let suffix_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
            self.pos += 1;
        }
        let suffix = std::str::from_utf8(&self.input[suffix_start..self.pos]).unwrap_or("");
        let suffix_type = if suffix.is_empty() {
            None
        } else {
            match PrimType::from_name(suffix) {
                Some(t) if t != PrimType::Bool => Some(t),
                _ => return Err(self.error_at(suffix_start, format!("invalid type suffix `{suffix}` on a number"))),
            }
        };
        let is_decimal = literal.is_decimal();
        let t = match (suffix_type, hint) {
            (Some(t), _) => t,
            (None, Some(h)) if h.is_float() || (h.is_int() && !is_decimal) => h,
            (None, Some(h)) if h.is_int() => {
                return Err(self.error_at(start, format!("the decimal number here cannot have type {h}")))
            }
            (None, _) if is_decimal => PrimType::F64,
            (None, _) => PrimType::I32,
        };
        literal.to_value(t, negative, suffix_type.is_some()).map_err(|msg| {
            self.error_at(start, format!("{msg}: `{}`", String::from_utf8_lossy(&self.input[start..self.pos])))
        })
    }

    fn parse_special_float(&mut self, start: usize, negative: bool) -> Result<PrimValue, DataError> {
        let end = word_end(self.input, self.pos);
        let word = std::str::from_utf8(&self.input[self.pos..end]).unwrap_or("");
        let (type_name, what) = word.split_once('.').unwrap_or((word, ""));
        let t = PrimType::from_name(type_name).filter(|t| t.is_float());
        let x = match what {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            _ => None,
        };
        match (t, x) {
            (Some(t), Some(x)) => {
                self.pos = end;
                Ok(PrimValue::from_f64(t, if negative { -x } else { x }))
            }
            _ => Err(self.error_at(start, format!("expected a value, found `{word}`"))),
        }
    }

    /// Lexes the digits of a number (no sign, no suffix).
    fn lex_number(&mut self) -> Result<NumberLiteral, DataError> {
        let start = self.pos;
        let radix_prefix = |p: &Self, a: u8, b: u8| {
            p.rest().len() > 2 && p.input[p.pos] == b'0' && (p.input[p.pos + 1] == a || p.input[p.pos + 1] == b)
        };
        if radix_prefix(self, b'x', b'X') || radix_prefix(self, b'b', b'B') {
            let radix = if matches!(self.input[self.pos + 1], b'x' | b'X') { 16 } else { 2 };
            self.pos += 2;
            let digits_start = self.pos;
            while self.peek().is_some_and(|c| c == b'_' || (c as char).is_digit(radix)) {
                self.pos += 1;
            }
            let digits: String = digits_of(&self.input[digits_start..self.pos]);
            if radix == 16 {
                if let Some(float) = self.lex_hex_float(&digits) {
                    return Ok(float);
                }
            }
            if digits.is_empty() {
                return Err(self.error_at(start, "expected digits after the radix prefix"));
            }
            return match u128::from_str_radix(&digits, radix) {
                Ok(m) => Ok(NumberLiteral::Integer { magnitude: m }),
                Err(_) => Ok(NumberLiteral::Integer { magnitude: u128::MAX }),
            };
        }
        let int_start = self.pos;
        self.skip_digits();
        let mut is_decimal = false;
        if self.peek() == Some(b'.') && self.input.get(self.pos + 1).is_some_and(|c| c.is_ascii_digit()) {
            is_decimal = true;
            self.pos += 1;
            self.skip_digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mut p = self.pos + 1;
            if matches!(self.input.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if self.input.get(p).is_some_and(|c| c.is_ascii_digit()) {
                is_decimal = true;
                self.pos = p;
                self.skip_digits();
            }
        }
        let digits = digits_of(&self.input[int_start..self.pos]);
        if is_decimal {
            Ok(NumberLiteral::Decimal { text: digits })
        } else {
            // A magnitude too large for u128 is out of range for every type;
            // saturating keeps the later range check's message.
            let magnitude = digits.parse::<u128>().unwrap_or(u128::MAX);
            Ok(NumberLiteral::Integer { magnitude })
        }
    }

    /// After `0x` and the hexadecimal digits `int`: the rest of a
    /// hexadecimal float (`.8p3`, `p-2`), as C's `strtod` reads it, or
    /// `None` (nothing consumed) when the literal is an integer.
    fn lex_hex_float(&mut self, int: &str) -> Option<NumberLiteral> {
        let save = self.pos;
        let mut frac = String::new();
        if self.peek() == Some(b'.') && self.input.get(self.pos + 1).is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
            let from = self.pos;
            while self.peek().is_some_and(|c| c == b'_' || c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            frac = digits_of(&self.input[from..self.pos]);
        }
        let mut exp: i64 = 0;
        let mut p = self.pos + 1;
        let has_exp = matches!(self.peek(), Some(b'p' | b'P')) && {
            let neg = self.input.get(p) == Some(&b'-');
            if matches!(self.input.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            let from = p;
            while self.input.get(p).is_some_and(|c| c.is_ascii_digit()) {
                exp = exp.saturating_mul(10).saturating_add((self.input[p] - b'0') as i64);
                p += 1;
            }
            if neg {
                exp = -exp;
            }
            p > from
        };
        if has_exp {
            self.pos = p;
        } else if frac.is_empty() {
            self.pos = save;
            return None;
        }
        // Keep about 120 bits of mantissa; further digits only scale it.
        let mut mantissa: u128 = 0;
        let mut scale: i64 = 0;
        for (i, c) in int.chars().chain(frac.chars()).enumerate() {
            let d = c.to_digit(16).unwrap_or(0) as u128;
            if mantissa < 1u128 << 120 {
                mantissa = mantissa * 16 + d;
                if i >= int.len() {
                    scale -= 4;
                }
            } else if i < int.len() {
                scale += 4;
            }
        }
        Some(NumberLiteral::HexFloat { mantissa, exp: exp.saturating_add(scale) })
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == b'_') {
            self.pos += 1;
        }
    }
}

/// Digits with the `_` separators removed.
fn digits_of(bytes: &[u8]) -> String {
    bytes.iter().filter(|&&b| b != b'_').map(|&b| b as char).collect()
}

/// The lexed digits of a number, before a type is chosen.
enum NumberLiteral {
    /// An integer (decimal, hexadecimal or binary).
    Integer { magnitude: u128 },
    /// A hexadecimal float: `mantissa * 2^exp`.
    HexFloat { mantissa: u128, exp: i64 },
    /// Decimal digits with a fraction or exponent, ready for `str::parse`.
    Decimal { text: String },
}

impl NumberLiteral {
    /// Whether the literal is a float (a fraction, an exponent, or a hexadecimal float).
    fn is_decimal(&self) -> bool {
        !matches!(self, NumberLiteral::Integer { .. })
    }

    /// The value of the literal at type `t`; `suffixed` says the type was
    /// written on it (`32767i8`).
    fn to_value(&self, t: PrimType, negative: bool, suffixed: bool) -> Result<PrimValue, String> {
        match self {
            NumberLiteral::Decimal { text } => {
                if !t.is_float() {
                    return Err(format!("a decimal number cannot have type {t}"));
                }
                let signed = if negative { format!("-{text}") } else { text.clone() };
                float_from_text(t, &signed)
            }
            NumberLiteral::HexFloat { mantissa, exp } => {
                if !t.is_float() {
                    return Err(format!("a hexadecimal float cannot have type {t}"));
                }
                // Scale in steps so that 2^exp itself never overflows.
                let mut x = *mantissa as f64;
                let mut e = (*exp).clamp(-4000, 4000);
                while e != 0 {
                    let step = e.clamp(-1000, 1000);
                    x *= 2f64.powi(step as i32);
                    e -= step;
                }
                if negative {
                    x = -x;
                }
                Ok(match t {
                    PrimType::F32 => PrimValue::F32(x as f32),
                    PrimType::F64 => PrimValue::F64(x),
                    _ => PrimValue::F16(ogham_prim::f16_from_f64(x)),
                })
            }
            NumberLiteral::Integer { magnitude } => {
                if t.is_float() {
                    // Parsing the decimal digits rounds once, directly to the target type.
                    let signed = if negative { format!("-{magnitude}") } else { magnitude.to_string() };
                    return float_from_text(t, &signed);
                }
                // Futhark's rule: the literal is taken modulo 2^bits, so
                // `-1u32` is 4294967295u32 and `255i8` is -1i8. A literal
                // with its type written on it wraps whatever its size (as
                // Futhark's readers do: `32767i8` is -1i8, `300u8` is 44u8),
                // up to 2^64 - 1; one without a suffix outside both the
                // signed and the unsigned range of its width (`4294967296`
                // as an i32) is a mistake and rejected.
                let bits = t.bits();
                let limit: u128 = if suffixed { u64::MAX as u128 } else { (1u128 << bits) - 1 };
                let fits = if negative && !suffixed { *magnitude <= 1u128 << (bits - 1) } else { *magnitude <= limit };
                if !fits {
                    return Err(format!("number out of range for type {t}"));
                }
                let low = *magnitude as u64;
                let bits64 = if negative { low.wrapping_neg() } else { low };
                Ok(PrimValue::from_i64(t, bits64 as i64))
            }
        }
    }
}

fn float_from_text(t: PrimType, text: &str) -> Result<PrimValue, String> {
    let bad = || format!("malformed number `{text}`");
    Ok(match t {
        PrimType::F32 => PrimValue::F32(text.parse::<f32>().map_err(|_| bad())?),
        PrimType::F64 => PrimValue::F64(text.parse::<f64>().map_err(|_| bad())?),
        _ => PrimValue::F16(ogham_prim::f16_from_f64(text.parse::<f64>().map_err(|_| bad())?)),
    })
}

fn continues_word(input: &[u8], pos: usize) -> bool {
    input.get(pos).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The end of the run of word characters (and dots) starting at `pos`.
fn word_end(input: &[u8], mut pos: usize) -> usize {
    while pos < input.len() && (input[pos].is_ascii_alphanumeric() || input[pos] == b'_' || input[pos] == b'.') {
        pos += 1;
    }
    pos
}

fn describe_shape(shape: &[i64]) -> String {
    if shape.is_empty() {
        "scalar".to_string()
    } else {
        shape_text(shape)
    }
}

/// The shape an `empty(t)` literal denotes: every size known, one of them 0.
fn empty_shape(ty: &ValueType) -> Result<Vec<i64>, String> {
    if ty.rank() == 0 {
        return Err(format!("`empty` needs an array type, not `{ty}`"));
    }
    let shape: Vec<i64> = ty
        .shape
        .iter()
        .map(|d| match d {
            Dim::Known(n) => Ok(*n),
            _ => Err(format!("every size of an `empty` array must be a number, in `{ty}`")),
        })
        .collect::<Result<_, _>>()?;
    if element_count(&shape) != Some(0) {
        return Err(format!("`empty({ty})` must have a dimension of size 0"));
    }
    Ok(shape)
}

/// Parses text holding exactly one value (comments and blanks around it allowed).
pub fn parse_text_value(text: &str) -> Result<Value, DataError> {
    let input = text.as_bytes();
    let mut p = TextParser::new(input, 0);
    let v = p.parse_value(None)?;
    let end = skip_blank(input, p.pos());
    if end != input.len() {
        return Err(DataError::at(input, end, "unexpected text after the value"));
    }
    Ok(v)
}

/// Prints a value as Futhark executables do: suffixed scalars, `[a, b]`
/// arrays, `empty([0][3]i32)` for arrays without elements.
pub fn value_to_text(v: &Value) -> String {
    let mut out = String::new();
    write_text(v, &mut out);
    out
}

/// Appends the text form of `v` to `out`.
pub fn write_text(v: &Value, out: &mut String) {
    use std::fmt::Write;
    match v {
        Value::Scalar(x) => {
            let _ = write!(out, "{x}");
        }
        Value::Array(a) => {
            if a.data().is_empty() {
                let _ = write!(out, "empty({}{})", shape_text(a.shape()), a.elem_type());
            } else {
                write_rows(a.shape(), a.data(), &mut 0, out);
            }
        }
    }
}

fn write_rows(shape: &[i64], data: &Buffer, next: &mut usize, out: &mut String) {
    use std::fmt::Write;
    out.push('[');
    for i in 0..shape[0] {
        if i > 0 {
            out.push_str(", ");
        }
        if shape.len() == 1 {
            let _ = write!(out, "{}", data.at(*next));
            *next += 1;
        } else {
            write_rows(&shape[1..], data, next, out);
        }
    }
    out.push(']');
}

/// Prints values one per line, as an executable prints its results.
pub fn values_to_text(values: &[Value]) -> String {
    let mut out = String::new();
    for v in values {
        write_text(v, &mut out);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ogham_prim::f16;

    fn parse(text: &str) -> Value {
        parse_text_value(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn scalar(text: &str) -> PrimValue {
        parse(text).as_scalar().expect("a scalar")
    }

    fn err(text: &str) -> String {
        match parse_text_value(text) {
            Ok(v) => panic!("{text} parsed as {v}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn integer_scalars() {
        assert_eq!(scalar("1i32"), PrimValue::I32(1));
        assert_eq!(scalar("-3i8"), PrimValue::I8(-3));
        assert_eq!(scalar("7u64"), PrimValue::U64(7));
        assert_eq!(scalar("0xffu8"), PrimValue::U8(255));
        assert_eq!(scalar("0b101i32"), PrimValue::I32(5));
        assert_eq!(scalar("1_000i64"), PrimValue::I64(1000));
        assert_eq!(scalar("42"), PrimValue::I32(42));
        assert_eq!(scalar("-2147483648"), PrimValue::I32(i32::MIN));
        assert_eq!(scalar("18446744073709551615u64"), PrimValue::U64(u64::MAX));
        assert_eq!(scalar("-9223372036854775808i64"), PrimValue::I64(i64::MIN));
        assert_eq!(scalar("0xffi8"), PrimValue::I8(-1));
        assert_eq!(scalar("0x80i8"), PrimValue::I8(-128));
        assert_eq!(scalar("-0u8"), PrimValue::U8(0));
        // Futhark takes integer literals modulo 2^bits of their type.
        assert_eq!(scalar("-271733879u32"), PrimValue::U32(4023233417));
        assert_eq!(scalar("-1u64"), PrimValue::U64(u64::MAX));
        assert_eq!(scalar("-128u8"), PrimValue::U8(128));
        assert_eq!(scalar("255i8"), PrimValue::I8(-1));
        // A suffixed literal wraps modulo 2^bits whatever its size.
        assert_eq!(scalar("32767i8"), PrimValue::I8(-1));
        assert_eq!(scalar("32767u8"), PrimValue::U8(255));
        assert_eq!(scalar("300u8"), PrimValue::U8(44));
        assert_eq!(scalar("-129i8"), PrimValue::I8(127));
        assert_eq!(scalar("0x1ffi8"), PrimValue::I8(-1));
        assert_eq!(scalar("4294967301u32"), PrimValue::U32(5));
        assert_eq!(scalar("-18446744073709551615i64"), PrimValue::I64(1));
        assert_eq!(scalar("2147483648"), PrimValue::I32(i32::MIN));
    }

    #[test]
    fn hinted_scalars_read_as_executables_do() {
        let hinted = |text: &str, t: PrimType| TextParser::new(text.as_bytes(), 0).parse_scalar(Some(t)).unwrap();
        assert_eq!(hinted("1", PrimType::F32), PrimValue::F32(1.0));
        assert_eq!(hinted("1.0", PrimType::F32), PrimValue::F32(1.0));
        assert_eq!(hinted("0x1p3f32", PrimType::F32), PrimValue::F32(8.0));
        assert_eq!(hinted("0x1.8p1", PrimType::F64), PrimValue::F64(3.0));
        assert_eq!(hinted("-0x.4p0", PrimType::F64), PrimValue::F64(-0.25));
        assert_eq!(hinted("0x10", PrimType::F64), PrimValue::F64(16.0));
        assert_eq!(hinted("0x1f32", PrimType::F32), PrimValue::F32(7986.0));
        // Unhinted, an unsuffixed hexadecimal float is an f64.
        assert_eq!(scalar("0x1p-1"), PrimValue::F64(0.5));
        assert!(err("0x1p3i32").contains("cannot have type i32"));
    }

    #[test]
    fn float_scalars() {
        assert_eq!(scalar("1.5f32"), PrimValue::F32(1.5));
        assert_eq!(scalar("2e3f64"), PrimValue::F64(2000.0));
        assert_eq!(scalar("2.5"), PrimValue::F64(2.5));
        assert_eq!(scalar("1e3"), PrimValue::F64(1000.0));
        assert_eq!(scalar("1.5e-3"), PrimValue::F64(0.0015));
        assert_eq!(scalar("16f32"), PrimValue::F32(16.0));
        assert_eq!(scalar("1337e2f64"), PrimValue::F64(133700.0));
        assert_eq!(scalar("0.5f16"), PrimValue::F16(f16::from_f32(0.5)));
        assert_eq!(scalar("-0.0f64").as_f64().to_bits(), (-0.0f64).to_bits());
        // 0.1 must round directly to f32, not via f64.
        assert_eq!(scalar("0.1f32"), PrimValue::F32(0.1));
        assert!(matches!(scalar("f32.nan"), PrimValue::F32(x) if x.is_nan()));
        assert_eq!(scalar("f32.inf"), PrimValue::F32(f32::INFINITY));
        assert_eq!(scalar("-f64.inf"), PrimValue::F64(f64::NEG_INFINITY));
        assert_eq!(scalar("-f16.inf"), PrimValue::F16(f16::NEG_INFINITY));
        assert_eq!(scalar("true"), PrimValue::Bool(true));
        assert_eq!(scalar(" -- comment\n false -- trailing"), PrimValue::Bool(false));
    }

    #[test]
    fn arrays() {
        let v = parse("[1i64, 2, 3]");
        assert_eq!(v, Value::vector(Buffer::I64(vec![1, 2, 3])));
        let v = parse("[[1f32, 2.5], [3, 4],]");
        assert_eq!(v, Value::array(vec![2, 2], Buffer::F32(vec![1.0, 2.5, 3.0, 4.0])).unwrap());
        let v = parse("[ -- first row\n [true], \n [false] ]");
        assert_eq!(v.value_type().to_string(), "[2][1]bool");
        assert_eq!(parse("[1,2,3]").elem_type(), PrimType::I32);
        assert_eq!(parse("[1.0, 2]").elem_type(), PrimType::F64);
    }

    #[test]
    fn empty_arrays_and_strings() {
        assert_eq!(parse("empty([0]i32)"), Value::array(vec![0], Buffer::I32(vec![])).unwrap());
        assert_eq!(parse("empty( [3][0]f32 )").shape(), &[3, 0]);
        assert_eq!(parse("[empty([0]i32), empty([0]i32)]").shape(), &[2, 0]);
        assert_eq!(parse("\"abc\""), Value::vector(Buffer::U8(b"abc".to_vec())));
        assert_eq!(parse(r#""a\"\n\u{e9}""#), Value::vector(Buffer::U8("a\"\né".as_bytes().to_vec())));
        assert_eq!(parse(r#"["ab", "cd"]"#).shape(), &[2, 2]);
    }

    #[test]
    fn malformed_input_gives_positioned_errors() {
        assert_eq!(err("[1, 2i64]"), "line 1, column 5: array element has type i64, but the array's elements are i32");
        assert!(err("[[1], [2, 3]]").contains("irregular array"));
        assert!(err("[[1], 2]").contains("irregular array"));
        assert!(err("[]").contains("empty([0]i32)"));
        assert!(err("[1, 2").contains("unclosed `[`"));
        assert!(err("[1 2]").contains("expected `,` or `]`"));
        assert!(err("4294967296").contains("out of range for type i32"));
        assert!(err("-2147483649").contains("out of range for type i32"));
        assert!(err("18446744073709551616u8").contains("out of range for type u8"));
        assert!(err("-18446744073709551616i64").contains("out of range for type i64"));
        assert!(err("1.5i32").contains("decimal number cannot have type i32"));
        assert!(err("[1, 2.5]").contains("cannot have type i32"));
        assert!(err("1i33").contains("invalid type suffix `i33`"));
        assert!(err("1bool").contains("invalid type suffix"));
        assert!(err("f32.foo").contains("expected a value"));
        assert!(err("f128.nan").contains("expected a value"));
        assert!(err("hello").contains("expected a value, found `hello`"));
        assert!(err("empty([2]i32)").contains("size 0"));
        assert!(err("empty([n]i32)").contains("must be a number"));
        assert!(err("empty(i32)").contains("array type"));
        assert!(err("empty([0]i32").contains("expected `)`"));
        assert!(err("\"abc").contains("unterminated"));
        assert!(err("\"\\q\"").contains("unknown escape"));
        assert!(err("").contains("input ended"));
        assert!(err("1 2").contains("unexpected text"));
        assert!(err("-").contains("expected a number"));
        assert_eq!(
            err("\n\n  [1, true]"),
            "line 3, column 7: array element has type bool, but the array's elements are i32"
        );
        let deep = "[".repeat(10_000);
        assert!(err(&deep).contains("nested more than"));
        assert!(err("99999999999999999999999999999999999999999999").contains("out of range"));
    }

    #[test]
    fn writer_matches_futhark_output() {
        assert_eq!(parse("[1, 2]").to_string(), "[1i32, 2i32]");
        assert_eq!(parse("[[1u8], [2]]").to_string(), "[[1u8], [2u8]]");
        assert_eq!(parse("0.5f32").to_string(), "0.5f32");
        assert_eq!(parse("[f32.nan, -f32.inf, f32.inf]").to_string(), "[f32.nan, -f32.inf, f32.inf]");
        assert_eq!(parse("empty([0][3]i32)").to_string(), "empty([0][3]i32)");
        assert_eq!(parse("[true, false]").to_string(), "[true, false]");
        let lines = values_to_text(&[parse("1i8"), parse("2.0")]);
        assert_eq!(lines, "1i8\n2.0f64\n");
    }

    #[test]
    fn text_round_trips() {
        for text in [
            "[[1i32, -2i32], [3i32, 4i32]]",
            "[0.1f32, 1e-7f32, 3.4028235e38f32]",
            "[0.1f64, 5e-324f64, -1.7976931348623157e308f64]",
            "[-128i8, 127i8]",
            "[0u64, 18446744073709551615u64]",
            "[1.0f16, 0.5f16, 65504.0f16]",
            "empty([2][0][3]bool)",
        ] {
            let v = parse(text);
            assert_eq!(parse(&v.to_string()), v, "{text}");
        }
    }
}
