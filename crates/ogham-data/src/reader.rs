//! Reading a stream of values — text and binary mixed, as an executable's
//! standard input or a data file holds them — one at a time, N at a time, or
//! checked against the types an entry point expects.

use crate::binary::read_binary;
use crate::text::{skip_blank, TextParser};
use crate::{DataError, Value, ValueType};

/// A cursor over a byte stream of values. A value whose first non-blank
/// byte is `b` is binary; anything else is text. Blanks and `--` comments
/// between values are skipped.
pub struct ValueReader<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> ValueReader<'a> {
    pub fn new(input: &'a [u8]) -> ValueReader<'a> {
        ValueReader { input, pos: 0 }
    }

    /// Byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Whether only blanks and comments remain.
    pub fn at_end(&mut self) -> bool {
        self.pos = skip_blank(self.input, self.pos);
        self.pos >= self.input.len()
    }

    /// The next value, or `None` when only blanks and comments remain.
    pub fn next_value(&mut self) -> Result<Option<Value>, DataError> {
        self.next_value_as(None)
    }

    /// The next value, reading unsuffixed text numbers as `hint` where they
    /// can be (an integer as a float, a hexadecimal float), as a compiled
    /// executable reads an argument of a known type. A binary value keeps
    /// its own type.
    pub fn next_value_as(&mut self, hint: Option<ogham_prim::PrimType>) -> Result<Option<Value>, DataError> {
        if self.at_end() {
            return Ok(None);
        }
        if self.input[self.pos] == b'b' {
            let (v, end) = read_binary(self.input, self.pos)?;
            self.pos = end;
            return Ok(Some(v));
        }
        let mut parser = TextParser::new(self.input, self.pos);
        let v = parser.parse_value(hint)?;
        self.pos = parser.pos();
        Ok(Some(v))
    }

    /// Exactly `n` values; running out early is an error.
    pub fn read_values(&mut self, n: usize) -> Result<Vec<Value>, DataError> {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            match self.next_value()? {
                Some(v) => out.push(v),
                None => {
                    return Err(DataError::at(
                        self.input,
                        self.pos,
                        format!("expected {n} values, but the input ended after {i}"),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// One value per expected type, each checked against it: the element
    /// type and rank must match exactly (Futhark does not convert `1` to
    /// `1i64`), and sizes must agree where the type gives numbers.
    pub fn read_typed(&mut self, types: &[ValueType]) -> Result<Vec<Value>, DataError> {
        let mut out = Vec::with_capacity(types.len());
        for (i, expected) in types.iter().enumerate() {
            self.pos = skip_blank(self.input, self.pos);
            let start = self.pos;
            let v = match self.next_value()? {
                Some(v) => v,
                None => {
                    return Err(DataError::at(
                        self.input,
                        self.pos,
                        format!("input #{i} of type {expected} is missing: the input ended"),
                    ))
                }
            };
            let got = v.value_type();
            if !got.fits(expected) {
                return Err(DataError::at(
                    self.input,
                    start,
                    format!("input #{i}: expected a value of type {expected}, but got one of type {got}"),
                ));
            }
            out.push(v);
        }
        Ok(out)
    }

    /// All remaining values.
    pub fn read_all(&mut self) -> Result<Vec<Value>, DataError> {
        let mut out = Vec::new();
        while let Some(v) = self.next_value()? {
            out.push(v);
        }
        Ok(out)
    }
}

/// Reads every value in a byte stream (text, binary or mixed).
pub fn read_values(input: &[u8]) -> Result<Vec<Value>, DataError> {
    ValueReader::new(input).read_all()
}

/// Reads every value in a text, such as the inside of an `input { … }` block.
pub fn parse_values(text: &str) -> Result<Vec<Value>, DataError> {
    read_values(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::value_to_binary;
    use crate::text::parse_text_value;
    use crate::Buffer;
    use ogham_prim::PrimValue;

    #[test]
    fn reads_mixed_text_and_binary() {
        let mut input = b"1i32 -- first\n".to_vec();
        input.extend(value_to_binary(&parse_text_value("[1.5f32, 2.5f32]").unwrap()));
        input.extend(b"\n  [true]\n".iter());
        input.extend(value_to_binary(&Value::Scalar(PrimValue::U8(b'b'))));
        let values = read_values(&input).unwrap();
        assert_eq!(values.len(), 4);
        assert_eq!(values[0], Value::Scalar(PrimValue::I32(1)));
        assert_eq!(values[1], Value::vector(Buffer::F32(vec![1.5, 2.5])));
        assert_eq!(values[2], Value::vector(Buffer::Bool(vec![true])));
        assert_eq!(values[3], Value::Scalar(PrimValue::U8(b'b')));
    }

    #[test]
    fn reads_n_values() {
        let mut r = ValueReader::new(b"1 2 3");
        assert_eq!(r.read_values(2).unwrap().len(), 2);
        let e = r.read_values(2).unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 6: expected 2 values, but the input ended after 1");
        assert!(r.at_end());
        assert_eq!(parse_values("-- only a comment\n").unwrap(), vec![]);
    }

    #[test]
    fn typed_reading_checks_types() {
        let types = [ValueType::parse("i64").unwrap(), ValueType::parse("[]f32").unwrap()];
        let ok = ValueReader::new(b"3i64 [1f32]").read_typed(&types).unwrap();
        assert_eq!(ok[0], Value::Scalar(PrimValue::I64(3)));
        let e = ValueReader::new(b"3i64\n  1").read_typed(&types).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: input #1: expected a value of type []f32, but got one of type i32"
        );
        let e = ValueReader::new(b"3").read_typed(&types).unwrap_err();
        assert!(e.message.contains("expected a value of type i64, but got one of type i32"));
        let e = ValueReader::new(b"3i64").read_typed(&types).unwrap_err();
        assert!(e.message.contains("input #1 of type []f32 is missing"));
        let sized = [ValueType::parse("[2]i32").unwrap()];
        assert!(ValueReader::new(b"[1,2,3]").read_typed(&sized).is_err());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for input in [&b"b"[..], b"b\x02", b"bogus", b"[1,", b"\xff\xfe", b"1 ]", b"--\n)"] {
            assert!(read_values(input).is_err(), "{input:?}");
        }
    }
}
