//! [`Value`]: a run-time value as the outside world sees it — a scalar, or a
//! regular array stored flat (shape plus a typed [`Buffer`]).

use std::fmt;

use ogham_prim::{PrimType, PrimValue};

use crate::{Buffer, DataError, ValueType};

/// A regular array: `shape` (outermost first) and its elements in row-major
/// order. Invariant: `data.len()` is the product of `shape`, every size is
/// non-negative and the rank is at least 1. [`ArrayValue::new`] checks it.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayValue {
    shape: Vec<i64>,
    data: Buffer,
}

impl ArrayValue {
    /// An array of the given shape; fails if the sizes don't fit the data.
    pub fn new(shape: Vec<i64>, data: Buffer) -> Result<ArrayValue, DataError> {
        if shape.is_empty() {
            return Err(DataError::new("an array needs at least one dimension"));
        }
        if let Some(d) = shape.iter().find(|&&d| d < 0) {
            return Err(DataError::new(format!("negative array size {d}")));
        }
        let count = element_count(&shape)
            .ok_or_else(|| DataError::new(format!("array shape {} has too many elements", shape_text(&shape))))?;
        if count != data.len() {
            return Err(DataError::new(format!(
                "array shape {} needs {count} elements, but {} were given",
                shape_text(&shape),
                data.len()
            )));
        }
        Ok(ArrayValue { shape, data })
    }

    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    pub fn data(&self) -> &Buffer {
        &self.data
    }

    /// Mutable access to the elements (the shape cannot change through it,
    /// and neither can the length, as `Buffer`'s in-place methods keep it).
    pub fn data_mut(&mut self) -> &mut Buffer {
        &mut self.data
    }

    pub fn into_parts(self) -> (Vec<i64>, Buffer) {
        (self.shape, self.data)
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of rows (the outer size).
    pub fn rows(&self) -> usize {
        self.shape[0] as usize
    }

    /// Number of elements in one row.
    pub fn row_len(&self) -> usize {
        self.shape[1..].iter().product::<i64>() as usize
    }

    /// Row `i` as a value (a scalar for a one-dimensional array).
    pub fn row(&self, i: usize) -> Option<Value> {
        if i >= self.rows() {
            return None;
        }
        if self.rank() == 1 {
            return self.data.get(i).map(Value::Scalar);
        }
        let n = self.row_len();
        Some(Value::Array(ArrayValue { shape: self.shape[1..].to_vec(), data: self.data.slice(i * n..(i + 1) * n) }))
    }
}

/// A value read from or written to the outside world.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(PrimValue),
    Array(ArrayValue),
}

impl Value {
    /// An array value; fails if the shape does not fit the data.
    pub fn array(shape: Vec<i64>, data: Buffer) -> Result<Value, DataError> {
        ArrayValue::new(shape, data).map(Value::Array)
    }

    /// A one-dimensional array holding `data`.
    pub fn vector(data: Buffer) -> Value {
        Value::Array(ArrayValue { shape: vec![data.len() as i64], data })
    }

    /// An array of the given shape filled with zeros.
    pub fn zeros(elem: PrimType, shape: Vec<i64>) -> Result<Value, DataError> {
        let n = element_count(&shape).ok_or_else(|| DataError::new("array shape too large"))?;
        Value::array(shape, Buffer::zeros(elem, n))
    }

    /// A `[]u8` array holding the bytes of `s`, as a string literal denotes.
    pub fn string(s: &str) -> Value {
        Value::vector(Buffer::U8(s.as_bytes().to_vec()))
    }

    /// Builds an array from rows of equal type and shape (at least one).
    pub fn from_rows(rows: &[Value]) -> Result<Value, DataError> {
        let first = rows.first().ok_or_else(|| DataError::new("cannot infer the type of an array with no rows"))?;
        let (elem, row_shape) = (first.elem_type(), first.shape().to_vec());
        let mut data = Buffer::with_capacity(elem, rows.len() * first.element_count());
        for (i, row) in rows.iter().enumerate() {
            if row.elem_type() != elem || row.shape() != row_shape.as_slice() {
                return Err(DataError::new(format!(
                    "array row {i} has type {}, but row 0 has type {}",
                    row.value_type(),
                    first.value_type()
                )));
            }
            match row {
                Value::Scalar(v) => data.push(*v),
                Value::Array(a) => data.extend_from(&a.data),
            }
        }
        let mut shape = vec![rows.len() as i64];
        shape.extend(row_shape);
        Value::array(shape, data)
    }

