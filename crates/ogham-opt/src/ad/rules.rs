//! The derivatives of the scalar operations, as partial derivatives: one
//! home for them, used by forward mode (tangent = Σ ∂v/∂uᵢ · u̇ᵢ) and
//! reverse mode (ūᵢ += ∂v/∂uᵢ · v̄).
//!
//! As in Futhark, integers and booleans are differentiated too, with
//! Futhark's partial derivatives where they are not the real ones: integer
//! `a / b` (and `quot`) has `1 quot b` and `-(a quot b²)`; `%` and `rem`
//! have 1 and 0; integer `a ** b` has `b·a^(b-1)` and 0; `a << b` has
//! `2^b`, `>>` has 1 when `b = 0` and 0 otherwise; on booleans, products
//! are `&&` and sums `||`, `a && b` has `b` and `a`, `a || b` has true and
//! false, and `!a` has `a`. Bitwise operations and `mul_hi` have none.
//! Floating-point `%` has the real partial in its divisor, `-floor(a/b)`
//! (Futhark's is 0). `gamma` and `lgamma` differentiate through the
//! digamma function, computed inline by reflection, recurrence and the
//! asymptotic series. `a ** b` at the edges of its domain: ∂/∂a is 0 at
//! `a = b = 0` (Futhark's `tests/ad/pow0.fut`) and the real one, infinite,
//! at `a = 0` for `0 < b < 1` (Futhark: 0); ∂/∂b is 0 for `a ≤ 0`, as in
//! Futhark.
//! Conversions, bit casts included, convert the tangent.

use ogham_ir::{BinOp, Body, CmpOp, ConvOp, Exp, PrimType, PrimValue, Span, Stm, SubExp, TernOp, Type, UnOp, VName};

use super::Ad;
use crate::Rejection;

type R<T> = Result<T, Rejection>;

pub(super) fn konst(t: PrimType, x: f64) -> SubExp {
    SubExp::Const(PrimValue::from_f64(t, x))
}

impl Ad {
    /// `iota w`: the index of each of `w` elements.
    pub(super) fn indices(&mut self, out: &mut Vec<Stm>, w: SubExp, span: Span) -> VName {
        let exp = Exp::Iota { n: w, start: SubExp::i64(0), step: SubExp::i64(1), elem: PrimType::I64 };
        self.bind(out, "idx", Type::Prim(PrimType::I64).array_of(w), exp, span)
    }

    pub(super) fn scalar(&mut self, out: &mut Vec<Stm>, t: PrimType, exp: Exp, span: Span) -> SubExp {
        SubExp::Var(self.bind(out, "d", Type::Prim(t), exp, span))
    }

    pub(super) fn bin(
        &mut self,
        out: &mut Vec<Stm>,
        op: BinOp,
        t: PrimType,
        a: SubExp,
        b: SubExp,
        span: Span,
    ) -> SubExp {
        self.scalar(out, t, Exp::BinOp(op, t, a, b), span)
    }

    pub(super) fn un(&mut self, out: &mut Vec<Stm>, op: UnOp, t: PrimType, a: SubExp, span: Span) -> SubExp {
        self.scalar(out, t, Exp::UnOp(op, t, a), span)
    }

    /// `x · y` in `t` (`&&` on booleans).
    pub(super) fn times(&mut self, out: &mut Vec<Stm>, t: PrimType, x: SubExp, y: SubExp, span: Span) -> SubExp {
        // 1·y = y exactly (NaN and signed zeros included).
        let one = konst(t, 1.0);
        if x == one {
            return y;
        }
        if y == one {
            return x;
        }
        let op = if t == PrimType::Bool { BinOp::LogAnd } else { BinOp::Mul };
        self.bin(out, op, t, x, y, span)
    }

    /// `x + y` in `t` (`||` on booleans).
    pub(super) fn plus(&mut self, out: &mut Vec<Stm>, t: PrimType, x: SubExp, y: SubExp, span: Span) -> SubExp {
        let op = if t == PrimType::Bool { BinOp::LogOr } else { BinOp::Add };
        self.bin(out, op, t, x, y, span)
    }

