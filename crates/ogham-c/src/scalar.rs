//! The C syntax of scalar values and operations: C types of primitives,
//! literals, and the expression computing each scalar operation of the
//! core IR (wrapping integer arithmetic, Futhark's floored division,
//! `f16` through `f32`). Code generation for the core IR and the printer
//! of imperative kernels (`kernel.rs`) both write scalars through here.

use ogham_ir::{BinOp, CmpOp, ConvOp, PrimType, PrimValue, TernOp, UnOp};

pub(crate) type Res<T> = Result<T, String>;

/// The C type of a primitive.
pub(crate) fn ctype(t: PrimType) -> &'static str {
    match t {
        PrimType::I8 => "int8_t",
        PrimType::I16 => "int16_t",
        PrimType::I32 => "int32_t",
        PrimType::I64 => "int64_t",
        PrimType::U8 => "uint8_t",
        PrimType::U16 => "uint16_t",
        PrimType::U32 => "uint32_t",
        PrimType::U64 => "uint64_t",
        PrimType::F16 => "og_f16",
        PrimType::F32 => "float",
        PrimType::F64 => "double",
        PrimType::Bool => "bool",
    }
}

/// The `__atomic_fetch_*` builtin doing `op` on the bits of type `t`, if any.
pub(crate) fn atomic_fetch(op: BinOp, t: PrimType) -> Option<&'static str> {
    if !(t.is_int() || t == PrimType::Bool) {
        return None;
    }
    match op {
        BinOp::Add if t.is_int() => Some("__atomic_fetch_add"),
        BinOp::And | BinOp::LogAnd => Some("__atomic_fetch_and"),
        BinOp::Or | BinOp::LogOr => Some("__atomic_fetch_or"),
        BinOp::Xor => Some("__atomic_fetch_xor"),
        BinOp::Min if t == PrimType::Bool => Some("__atomic_fetch_and"),
        BinOp::Max if t == PrimType::Bool => Some("__atomic_fetch_or"),
        _ => None,
    }
}

/// A C literal for a constant.
pub(crate) fn literal(v: PrimValue) -> String {
    fn float(x: f64, text: String, suffix: &str) -> String {
        if x.is_nan() {
            "NAN".to_string()
        } else if x.is_infinite() {
            if x < 0.0 {
                "(-INFINITY)".to_string()
            } else {
                "INFINITY".to_string()
            }
        } else {
            let t = if text.contains(['.', 'e', 'E']) { text } else { format!("{text}.0") };
            format!("({t}{suffix})")
        }
    }
    match v {
        PrimValue::I8(x) => format!("((int8_t){x})"),
        PrimValue::I16(x) => format!("((int16_t){x})"),
        PrimValue::I32(x) if x == i32::MIN => "INT32_MIN".to_string(),
        PrimValue::I32(x) => format!("((int32_t){x})"),
        PrimValue::I64(x) if x == i64::MIN => "INT64_MIN".to_string(),
        PrimValue::I64(x) => format!("((int64_t){x}LL)"),
        PrimValue::U8(x) => format!("((uint8_t){x}U)"),
        PrimValue::U16(x) => format!("((uint16_t){x}U)"),
        PrimValue::U32(x) => format!("((uint32_t){x}U)"),
        PrimValue::U64(x) => format!("((uint64_t){x}ULL)"),
        PrimValue::F16(x) => format!("((og_f16){})", x.to_bits()),
        PrimValue::F32(x) => float(x as f64, format!("{x:e}"), "f"),
        PrimValue::F64(x) => float(x, format!("{x:e}"), ""),
        PrimValue::Bool(x) => x.to_string(),
    }
}

pub(crate) fn helper(name: &str, t: PrimType) -> String {
    format!("og_{name}_{}", ctype(t))
}

