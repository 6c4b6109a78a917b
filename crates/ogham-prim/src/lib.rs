//! Primitive types and scalar values, shared by every layer.
//!
//! This crate owns the twelve primitive types of the language (`i8` … `f64`,
//! `bool`), the representation of one scalar value, and the semantics of every
//! scalar operation (`ops`): wrapping integer arithmetic, Futhark's rounding
//! rules for `/` and `%`, IEEE floating point, conversions. The interpreter,
//! the constant folder and the value formats all evaluate scalars through
//! this one definition, so they cannot disagree.

pub mod ops;

use std::fmt;

pub use half::f16;

/// `x` rounded once to the nearest `f16` (ties to even). The `half` crate's
/// `f16::from_f64` drops the low 32 bits of the mantissa before rounding,
/// so a value just above a midpoint can round down; every conversion from
/// `f64` goes through this function instead.
pub fn f16_from_f64(x: f64) -> f16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & 0x000f_ffff_ffff_ffff;
    if exp == 0x7ff {
        return f16::from_bits(sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 });
    }
    let e = exp - 1023 + 15;
    if e >= 0x1f {
        return f16::from_bits(sign | 0x7c00);
    }
    // The result's units in the last place: 2^-24 for subnormals, else 2^(e-25).
    let (mant, shift, high) = if e <= 0 {
        if e < -10 {
            return f16::from_bits(sign);
        }
        (mant | 1 << 52, (43 - e) as u32, 0u64)
    } else {
        (mant, 42, (e as u64) << 10)
    };
    let mut half = high | (mant >> shift);
    let rest = mant & ((1u64 << shift) - 1);
    let halfway = 1u64 << (shift - 1);
    if rest > halfway || (rest == halfway && half & 1 == 1) {
        half += 1;
    }
    f16::from_bits(sign | half as u16)
}

/// A primitive (scalar) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
}

