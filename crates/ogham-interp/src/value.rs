//! The interpreter's run-time values: scalars and regular arrays stored as a
//! flat typed [`Buffer`] behind an `Rc`, so that passing an array around is a
//! reference-count bump and an in-place update of a uniquely held array
//! (`Rc::make_mut`) touches only the updated elements.

use std::rc::Rc;

use ogham_data::{ArrayValue, Buffer, Value};
use ogham_prim::{PrimType, PrimValue};

/// Arrays larger than this many bytes are refused with an error rather than
/// attempted: a failed allocation aborts the process, and the interpreter
/// must survive fuzzed programs that ask for absurd sizes.
pub const MAX_ARRAY_BYTES: usize = 1 << 34;

/// A regular array: `shape` (outermost first, every size ≥ 0) and the
/// elements in row-major order.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<i64>,
    pub data: Rc<Buffer>,
}

impl Array {
    pub fn new(shape: Vec<i64>, data: Buffer) -> Array {
        Array { shape, data: Rc::new(data) }
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The outer size.
    pub fn rows(&self) -> usize {
        self.shape.first().map_or(0, |&d| d as usize)
    }

    /// Elements in one row (1 for a one-dimensional array).
    pub fn row_len(&self) -> usize {
        self.shape.iter().skip(1).map(|&d| d as usize).product()
    }

    /// Row `i` (the caller checks `i < rows()`): a scalar for a vector, otherwise a copy of the row.
    #[inline]
    pub fn row(&self, i: usize) -> Val {
        if self.shape.len() == 1 {
            match self.data.get(i) {
                Some(v) => Val::Prim(v),
                None => Val::Dead,
            }
        } else {
            let n = self.row_len();
            let start = i.saturating_mul(n);
            if start.saturating_add(n) > self.data.len() {
                return Val::Dead;
            }
            Val::Array(Array::new(self.shape[1..].to_vec(), self.data.slice(start..start + n)))
        }
    }

    /// The buffer for writing, copied first if anything else shares it.
    pub fn data_mut(&mut self) -> &mut Buffer {
        Rc::make_mut(&mut self.data)
    }

    /// Converts to the outside world's representation, copying the buffer only if shared.
    pub fn into_value(self) -> Result<Value, String> {
        let data = Rc::try_unwrap(self.data).unwrap_or_else(|shared| (*shared).clone());
        ArrayValue::new(self.shape, data).map(Value::Array).map_err(|e| e.message)
    }
}

/// A value in a variable slot.
#[derive(Clone, Debug, Default)]
pub enum Val {
    /// Not bound yet, or consumed (moved out by an in-place update).
    #[default]
    Dead,
    Prim(PrimValue),
    Array(Array),
}

impl Val {
    /// The shape (empty for a scalar).
    pub fn shape(&self) -> &[i64] {
        match self {
            Val::Array(a) => &a.shape,
            _ => &[],
        }
    }

    pub fn from_value(v: Value) -> Val {
        match v {
            Value::Scalar(p) => Val::Prim(p),
            Value::Array(a) => {
                let (shape, data) = a.into_parts();
                Val::Array(Array::new(shape, data))
            }
        }
    }

    pub fn into_value(self) -> Result<Value, String> {
        match self {
            Val::Prim(p) => Ok(Value::Scalar(p)),
            Val::Array(a) => a.into_value(),
            Val::Dead => Err("internal error: result variable has no value".to_string()),
        }
    }
}

/// Number of elements of `shape`, refusing negative sizes and arrays too large to allocate.
pub fn checked_count(shape: &[i64], elem: PrimType) -> Result<usize, String> {
    let mut count: usize = 1;
    for &d in shape {
        let d = usize::try_from(d).map_err(|_| format!("Negative array size {d}."))?;
        count = count.checked_mul(d).ok_or_else(|| too_large(shape))?;
    }
    if count.saturating_mul(elem.byte_size()) > MAX_ARRAY_BYTES {
        return Err(too_large(shape));
    }
    Ok(count)
}

fn too_large(shape: &[i64]) -> String {
    format!("Array of shape {} is too large to allocate.", shape_text(shape))
}

/// `[2][3]`, as Futhark prints shapes in error messages.
pub fn shape_text(shape: &[i64]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

/// Row-major strides (in elements) of `shape`.
pub fn strides(shape: &[i64]) -> Vec<usize> {
    let mut out = vec![1usize; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1].saturating_mul(shape[k + 1].max(0) as usize);
    }
    out
}

/// A value's type as Futhark writes it, for messages: `[3][2]f32`.
pub fn val_type_text(v: &Val) -> String {
    match v {
        Val::Dead => "<nothing>".to_string(),
        Val::Prim(p) => p.prim_type().to_string(),
        Val::Array(a) => format!("{}{}", shape_text(&a.shape), a.elem_type()),
    }
}