pub(crate) fn binop(op: BinOp, t: PrimType, a: &str, b: &str) -> Res<String> {
    if t == PrimType::F16 {
        if op == BinOp::NextAfter {
            return Ok(format!("og_nextafter_f16({a}, {b})"));
        }
        // `ldexp`'s exponent is an `i32`, not an `f16`.
        let b = if op == BinOp::Ldexp { b.to_string() } else { format!("og_f16_to_f32({b})") };
        let inner = binop(op, PrimType::F32, &format!("og_f16_to_f32({a})"), &b)?;
        return Ok(format!("og_f32_to_f16({inner})"));
    }
    let unsupported = || Err(format!("C backend: operator {op:?} is not defined on {t}"));
    if t == PrimType::Bool {
        return Ok(match op {
            // Bitwise: both operands are 0 or 1 and already computed, and
            // the C compiler vectorises `&` and `|` but not the branches of `&&`.
            BinOp::And | BinOp::LogAnd | BinOp::Min => format!("({a} & {b})"),
            BinOp::Or | BinOp::LogOr | BinOp::Max => format!("({a} | {b})"),
            BinOp::Xor => format!("({a} != {b})"),
            _ => return unsupported(),
        });
    }
    if t.is_float() {
        let f = if t == PrimType::F32 { "f" } else { "" };
        let ty = ctype(t);
        return Ok(match op {
            BinOp::Add => format!("({a} + {b})"),
            BinOp::Sub => format!("({a} - {b})"),
            BinOp::Mul => format!("({a} * {b})"),
            BinOp::Div => format!("({a} / {b})"),
            BinOp::Mod => format!("og_fmod_{ty}({a}, {b})"),
            BinOp::Quot => format!("trunc{f}({a} / {b})"),
            BinOp::Rem => format!("OG_LIBM(fmod{f}({a}, {b}))"),
            BinOp::Pow => format!("OG_LIBM(pow{f}({a}, {b}))"),
            BinOp::Min => format!("og_fmin_{ty}({a}, {b})"),
            BinOp::Max => format!("og_fmax_{ty}({a}, {b})"),
            BinOp::Atan2 => format!("OG_LIBM(atan2{f}({a}, {b}))"),
            BinOp::Hypot => format!("OG_LIBM(hypot{f}({a}, {b}))"),
            BinOp::NextAfter => format!("OG_LIBM(nextafter{f}({a}, {b}))"),
            BinOp::CopySign => format!("copysign{f}({a}, {b})"),
            BinOp::Ldexp => format!("ldexp{f}({a}, (int)({b}))"),
            _ => return unsupported(),
        });
    }
    // Wrapping `+`, `-` and `*` are written out (in an unsigned type at
    // least as wide as `unsigned int`, so that nothing is promoted to a
    // signed `int` that could overflow): a call per operation is slow in
    // the unoptimised builds of the test runner.
    if let (Some(o), Some(u)) = (
        match op {
            BinOp::Add => Some("+"),
            BinOp::Sub => Some("-"),
            BinOp::Mul => Some("*"),
            _ => None,
        },
        t.is_int().then_some(if t.bits() == 64 { "uint64_t" } else { "uint32_t" }),
    ) {
        return Ok(format!("(({})(({u})({a}) {o} ({u})({b})))", ctype(t)));
    }
    let name = match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Mod => "mod",
        BinOp::Quot => "quot",
        BinOp::Rem => "rem",
        BinOp::Pow => "pow",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::UShr => "ushr",
        BinOp::Min => "min",
        BinOp::Max => "max",
        BinOp::MulHi => "mulhi",
        BinOp::And => return Ok(format!("(({})({a} & {b}))", ctype(t))),
        BinOp::Or => return Ok(format!("(({})({a} | {b}))", ctype(t))),
        BinOp::Xor => return Ok(format!("(({})({a} ^ {b}))", ctype(t))),
        BinOp::LogAnd => return Ok(format!("(({})({a} && {b}))", ctype(t))),
        BinOp::LogOr => return Ok(format!("(({})({a} || {b}))", ctype(t))),
        _ => return unsupported(),
    };
    Ok(format!("{}({a}, {b})", helper(name, t)))
}

pub(crate) fn cmpop(op: CmpOp, t: PrimType, a: &str, b: &str) -> String {
    let (a, b) = if t == PrimType::F16 {
        (format!("og_f16_to_f32({a})"), format!("og_f16_to_f32({b})"))
    } else {
        (a.to_string(), b.to_string())
    };
    // Comparing a variable with itself is folded: C compilers warn about the
    // tautology (-Wtautological-compare), and only NaN makes it depend on the value.
    if a == b {
        let reflexive = matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge);
        return match (t.is_float(), reflexive, op) {
            (true, true, _) => format!("(!isnan({a}))"),
            (true, false, CmpOp::Ne) => format!("(isnan({a}) != 0)"),
            (_, r, _) => r.to_string(),
        };
    }
    let o = match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    };
    format!("({a} {o} {b})")
}

