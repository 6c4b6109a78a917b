//! Array operations on flat buffers: indexing and slicing (with negative
//! strides), in-place update, rearrangement, reshaping, concatenation,
//! replication and `iota`. Every function checks its arguments and returns a
//! message instead of panicking; the caller attaches the statement's span.

use ogham_data::Buffer;
use ogham_prim::ops::{eval_binop, BinOp};
use ogham_prim::{PrimType, PrimValue};

use crate::value::{checked_count, shape_text, strides, Array, Val};

/// One evaluated dimension of an index or slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ix {
    Fix(i64),
    Slice { start: i64, len: i64, stride: i64 },
}

/// `Index [1, 2:4] out of bounds for array of shape [3][4].`
fn out_of_bounds(ixs: &[Ix], shape: &[i64]) -> String {
    let parts: Vec<String> = ixs
        .iter()
        .map(|ix| match *ix {
            Ix::Fix(i) => i.to_string(),
            Ix::Slice { start, len, stride } => {
                let end = start.wrapping_add(len.wrapping_mul(stride));
                if stride == 1 {
                    format!("{start}:{end}")
                } else {
                    format!("{start}:{end}:{stride}")
                }
            }
        })
        .collect();
    format!("Index [{}] out of bounds for array of shape {}.", parts.join(", "), shape_text(shape))
}

/// Checks every index against the shape (an empty slice is always in bounds).
pub fn check_bounds(ixs: &[Ix], shape: &[i64]) -> Result<(), String> {
    if ixs.len() > shape.len() {
        return Err(out_of_bounds(ixs, shape));
    }
    let fits = ixs.iter().zip(shape).all(|(ix, &d)| match *ix {
        Ix::Fix(i) => 0 <= i && i < d,
        Ix::Slice { start, len, stride } => {
            let last = start as i128 + (len as i128 - 1) * stride as i128;
            len == 0 || (len > 0 && 0 <= start && start < d && 0 <= last && last < d as i128)
        }
    });
    if fits {
        Ok(())
    } else {
        Err(out_of_bounds(ixs, shape))
    }
}

/// How a (bounds-checked) slice of an array is laid out: contiguous blocks of
/// `block` elements starting at `base`, stepped through by `dims` (an
/// odometer of `(count, step)` pairs, outermost first).
struct Walk {
    base: isize,
    dims: Vec<(usize, isize)>,
    block: usize,
}

impl Walk {
    fn for_index(shape: &[i64], ixs: &[Ix]) -> Walk {
        let strides = strides(shape);
        let mut base = 0isize;
        let mut dims = Vec::new();
        for (k, ix) in ixs.iter().enumerate() {
            match *ix {
                // Wrapping: the start of an empty slice is not bounds-checked and
                // may be anything, but then no block is ever visited.
                Ix::Fix(i) => base = base.wrapping_add((i as isize).wrapping_mul(strides[k] as isize)),
                Ix::Slice { start, len, stride } => {
                    base = base.wrapping_add((start as isize).wrapping_mul(strides[k] as isize));
                    dims.push((len.max(0) as usize, (stride as isize).wrapping_mul(strides[k] as isize)));
                }
            }
        }
        let block = shape[ixs.len()..].iter().map(|&d| d as usize).product();
        Walk { base, dims, block }
    }

    /// Calls `f` with the start offset of every block, in row-major order of the result.
    fn each_block(&self, mut f: impl FnMut(usize)) {
        if self.block == 0 || self.dims.iter().any(|&(count, _)| count == 0) {
            return;
        }
        let mut counters = vec![0usize; self.dims.len()];
        let mut offset = self.base;
        loop {
            f(offset as usize);
            let mut k = self.dims.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                let (count, step) = self.dims[k];
                counters[k] += 1;
                offset = offset.wrapping_add(step);
                if counters[k] < count {
                    break;
                }
                offset = offset.wrapping_sub(step.wrapping_mul(count as isize));
                counters[k] = 0;
            }
        }
    }
}

/// The shape of `array[ixs]`: one dimension per slice, then the unindexed ones.
fn sliced_shape(shape: &[i64], ixs: &[Ix]) -> Vec<i64> {
    let mut out: Vec<i64> = ixs
        .iter()
        .filter_map(|ix| match *ix {
            Ix::Fix(_) => None,
            Ix::Slice { len, .. } => Some(len),
        })
        .collect();
    out.extend_from_slice(&shape[ixs.len()..]);
    out
}

