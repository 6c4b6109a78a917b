//! Flat, typed element storage: [`Buffer`].
//!
//! A `Buffer` holds the elements of an array in row-major order, one Rust
//! vector per primitive type, so hot loops (in the interpreter, in the value
//! formats) run over a plain `Vec<f32>` rather than over boxed scalars. The
//! shape lives outside, in [`crate::Value`] or in the interpreter's own array
//! type; a buffer is just "n elements of type t".

use std::ops::Range;

use ogham_prim::{f16, PrimType, PrimValue};

/// Elements of one primitive type, stored contiguously.
///
/// The variant is the element type. Every method that takes a [`PrimValue`]
/// expects it to have the buffer's element type; the `try_` variants report a
/// mismatch as an error, the plain ones treat it as a caller bug and panic.
#[derive(Clone, Debug, PartialEq)]
pub enum Buffer {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

/// Applies the same expression to the vector inside any buffer variant.
macro_rules! with_vec {
    ($buf:expr, $v:ident => $body:expr) => {
        match $buf {
            Buffer::I8($v) => $body,
            Buffer::I16($v) => $body,
            Buffer::I32($v) => $body,
            Buffer::I64($v) => $body,
            Buffer::U8($v) => $body,
            Buffer::U16($v) => $body,
            Buffer::U32($v) => $body,
            Buffer::U64($v) => $body,
            Buffer::F16($v) => $body,
            Buffer::F32($v) => $body,
            Buffer::F64($v) => $body,
            Buffer::Bool($v) => $body,
        }
    };
}

/// Applies an expression to the vector inside a buffer and rewraps the result
/// in the same variant.
macro_rules! map_vec {
    ($buf:expr, $v:ident => $body:expr) => {
        match $buf {
            Buffer::I8($v) => Buffer::I8($body),
            Buffer::I16($v) => Buffer::I16($body),
            Buffer::I32($v) => Buffer::I32($body),
            Buffer::I64($v) => Buffer::I64($body),
            Buffer::U8($v) => Buffer::U8($body),
            Buffer::U16($v) => Buffer::U16($body),
            Buffer::U32($v) => Buffer::U32($body),
            Buffer::U64($v) => Buffer::U64($body),
            Buffer::F16($v) => Buffer::F16($body),
            Buffer::F32($v) => Buffer::F32($body),
            Buffer::F64($v) => Buffer::F64($body),
            Buffer::Bool($v) => Buffer::Bool($body),
        }
    };
}

/// Applies an expression to two buffers of the same variant; evaluates
/// `$mismatch` when their element types differ.
macro_rules! zip_vec {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, else $mismatch:expr) => {
        match ($a, $b) {
            (Buffer::I8($x), Buffer::I8($y)) => $body,
            (Buffer::I16($x), Buffer::I16($y)) => $body,
            (Buffer::I32($x), Buffer::I32($y)) => $body,
            (Buffer::I64($x), Buffer::I64($y)) => $body,
            (Buffer::U8($x), Buffer::U8($y)) => $body,
            (Buffer::U16($x), Buffer::U16($y)) => $body,
            (Buffer::U32($x), Buffer::U32($y)) => $body,
            (Buffer::U64($x), Buffer::U64($y)) => $body,
            (Buffer::F16($x), Buffer::F16($y)) => $body,
            (Buffer::F32($x), Buffer::F32($y)) => $body,
            (Buffer::F64($x), Buffer::F64($y)) => $body,
            (Buffer::Bool($x), Buffer::Bool($y)) => $body,
            _ => $mismatch,
        }
    };
}

/// A value of one element type was given to a buffer of another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElemTypeMismatch {
    pub expected: PrimType,
    pub found: PrimType,
}

impl std::fmt::Display for ElemTypeMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected an element of type {}, got {}", self.expected, self.found)
    }
}

impl std::error::Error for ElemTypeMismatch {}

impl Buffer {
    /// An empty buffer of element type `t`, with room for `capacity` elements.
    pub fn with_capacity(t: PrimType, capacity: usize) -> Buffer {
        match t {
            PrimType::I8 => Buffer::I8(Vec::with_capacity(capacity)),
            PrimType::I16 => Buffer::I16(Vec::with_capacity(capacity)),
            PrimType::I32 => Buffer::I32(Vec::with_capacity(capacity)),
            PrimType::I64 => Buffer::I64(Vec::with_capacity(capacity)),
            PrimType::U8 => Buffer::U8(Vec::with_capacity(capacity)),
            PrimType::U16 => Buffer::U16(Vec::with_capacity(capacity)),
            PrimType::U32 => Buffer::U32(Vec::with_capacity(capacity)),
            PrimType::U64 => Buffer::U64(Vec::with_capacity(capacity)),
            PrimType::F16 => Buffer::F16(Vec::with_capacity(capacity)),
            PrimType::F32 => Buffer::F32(Vec::with_capacity(capacity)),
            PrimType::F64 => Buffer::F64(Vec::with_capacity(capacity)),
            PrimType::Bool => Buffer::Bool(Vec::with_capacity(capacity)),
        }
    }