/// The `#define`s of `og_tanh_double`'s constants (`rts/scalar.h`): the
/// polynomial and where it stops, exactly as `ogham_prim::ops::tanh` has
/// them (Rust prints the shortest decimal that reads back as the same
/// double, and C reads it so), so that both compute the same.
pub(crate) fn tanh_constants() -> String {
    let poly: Vec<String> = ogham_prim::ops::TANH_POLY.iter().map(|c| format!("{c:?}")).collect();
    format!(
        "#define OG_TANH_POLY {}\n#define OG_TANH_POLY_BELOW {:?}",
        poly.join(", "),
        ogham_prim::ops::TANH_POLY_BELOW
    )
}

pub(crate) fn unop(op: UnOp, t: PrimType, a: &str) -> Res<String> {
    if t == PrimType::F16 {
        let inner = unop(op, PrimType::F32, &format!("og_f16_to_f32({a})"))?;
        return Ok(match op {
            UnOp::IsNan | UnOp::IsInf => inner,
            _ => format!("og_f32_to_f16({inner})"),
        });
    }
    let unsupported = || Err(format!("C backend: operator {op:?} is not defined on {t}"));
    if t == PrimType::Bool {
        return Ok(match op {
            UnOp::Not => format!("(!{a})"),
            _ => return unsupported(),
        });
    }
    if t.is_float() {
        let f = if t == PrimType::F32 { "f" } else { "" };
        let ty = ctype(t);
        // `insn` for the functions the C compiler makes instructions of
        // (with -fno-math-errno), `libm` for real calls, which first
        // clear the vector registers' upper halves (`OG_LIBM`).
        let insn = |n: &str| format!("{n}{f}({a})");
        let libm = |n: &str| format!("OG_LIBM({n}{f}({a}))");
        return Ok(match op {
            UnOp::Neg => format!("(-{a})"),
            UnOp::Abs => insn("fabs"),
            UnOp::Sgn => format!("og_sgn_{ty}({a})"),
            UnOp::Sqrt => insn("sqrt"),
            UnOp::Rsqrt => format!("og_rsqrt_{ty}({a})"),
            UnOp::Cbrt => libm("cbrt"),
            UnOp::Exp => libm("exp"),
            UnOp::Log => libm("log"),
            UnOp::Log2 => libm("log2"),
            UnOp::Log10 => libm("log10"),
            UnOp::Log1p => libm("log1p"),
            UnOp::Sin => libm("sin"),
            UnOp::Cos => libm("cos"),
            UnOp::Tan => libm("tan"),
            UnOp::Asin => libm("asin"),
            UnOp::Acos => libm("acos"),
            UnOp::Atan => libm("atan"),
            UnOp::Sinh => libm("sinh"),
            UnOp::Cosh => libm("cosh"),
            UnOp::Tanh => format!("og_tanh_{ty}({a})"),
            UnOp::Asinh => libm("asinh"),
            UnOp::Acosh => libm("acosh"),
            UnOp::Atanh => libm("atanh"),
            UnOp::SinPi => format!("og_sinpi_{ty}({a})"),
            UnOp::CosPi => format!("og_cospi_{ty}({a})"),
            UnOp::TanPi => format!("og_tanpi_{ty}({a})"),
            UnOp::AsinPi => format!("og_asinpi_{ty}({a})"),
            UnOp::AcosPi => format!("og_acospi_{ty}({a})"),
            UnOp::AtanPi => format!("og_atanpi_{ty}({a})"),
            UnOp::Gamma => libm("tgamma"),
            UnOp::Lgamma => libm("lgamma"),
            UnOp::Erf => libm("erf"),
            UnOp::Erfc => libm("erfc"),
            UnOp::Ceil => insn("ceil"),
            UnOp::Floor => insn("floor"),
            UnOp::Trunc => insn("trunc"),
            UnOp::Round => insn("rint"),
            UnOp::Recip => format!("(({ty})1 / {a})"),
            UnOp::IsNan => format!("(isnan({a}) != 0)"),
            UnOp::IsInf => format!("(isinf({a}) != 0)"),
            _ => return unsupported(),
        });
    }
    Ok(match op {
        UnOp::Neg => format!("{}({a})", helper("neg", t)),
        UnOp::Not => format!("(({})~{a})", ctype(t)),
        UnOp::Abs => format!("{}({a})", helper("abs", t)),
        UnOp::Sgn => format!("{}({a})", helper("sgn", t)),
        UnOp::Popc => format!("{}({a})", helper("popc", t)),
        UnOp::Clz => format!("{}({a})", helper("clz", t)),
        UnOp::Ctz => format!("{}({a})", helper("ctz", t)),
        _ => return unsupported(),
    })
}