/// `array[ixs]`: a scalar when every dimension is fixed, otherwise a new array.
pub fn index(array: &Array, ixs: &[Ix]) -> Result<Val, String> {
    check_bounds(ixs, &array.shape)?;
    let walk = Walk::for_index(&array.shape, ixs);
    if ixs.len() == array.rank() && walk.dims.is_empty() {
        return array.data.get(walk.base as usize).map(Val::Prim).ok_or_else(|| out_of_bounds(ixs, &array.shape));
    }
    let shape = sliced_shape(&array.shape, ixs);
    let count = checked_count(&shape, array.elem_type())?;
    if walk.dims.is_empty() {
        let start = walk.base as usize;
        return Ok(Val::Array(Array::new(shape, array.data.slice(start..start + count))));
    }
    let mut out = Buffer::with_capacity(array.elem_type(), count);
    walk.each_block(|offset| out.extend_from_range(&array.data, offset..offset + walk.block));
    Ok(Val::Array(Array::new(shape, out)))
}

/// `array with [ixs] = value`, in place (copying the buffer first only if it is shared).
pub fn update(array: &mut Array, ixs: &[Ix], value: &Val) -> Result<(), String> {
    check_bounds(ixs, &array.shape)?;
    let shape = sliced_shape(&array.shape, ixs);
    let walk = Walk::for_index(&array.shape, ixs);
    let elem = array.elem_type();
    match value {
        Val::Prim(p) if shape.is_empty() => {
            let offset = walk.base as usize;
            array.data_mut().try_set(offset, *p).map_err(|e| format!("Update: {e}."))
        }
        Val::Array(src) if src.shape == shape && src.elem_type() == elem => {
            let data = array.data_mut();
            let mut src_offset = 0;
            walk.each_block(|offset| {
                data.copy_from(offset, &src.data, src_offset..src_offset + walk.block);
                src_offset += walk.block;
            });
            Ok(())
        }
        other => Err(format!(
            "Cannot write a value of type {} into a slice of shape {} of a {} array.",
            crate::value::val_type_text(other),
            shape_text(&shape),
            elem
        )),
    }
}

/// `array[ixs] ⊕= value` elementwise with `op` (overwriting for `None`);
/// nothing happens when the slice is out of bounds (an accumulator's
/// update, [`ogham_ir::Exp::UpdAcc`]).
pub fn accumulate(array: &mut Array, ixs: &[Ix], value: &Val, op: Option<BinOp>) -> Result<(), String> {
    if check_bounds(ixs, &array.shape).is_err() {
        return Ok(());
    }
    let Some(op) = op else { return update(array, ixs, value) };
    let shape = sliced_shape(&array.shape, ixs);
    let walk = Walk::for_index(&array.shape, ixs);
    let elem = array.elem_type();
    let combine = |data: &mut Buffer, offset: usize, x: PrimValue| -> Result<(), String> {
        let old = data.at(offset);
        let new = eval_binop(op, elem, old, x).map_err(|e| format!("{e:?}"))?;
        data.try_set(offset, new).map_err(|e| format!("Accumulation: {e}."))
    };
    match value {
        Val::Prim(p) if shape.is_empty() => combine(array.data_mut(), walk.base as usize, *p),
        Val::Array(src) if src.shape == shape && src.elem_type() == elem => {
            let data = array.data_mut();
            let mut src_offset = 0;
            let mut result = Ok(());
            walk.each_block(|offset| {
                for k in 0..walk.block {
                    if result.is_ok() {
                        result = combine(data, offset + k, src.data.at(src_offset + k));
                    }
                }
                src_offset += walk.block;
            });
            result
        }
        other => Err(format!(
            "Cannot accumulate a value of type {} into a slice of shape {} of a {} array.",
            crate::value::val_type_text(other),
            shape_text(&shape),
            elem
        )),
    }
}

/// Permutes the dimensions: result dimension `i` is source dimension `perm[i]`.
pub fn rearrange(array: &Array, perm: &[usize]) -> Result<Array, String> {
    let rank = array.rank();
    let mut seen = vec![false; rank];
    for &p in perm {
        if p >= rank || std::mem::replace(&mut seen[p], true) {
            return Err(format!("Invalid permutation {perm:?} of an array of rank {rank}."));
        }
    }
    if perm.len() != rank {
        return Err(format!("Invalid permutation {perm:?} of an array of rank {rank}."));
    }
    let shape: Vec<i64> = perm.iter().map(|&p| array.shape[p]).collect();
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return Ok(array.clone());
    }
    // Trailing dimensions that stay in place are copied as contiguous blocks.
    let kept = perm.iter().enumerate().rev().take_while(|&(i, &p)| i == p).count();
    let moved = rank - kept;
    let src_strides = strides(&array.shape);
    let walk = Walk {
        base: 0,
        dims: (0..moved).map(|i| (shape[i] as usize, src_strides[perm[i]] as isize)).collect(),
        block: array.shape[moved..].iter().map(|&d| d as usize).product(),
    };
    let mut out = Buffer::with_capacity(array.elem_type(), array.data.len());
    walk.each_block(|offset| out.extend_from_range(&array.data, offset..offset + walk.block));
    Ok(Array::new(shape, out))
}