    /// `c ? x : y` on scalars (as an `if`).
    pub(super) fn select(
        &mut self,
        out: &mut Vec<Stm>,
        t: PrimType,
        c: SubExp,
        x: SubExp,
        y: SubExp,
        span: Span,
    ) -> SubExp {
        self.either(out, &Type::Prim(t), c, x, y, span)
    }

    /// `c ? x : y` of any type (a row too), as an `if`.
    pub(super) fn either(
        &mut self,
        out: &mut Vec<Stm>,
        ty: &Type,
        c: SubExp,
        x: SubExp,
        y: SubExp,
        span: Span,
    ) -> SubExp {
        let then_body = Body { stms: Vec::new(), result: vec![x] };
        let else_body = Body { stms: Vec::new(), result: vec![y] };
        SubExp::Var(self.bind(out, "d", ty.clone(), Exp::If { cond: c, then_body, else_body }, span))
    }

    /// `a op b`, a `bool`.
    pub(super) fn cmp(
        &mut self,
        out: &mut Vec<Stm>,
        op: CmpOp,
        t: PrimType,
        a: SubExp,
        b: SubExp,
        span: Span,
    ) -> SubExp {
        self.scalar(out, PrimType::Bool, Exp::CmpOp(op, t, a, b), span)
    }

    /// The partial derivatives of `v = a op b` in `a` and in `b` (`None`: zero).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn binop_partials(
        &mut self,
        out: &mut Vec<Stm>,
        op: BinOp,
        t: PrimType,
        a: SubExp,
        b: SubExp,
        v: VName,
        span: Span,
    ) -> R<(Option<SubExp>, Option<SubExp>)> {
        let v = SubExp::Var(v);
        let one = konst(t, 1.0);
        let boolean = t == PrimType::Bool;
        let float = t.is_float();
        Ok(match op {
            BinOp::Add if !boolean => (Some(one), Some(one)),
            BinOp::Sub if !boolean => (Some(one), Some(konst(t, -1.0))),
            BinOp::Mul if !boolean => (Some(b), Some(a)),
            BinOp::Min | BinOp::Max if !boolean => {
                // The operand returned (the first one on ties; for floats,
                // the one that is not NaN: `f64.min 1 nan` is 1).
                let mut c = self.cmp(out, if op == BinOp::Min { CmpOp::Le } else { CmpOp::Ge }, t, a, b, span);
                if float {
                    let nan = self.cmp(out, CmpOp::Ne, t, b, b, span);
                    c = self.bin(out, BinOp::LogOr, PrimType::Bool, c, nan, span);
                }
                let pa = self.select(out, t, c, one, konst(t, 0.0), span);
                let pb = self.select(out, t, c, konst(t, 0.0), one, span);
                (Some(pa), Some(pb))
            }
            BinOp::Div if float => {
                let pa = self.bin(out, BinOp::Div, t, one, b, span);
                let q = self.bin(out, BinOp::Div, t, v, b, span);
                (Some(pa), Some(self.un(out, UnOp::Neg, t, q, span)))
            }
            BinOp::Div | BinOp::Quot if !boolean && !float => {
                let pa = self.bin(out, BinOp::Quot, t, one, b, span);
                let b2 = self.bin(out, BinOp::Mul, t, b, b, span);
                let q = self.bin(out, BinOp::Quot, t, a, b2, span);
                (Some(pa), Some(self.un(out, UnOp::Neg, t, q, span)))
            }
            BinOp::Pow if float => {
                // b·a^(b-1), but 0 at a = b = 0 (where it is 0·∞); v·log a,
                // but 0 for a ≤ 0 (Futhark's guard outside the domain).
                let bm1 = self.bin(out, BinOp::Sub, t, b, one, span);
                let p = self.bin(out, BinOp::Pow, t, a, bm1, span);
                let pa = self.bin(out, BinOp::Mul, t, b, p, span);
                let zero = konst(t, 0.0);
                let a0 = self.cmp(out, CmpOp::Eq, t, a, zero, span);
                let b0 = self.cmp(out, CmpOp::Eq, t, b, zero, span);
                let kink = self.bin(out, BinOp::LogAnd, PrimType::Bool, a0, b0, span);
                let pa = self.select(out, t, kink, zero, pa, span);
                let l = self.un(out, UnOp::Log, t, a, span);
                let nonpos = self.cmp(out, CmpOp::Le, t, a, zero, span);
                let l = self.select(out, t, nonpos, zero, l, span);
                let pb = self.bin(out, BinOp::Mul, t, v, l, span);
                (Some(pa), Some(pb))
            }
            BinOp::Pow if !boolean => {
                let bm1 = self.bin(out, BinOp::Sub, t, b, one, span);
                let e = self.bin(out, BinOp::Max, t, bm1, konst(t, 0.0), span);
                let p = self.bin(out, BinOp::Pow, t, a, e, span);
                (Some(self.bin(out, BinOp::Mul, t, p, b, span)), None)
            }
            BinOp::Mod if float => {
                let q = self.bin(out, BinOp::Div, t, a, b, span);
                let f = self.un(out, UnOp::Floor, t, q, span);
                (Some(one), Some(self.un(out, UnOp::Neg, t, f, span)))
            }
            BinOp::Mod | BinOp::Rem if !boolean => (Some(one), None),
            BinOp::Atan2 => {
                // b/(a² + b²) and -a/(a² + b²), divided by the hypotenuse
                // twice so that neither overflows nor underflows.
                let h = self.bin(out, BinOp::Hypot, t, a, b, span);
                let bh = self.bin(out, BinOp::Div, t, b, h, span);
                let pa = self.bin(out, BinOp::Div, t, bh, h, span);
                let ah = self.bin(out, BinOp::Div, t, a, h, span);
                let q = self.bin(out, BinOp::Div, t, ah, h, span);
                (Some(pa), Some(self.un(out, UnOp::Neg, t, q, span)))
            }
            BinOp::Hypot => {
                let pa = self.bin(out, BinOp::Div, t, a, v, span);
                let pb = self.bin(out, BinOp::Div, t, b, v, span);
                (Some(pa), Some(pb))
            }
            BinOp::CopySign => {
                let sa = self.bin(out, BinOp::CopySign, t, one, a, span);
                let sb = self.bin(out, BinOp::CopySign, t, one, b, span);
                (Some(self.bin(out, BinOp::Mul, t, sa, sb, span)), None)
            }
            BinOp::NextAfter => (Some(one), None),
            BinOp::Ldexp => (Some(self.bin(out, BinOp::Ldexp, t, one, b, span)), None),
            BinOp::Shl if !boolean => (Some(self.bin(out, BinOp::Shl, t, one, b, span)), None),
            BinOp::Shr | BinOp::UShr if !boolean => {
                let c = self.cmp(out, CmpOp::Eq, t, b, konst(t, 0.0), span);
                (Some(self.select(out, t, c, one, konst(t, 0.0), span)), None)
            }
            BinOp::LogAnd | BinOp::And if boolean => (Some(b), Some(a)),
            BinOp::LogOr | BinOp::Or if boolean => (Some(konst(t, 1.0)), None),
            _ => (None, None),
        })
    }

    /// The derivative of `v = op a` (`None`: zero).
    pub(super) fn unop_partial(
        &mut self,
        out: &mut Vec<Stm>,
        op: UnOp,
        t: PrimType,
        a: SubExp,
        v: VName,
        span: Span,
    ) -> R<Option<SubExp>> {
        let v = SubExp::Var(v);
        let one = konst(t, 1.0);
        if !t.is_float() {
            return Ok(match op {
                UnOp::Neg if t != PrimType::Bool => Some(konst(t, -1.0)),
                UnOp::Abs => Some(self.un(out, UnOp::Sgn, t, a, span)),
                UnOp::Not if t == PrimType::Bool => Some(a),
                UnOp::Not => Some(self.un(out, UnOp::Not, t, a, span)),
                _ => None,
            });
        }
        let pi = std::f64::consts::PI;
        let sq = |cx: &mut Self, out: &mut Vec<Stm>, x: SubExp| cx.bin(out, BinOp::Mul, t, x, x, span);
        let recip = |cx: &mut Self, out: &mut Vec<Stm>, x: SubExp| cx.bin(out, BinOp::Div, t, one, x, span);
        Ok(Some(match op {
            UnOp::Neg => konst(t, -1.0),
            UnOp::Abs => self.un(out, UnOp::Sgn, t, a, span),
            UnOp::Sgn | UnOp::Ceil | UnOp::Floor | UnOp::Trunc | UnOp::Round => return Ok(None),
            UnOp::Sqrt => {
                let k = self.bin(out, BinOp::Mul, t, konst(t, 2.0), v, span);
                recip(self, out, k)
            }
            UnOp::Rsqrt => {
                let v2 = sq(self, out, v);
                let v3 = self.bin(out, BinOp::Mul, t, v2, v, span);
                self.bin(out, BinOp::Mul, t, konst(t, -0.5), v3, span)
            }
            UnOp::Cbrt => {
                let v2 = sq(self, out, v);
                let k = self.bin(out, BinOp::Mul, t, konst(t, 3.0), v2, span);
                recip(self, out, k)
            }
            UnOp::Exp => v,
            UnOp::Log => recip(self, out, a),
            UnOp::Log2 | UnOp::Log10 => {
                let ln = if op == UnOp::Log2 { std::f64::consts::LN_2 } else { std::f64::consts::LN_10 };
                let k = self.bin(out, BinOp::Mul, t, a, konst(t, ln), span);
                recip(self, out, k)
            }
            UnOp::Log1p => {
                let k = self.bin(out, BinOp::Add, t, one, a, span);
                recip(self, out, k)
            }
            UnOp::Sin => self.un(out, UnOp::Cos, t, a, span),
            UnOp::Cos => {
                let s = self.un(out, UnOp::Sin, t, a, span);
                self.un(out, UnOp::Neg, t, s, span)
            }
            UnOp::Tan => {
                let v2 = sq(self, out, v);
                self.bin(out, BinOp::Add, t, one, v2, span)
            }
            UnOp::Asin | UnOp::Acos | UnOp::AsinPi | UnOp::AcosPi => {
                let a2 = sq(self, out, a);
                let r = self.bin(out, BinOp::Sub, t, one, a2, span);
                let mut k = self.un(out, UnOp::Sqrt, t, r, span);
                if matches!(op, UnOp::AsinPi | UnOp::AcosPi) {
                    k = self.bin(out, BinOp::Mul, t, k, konst(t, pi), span);
                }
                if matches!(op, UnOp::Acos | UnOp::AcosPi) {
                    k = self.un(out, UnOp::Neg, t, k, span);
                }
                recip(self, out, k)
            }
            UnOp::Atan | UnOp::AtanPi => {
                let a2 = sq(self, out, a);
                let mut k = self.bin(out, BinOp::Add, t, one, a2, span);
                if op == UnOp::AtanPi {
                    k = self.bin(out, BinOp::Mul, t, k, konst(t, pi), span);
                }
                recip(self, out, k)
            }
            UnOp::Sinh => self.un(out, UnOp::Cosh, t, a, span),
            UnOp::Cosh => self.un(out, UnOp::Sinh, t, a, span),
            UnOp::Tanh => {
                let v2 = sq(self, out, v);
                self.bin(out, BinOp::Sub, t, one, v2, span)
            }
            // 1/√(a² + 1) and 1/√(a² - 1), without squaring a (which
            // overflows long before the derivative underflows).
            UnOp::Asinh => {
                let k = self.bin(out, BinOp::Hypot, t, a, one, span);
                recip(self, out, k)
            }
            UnOp::Acosh => {
                let am1 = self.bin(out, BinOp::Sub, t, a, one, span);
                let ap1 = self.bin(out, BinOp::Add, t, a, one, span);
                let r1 = self.un(out, UnOp::Sqrt, t, am1, span);
                let r2 = self.un(out, UnOp::Sqrt, t, ap1, span);
                let k = self.bin(out, BinOp::Mul, t, r1, r2, span);
                recip(self, out, k)
            }
            UnOp::Atanh => {
                let a2 = sq(self, out, a);
                let k = self.bin(out, BinOp::Sub, t, one, a2, span);
                recip(self, out, k)
            }
            UnOp::SinPi => {
                let c = self.un(out, UnOp::CosPi, t, a, span);
                self.bin(out, BinOp::Mul, t, konst(t, pi), c, span)
            }
            UnOp::CosPi => {
                let s = self.un(out, UnOp::SinPi, t, a, span);
                self.bin(out, BinOp::Mul, t, konst(t, -pi), s, span)
            }
            UnOp::TanPi => {
                let v2 = sq(self, out, v);
                let r = self.bin(out, BinOp::Add, t, one, v2, span);
                self.bin(out, BinOp::Mul, t, konst(t, pi), r, span)
            }
            UnOp::Erf | UnOp::Erfc => {
                let a2 = sq(self, out, a);
                let n = self.un(out, UnOp::Neg, t, a2, span);
                let e = self.un(out, UnOp::Exp, t, n, span);
                let c = 2.0 / pi.sqrt() * if op == UnOp::Erf { 1.0 } else { -1.0 };
                self.bin(out, BinOp::Mul, t, konst(t, c), e, span)
            }
            UnOp::Recip => {
                let v2 = sq(self, out, v);
                self.un(out, UnOp::Neg, t, v2, span)
            }
            // Γ'(a) = Γ(a)·ψ(a), (log Γ)'(a) = ψ(a).
            UnOp::Gamma => {
                let psi = self.digamma(out, t, a, span);
                self.bin(out, BinOp::Mul, t, v, psi, span)
            }
            UnOp::Lgamma => self.digamma(out, t, a, span),
            UnOp::Not | UnOp::IsNan | UnOp::IsInf | UnOp::Popc | UnOp::Clz | UnOp::Ctz => return Ok(None),
        }))
    }

    /// The digamma function ψ(a) = Γ'(a)/Γ(a): for a < 1/2 by the
    /// reflection ψ(a) = ψ(1 - a) - π/tan(πa); then the recurrence
    /// ψ(y) = ψ(y + 1) - 1/y up to y ≥ 6; there the asymptotic series
    /// ln y - 1/(2y) - Σ B₂ₖ/(2k·y²ᵏ) to y⁻¹⁰ (error below 10⁻¹¹). In
    /// `f32` for `f16`, whose range and precision the series, the
    /// reflection near a pole and their derivatives exceed.
    fn digamma(&mut self, out: &mut Vec<Stm>, t: PrimType, a: SubExp, span: Span) -> SubExp {
        if t == PrimType::F16 {
            let wide = self.scalar(out, PrimType::F32, Exp::Conv(ConvOp::Convert, t, PrimType::F32, a), span);
            let psi = self.digamma(out, PrimType::F32, wide, span);
            return self.scalar(out, t, Exp::Conv(ConvOp::Convert, PrimType::F32, t, psi), span);
        }
        let k = |x: f64| konst(t, x);
        let small = self.cmp(out, CmpOp::Lt, t, a, k(0.5), span);
        let reflected = self.bin(out, BinOp::Sub, t, k(1.0), a, span);
        let y0 = self.select(out, t, small, reflected, a, span);
        let pia = self.bin(out, BinOp::Mul, t, k(std::f64::consts::PI), a, span);
        let tan = self.un(out, UnOp::Tan, t, pia, span);
        let q = self.bin(out, BinOp::Div, t, k(std::f64::consts::PI), tan, span);
        let nq = self.un(out, UnOp::Neg, t, q, span);
        let corr = self.select(out, t, small, nq, k(0.0), span);
        // while y < 6: acc -= 1/y; y += 1
        let ty = Type::Prim(t);
        let (y, acc, go) = (self.names.fresh("y"), self.names.fresh("acc"), self.names.fresh("go"));
        for (v, tt) in [(y, ty.clone()), (acc, ty.clone()), (go, Type::Prim(PrimType::Bool))] {
            self.types.insert(v, tt);
        }
        let go0 = self.cmp(out, CmpOp::Lt, t, y0, k(6.0), span);
        let mut body = Vec::new();
        let r = self.bin(&mut body, BinOp::Div, t, k(1.0), SubExp::Var(y), span);
        let acc1 = self.bin(&mut body, BinOp::Sub, t, SubExp::Var(acc), r, span);
        let y1 = self.bin(&mut body, BinOp::Add, t, SubExp::Var(y), k(1.0), span);
        let go1 = self.cmp(&mut body, CmpOp::Lt, t, y1, k(6.0), span);
        let params = vec![
            (ogham_ir::Param { name: y, ty: ty.clone() }, y0),
            (ogham_ir::Param { name: acc, ty: ty.clone() }, k(0.0)),
            (ogham_ir::Param { name: go, ty: Type::Prim(PrimType::Bool) }, go0),
        ];
        let (ye, acce, goe) = (self.names.fresh("y"), self.names.fresh("acc"), self.names.fresh("go"));
        for (v, tt) in [(ye, ty.clone()), (acce, ty.clone()), (goe, Type::Prim(PrimType::Bool))] {
            self.types.insert(v, tt);
        }
        out.push(Stm {
            pat: vec![
                ogham_ir::Param { name: ye, ty: ty.clone() },
                ogham_ir::Param { name: acce, ty: ty.clone() },
                ogham_ir::Param { name: goe, ty: Type::Prim(PrimType::Bool) },
            ],
            exp: Exp::Loop {
                params,
                form: ogham_ir::LoopForm::While { cond: go },
                body: Body { stms: body, result: vec![y1, acc1, go1] },
            },
            attrs: ogham_ir::StmAttrs::default(),
            span,
        });
        let yv = SubExp::Var(ye);
        let ln = self.un(out, UnOp::Log, t, yv, span);
        let inv = self.bin(out, BinOp::Div, t, k(1.0), yv, span);
        let half = self.bin(out, BinOp::Mul, t, k(0.5), inv, span);
        let inv2 = self.bin(out, BinOp::Mul, t, inv, inv, span);
        // Horner in 1/y²: 1/12 - 1/(120 y²) + 1/(252 y⁴) - 1/(240 y⁶) + 1/(132 y⁸)
        let mut poly = k(1.0 / 132.0);
        for c in [-1.0 / 240.0, 1.0 / 252.0, -1.0 / 120.0, 1.0 / 12.0] {
            let m = self.bin(out, BinOp::Mul, t, poly, inv2, span);
            poly = self.bin(out, BinOp::Add, t, m, k(c), span);
        }
        let tail = self.bin(out, BinOp::Mul, t, poly, inv2, span);
        let s1 = self.bin(out, BinOp::Sub, t, ln, half, span);
        let s2 = self.bin(out, BinOp::Sub, t, s1, tail, span);
        let s3 = self.bin(out, BinOp::Add, t, s2, SubExp::Var(acce), span);
        self.bin(out, BinOp::Add, t, s3, corr, span)
    }

    /// The partial derivatives of `TernOp(op, a, b, c)`.
    pub(super) fn ternop_partials(
        &mut self,
        out: &mut Vec<Stm>,
        op: TernOp,
        t: PrimType,
        [a, b, c]: [SubExp; 3],
        span: Span,
    ) -> [Option<SubExp>; 3] {
        let one = konst(t, 1.0);
        match op {
            // a·b + c
            TernOp::Fma => [Some(b), Some(a), Some(one)],
            // v0 + (v1 - v0)·w
            TernOp::Lerp => {
                let (v0, v1, w) = (a, b, c);
                let p0 = self.bin(out, BinOp::Sub, t, one, w, span);
                let gap = self.bin(out, BinOp::Sub, t, v1, v0, span);
                [Some(p0), Some(w), Some(gap)]
            }
            TernOp::MadHi => [None, None, Some(one)],
        }
    }
}
