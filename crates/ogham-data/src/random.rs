//! Random values in the manner of `futhark dataset`: a value of a given type
//! and shape, drawn uniformly between inclusive per-type bounds.
//!
//! Default bounds follow `futhark dataset`: integers over their type's full
//! range, floats in `[0, 1]`, bools either way. `--T-bounds=lo:hi` maps to
//! [`RandomBounds::set_from_text`]. The generator is splitmix64, written
//! here: deterministic for a seed, on every platform. The exact numbers are
//! not those `futhark dataset` prints (its generator differs); only the
//! distribution and bounds agree.

use ogham_prim::{f16, PrimType, PrimValue};
use rustc_hash::FxHashMap as HashMap;

use crate::text::{skip_blank, TextParser};
use crate::value::element_count;
use crate::{Buffer, DataError, Value, ValueType};

/// Largest number of elements one generated value may have, so a typo such
/// as `[100000000000]f32` gives an error rather than exhausting memory.
pub const MAX_RANDOM_ELEMENTS: usize = 1 << 30;

/// The splitmix64 generator (Steele, Lea and Flood, 2014).
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in the inclusive range `[lo, hi]` (requires `lo <= hi`, and
    /// a span of at most 2^64 values, which every integer type satisfies).
    fn int_in(&mut self, lo: i128, hi: i128) -> i128 {
        let span = (hi - lo + 1) as u128;
        // Multiply-shift maps 64 random bits onto the span with negligible bias.
        lo + ((self.next_u64() as u128 * span) >> 64) as i128
    }
}

/// Inclusive lower and upper bounds per element type.
#[derive(Clone, Debug, Default)]
pub struct RandomBounds {
    overrides: HashMap<PrimType, (PrimValue, PrimValue)>,
}

impl RandomBounds {
    /// The bounds used for type `t`.
    pub fn get(&self, t: PrimType) -> (PrimValue, PrimValue) {
        if let Some(&b) = self.overrides.get(&t) {
            return b;
        }
        match t {
            PrimType::I8 => (PrimValue::I8(i8::MIN), PrimValue::I8(i8::MAX)),
            PrimType::I16 => (PrimValue::I16(i16::MIN), PrimValue::I16(i16::MAX)),
            PrimType::I32 => (PrimValue::I32(i32::MIN), PrimValue::I32(i32::MAX)),
            PrimType::I64 => (PrimValue::I64(i64::MIN), PrimValue::I64(i64::MAX)),
            PrimType::U8 => (PrimValue::U8(0), PrimValue::U8(u8::MAX)),
            PrimType::U16 => (PrimValue::U16(0), PrimValue::U16(u16::MAX)),
            PrimType::U32 => (PrimValue::U32(0), PrimValue::U32(u32::MAX)),
            PrimType::U64 => (PrimValue::U64(0), PrimValue::U64(u64::MAX)),
            PrimType::F16 => (PrimValue::F16(f16::ZERO), PrimValue::F16(f16::ONE)),
            PrimType::F32 => (PrimValue::F32(0.0), PrimValue::F32(1.0)),
            PrimType::F64 => (PrimValue::F64(0.0), PrimValue::F64(1.0)),
            PrimType::Bool => (PrimValue::Bool(false), PrimValue::Bool(true)),
        }
    }

    /// Sets the bounds of the values' type; both must have the same type and
    /// `lo <= hi` (for floats, both finite).
    pub fn set(&mut self, lo: PrimValue, hi: PrimValue) -> Result<(), DataError> {
        let t = lo.prim_type();
        if hi.prim_type() != t {
            return Err(DataError::new(format!("bounds {lo} and {hi} have different types")));
        }
        let ordered = if t.is_float() {
            lo.as_f64().is_finite() && hi.as_f64().is_finite() && lo.as_f64() <= hi.as_f64()
        } else {
            integer_of(lo) <= integer_of(hi)
        };
        if !ordered {
            return Err(DataError::new(format!("invalid bounds for {t}: {lo} to {hi}")));
        }
        self.overrides.insert(t, (lo, hi));
        Ok(())
    }