/// The same elements under a new shape with the same element count.
pub fn reshape(array: &Array, shape: Vec<i64>) -> Result<Array, String> {
    let ok = shape.iter().all(|&d| d >= 0) && checked_count(&shape, array.elem_type()).ok() == Some(array.data.len());
    if !ok {
        return Err(format!(
            "Cannot reshape array of shape {} to shape {}.",
            shape_text(&array.shape),
            shape_text(&shape)
        ));
    }
    Ok(Array { shape, data: array.data.clone() })
}

/// Concatenation along dimension `dim`; `len` is the expected result size there.
pub fn concat(dim: usize, arrays: &[&Array], len: i64) -> Result<Array, String> {
    let first = arrays.first().ok_or("Concatenation of no arrays.")?;
    let rank = first.rank();
    let elem = first.elem_type();
    if dim >= rank {
        return Err(format!("Cannot concatenate along dimension {dim} of arrays of rank {rank}."));
    }
    let mut total: i64 = 0;
    for a in arrays {
        let same_frame = a.rank() == rank
            && a.elem_type() == elem
            && a.shape.iter().zip(&first.shape).enumerate().all(|(k, (x, y))| k == dim || x == y);
        if !same_frame {
            let shapes: Vec<String> = arrays.iter().map(|a| shape_text(&a.shape)).collect();
            return Err(format!("Cannot concatenate arrays of shapes {}.", shapes.join(", ")));
        }
        total = total.saturating_add(a.shape[dim]);
    }
    if total != len {
        return Err(format!("Concatenation has size {total}, but its type says {len}."));
    }
    let mut shape = first.shape.clone();
    shape[dim] = total;
    let count = checked_count(&shape, elem)?;
    let outer: usize = first.shape[..dim].iter().map(|&d| d as usize).product();
    let mut out = Buffer::with_capacity(elem, count);
    for o in 0..outer {
        for a in arrays {
            let block: usize = a.shape[dim..].iter().map(|&d| d as usize).product();
            out.extend_from_range(&a.data, o * block..(o + 1) * block);
        }
    }
    Ok(Array::new(shape, out))
}

/// An array of shape `shape ++ shape(value)` whose every cell is `value`.
pub fn replicate(shape: &[i64], value: &Val) -> Result<Array, String> {
    match value {
        Val::Prim(p) => {
            let times = checked_count(shape, p.prim_type())?;
            Ok(Array::new(shape.to_vec(), Buffer::filled(*p, times)))
        }
        Val::Array(a) => {
            let full_shape = [shape, &a.shape].concat();
            checked_count(&full_shape, a.elem_type())?;
            let times = checked_count(shape, a.elem_type())?;
            Ok(Array::new(full_shape, a.data.repeat(times)))
        }
        Val::Dead => Err("internal error: replicating a missing value".to_string()),
    }
}