    /// An empty buffer of element type `t`.
    pub fn new(t: PrimType) -> Buffer {
        Buffer::with_capacity(t, 0)
    }

    /// `n` zeros (`false` for bool) of type `t`.
    pub fn zeros(t: PrimType, n: usize) -> Buffer {
        Buffer::filled(PrimValue::zero(t), n)
    }

    /// `n` copies of `v`; the element type is `v`'s type.
    pub fn filled(v: PrimValue, n: usize) -> Buffer {
        match v {
            PrimValue::I8(x) => Buffer::I8(vec![x; n]),
            PrimValue::I16(x) => Buffer::I16(vec![x; n]),
            PrimValue::I32(x) => Buffer::I32(vec![x; n]),
            PrimValue::I64(x) => Buffer::I64(vec![x; n]),
            PrimValue::U8(x) => Buffer::U8(vec![x; n]),
            PrimValue::U16(x) => Buffer::U16(vec![x; n]),
            PrimValue::U32(x) => Buffer::U32(vec![x; n]),
            PrimValue::U64(x) => Buffer::U64(vec![x; n]),
            PrimValue::F16(x) => Buffer::F16(vec![x; n]),
            PrimValue::F32(x) => Buffer::F32(vec![x; n]),
            PrimValue::F64(x) => Buffer::F64(vec![x; n]),
            PrimValue::Bool(x) => Buffer::Bool(vec![x; n]),
        }
    }

    /// A buffer of type `t` holding `values`; fails if any value has another type.
    pub fn from_prim_values(t: PrimType, values: &[PrimValue]) -> Result<Buffer, ElemTypeMismatch> {
        let mut buf = Buffer::with_capacity(t, values.len());
        for &v in values {
            buf.try_push(v)?;
        }
        Ok(buf)
    }

