//! Built-in operators and numeric-module members (`f32.sqrt`, `i32.f64`,
//! `f64.pi`, `i64.sum`, …): each becomes scalar IR operations, or a
//! reduction for `sum`/`product`/`maximum`/`minimum`.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{BinOp, CmpOp, ConvOp, Exp, Operator, PrimType, PrimValue, Soac, SubExp, TernOp, Type as IrType, UnOp};
use ogham_syntax::Span;
use ogham_types::Builtin;

use crate::expr::leaf;
use crate::value::{RType, Val};
use crate::{internal, unsupported, LResult, Lowerer};

/// The unary operation a member name denotes, if any.
fn unop_member(name: &str) -> Option<UnOp> {
    Some(match name {
        "neg" => UnOp::Neg,
        "not" => UnOp::Not,
        "abs" => UnOp::Abs,
        "sgn" => UnOp::Sgn,
        "sqrt" => UnOp::Sqrt,
        "rsqrt" => UnOp::Rsqrt,
        "cbrt" => UnOp::Cbrt,
        "exp" => UnOp::Exp,
        "log" => UnOp::Log,
        "log2" => UnOp::Log2,
        "log10" => UnOp::Log10,
        "log1p" => UnOp::Log1p,
        "sin" => UnOp::Sin,
        "cos" => UnOp::Cos,
        "tan" => UnOp::Tan,
        "asin" => UnOp::Asin,
        "acos" => UnOp::Acos,
        "atan" => UnOp::Atan,
        "sinh" => UnOp::Sinh,
        "cosh" => UnOp::Cosh,
        "tanh" => UnOp::Tanh,
        "asinh" => UnOp::Asinh,
        "acosh" => UnOp::Acosh,
        "atanh" => UnOp::Atanh,
        "sinpi" => UnOp::SinPi,
        "cospi" => UnOp::CosPi,
        "tanpi" => UnOp::TanPi,
        "asinpi" => UnOp::AsinPi,
        "acospi" => UnOp::AcosPi,
        "atanpi" => UnOp::AtanPi,
        "gamma" => UnOp::Gamma,
        "lgamma" => UnOp::Lgamma,
        "erf" => UnOp::Erf,
        "erfc" => UnOp::Erfc,
        "ceil" => UnOp::Ceil,
        "floor" => UnOp::Floor,
        "trunc" => UnOp::Trunc,
        "round" => UnOp::Round,
        "recip" => UnOp::Recip,
        "isnan" => UnOp::IsNan,
        "isinf" => UnOp::IsInf,
        "popc" => UnOp::Popc,
        "clz" => UnOp::Clz,
        "ctz" => UnOp::Ctz,
        _ => return None,
    })
}

/// The binary operation a member name (or operator symbol) denotes, if any.
pub fn binop_member(name: &str) -> Option<BinOp> {
    Some(match name {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Mod,
        "//" => BinOp::Quot,
        "%%" => BinOp::Rem,
        "**" | "pow" => BinOp::Pow,
        "&" => BinOp::And,
        "|" => BinOp::Or,
        "^" => BinOp::Xor,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        ">>>" => BinOp::UShr,
        "min" => BinOp::Min,
        "max" => BinOp::Max,
        "atan2" => BinOp::Atan2,
        "hypot" => BinOp::Hypot,
        "nextafter" => BinOp::NextAfter,
        "copysign" => BinOp::CopySign,
        "ldexp" => BinOp::Ldexp,
        "mul_hi" => BinOp::MulHi,
        "&&" => BinOp::LogAnd,
        "||" => BinOp::LogOr,
        _ => return None,
    })
}

fn cmpop_member(name: &str) -> Option<CmpOp> {
    Some(match name {
        "==" => CmpOp::Eq,
        "!=" => CmpOp::Ne,
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        ">" => CmpOp::Gt,
        ">=" => CmpOp::Ge,
        _ => return None,
    })
}

/// The unsigned integer type of the same width as a float type (`int_t`).
fn bits_type(t: PrimType) -> PrimType {
    match t.bits() {
        8 => PrimType::U8,
        16 => PrimType::U16,
        32 => PrimType::U32,
        _ => PrimType::U64,
    }
}