    /// Sets bounds for `t` from text `lo:hi`, as in `--f32-bounds=-1:1`.
    /// The numbers may omit the suffix.
    pub fn set_from_text(&mut self, t: PrimType, text: &str) -> Result<(), DataError> {
        let (lo, hi) = text
            .split_once(':')
            .ok_or_else(|| DataError::new(format!("bounds must be written `lo:hi`, not `{text}`")))?;
        let parse = |s: &str| -> Result<PrimValue, DataError> {
            let bytes = s.trim().as_bytes();
            let mut p = TextParser::new(bytes, 0);
            let v = p.parse_scalar(Some(t))?;
            if p.pos() != bytes.len() || v.prim_type() != t {
                return Err(DataError::new(format!("`{}` is not a bound of type {t}", s.trim())));
            }
            Ok(v)
        };
        self.set(parse(lo)?, parse(hi)?)
    }
}

/// An integer value widened so that signed and unsigned compare correctly.
fn integer_of(v: PrimValue) -> i128 {
    match v {
        PrimValue::U64(x) => x as i128,
        other => other.as_i64() as i128,
    }
}

/// A random value of type `ty`, whose sizes must all be known numbers.
pub fn generate_value(ty: &ValueType, rng: &mut Rng, bounds: &RandomBounds) -> Result<Value, DataError> {
    let shape = ty
        .known_shape()
        .ok_or_else(|| DataError::new(format!("cannot generate a random `{ty}`: every size must be a number")))?;
    let count = element_count(&shape).filter(|&n| n <= MAX_RANDOM_ELEMENTS).ok_or_else(|| {
        DataError::new(format!("cannot generate a random `{ty}`: more than {MAX_RANDOM_ELEMENTS} elements"))
    })?;
    let (lo, hi) = bounds.get(ty.elem);
    let mut data = Buffer::with_capacity(ty.elem, count);
    if ty.elem.is_float() {
        let (lo, hi) = (lo.as_f64(), hi.as_f64());
        for _ in 0..count {
            data.push(PrimValue::from_f64(ty.elem, lo + (hi - lo) * rng.next_f64()));
        }
    } else {
        let (lo, hi) = (integer_of(lo), integer_of(hi));
        for _ in 0..count {
            let x = rng.int_in(lo, hi);
            // from_i64 wraps, which maps u64 values above i64::MAX back correctly.
            data.push(PrimValue::from_i64(ty.elem, x as i64));
        }
    }
    if shape.is_empty() {
        Ok(Value::Scalar(data.at(0)))
    } else {
        Value::array(shape, data)
    }
}

/// One item of a `random input { … }` block: a type to generate, or a
/// literal value to use as it is (`futhark dataset -g` accepts both).
#[derive(Clone, Debug, PartialEq)]
pub enum RandomItem {
    Type(ValueType),
    Literal(Value),
}

impl std::fmt::Display for RandomItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RandomItem::Type(t) => write!(f, "{t}"),
            RandomItem::Literal(v) => write!(f, "{v}"),
        }
    }
}

/// Parses the inside of `random input { [100]f32 3i64 }`.
pub fn parse_random_items(text: &str) -> Result<Vec<RandomItem>, DataError> {
    let input = text.as_bytes();
    let mut items = Vec::new();
    let mut pos = skip_blank(input, 0);
    while pos < input.len() {
        // A type is tried first; `[1, 2]` fails to parse as one and is then
        // read as a literal.
        match ValueType::parse_prefix(input, pos) {
            Ok((ty, end)) if input.get(end).is_none_or(|c| c.is_ascii_whitespace() || *c == b'-') => {
                items.push(RandomItem::Type(ty));
                pos = end;
            }
            _ => {
                let mut p = TextParser::new(input, pos);
                items.push(RandomItem::Literal(p.parse_value(None)?));
                pos = p.pos();
            }
        }
        pos = skip_blank(input, pos);
    }
    Ok(items)
}