pub(crate) fn ternop(op: TernOp, t: PrimType, a: &str, b: &str, c: &str) -> Res<String> {
    if t == PrimType::F16 {
        // As in ogham-prim: `fma` rounds the exact result once; `lerp` rounds every step to f16.
        let w = |x: &str| format!("(double)og_f16_to_f32({x})");
        return match op {
            TernOp::Fma => Ok(format!("og_f16_from_f64(fma({}, {}, {}))", w(a), w(b), w(c))),
            TernOp::Lerp => Ok(format!("og_lerp_f16({a}, {b}, {c})")),
            TernOp::MadHi => Err(format!("C backend: operator {op:?} is not defined on {t}")),
        };
    }
    Ok(match op {
        TernOp::Fma if t == PrimType::F32 => format!("fmaf({a}, {b}, {c})"),
        TernOp::Fma if t == PrimType::F64 => format!("fma({a}, {b}, {c})"),
        TernOp::Fma if t.is_int() => format!("{}({}({a}, {b}), {c})", helper("add", t), helper("mul", t)),
        TernOp::Lerp if t.is_float() => format!("og_lerp_{}({a}, {b}, {c})", ctype(t)),
        TernOp::MadHi if t.is_int() => format!("{}({}({a}, {b}), {c})", helper("add", t), helper("mulhi", t)),
        _ => return Err(format!("C backend: operator {op:?} is not defined on {t}")),
    })
}

pub(crate) fn conv(op: ConvOp, from: PrimType, to: PrimType, a: &str) -> Res<String> {
    match op {
        ConvOp::Bitcast => {
            if from == to {
                return Ok(a.to_string());
            }
            if from.bits() != to.bits() {
                return Err(format!("C backend: cannot bitcast {from} to {to}"));
            }
            if from.is_int() && to.is_int() {
                return Ok(format!("(({})({a}))", ctype(to)));
            }
            Ok(format!("og_bitcast_{}_{}({a})", ctype(from), ctype(to)))
        }
        ConvOp::Convert => {
            let to_c = ctype(to);
            if from == to {
                return Ok(a.to_string());
            }
            // Go through a wide type: f16 through float, everything else by C's value conversions.
            let src = if from == PrimType::F16 { format!("og_f16_to_f32({a})") } else { a.to_string() };
            let from = if from == PrimType::F16 { PrimType::F32 } else { from };
            Ok(if to == PrimType::Bool {
                format!("({src} != 0)")
            } else if to == PrimType::F16 {
                format!("og_f16_from_f64((double)({src}))")
            } else if from.is_float() && to.is_int() {
                format!("og_from_f64_{to_c}((double)({src}))")
            } else if to.is_int() && from.is_int() && to.is_signed_int() {
                // Narrowing into a signed type goes through the unsigned type to wrap without implementation-defined behaviour in practice.
                format!("(({to_c})({}){src})", ctype(unsigned_of(to)))
            } else {
                format!("(({to_c})({src}))")
            })
        }
    }
}

pub(crate) fn unsigned_of(t: PrimType) -> PrimType {
    match t {
        PrimType::I8 => PrimType::U8,
        PrimType::I16 => PrimType::U16,
        PrimType::I32 => PrimType::U32,
        PrimType::I64 => PrimType::U64,
        other => other,
    }
}