/// The largest finite-or-infinite value of a type (`highest`).
fn highest(t: PrimType) -> PrimValue {
    match t {
        PrimType::I8 => PrimValue::I8(i8::MAX),
        PrimType::I16 => PrimValue::I16(i16::MAX),
        PrimType::I32 => PrimValue::I32(i32::MAX),
        PrimType::I64 => PrimValue::I64(i64::MAX),
        PrimType::U8 => PrimValue::U8(u8::MAX),
        PrimType::U16 => PrimValue::U16(u16::MAX),
        PrimType::U32 => PrimValue::U32(u32::MAX),
        PrimType::U64 => PrimValue::U64(u64::MAX),
        PrimType::Bool => PrimValue::Bool(true),
        f => PrimValue::from_f64(f, f64::INFINITY),
    }
}

fn lowest(t: PrimType) -> PrimValue {
    match t {
        PrimType::I8 => PrimValue::I8(i8::MIN),
        PrimType::I16 => PrimValue::I16(i16::MIN),
        PrimType::I32 => PrimValue::I32(i32::MIN),
        PrimType::I64 => PrimValue::I64(i64::MIN),
        PrimType::Bool => PrimValue::Bool(false),
        u if u.is_unsigned_int() => PrimValue::zero(u),
        f => PrimValue::from_f64(f, f64::NEG_INFINITY),
    }
}