/// The values of a `random input` block: one per item, all drawn from one
/// generator seeded with `seed`.
pub fn generate_random_input(items: &[RandomItem], seed: u64, bounds: &RandomBounds) -> Result<Vec<Value>, DataError> {
    let mut rng = Rng::new(seed);
    items
        .iter()
        .map(|item| match item {
            RandomItem::Type(t) => generate_value(t, &mut rng, bounds),
            RandomItem::Literal(v) => Ok(v.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(ty: &str, seed: u64, bounds: &RandomBounds) -> Value {
        generate_value(&ValueType::parse(ty).unwrap(), &mut Rng::new(seed), bounds).unwrap()
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs of splitmix64 seeded with 0, computed independently
        // from the published algorithm (python3, 64-bit masked arithmetic).
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220A8397B1DCDAF);
        assert_eq!(rng.next_u64(), 0x6E789E6AA1B965F4);
    }

    #[test]
    fn shapes_types_and_determinism() {
        let b = RandomBounds::default();
        let v = gen("[100][3]f32", 7, &b);
        assert_eq!(v.value_type().to_string(), "[100][3]f32");
        assert_eq!(v, gen("[100][3]f32", 7, &b));
        assert_ne!(v, gen("[100][3]f32", 8, &b));
        assert!(matches!(gen("i64", 1, &b), Value::Scalar(PrimValue::I64(_))));
        assert_eq!(gen("[0][5]u8", 1, &b).shape(), &[0, 5]);
    }

    #[test]
    fn default_and_custom_bounds_hold() {
        let mut b = RandomBounds::default();
        let v = gen("[1000]f64", 3, &b);
        let xs: Vec<f64> = (0..1000).map(|i| v.flat_get(i).unwrap().as_f64()).collect();
        assert!(xs.iter().all(|&x| (0.0..=1.0).contains(&x)));
        assert!(xs.iter().any(|&x| x < 0.1) && xs.iter().any(|&x| x > 0.9));
        b.set_from_text(PrimType::I32, "-5:5").unwrap();
        let v = gen("[1000]i32", 3, &b);
        let ns: Vec<i64> = (0..1000).map(|i| v.flat_get(i).unwrap().as_i64()).collect();
        assert!(ns.iter().all(|&n| (-5..=5).contains(&n)));
        assert!(ns.contains(&-5) && ns.contains(&5));
        // Full-range unsigned: some values above i64::MAX should appear.
        let v = gen("[64]u64", 1, &RandomBounds::default());
        assert!((0..64).any(|i| matches!(v.flat_get(i), Some(PrimValue::U64(x)) if x > i64::MAX as u64)));
        b.set_from_text(PrimType::F16, "-1:1").unwrap();
        let v = gen("[100]f16", 1, &b);
        assert!((0..100).all(|i| v.flat_get(i).unwrap().as_f64().abs() <= 1.0));
    }

    #[test]
    fn bad_requests_are_errors() {
        let b = RandomBounds::default();
        let mut rng = Rng::new(1);
        assert!(generate_value(&ValueType::parse("[n]f32").unwrap(), &mut rng, &b).is_err());
        assert!(generate_value(&ValueType::parse("[100000][100000]f32").unwrap(), &mut rng, &b).is_err());
        let mut b = RandomBounds::default();
        assert!(b.set_from_text(PrimType::I32, "5:1").is_err());
        assert!(b.set_from_text(PrimType::I32, "1").is_err());
        assert!(b.set_from_text(PrimType::U8, "0:300").is_err());
        assert!(b.set_from_text(PrimType::I32, "0:1.5").is_err());
        assert!(b.set_from_text(PrimType::F32, "0:f32.inf").is_err());
        assert!(b.set(PrimValue::I32(0), PrimValue::I64(1)).is_err());
    }

    #[test]
    fn random_items() {
        let items = parse_random_items("[100]f32 3i64 -- comment\n [2]i32 [1, 2] true").unwrap();
        assert_eq!(items.len(), 5);
        assert_eq!(items[0], RandomItem::Type(ValueType::parse("[100]f32").unwrap()));
        assert_eq!(items[1], RandomItem::Literal(Value::Scalar(PrimValue::I64(3))));
        assert_eq!(items[3].to_string(), "[1i32, 2i32]");
        let values = generate_random_input(&items, 1, &RandomBounds::default()).unwrap();
        assert_eq!(values[0].shape(), &[100]);
        assert_eq!(values[1], Value::Scalar(PrimValue::I64(3)));
        assert_eq!(values[4], Value::Scalar(PrimValue::Bool(true)));
        assert!(parse_random_items("[10]f33").is_err());
    }
}