impl PrimType {
    pub const ALL: [PrimType; 12] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
        PrimType::F16,
        PrimType::F32,
        PrimType::F64,
        PrimType::Bool,
    ];

    /// The name as written in source and in value files (`i32`, `f64`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::I32 => "i32",
            PrimType::I64 => "i64",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
            PrimType::F16 => "f16",
            PrimType::F32 => "f32",
            PrimType::F64 => "f64",
            PrimType::Bool => "bool",
        }
    }

    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn is_signed_int(self) -> bool {
        matches!(self, PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64)
    }
    pub fn is_unsigned_int(self) -> bool {
        matches!(self, PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64)
    }
    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F16 | PrimType::F32 | PrimType::F64)
    }
    pub fn is_numeric(self) -> bool {
        self != PrimType::Bool
    }

    /// Width in bits (bool counts as 8, as it is stored in one byte).
    pub fn bits(self) -> u32 {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 8,
            PrimType::I16 | PrimType::U16 | PrimType::F16 => 16,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 64,
        }
    }

    /// Size of one element in bytes, as stored in arrays and binary value files.
    pub fn byte_size(self) -> usize {
        (self.bits() / 8) as usize
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One scalar value. The variant fixes its type.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub enum PrimValue {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(f16),
    F32(f32),
    F64(f64),
    Bool(bool),
}

impl PrimValue {
    pub fn prim_type(self) -> PrimType {
        match self {
            PrimValue::I8(_) => PrimType::I8,
            PrimValue::I16(_) => PrimType::I16,
            PrimValue::I32(_) => PrimType::I32,
            PrimValue::I64(_) => PrimType::I64,
            PrimValue::U8(_) => PrimType::U8,
            PrimValue::U16(_) => PrimType::U16,
            PrimValue::U32(_) => PrimType::U32,
            PrimValue::U64(_) => PrimType::U64,
            PrimValue::F16(_) => PrimType::F16,
            PrimValue::F32(_) => PrimType::F32,
            PrimValue::F64(_) => PrimType::F64,
            PrimValue::Bool(_) => PrimType::Bool,
        }
    }

    /// The zero of a type (`false` for bool).
    pub fn zero(t: PrimType) -> PrimValue {
        PrimValue::from_i64(t, 0)
    }

    /// Converts an integer to a value of type `t`, wrapping as a C cast would.
    pub fn from_i64(t: PrimType, x: i64) -> PrimValue {
        match t {
            PrimType::I8 => PrimValue::I8(x as i8),
            PrimType::I16 => PrimValue::I16(x as i16),
            PrimType::I32 => PrimValue::I32(x as i32),
            PrimType::I64 => PrimValue::I64(x),
            PrimType::U8 => PrimValue::U8(x as u8),
            PrimType::U16 => PrimValue::U16(x as u16),
            PrimType::U32 => PrimValue::U32(x as u32),
            PrimType::U64 => PrimValue::U64(x as u64),
            PrimType::F16 => PrimValue::F16(f16_from_f64(x as f64)),
            PrimType::F32 => PrimValue::F32(x as f32),
            PrimType::F64 => PrimValue::F64(x as f64),
            PrimType::Bool => PrimValue::Bool(x != 0),
        }
    }

    /// Converts a float to a value of type `t` (integers truncate, saturating as Rust's `as`).
    pub fn from_f64(t: PrimType, x: f64) -> PrimValue {
        match t {
            PrimType::I8 => PrimValue::I8(x as i8),
            PrimType::I16 => PrimValue::I16(x as i16),
            PrimType::I32 => PrimValue::I32(x as i32),
            PrimType::I64 => PrimValue::I64(x as i64),
            PrimType::U8 => PrimValue::U8(x as u8),
            PrimType::U16 => PrimValue::U16(x as u16),
            PrimType::U32 => PrimValue::U32(x as u32),
            PrimType::U64 => PrimValue::U64(x as u64),
            PrimType::F16 => PrimValue::F16(f16_from_f64(x)),
            PrimType::F32 => PrimValue::F32(x as f32),
            PrimType::F64 => PrimValue::F64(x),
            PrimType::Bool => PrimValue::Bool(x != 0.0),
        }
    }

    /// The value as an `i64` (integers sign- or zero-extend; floats truncate; bool is 0/1).
    pub fn as_i64(self) -> i64 {
        match self {
            PrimValue::I8(x) => x as i64,
            PrimValue::I16(x) => x as i64,
            PrimValue::I32(x) => x as i64,
            PrimValue::I64(x) => x,
            PrimValue::U8(x) => x as i64,
            PrimValue::U16(x) => x as i64,
            PrimValue::U32(x) => x as i64,
            PrimValue::U64(x) => x as i64,
            PrimValue::F16(x) => x.to_f64() as i64,
            PrimValue::F32(x) => x as i64,
            PrimValue::F64(x) => x as i64,
            PrimValue::Bool(x) => x as i64,
        }
    }

    /// The value as an `f64` (unsigned integers are read as unsigned).
    pub fn as_f64(self) -> f64 {
        match self {
            PrimValue::I8(x) => x as f64,
            PrimValue::I16(x) => x as f64,
            PrimValue::I32(x) => x as f64,
            PrimValue::I64(x) => x as f64,
            PrimValue::U8(x) => x as f64,
            PrimValue::U16(x) => x as f64,
            PrimValue::U32(x) => x as f64,
            PrimValue::U64(x) => x as f64,
            PrimValue::F16(x) => x.to_f64(),
            PrimValue::F32(x) => x as f64,
            PrimValue::F64(x) => x,
            PrimValue::Bool(x) => x as i64 as f64,
        }
    }

    pub fn as_bool(self) -> bool {
        match self {
            PrimValue::Bool(b) => b,
            other => other.as_i64() != 0,
        }
    }
}

impl fmt::Display for PrimValue {
    /// Prints in Futhark's textual value format: `3i32`, `0.5f32`, `true`,
    /// `f64.nan`, `-f32.inf`. Floats use the shortest digits that read back exactly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn float(f: &mut fmt::Formatter<'_>, x: f64, shortest: String, t: &str) -> fmt::Result {
            if x.is_nan() {
                write!(f, "{t}.nan")
            } else if x.is_infinite() {
                write!(f, "{}{t}.inf", if x < 0.0 { "-" } else { "" })
            } else {
                write!(f, "{shortest}{t}")
            }
        }
        match *self {
            PrimValue::I8(x) => write!(f, "{x}i8"),
            PrimValue::I16(x) => write!(f, "{x}i16"),
            PrimValue::I32(x) => write!(f, "{x}i32"),
            PrimValue::I64(x) => write!(f, "{x}i64"),
            PrimValue::U8(x) => write!(f, "{x}u8"),
            PrimValue::U16(x) => write!(f, "{x}u16"),
            PrimValue::U32(x) => write!(f, "{x}u32"),
            PrimValue::U64(x) => write!(f, "{x}u64"),
            PrimValue::F16(x) => float(f, x.to_f64(), format!("{:?}", x.to_f32()), "f16"),
            PrimValue::F32(x) => float(f, x as f64, format!("{x:?}"), "f32"),
            PrimValue::F64(x) => float(f, x, format!("{x:?}"), "f64"),
            PrimValue::Bool(x) => write!(f, "{x}"),
        }
    }
}