/// The value of a constant member (`f64.pi`, `i32.highest`, …), if `name` is one.
pub fn constant_member(t: PrimType, name: &str) -> Option<PrimValue> {
    Some(match name {
        "highest" => highest(t),
        "lowest" => lowest(t),
        "inf" => PrimValue::from_f64(t, f64::INFINITY),
        "nan" => PrimValue::from_f64(t, f64::NAN),
        "pi" => PrimValue::from_f64(t, std::f64::consts::PI),
        "e" => PrimValue::from_f64(t, std::f64::consts::E),
        "epsilon" => match t {
            PrimType::F16 => PrimValue::from_f64(t, 2f64.powi(-10)),
            PrimType::F32 => PrimValue::F32(f32::EPSILON),
            _ => PrimValue::F64(f64::EPSILON),
        },
        "num_bits" => PrimValue::I32(t.bits() as i32),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    /// Applies a built-in to all its arguments. `ty` is the built-in's type at this use.
    pub fn apply_builtin(
        &mut self,
        b: &mut BodyBuilder,
        builtin: &Builtin,
        ty: &RType,
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        let prim_of = |t: Option<&RType>| match t {
            Some(RType::Prim(p)) => Some(*p),
            _ => None,
        };
        match builtin {
            Builtin::BinOp(op) => {
                let (x, y) = two_leaves(&args, span)?;
                let t = prim_of(ty.param(0)).unwrap_or(self.se_type(x).elem());
                Ok(Val::Leaf(self.binop(b, *op, t, x, y)))
            }
            Builtin::CmpOp(op) => {
                let (x, y) = two_leaves(&args, span)?;
                let t = prim_of(ty.param(0)).unwrap_or(self.se_type(x).elem());
                Ok(Val::Leaf(self.cmp(b, *op, t, x, y)))
            }
            Builtin::Equal | Builtin::NotEqual => {
                let [x, y] = two(args, span)?;
                let eq = self.equal(b, &x, &y, span)?;
                Ok(Val::Leaf(if *builtin == Builtin::Equal { eq } else { self.not(b, eq) }))
            }
            Builtin::LogAnd | Builtin::LogOr => {
                // As a function value the operands are already evaluated.
                let (x, y) = two_leaves(&args, span)?;
                Ok(Val::Leaf(if *builtin == Builtin::LogAnd { self.and(b, x, y) } else { self.or(b, x, y) }))
            }
            Builtin::Neg | Builtin::Not => {
                let x = leaf(args.first().ok_or_else(|| internal(span, "missing operand"))?, span)?;
                let t = self.se_type(x).elem();
                let op = if *builtin == Builtin::Neg { UnOp::Neg } else { UnOp::Not };
                Ok(Val::Leaf(SubExp::Var(self.bind(b, "un", IrType::Prim(t), Exp::UnOp(op, t, x)))))
            }
            Builtin::ModuleMember { module, name } => self.member(b, *module, name, ty, args, span),
            Builtin::Intrinsic(name) => self.intrinsic(b, name, ty, args, span),
        }
    }

    fn member(
        &mut self,
        b: &mut BodyBuilder,
        t: PrimType,
        name: &str,
        ty: &RType,
        args: Vec<Val<'a>>,
        span: Span,
    ) -> LResult<Val<'a>> {
        if args.is_empty() {
            return match constant_member(t, name) {
                Some(v) => Ok(Val::Leaf(SubExp::Const(v))),
                None => Err(unsupported(span, format!("the built-in {t}.{name}"))),
            };
        }
        let scalars: Vec<SubExp> =
            args.iter().filter_map(|a| if let Val::Leaf(x) = a { Some(*x) } else { None }).collect();
        if scalars.len() != args.len() {
            return Err(internal(span, format!("{t}.{name} applied to a non-primitive")));
        }
        let arg =
            |i: usize| scalars.get(i).copied().ok_or_else(|| internal(span, format!("{t}.{name}: missing argument")));
        let out = |this: &mut Self, b: &mut BodyBuilder, rt: PrimType, exp: Exp| -> LResult<Val<'a>> {
            Ok(Val::Leaf(SubExp::Var(this.bind(b, name_base(name), IrType::Prim(rt), exp))))
        };
        // Conversions `t.from`: the member's name is the source type.
        if let Some(from) = PrimType::from_name(name) {
            let x = arg(0)?;
            // Into an unsigned type, a signed integer is zero-extended: go
            // through the unsigned type of the source's width first.
            if from.is_signed_int() && t.is_unsigned_int() && t.bits() > from.bits() {
                let same_width = bits_type(from);
                let x = self.convert(b, from, same_width, x);
                return Ok(Val::Leaf(self.convert(b, same_width, t, x)));
            }
            return Ok(Val::Leaf(self.convert(b, from, t, x)));
        }
        if let Some(op) = unop_member(name) {
            let rt = match op {
                UnOp::IsNan | UnOp::IsInf => PrimType::Bool,
                UnOp::Popc | UnOp::Clz | UnOp::Ctz => PrimType::I32,
                _ => t,
            };
            return out(self, b, rt, Exp::UnOp(op, t, arg(0)?));
        }
        if let Some(op) = binop_member(name) {
            return Ok(Val::Leaf(self.binop(b, op, t, arg(0)?, arg(1)?)));
        }
        if let Some(op) = cmpop_member(name) {
            return Ok(Val::Leaf(self.cmp(b, op, t, arg(0)?, arg(1)?)));
        }
        match name {
            "to_i64" => Ok(Val::Leaf(self.convert(b, t, PrimType::I64, arg(0)?))),
            "to_f64" => Ok(Val::Leaf(self.convert(b, t, PrimType::F64, arg(0)?))),
            "fma" | "mad" => out(self, b, t, Exp::TernOp(TernOp::Fma, t, arg(0)?, arg(1)?, arg(2)?)),
            "lerp" => out(self, b, t, Exp::TernOp(TernOp::Lerp, t, arg(0)?, arg(1)?, arg(2)?)),
            "mad_hi" => out(self, b, t, Exp::TernOp(TernOp::MadHi, t, arg(0)?, arg(1)?, arg(2)?)),
            "atan2pi" => {
                let a = self.binop(b, BinOp::Atan2, t, arg(0)?, arg(1)?);
                let pi = SubExp::Const(PrimValue::from_f64(t, std::f64::consts::PI));
                Ok(Val::Leaf(self.binop(b, BinOp::Div, t, a, pi)))
            }
            "from_fraction" => {
                let n = self.convert(b, PrimType::I64, t, arg(0)?);
                let d = self.convert(b, PrimType::I64, t, arg(1)?);
                Ok(Val::Leaf(self.binop(b, BinOp::Div, t, n, d)))
            }
            "to_bits" => out(self, b, bits_type(t), Exp::Conv(ConvOp::Bitcast, t, bits_type(t), arg(0)?)),
            "from_bits" => {
                let x = arg(0)?;
                let from = self.se_type(x).elem();
                out(self, b, t, Exp::Conv(ConvOp::Bitcast, from, t, x))
            }
            "get_bit" => {
                let (bit, x) = (arg(0)?, arg(1)?);
                let (it, x) = self.as_bits(b, t, x);
                let bit_t = self.convert(b, PrimType::I32, it, bit);
                let shifted = self.binop(b, BinOp::UShr, it, x, bit_t);
                let one = SubExp::Const(PrimValue::from_i64(it, 1));
                let masked = self.binop(b, BinOp::And, it, shifted, one);
                Ok(Val::Leaf(self.convert(b, it, PrimType::I32, masked)))
            }
            "set_bit" => {
                let (bit, x, v) = (arg(0)?, arg(1)?, arg(2)?);
                let (it, xb) = self.as_bits(b, t, x);
                let bit_t = self.convert(b, PrimType::I32, it, bit);
                let one = SubExp::Const(PrimValue::from_i64(it, 1));
                let mask = self.binop(b, BinOp::Shl, it, one, bit_t);
                let inv = SubExp::Var(self.bind(b, "mask", IrType::Prim(it), Exp::UnOp(UnOp::Not, it, mask)));
                let cleared = self.binop(b, BinOp::And, it, xb, inv);
                let v_t = self.convert(b, PrimType::I32, it, v);
                let v1 = self.binop(b, BinOp::And, it, v_t, one);
                let vb = self.binop(b, BinOp::Shl, it, v1, bit_t);
                let res = self.binop(b, BinOp::Or, it, cleared, vb);
                if t.is_float() {
                    out(self, b, t, Exp::Conv(ConvOp::Bitcast, it, t, res))
                } else {
                    Ok(Val::Leaf(res))
                }
            }
            "sum" | "product" | "maximum" | "minimum" => {
                let (op, ne) = match name {
                    "sum" => (BinOp::Add, PrimValue::zero(t)),
                    "product" => (BinOp::Mul, PrimValue::from_i64(t, 1)),
                    "maximum" => (BinOp::Max, lowest(t)),
                    _ => (BinOp::Min, highest(t)),
                };
                let _ = ty;
                let xs = arg(0)?;
                Ok(Val::Leaf(self.reduce_prim(b, op, t, SubExp::Const(ne), xs, span)?))
            }
            _ => Err(unsupported(span, format!("the built-in {t}.{name}"))),
        }
    }

    /// The bits of `x` as an integer type (floats are bitcast).
    fn as_bits(&mut self, b: &mut BodyBuilder, t: PrimType, x: SubExp) -> (PrimType, SubExp) {
        if t.is_float() {
            let it = bits_type(t);
            (it, SubExp::Var(self.bind(b, "bits", IrType::Prim(it), Exp::Conv(ConvOp::Bitcast, t, it, x))))
        } else if t == PrimType::Bool {
            (PrimType::U8, self.convert(b, t, PrimType::U8, x))
        } else {
            (t, x)
        }
    }

    /// Reduces a one-dimensional array of primitives with a binary operation.
    pub fn reduce_prim(
        &mut self,
        b: &mut BodyBuilder,
        op: BinOp,
        t: PrimType,
        ne: SubExp,
        xs: SubExp,
        span: Span,
    ) -> LResult<SubExp> {
        let SubExp::Var(arr) = xs else { return Err(internal(span, "reducing a scalar")) };
        let at = self.se_type(xs);
        let w = *at.shape().first().ok_or_else(|| internal(span, "reducing a scalar"))?;
        let row_t = at.row();
        let lam = self.binop_lambda(op, t, row_t.clone());
        let map = self.identity_lambda(vec![row_t.clone()]);
        let exp = Exp::Soac(Soac::Screma {
            w,
            arrs: vec![arr],
            scans: Vec::new(),
            reduces: vec![Operator { lambda: lam, neutral: vec![ne], commutative: false }],
            map,
        });
        Ok(SubExp::Var(self.bind(b, "red", row_t, exp)))
    }

    /// `\x y -> x op y` on scalars of type `t`.
    pub fn binop_lambda(&mut self, op: BinOp, t: PrimType, row_t: IrType) -> ogham_ir::Lambda {
        let x = self.param("x", row_t.clone());
        let y = self.param("y", row_t.clone());
        let mut lb = BodyBuilder::new(Span::DUMMY);
        let r = self.binop(&mut lb, op, t, SubExp::Var(x.name), SubExp::Var(y.name));
        ogham_ir::Lambda { params: vec![x, y], body: lb.finish(vec![r]), ret: vec![row_t] }
    }

    /// `\x.. -> x..` for the given row types.
    pub fn identity_lambda(&mut self, tys: Vec<IrType>) -> ogham_ir::Lambda {
        let params: Vec<ogham_ir::Param> = tys.iter().map(|t| self.param("r", t.clone())).collect();
        let result = params.iter().map(|p| SubExp::Var(p.name)).collect();
        ogham_ir::Lambda { params, body: ogham_ir::Body { stms: Vec::new(), result }, ret: tys }
    }

    /// Structural equality of two values of the same type.
    pub fn equal(&mut self, b: &mut BodyBuilder, x: &Val<'a>, y: &Val<'a>, span: Span) -> LResult<SubExp> {
        match (x, y) {
            (Val::Leaf(a), Val::Leaf(c)) => {
                let ta = self.se_type(*a);
                if ta.rank() == 0 {
                    Ok(self.cmp(b, CmpOp::Eq, ta.elem(), *a, *c))
                } else {
                    self.arrays_equal(b, *a, *c, span)
                }
            }
            (Val::Record(fa), Val::Record(fc)) => {
                let mut acc = SubExp::Const(PrimValue::Bool(true));
                for (k, va) in fa {
                    let vc = fc.get(k).ok_or_else(|| internal(span, "comparing records of different fields"))?;
                    let e = self.equal(b, va, vc, span)?;
                    acc = self.and(b, acc, e);
                }
                Ok(acc)
            }
            (Val::Sum { tag: ta, payloads: pa }, Val::Sum { tag: tc, payloads: pc }) => {
                // Equal tags, and equal payloads of the active constructor
                // (inactive payloads hold arbitrary blanks).
                let tags_eq = self.cmp(b, CmpOp::Eq, PrimType::I8, *ta, *tc);
                let mut any = SubExp::Const(PrimValue::Bool(false));
                for (i, (xa, xc)) in pa.iter().zip(pc).enumerate() {
                    let mut eq = self.cmp(b, CmpOp::Eq, PrimType::I8, *ta, SubExp::Const(PrimValue::I8(i as i8)));
                    for (va, vc) in xa.iter().zip(xc) {
                        let e = self.equal(b, va, vc, span)?;
                        eq = self.and(b, eq, e);
                    }
                    any = self.or(b, any, eq);
                }
                Ok(self.and(b, tags_eq, any))
            }
            _ => Err(unsupported(span, "comparing values of this type")),
        }
    }

    /// Same shape and all elements equal.
    fn arrays_equal(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp, span: Span) -> LResult<SubExp> {
        let (tx, ty) = (self.se_type(x), self.se_type(y));
        let (Some(xv), Some(yv)) = (x.as_var(), y.as_var()) else {
            return Err(internal(span, "comparing scalars as arrays"));
        };
        let mut same_shape = SubExp::Const(PrimValue::Bool(true));
        for (dx, dy) in tx.shape().iter().zip(ty.shape()) {
            let e = self.cmp(b, CmpOp::Eq, PrimType::I64, *dx, *dy);
            same_shape = self.and(b, same_shape, e);
        }
        let mut tb = self.sub_builder(b);
        let mut total = SubExp::i64(1);
        for d in tx.shape() {
            total = self.mul64(&mut tb, total, *d);
        }
        let elem = tx.elem();
        let flat_t = IrType::Array { elem, shape: vec![total] };
        let xf = self.bind(&mut tb, "flat", flat_t.clone(), Exp::Reshape { array: xv, shape: vec![total] });
        let yf = self.bind(&mut tb, "flat", flat_t, Exp::Reshape { array: yv, shape: vec![total] });
        let a = self.param("a", IrType::Prim(elem));
        let c = self.param("b", IrType::Prim(elem));
        let mut mb = BodyBuilder::new(b.span);
        let eq = self.cmp(&mut mb, CmpOp::Eq, elem, SubExp::Var(a.name), SubExp::Var(c.name));
        let map =
            ogham_ir::Lambda { params: vec![a, c], body: mb.finish(vec![eq]), ret: vec![IrType::Prim(PrimType::Bool)] };
        let and = self.binop_lambda(BinOp::LogAnd, PrimType::Bool, IrType::Prim(PrimType::Bool));
        let exp = Exp::Soac(Soac::Screma {
            w: total,
            arrs: vec![xf, yf],
            scans: Vec::new(),
            reduces: vec![Operator {
                lambda: and,
                neutral: vec![SubExp::Const(PrimValue::Bool(true))],
                commutative: true,
            }],
            map,
        });
        let all = self.bind(&mut tb, "alleq", IrType::Prim(PrimType::Bool), exp);
        let tv = Val::Leaf(SubExp::Var(all));
        let eb = self.sub_builder(b);
        let ev = Val::Leaf(SubExp::Const(PrimValue::Bool(false)));
        match self.merge_if(b, same_shape, tb, tv, eb, ev)? {
            Val::Leaf(r) => Ok(r),
            _ => Err(internal(span, "array comparison")),
        }
    }
}

fn name_base(name: &str) -> &str {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name
    } else {
        "op"
    }
}

fn two_leaves(args: &[Val<'_>], span: Span) -> LResult<(SubExp, SubExp)> {
    match args {
        [x, y] => Ok((leaf(x, span)?, leaf(y, span)?)),
        _ => Err(internal(span, "a binary operator with the wrong number of operands")),
    }
}

fn two<'a>(args: Vec<Val<'a>>, span: Span) -> LResult<[Val<'a>; 2]> {
    args.try_into().map_err(|_| internal(span, "a binary operator with the wrong number of operands"))
}