    /// The element type.
    pub fn elem_type(&self) -> PrimType {
        match self {
            Buffer::I8(_) => PrimType::I8,
            Buffer::I16(_) => PrimType::I16,
            Buffer::I32(_) => PrimType::I32,
            Buffer::I64(_) => PrimType::I64,
            Buffer::U8(_) => PrimType::U8,
            Buffer::U16(_) => PrimType::U16,
            Buffer::U32(_) => PrimType::U32,
            Buffer::U64(_) => PrimType::U64,
            Buffer::F16(_) => PrimType::F16,
            Buffer::F32(_) => PrimType::F32,
            Buffer::F64(_) => PrimType::F64,
            Buffer::Bool(_) => PrimType::Bool,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        with_vec!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`, or `None` when out of bounds.
    pub fn get(&self, i: usize) -> Option<PrimValue> {
        Some(match self {
            Buffer::I8(v) => PrimValue::I8(*v.get(i)?),
            Buffer::I16(v) => PrimValue::I16(*v.get(i)?),
            Buffer::I32(v) => PrimValue::I32(*v.get(i)?),
            Buffer::I64(v) => PrimValue::I64(*v.get(i)?),
            Buffer::U8(v) => PrimValue::U8(*v.get(i)?),
            Buffer::U16(v) => PrimValue::U16(*v.get(i)?),
            Buffer::U32(v) => PrimValue::U32(*v.get(i)?),
            Buffer::U64(v) => PrimValue::U64(*v.get(i)?),
            Buffer::F16(v) => PrimValue::F16(*v.get(i)?),
            Buffer::F32(v) => PrimValue::F32(*v.get(i)?),
            Buffer::F64(v) => PrimValue::F64(*v.get(i)?),
            Buffer::Bool(v) => PrimValue::Bool(*v.get(i)?),
        })
    }

    /// Element `i`. Panics when out of bounds, like slice indexing.
    pub fn at(&self, i: usize) -> PrimValue {
        match self.get(i) {
            Some(v) => v,
            None => panic!("buffer index {i} out of bounds for length {}", self.len()),
        }
    }

    /// Overwrites element `i` with `v`, reporting a type mismatch as an error.
    /// Panics when `i` is out of bounds, like slice indexing.
    pub fn try_set(&mut self, i: usize, v: PrimValue) -> Result<(), ElemTypeMismatch> {
        let expected = self.elem_type();
        match (self, v) {
            (Buffer::I8(b), PrimValue::I8(x)) => b[i] = x,
            (Buffer::I16(b), PrimValue::I16(x)) => b[i] = x,
            (Buffer::I32(b), PrimValue::I32(x)) => b[i] = x,
            (Buffer::I64(b), PrimValue::I64(x)) => b[i] = x,
            (Buffer::U8(b), PrimValue::U8(x)) => b[i] = x,
            (Buffer::U16(b), PrimValue::U16(x)) => b[i] = x,
            (Buffer::U32(b), PrimValue::U32(x)) => b[i] = x,
            (Buffer::U64(b), PrimValue::U64(x)) => b[i] = x,
            (Buffer::F16(b), PrimValue::F16(x)) => b[i] = x,
            (Buffer::F32(b), PrimValue::F32(x)) => b[i] = x,
            (Buffer::F64(b), PrimValue::F64(x)) => b[i] = x,
            (Buffer::Bool(b), PrimValue::Bool(x)) => b[i] = x,
            _ => return Err(ElemTypeMismatch { expected, found: v.prim_type() }),
        }
        Ok(())
    }

    /// Overwrites element `i` with `v`. A value of the wrong type is a bug in
    /// the caller (the type checker guarantees agreement) and panics.
    pub fn set(&mut self, i: usize, v: PrimValue) {
        if let Err(e) = self.try_set(i, v) {
            panic!("Buffer::set: {e}");
        }
    }

    /// Appends `v`, reporting a type mismatch as an error.
    pub fn try_push(&mut self, v: PrimValue) -> Result<(), ElemTypeMismatch> {
        let expected = self.elem_type();
        match (self, v) {
            (Buffer::I8(b), PrimValue::I8(x)) => b.push(x),
            (Buffer::I16(b), PrimValue::I16(x)) => b.push(x),
            (Buffer::I32(b), PrimValue::I32(x)) => b.push(x),
            (Buffer::I64(b), PrimValue::I64(x)) => b.push(x),
            (Buffer::U8(b), PrimValue::U8(x)) => b.push(x),
            (Buffer::U16(b), PrimValue::U16(x)) => b.push(x),
            (Buffer::U32(b), PrimValue::U32(x)) => b.push(x),
            (Buffer::U64(b), PrimValue::U64(x)) => b.push(x),
            (Buffer::F16(b), PrimValue::F16(x)) => b.push(x),
            (Buffer::F32(b), PrimValue::F32(x)) => b.push(x),
            (Buffer::F64(b), PrimValue::F64(x)) => b.push(x),
            (Buffer::Bool(b), PrimValue::Bool(x)) => b.push(x),
            _ => return Err(ElemTypeMismatch { expected, found: v.prim_type() }),
        }
        Ok(())
    }

    /// Appends `v`; a value of the wrong type panics (see [`Buffer::set`]).
    pub fn push(&mut self, v: PrimValue) {
        if let Err(e) = self.try_push(v) {
            panic!("Buffer::push: {e}");
        }
    }

    /// Appends all elements of `other`, which must have the same element type.
    pub fn try_extend_from(&mut self, other: &Buffer) -> Result<(), ElemTypeMismatch> {
        let (expected, found) = (self.elem_type(), other.elem_type());
        zip_vec!(self, other, a, b => { a.extend_from_slice(b); Ok(()) },
                 else Err(ElemTypeMismatch { expected, found }))
    }

    /// Appends all elements of `other`; a different element type panics.
    pub fn extend_from(&mut self, other: &Buffer) {
        if let Err(e) = self.try_extend_from(other) {
            panic!("Buffer::extend_from: {e}");
        }
    }

    /// Appends the elements `range` of `other` (same element type required).
    /// Panics when the types differ or the range is out of bounds.
    pub fn extend_from_range(&mut self, other: &Buffer, range: Range<usize>) {
        let (expected, found) = (self.elem_type(), other.elem_type());
        zip_vec!(self, other, a, b => a.extend_from_slice(&b[range]),
                 else panic!("Buffer::extend_from_range: {}", ElemTypeMismatch { expected, found }))
    }

    /// Copies `src[src_range]` over `self[dst_start..]` (same element type
    /// required). This is how an interpreter writes a row into an array.
    /// Panics when the types differ or a range is out of bounds.
    pub fn copy_from(&mut self, dst_start: usize, src: &Buffer, src_range: Range<usize>) {
        let (expected, found) = (self.elem_type(), src.elem_type());
        let n = src_range.len();
        zip_vec!(self, src, a, b => a[dst_start..dst_start + n].copy_from_slice(&b[src_range]),
                 else panic!("Buffer::copy_from: {}", ElemTypeMismatch { expected, found }))
    }

    /// A new buffer holding the elements in `range`. Panics when out of bounds.
    pub fn slice(&self, range: Range<usize>) -> Buffer {
        map_vec!(self, v => v[range].to_vec())
    }

    /// A new buffer with `count` elements taken from `start` every `stride`
    /// positions (stride may be negative, for reversed slices). Panics when an
    /// index falls outside the buffer.
    pub fn strided(&self, start: usize, stride: isize, count: usize) -> Buffer {
        let index = |k: usize| (start as isize + stride * k as isize) as usize;
        map_vec!(self, v => (0..count).map(|k| v[index(k)]).collect())
    }

    /// A new buffer with the elements at `indices`, in that order. Panics when
    /// an index is out of bounds.
    pub fn gather(&self, indices: &[usize]) -> Buffer {
        map_vec!(self, v => indices.iter().map(|&i| v[i]).collect())
    }

    /// A new buffer with the rows of length `row_len` at `rows`, concatenated:
    /// the flat form of indexing an array's outer dimension with many indices.
    pub fn gather_rows(&self, row_len: usize, rows: &[usize]) -> Buffer {
        map_vec!(self, v => {
            let mut out = Vec::with_capacity(rows.len() * row_len);
            for &r in rows {
                out.extend_from_slice(&v[r * row_len..(r + 1) * row_len]);
            }
            out
        })
    }

    /// The buffer repeated `times` times end to end.
    pub fn repeat(&self, times: usize) -> Buffer {
        map_vec!(self, v => v.repeat(times))
    }

    /// Concatenation of `parts`, which must all have element type `t`.
    pub fn concat(t: PrimType, parts: &[&Buffer]) -> Result<Buffer, ElemTypeMismatch> {
        let total = parts.iter().map(|p| p.len()).sum();
        let mut out = Buffer::with_capacity(t, total);
        for p in parts {
            out.try_extend_from(p)?;
        }
        Ok(out)
    }

    /// Iterates over the elements as scalars. Convenient, not the fastest path:
    /// hot code should match on the variant and work on the vector.
    pub fn iter(&self) -> impl Iterator<Item = PrimValue> + '_ {
        (0..self.len()).map(move |i| self.at(i))
    }

    /// All elements as scalars.
    pub fn to_prim_values(&self) -> Vec<PrimValue> {
        self.iter().collect()
    }

    /// Converts every element to type `t` with [`PrimValue`]'s conversions.
    pub fn convert(&self, t: PrimType) -> Buffer {
        if t == self.elem_type() {
            return self.clone();
        }
        let mut out = Buffer::with_capacity(t, self.len());
        for v in self.iter() {
            // Going through f64 whenever a float is involved keeps unsigned
            // sources unsigned (as_f64 reads them as such).
            let converted = if v.prim_type().is_float() || t.is_float() {
                PrimValue::from_f64(t, v.as_f64())
            } else {
                PrimValue::from_i64(t, v.as_i64())
            };
            out.push(converted);
        }
        out
    }

    /// The elements as little-endian bytes (bool as one byte 0/1): the
    /// payload of the binary value format.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() * self.elem_type().byte_size());
        self.write_le_bytes(&mut out);
        out
    }

    /// Appends the elements as little-endian bytes to `out`.
    pub fn write_le_bytes(&self, out: &mut Vec<u8>) {
        match self {
            Buffer::I8(v) => out.extend(v.iter().map(|x| *x as u8)),
            Buffer::U8(v) => out.extend_from_slice(v),
            Buffer::Bool(v) => out.extend(v.iter().map(|x| *x as u8)),
            Buffer::I16(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::I32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::I64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::U16(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::U32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::U64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::F16(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_bits().to_le_bytes())),
            Buffer::F32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Buffer::F64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        }
    }

    /// Decodes little-endian elements of type `t`. `bytes.len()` must be a
    /// multiple of the element size, otherwise `None`. Any nonzero byte is a
    /// true bool.
    pub fn from_le_bytes(t: PrimType, bytes: &[u8]) -> Option<Buffer> {
        let size = t.byte_size();
        if !bytes.len().is_multiple_of(size) {
            return None;
        }
        macro_rules! decode {
            ($variant:ident, $ty:ty, $n:expr) => {
                Buffer::$variant(
                    bytes
                        .chunks_exact($n)
                        .map(|c| <$ty>::from_le_bytes(c.try_into().expect("chunk has element size")))
                        .collect(),
                )
            };
        }
        Some(match t {
            PrimType::I8 => Buffer::I8(bytes.iter().map(|b| *b as i8).collect()),
            PrimType::U8 => Buffer::U8(bytes.to_vec()),
            PrimType::Bool => Buffer::Bool(bytes.iter().map(|b| *b != 0).collect()),
            PrimType::I16 => decode!(I16, i16, 2),
            PrimType::I32 => decode!(I32, i32, 4),
            PrimType::I64 => decode!(I64, i64, 8),
            PrimType::U16 => decode!(U16, u16, 2),
            PrimType::U32 => decode!(U32, u32, 4),
            PrimType::U64 => decode!(U64, u64, 8),
            PrimType::F32 => decode!(F32, f32, 4),
            PrimType::F64 => decode!(F64, f64, 8),
            PrimType::F16 => {
                Buffer::F16(bytes.chunks_exact(2).map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]]))).collect())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_and_len() {
        let b = Buffer::zeros(PrimType::F32, 4);
        assert_eq!(b.len(), 4);
        assert_eq!(b.elem_type(), PrimType::F32);
        assert_eq!(b.get(3), Some(PrimValue::F32(0.0)));
        assert_eq!(b.get(4), None);
        assert_eq!(Buffer::zeros(PrimType::Bool, 1).at(0), PrimValue::Bool(false));
    }

    #[test]
    fn set_get_and_mismatch() {
        let mut b = Buffer::zeros(PrimType::I32, 3);
        b.set(1, PrimValue::I32(7));
        assert_eq!(b.at(1), PrimValue::I32(7));
        let err = b.try_set(0, PrimValue::I64(1)).unwrap_err();
        assert_eq!(err.to_string(), "expected an element of type i32, got i64");
    }

    #[test]
    fn from_prim_values_checks_types() {
        let ok = Buffer::from_prim_values(PrimType::U8, &[PrimValue::U8(1), PrimValue::U8(2)]);
        assert_eq!(ok, Ok(Buffer::U8(vec![1, 2])));
        assert!(Buffer::from_prim_values(PrimType::U8, &[PrimValue::I8(1)]).is_err());
    }

    #[test]
    fn slicing_and_gathering() {
        let b = Buffer::I64((0..10).collect());
        assert_eq!(b.slice(2..5), Buffer::I64(vec![2, 3, 4]));
        assert_eq!(b.gather(&[9, 0, 9]), Buffer::I64(vec![9, 0, 9]));
        assert_eq!(b.strided(9, -3, 4), Buffer::I64(vec![9, 6, 3, 0]));
        assert_eq!(b.gather_rows(5, &[1, 0]), Buffer::I64(vec![5, 6, 7, 8, 9, 0, 1, 2, 3, 4]));
        assert_eq!(Buffer::I8(vec![1, 2]).repeat(2), Buffer::I8(vec![1, 2, 1, 2]));
    }

    #[test]
    fn copy_and_extend() {
        let mut dst = Buffer::zeros(PrimType::F64, 4);
        let src = Buffer::F64(vec![1.0, 2.0, 3.0]);
        dst.copy_from(1, &src, 1..3);
        assert_eq!(dst, Buffer::F64(vec![0.0, 2.0, 3.0, 0.0]));
        dst.extend_from_range(&src, 0..1);
        assert_eq!(dst.len(), 5);
        assert!(dst.try_extend_from(&Buffer::F32(vec![1.0])).is_err());
        let c = Buffer::concat(PrimType::F64, &[&src, &src]).unwrap();
        assert_eq!(c.len(), 6);
    }

    #[test]
    fn little_endian_round_trip_for_every_type() {
        for t in PrimType::ALL {
            let values: Vec<PrimValue> = [0i64, 1, -1, 100].iter().map(|&x| PrimValue::from_i64(t, x)).collect();
            let b = Buffer::from_prim_values(t, &values).unwrap();
            let bytes = b.to_le_bytes();
            assert_eq!(bytes.len(), 4 * t.byte_size());
            assert_eq!(Buffer::from_le_bytes(t, &bytes), Some(b), "type {t}");
        }
        assert_eq!(Buffer::I32(vec![1]).to_le_bytes(), vec![1, 0, 0, 0]);
        assert_eq!(Buffer::from_le_bytes(PrimType::I32, &[1, 2, 3]), None);
    }

    #[test]
    fn convert_between_types() {
        let b = Buffer::F32(vec![1.5, -2.5]);
        assert_eq!(b.convert(PrimType::I32), Buffer::I32(vec![1, -2]));
        assert_eq!(Buffer::U8(vec![255]).convert(PrimType::F64), Buffer::F64(vec![255.0]));
    }
}