    pub fn elem_type(&self) -> PrimType {
        match self {
            Value::Scalar(v) => v.prim_type(),
            Value::Array(a) => a.elem_type(),
        }
    }

    /// The shape; empty for a scalar.
    pub fn shape(&self) -> &[i64] {
        match self {
            Value::Scalar(_) => &[],
            Value::Array(a) => &a.shape,
        }
    }

    pub fn rank(&self) -> usize {
        self.shape().len()
    }

    /// Number of scalars in the value (1 for a scalar).
    pub fn element_count(&self) -> usize {
        match self {
            Value::Scalar(_) => 1,
            Value::Array(a) => a.data.len(),
        }
    }

    /// The value's type with all sizes known, e.g. `[2][3]f32`.
    pub fn value_type(&self) -> ValueType {
        ValueType::array(self.elem_type(), self.shape())
    }

    /// Element `i` in row-major order (the scalar itself for `i == 0` of a scalar).
    pub fn flat_get(&self, i: usize) -> Option<PrimValue> {
        match self {
            Value::Scalar(v) => (i == 0).then_some(*v),
            Value::Array(a) => a.data.get(i),
        }
    }

    /// The elements as a flat buffer (one element for a scalar).
    pub fn to_buffer(&self) -> Buffer {
        match self {
            Value::Scalar(v) => Buffer::filled(*v, 1),
            Value::Array(a) => a.data.clone(),
        }
    }

    pub fn as_scalar(&self) -> Option<PrimValue> {
        match self {
            Value::Scalar(v) => Some(*v),
            Value::Array(_) => None,
        }
    }

    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Scalar(_) => None,
            Value::Array(a) => Some(a),
        }
    }
}

impl From<PrimValue> for Value {
    fn from(v: PrimValue) -> Value {
        Value::Scalar(v)
    }
}

impl fmt::Display for Value {
    /// Futhark's textual value format, as executables print results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::value_to_text(self))
    }
}

/// The product of `shape`, or `None` on overflow or a negative size.
pub fn element_count(shape: &[i64]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| usize::try_from(d).ok().and_then(|d| acc.checked_mul(d)))
}

/// Formats a shape as `[2][3]`.
pub fn shape_text(shape: &[i64]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_checks_its_shape() {
        assert!(Value::array(vec![2, 2], Buffer::I32(vec![1, 2, 3, 4])).is_ok());
        let e = Value::array(vec![2, 3], Buffer::I32(vec![1, 2, 3, 4])).unwrap_err();
        assert_eq!(e.message, "array shape [2][3] needs 6 elements, but 4 were given");
        assert!(Value::array(vec![-1], Buffer::I32(vec![])).is_err());
        assert!(Value::array(vec![], Buffer::I32(vec![1])).is_err());
        assert!(Value::array(vec![i64::MAX, i64::MAX], Buffer::I32(vec![])).is_err());
    }

    #[test]
    fn rows_and_types() {
        let v = Value::array(vec![2, 3], Buffer::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])).unwrap();
        assert_eq!(v.value_type().to_string(), "[2][3]f32");
        let a = v.as_array().unwrap();
        assert_eq!(a.row(1), Some(Value::vector(Buffer::F32(vec![4.0, 5.0, 6.0]))));
        assert_eq!(a.row(2), None);
        let rows = [a.row(0).unwrap(), a.row(1).unwrap()];
        assert_eq!(Value::from_rows(&rows).unwrap(), v);
        assert!(Value::from_rows(&[Value::Scalar(PrimValue::I32(1)), Value::Scalar(PrimValue::I64(1))]).is_err());
        assert_eq!(Value::string("hi").value_type().to_string(), "[2]u8");
        assert_eq!(Value::zeros(PrimType::Bool, vec![2, 0]).unwrap().element_count(), 0);
    }
}
