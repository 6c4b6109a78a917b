//! The members of the numeric modules (`i32.sum`, `f32.sqrt`, `f64.i32`,
//! `u8.highest`, …) with their signatures in the syntax of
//! [`sig`](crate::sig), written with `T` for the module's own type.

use ogham_prim::PrimType;

const NUMERIC: &[(&str, &str)] = &[
    ("to_i64", "(x: T) : i64"),
    ("neg", "(x: T) : T"),
    ("abs", "(x: T) : T"),
    ("sgn", "(x: T) : T"),
    ("max", "(x: T) (y: T) : T"),
    ("min", "(x: T) (y: T) : T"),
    ("highest", ": T"),
    ("lowest", ": T"),
    ("sum", "[n] (xs: [n]T) : T"),
    ("product", "[n] (xs: [n]T) : T"),
    ("maximum", "[n] (xs: [n]T) : T"),
    ("minimum", "[n] (xs: [n]T) : T"),
];

const INTEGRAL: &[(&str, &str)] = &[
    ("not", "(x: T) : T"),
    ("num_bits", ": i32"),
    ("get_bit", "(bit: i32) (x: T) : i32"),
    ("set_bit", "(bit: i32) (x: T) (b: i32) : T"),
    ("popc", "(x: T) : i32"),
    ("clz", "(x: T) : i32"),
    ("ctz", "(x: T) : i32"),
    ("mul_hi", "(x: T) (y: T) : T"),
    ("mad_hi", "(a: T) (b: T) (c: T) : T"),
];

const REAL_UNARY: &[&str] = &[
    "recip", "sqrt", "rsqrt", "cbrt", "exp", "sin", "cos", "tan", "sinpi", "cospi", "tanpi", "asin", "acos", "atan",
    "asinpi", "acospi", "atanpi", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "gamma", "lgamma", "erf", "erfc",
    "log", "log2", "log10", "log1p", "ceil", "floor", "trunc", "round",
];

const REAL: &[(&str, &str)] = &[
    ("from_fraction", "(x: i64) (y: i64) : T"),
    ("to_f64", "(x: T) : f64"),
    ("atan2", "(x: T) (y: T) : T"),
    ("atan2pi", "(x: T) (y: T) : T"),
    ("hypot", "(x: T) (y: T) : T"),
    ("lerp", "(v0: T) (v1: T) (t: T) : T"),
    ("mad", "(a: T) (b: T) (c: T) : T"),
    ("fma", "(a: T) (b: T) (c: T) : T"),
    ("isinf", "(x: T) : bool"),
    ("isnan", "(x: T) : bool"),
    ("inf", ": T"),
    ("nan", ": T"),
    ("pi", ": T"),
    ("e", ": T"),
    ("epsilon", ": T"),
    ("nextafter", "(x: T) (y: T) : T"),
    ("ldexp", "(x: T) (e: i32) : T"),
    ("copysign", "(x: T) (y: T) : T"),
    ("num_bits", ": i32"),
    ("get_bit", "(bit: i32) (x: T) : i32"),
    ("set_bit", "(bit: i32) (x: T) (b: i32) : T"),
];

/// The integer type of the same width as a float type (`f32.to_bits : f32 -> u32`).
fn bits_type(t: PrimType) -> &'static str {
    match t {
        PrimType::F16 => "u16",
        PrimType::F32 => "u32",
        _ => "u64",
    }
}

/// The signature of `module.name`, with the module's type substituted, if it is a member.
pub fn member_signature(module: PrimType, name: &str) -> Option<String> {
    let t = module.name();
    // Conversions: `i32.f64 : f64 -> i32`.
    if let Some(from) = PrimType::from_name(name) {
        return Some(format!("(x: {}) : {t}", from.name()));
    }
    let lookup = |table: &[(&str, &str)]| table.iter().find(|(n, _)| *n == name).map(|(_, s)| s.replace('T', t));
    if module == PrimType::Bool {
        return None;
    }
    if module.is_int() {
        if let Some(s) = lookup(NUMERIC).or_else(|| lookup(INTEGRAL)) {
            return Some(s);
        }
        return None;
    }
    if let Some(s) = lookup(NUMERIC).or_else(|| lookup(REAL)) {
        return Some(s);
    }
    if REAL_UNARY.contains(&name) {
        return Some(format!("(x: {t}) : {t}"));
    }
    match name {
        "from_bits" => Some(format!("(x: {}) : {t}", bits_type(module))),
        "to_bits" => Some(format!("(x: {t}) : {}", bits_type(module))),
        _ => None,
    }
}