/// `[start, start+step, …]` with `n` elements of type `elem`, wrapping on overflow.
pub fn iota(n: i64, start: PrimValue, step: PrimValue, elem: PrimType) -> Result<Array, String> {
    let count = checked_count(&[n], elem)?;
    let data = match elem {
        PrimType::I64 => {
            let (s, d) = (start.as_i64(), step.as_i64());
            Buffer::I64((0..count).map(|k| s.wrapping_add((k as i64).wrapping_mul(d))).collect())
        }
        PrimType::I32 => {
            let (s, d) = (start.as_i64() as i32, step.as_i64() as i32);
            Buffer::I32((0..count).map(|k| s.wrapping_add((k as i32).wrapping_mul(d))).collect())
        }
        t if t.is_float() => {
            let (s, d) = (start.as_f64(), step.as_f64());
            let mut out = Buffer::with_capacity(t, count);
            for k in 0..count {
                out.push(PrimValue::from_f64(t, s + k as f64 * d));
            }
            out
        }
        t => {
            // Arithmetic modulo 2^64 truncates to the same result as in the narrower type.
            let (s, d) = (start.as_i64(), step.as_i64());
            let mut out = Buffer::with_capacity(t, count);
            for k in 0..count {
                out.push(PrimValue::from_i64(t, s.wrapping_add((k as i64).wrapping_mul(d))));
            }
            out
        }
    };
    Ok(Array::new(vec![n], data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix() -> Array {
        // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
        Array::new(vec![3, 4], Buffer::I32((0..12).collect()))
    }

    fn data(v: &Val) -> Buffer {
        match v {
            Val::Array(a) => (*a.data).clone(),
            other => panic!("not an array: {other:?}"),
        }
    }

    #[test]
    fn indexing_and_slicing() {
        let m = matrix();
        assert!(matches!(index(&m, &[Ix::Fix(2), Ix::Fix(1)]), Ok(Val::Prim(PrimValue::I32(9)))));
        assert_eq!(data(&index(&m, &[Ix::Fix(1)]).unwrap()), Buffer::I32(vec![4, 5, 6, 7]));
        // Column 1, reversed: m[2:-1:-1, 1] in Python terms = [9, 5, 1].
        let col = index(&m, &[Ix::Slice { start: 2, len: 3, stride: -1 }, Ix::Fix(1)]).unwrap();
        assert_eq!(data(&col), Buffer::I32(vec![9, 5, 1]));
        assert_eq!(col.shape(), &[3]);
        let sub = index(&m, &[Ix::Slice { start: 0, len: 2, stride: 2 }, Ix::Slice { start: 1, len: 2, stride: 1 }]);
        assert_eq!(data(&sub.unwrap()), Buffer::I32(vec![1, 2, 9, 10]));
        let empty = index(&m, &[Ix::Slice { start: 7, len: 0, stride: 1 }]).unwrap();
        assert_eq!(empty.shape(), &[0, 4]);
    }

    #[test]
    fn out_of_bounds_messages() {
        let v = Array::new(vec![3], Buffer::F32(vec![1.0, 2.0, 3.0]));
        assert_eq!(index(&v, &[Ix::Fix(3)]).unwrap_err(), "Index [3] out of bounds for array of shape [3].");
        assert_eq!(
            index(&v, &[Ix::Slice { start: 1, len: 4, stride: 1 }]).unwrap_err(),
            "Index [1:5] out of bounds for array of shape [3]."
        );
        assert_eq!(
            index(&matrix(), &[Ix::Fix(-1), Ix::Fix(0)]).unwrap_err(),
            "Index [-1, 0] out of bounds for array of shape [3][4]."
        );
        assert!(index(&v, &[Ix::Slice { start: 2, len: 4, stride: -1 }]).is_err());
    }

    #[test]
    fn updates_in_place() {
        let mut m = matrix();
        update(&mut m, &[Ix::Fix(0), Ix::Fix(0)], &Val::Prim(PrimValue::I32(100))).unwrap();
        let row = Val::Array(Array::new(vec![2], Buffer::I32(vec![-1, -2])));
        update(&mut m, &[Ix::Fix(2), Ix::Slice { start: 3, len: 2, stride: -2 }], &row).unwrap();
        assert_eq!(*m.data, Buffer::I32(vec![100, 1, 2, 3, 4, 5, 6, 7, 8, -2, 10, -1]));
        assert!(update(&mut m, &[Ix::Fix(0)], &row).is_err());
        assert!(update(&mut m, &[Ix::Fix(0), Ix::Fix(0)], &Val::Prim(PrimValue::I64(1))).is_err());
    }

    #[test]
    fn rearrange_reshape_concat() {
        let t = rearrange(&matrix(), &[1, 0]).unwrap();
        assert_eq!(t.shape, vec![4, 3]);
        assert_eq!(*t.data, Buffer::I32(vec![0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]));
        let cube = Array::new(vec![2, 2, 2], Buffer::I32((0..8).collect()));
        let swapped = rearrange(&cube, &[1, 0, 2]).unwrap();
        assert_eq!(*swapped.data, Buffer::I32(vec![0, 1, 4, 5, 2, 3, 6, 7]));
        assert!(rearrange(&cube, &[0, 0, 1]).is_err());
        assert_eq!(reshape(&matrix(), vec![2, 6]).unwrap().shape, vec![2, 6]);
        assert_eq!(
            reshape(&matrix(), vec![5, 2]).unwrap_err(),
            "Cannot reshape array of shape [3][4] to shape [5][2]."
        );
        let m = matrix();
        let c = concat(1, &[&m, &m], 8).unwrap();
        assert_eq!(c.shape, vec![3, 8]);
        assert_eq!(c.data.get(4), Some(PrimValue::I32(0)));
        assert!(concat(0, &[&m, &m], 5).is_err());
    }

    #[test]
    fn replicate_and_iota() {
        let r = replicate(&[2], &Val::Array(Array::new(vec![2], Buffer::U8(vec![1, 2])))).unwrap();
        assert_eq!(r.shape, vec![2, 2]);
        assert_eq!(*r.data, Buffer::U8(vec![1, 2, 1, 2]));
        assert!(replicate(&[-1], &Val::Prim(PrimValue::I32(0))).is_err());
        assert!(replicate(&[i64::MAX, 4], &Val::Prim(PrimValue::I32(0))).is_err());
        let i = iota(4, PrimValue::I8(120), PrimValue::I8(5), PrimType::I8).unwrap();
        assert_eq!(*i.data, Buffer::I8(vec![120, 125, -126, -121]));
        let f = iota(3, PrimValue::F32(0.5), PrimValue::F32(0.25), PrimType::F32).unwrap();
        assert_eq!(*f.data, Buffer::F32(vec![0.5, 0.75, 1.0]));
    }
}
