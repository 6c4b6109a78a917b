//! Emitting scalar arithmetic, folding constants on the way, and the index
//! computations built from it: size polynomials, Futhark slices and ranges.
//!
//! Folding matters because most sizes and slice bounds are constants or
//! plain variables; without it every slice would leave a trail of `x + 0`.

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{BinOp, CmpOp, ConvOp, DimIndex, Exp, PrimType, PrimValue, SubExp, Type, UnOp};
use ogham_types::Poly;

use crate::value::{Scope, Val};
use crate::{LResult, Lowerer};

/// The run-time error when a size computed from run-time values does not fit in an `i64`.
pub const SIZE_OVERFLOW: &str = "Array size overflow: a size computed at run time does not fit in i64.";

/// A run-time error message under construction: text with `i64` operands
/// whose values are printed in it (see `Exp::Assert`). A constant operand
/// is written into the text directly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Msg {
    pub text: String,
    pub args: Vec<(usize, SubExp)>,
}

impl Msg {
    pub fn text(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// The value of an `i64` operand.
    pub fn val(&mut self, se: SubExp) {
        match const_i64(se) {
            Some(x) => self.text.push_str(&x.to_string()),
            None => self.args.push((self.text.len(), se)),
        }
    }

    pub fn append(&mut self, other: Msg) {
        let base = self.text.len();
        self.args.extend(other.args.into_iter().map(|(k, se)| (base + k, se)));
        self.text.push_str(&other.text);
    }
}

/// The constant value of an `i64` operand, if it is one.
pub fn const_i64(se: SubExp) -> Option<i64> {
    match se {
        SubExp::Const(PrimValue::I64(x)) => Some(x),
        _ => None,
    }
}

/// Folds an `i64` binary operation on constants, where the result is certain.
pub fn fold_i64(op: BinOp, x: i64, y: i64) -> Option<i64> {
    match op {
        BinOp::Add => Some(x.wrapping_add(y)),
        BinOp::Sub => Some(x.wrapping_sub(y)),
        BinOp::Mul => Some(x.wrapping_mul(y)),
        BinOp::Quot if y != 0 => Some(x.wrapping_div(y)),
        BinOp::Div if y != 0 => {
            let q = x.wrapping_div(y);
            Some(if x.wrapping_rem(y) != 0 && ((x < 0) != (y < 0)) { q - 1 } else { q })
        }
        BinOp::Min => Some(x.min(y)),
        BinOp::Max => Some(x.max(y)),
        _ => None,
    }
}

impl<'a> Lowerer<'a> {
    /// `x op y` on operands of type `t` (result of type `t`).
    pub fn binop(&mut self, b: &mut BodyBuilder, op: BinOp, t: PrimType, x: SubExp, y: SubExp) -> SubExp {
        if t == PrimType::I64 {
            match (const_i64(x), const_i64(y)) {
                (Some(cx), Some(cy)) => {
                    if let Some(r) = fold_i64(op, cx, cy) {
                        return SubExp::i64(r);
                    }
                }
                (Some(0), None) if op == BinOp::Add => return y,
                (None, Some(0)) if matches!(op, BinOp::Add | BinOp::Sub) => return x,
                (Some(0), None) | (None, Some(0)) if op == BinOp::Mul => return SubExp::i64(0),
                (Some(1), None) if op == BinOp::Mul => return y,
                (None, Some(1)) if matches!(op, BinOp::Mul | BinOp::Quot) => return x,
                _ => {}
            }
        }
        SubExp::Var(self.bind(b, "t", Type::Prim(t), Exp::BinOp(op, t, x, y)))
    }

    pub fn add64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        self.binop(b, BinOp::Add, PrimType::I64, x, y)
    }
    pub fn sub64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        self.binop(b, BinOp::Sub, PrimType::I64, x, y)
    }
    pub fn mul64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        self.binop(b, BinOp::Mul, PrimType::I64, x, y)
    }

    /// `x + y` on `i64` sizes, failing at run time (with [`SIZE_OVERFLOW`])
    /// when the true sum does not fit in an `i64`. A wrapped size would let a
    /// later size check pass for an array whose shape does not match its data.
    pub fn checked_add64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        match (const_i64(x), const_i64(y)) {
            (Some(cx), Some(cy)) if cx.checked_add(cy).is_none() => {
                self.assert(b, SubExp::Const(PrimValue::Bool(false)), SIZE_OVERFLOW);
                return SubExp::i64(cx.wrapping_add(cy));
            }
            (Some(_), Some(_)) | (Some(0), None) | (None, Some(0)) => return self.add64(b, x, y),
            _ => {}
        }
        // Overflow iff both operands have the same sign and the sum's differs:
        // ((x ^ r) & (y ^ r)) < 0.
        let r = self.add64(b, x, y);
        let xr = self.binop(b, BinOp::Xor, PrimType::I64, x, r);
        let yr = self.binop(b, BinOp::Xor, PrimType::I64, y, r);
        let both = self.binop(b, BinOp::And, PrimType::I64, xr, yr);
        let ok = self.cmp(b, CmpOp::Ge, PrimType::I64, both, SubExp::i64(0));
        self.assert(b, ok, SIZE_OVERFLOW);
        r
    }

    /// `x - y` on `i64` sizes, failing at run time (with [`SIZE_OVERFLOW`])
    /// when the true difference does not fit in an `i64`.
    pub fn checked_sub64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        match (const_i64(x), const_i64(y)) {
            (Some(cx), Some(cy)) if cx.checked_sub(cy).is_none() => {
                self.assert(b, SubExp::Const(PrimValue::Bool(false)), SIZE_OVERFLOW);
                return SubExp::i64(cx.wrapping_sub(cy));
            }
            (Some(_), Some(_)) | (None, Some(0)) => return self.sub64(b, x, y),
            _ => {}
        }
        // Overflow iff the operands' signs differ and the result's differs
        // from x's: ((x ^ y) & (x ^ r)) < 0.
        let r = self.sub64(b, x, y);
        let xy = self.binop(b, BinOp::Xor, PrimType::I64, x, y);
        let xr = self.binop(b, BinOp::Xor, PrimType::I64, x, r);
        let both = self.binop(b, BinOp::And, PrimType::I64, xy, xr);
        let ok = self.cmp(b, CmpOp::Ge, PrimType::I64, both, SubExp::i64(0));
        self.assert(b, ok, SIZE_OVERFLOW);
        r
    }

    /// `x * y` on `i64` sizes, failing at run time (with [`SIZE_OVERFLOW`])
    /// when the true product does not fit in an `i64`.
    pub fn checked_mul64(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        match (const_i64(x), const_i64(y)) {
            (Some(cx), Some(cy)) if cx.checked_mul(cy).is_none() => {
                self.assert(b, SubExp::Const(PrimValue::Bool(false)), SIZE_OVERFLOW);
                return SubExp::i64(cx.wrapping_mul(cy));
            }
            (Some(_), Some(_)) | (Some(0 | 1), None) | (None, Some(0 | 1)) => return self.mul64(b, x, y),
            _ => {}
        }
        // The product fits iff the high half of the 128-bit product is the
        // sign extension of the low half.
        let r = self.mul64(b, x, y);
        let hi = self.binop(b, BinOp::MulHi, PrimType::I64, x, y);
        let sign = self.binop(b, BinOp::Shr, PrimType::I64, r, SubExp::i64(63));
        let ok = self.cmp(b, CmpOp::Eq, PrimType::I64, hi, sign);
        self.assert(b, ok, SIZE_OVERFLOW);
        r
    }

    /// A comparison, folded when both operands are `i64` constants.
    pub fn cmp(&mut self, b: &mut BodyBuilder, op: CmpOp, t: PrimType, x: SubExp, y: SubExp) -> SubExp {
        if let (Some(cx), Some(cy)) = (const_i64(x), const_i64(y)) {
            let r = match op {
                CmpOp::Eq => cx == cy,
                CmpOp::Ne => cx != cy,
                CmpOp::Lt => cx < cy,
                CmpOp::Le => cx <= cy,
                CmpOp::Gt => cx > cy,
                CmpOp::Ge => cx >= cy,
            };
            return SubExp::Const(PrimValue::Bool(r));
        }
        // Tags and other small integer constants: equality folds for any integer type.
        if let (SubExp::Const(a), SubExp::Const(c)) = (x, y) {
            if (t.is_int() || t == PrimType::Bool) && matches!(op, CmpOp::Eq | CmpOp::Ne) {
                return SubExp::Const(PrimValue::Bool((a == c) == (op == CmpOp::Eq)));
            }
        }
        // A value compared with itself (e.g. the validity check of `n..<n`); integers only,
        // since a float may be NaN. Folding also keeps generated C free of self-comparisons.
        if x == y && (t.is_int() || t == PrimType::Bool) {
            return SubExp::Const(PrimValue::Bool(matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge)));
        }
        SubExp::Var(self.bind(b, "c", Type::Prim(PrimType::Bool), Exp::CmpOp(op, t, x, y)))
    }

    /// Logical and of two already-computed booleans.
    pub fn and(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        match (x, y) {
            (SubExp::Const(PrimValue::Bool(true)), o) | (o, SubExp::Const(PrimValue::Bool(true))) => o,
            (SubExp::Const(PrimValue::Bool(false)), _) | (_, SubExp::Const(PrimValue::Bool(false))) => {
                SubExp::Const(PrimValue::Bool(false))
            }
            _ => self.binop(b, BinOp::LogAnd, PrimType::Bool, x, y),
        }
    }

    /// Logical or of two already-computed booleans.
    pub fn or(&mut self, b: &mut BodyBuilder, x: SubExp, y: SubExp) -> SubExp {
        match (x, y) {
            (SubExp::Const(PrimValue::Bool(false)), o) | (o, SubExp::Const(PrimValue::Bool(false))) => o,
            (SubExp::Const(PrimValue::Bool(true)), _) | (_, SubExp::Const(PrimValue::Bool(true))) => {
                SubExp::Const(PrimValue::Bool(true))
            }
            _ => self.binop(b, BinOp::LogOr, PrimType::Bool, x, y),
        }
    }

    pub fn not(&mut self, b: &mut BodyBuilder, x: SubExp) -> SubExp {
        match x {
            SubExp::Const(PrimValue::Bool(v)) => SubExp::Const(PrimValue::Bool(!v)),
            _ => SubExp::Var(self.bind(b, "not", Type::Prim(PrimType::Bool), Exp::UnOp(UnOp::Not, PrimType::Bool, x))),
        }
    }

    /// Value conversion between primitive types (a no-op when they are equal).
    pub fn convert(&mut self, b: &mut BodyBuilder, from: PrimType, to: PrimType, x: SubExp) -> SubExp {
        if from == to {
            return x;
        }
        if let SubExp::Const(v) = x {
            if from.is_int() && to.is_int() {
                return SubExp::Const(PrimValue::from_i64(to, v.as_i64()));
            }
        }
        SubExp::Var(self.bind(b, "conv", Type::Prim(to), Exp::Conv(ConvOp::Convert, from, to, x)))
    }

    /// Converts an integer operand of any type to `i64`.
    pub fn to_i64(&mut self, b: &mut BodyBuilder, x: SubExp) -> SubExp {
        let t = self.se_type(x).elem();
        self.convert(b, t, PrimType::I64, x)
    }

    /// Evaluates a size polynomial over size variables bound in `scope`,
    /// checking every step for overflow (a size such as `n*m` from user
    /// values must not wrap around to a small number).
    /// `None` when one of its variables has no known value here.
    pub fn eval_poly(&mut self, b: &mut BodyBuilder, scope: &Scope<'a>, p: &Poly) -> LResult<Option<SubExp>> {
        let mut total = SubExp::i64(0);
        for (mono, coeff) in p.terms() {
            let mut term = SubExp::i64(*coeff);
            for v in mono {
                let Some(x) = self.size_var(b, scope, *v)? else { return Ok(None) };
                term = self.checked_mul64(b, term, x);
            }
            total = self.checked_add64(b, total, term);
        }
        Ok(Some(total))
    }

    /// The value of a size variable: a local `i64` binding, or a top-level constant.
    pub fn size_var(
        &mut self,
        b: &mut BodyBuilder,
        scope: &Scope<'a>,
        id: ogham_syntax::ast::NodeId,
    ) -> LResult<Option<SubExp>> {
        match scope.env.get(id) {
            Some(Val::Leaf(se)) => {
                let se = *se;
                if self.se_type(se).rank() == 0 {
                    return Ok(Some(self.to_i64(b, se)));
                }
                Ok(None)
            }
            Some(_) => Ok(None),
            None => match self.def_by_binder.get(&id).copied() {
                Some(def) => match self.def_constant(b, def)? {
                    Some(Val::Leaf(se)) => Ok(Some(self.to_i64(b, se))),
                    _ => Ok(None),
                },
                None => self.opaque_size(b, scope, id),
            },
        }
    }

    /// The value of an opaque size (`i64.i32 n`), computed from the
    /// expression that denoted it when every name it mentions has a value
    /// here; `None` otherwise (the caller then takes the size from an array,
    /// or reports it unknown). The expression is pure, so computing it again
    /// gives the same size.
    fn opaque_size(
        &mut self,
        b: &mut BodyBuilder,
        scope: &Scope<'a>,
        id: ogham_syntax::ast::NodeId,
    ) -> LResult<Option<SubExp>> {
        // One made by substitution (`[n/2]` of `type half [n]` at `half [m]`):
        // the original expression with its names bound to the sizes they
        // stand for here.
        let mut bound;
        let mut scope = scope;

        let root = match self.info.opaque_derived.get(&id) {
            Some((root, subst)) => {
                bound = scope.clone();
                for (name, size) in subst {
                    // A named parameter of another integer type (`(n: i32)
                    // -> [i64.i32 n]t`) gets its value back in that type.
                    let ty = match self.info.binding_types.get(name).map(|t| &**t) {
                        Some(ogham_types::Type::Prim(p)) if p.is_int() => *p,
                        _ => return Ok(None),
                    };
                    match self.eval_size(b, scope, size)? {
                        Some(se) => {
                            let se = self.convert(b, PrimType::I64, ty, se);
                            bound = bound.bind(*name, Val::Leaf(se))
                        }
                        None => return Ok(None),
                    }
                }
                scope = &bound;
                *root
            }
            None => id,
        };
        let Some(e) = self.info.opaque_sizes.get(&root) else { return Ok(None) };
        if !self.names_have_values(scope, e) {
            return Ok(None);
        }
        match self.expr(b, scope, e) {
            Ok(Val::Leaf(se)) if self.se_type(se).rank() == 0 => Ok(Some(self.to_i64(b, se))),
            _ => Ok(None),
        }
    }

    /// Whether every local name in `e` has a value in `scope` (top-level
    /// names always do).
    fn names_have_values(&self, scope: &Scope<'a>, e: &ogham_syntax::ast::Expr) -> bool {
        use ogham_syntax::ast::ExprKind;
        use ogham_types::Resolution;
        fn local_head(r: &Resolution) -> Option<ogham_syntax::ast::NodeId> {
            match r {
                Resolution::Local(id) => Some(*id),
                Resolution::Projection { head, .. } => local_head(head),
                _ => None,
            }
        }
        // The name or operator this node refers to, if it is a local one.
        if let Some(id) = self.info.resolutions.get(&e.id).and_then(local_head) {
            if scope.env.get(id).is_none() {
                return false;
            }
        }
        match &e.kind {
            ExprKind::Var(_) | ExprKind::Literal(_) | ExprKind::OpSection(..) => true,
            ExprKind::Parens(x) | ExprKind::Negate(x) => self.names_have_values(scope, x),
            ExprKind::LeftSection { lhs: x, .. } | ExprKind::RightSection { rhs: x, .. } => {
                self.names_have_values(scope, x)
            }
            ExprKind::BinOp { lhs, rhs, .. } => {
                self.names_have_values(scope, lhs) && self.names_have_values(scope, rhs)
            }
            ExprKind::Apply(f, args) => {
                self.names_have_values(scope, f) && args.iter().all(|a| self.names_have_values(scope, a))
            }
            _ => false,
        }
    }

    /// Converts a Futhark slice `start:end:stride` of a dimension of size `n`
    /// (each part optional; negative strides walk backwards) to an IR slice.
    /// Also gives whether it is valid (a non-zero stride, and either empty or
    /// with its first and last elements in bounds; a negative length is
    /// invalid) and its part of the error message, written as Futhark
    /// writes it (`1:0`, `0:5:2`, `3:`). The caller asserts validity for all
    /// dimensions of an index at once ([`Lowerer::index_check`]).
    pub fn slice_dim(
        &mut self,
        b: &mut BodyBuilder,
        n: SubExp,
        start: Option<SubExp>,
        end: Option<SubExp>,
        stride: Option<SubExp>,
    ) -> (DimIndex, SubExp, Msg) {
        let written = (start.is_some(), end.is_some(), stride.is_some());
        let stride = stride.unwrap_or(SubExp::i64(1));
        // Whether the stride is negative, as 0/1, so defaults can be chosen without branching.
        let neg = match const_i64(stride) {
            Some(s) => SubExp::i64((s < 0) as i64),
            None => {
                let c = self.cmp(b, CmpOp::Lt, PrimType::I64, stride, SubExp::i64(0));
                self.convert(b, PrimType::Bool, PrimType::I64, c)
            }
        };
        let start = match start {
            Some(s) => s,
            None => {
                // 0 going forwards, n-1 going backwards.
                let last = self.sub64(b, n, SubExp::i64(1));
                self.mul64(b, neg, last)
            }
        };
        let end = match end {
            Some(e) => e,
            None => {
                // n going forwards, -1 going backwards.
                let np1 = self.add64(b, n, SubExp::i64(1));
                let back = self.mul64(b, neg, np1);
                self.sub64(b, n, back)
            }
        };
        let mut msg = Msg::default();
        match written {
            (s, e, true) => {
                if s {
                    msg.val(start);
                }
                msg.text(":");
                if e {
                    msg.val(end);
                }
                msg.text(":");
                msg.val(stride);
            }
            (s, true, false) => {
                if s {
                    msg.val(start);
                }
                msg.text(":");
                msg.val(end);
            }
            (_, false, false) => {
                msg.val(start);
                msg.text(":");
            }
        }
        // A zero stride is invalid; divide by a non-zero stand-in so that the
        // failure is the assertion and not a division by zero.
        let (nonzero, safe_stride) = match const_i64(stride) {
            Some(0) => (SubExp::Const(PrimValue::Bool(false)), SubExp::i64(1)),
            Some(_) => (SubExp::Const(PrimValue::Bool(true)), stride),
            None => {
                let is_zero = self.cmp(b, CmpOp::Eq, PrimType::I64, stride, SubExp::i64(0));
                let z = self.convert(b, PrimType::Bool, PrimType::I64, is_zero);
                (self.not(b, is_zero), self.add64(b, stride, z))
            }
        };
        // len = (end - start + stride - sgn(stride)) quot stride
        let sgn = match const_i64(safe_stride) {
            Some(s) => SubExp::i64(s.signum()),
            None => SubExp::Var(self.bind(
                b,
                "sgn",
                Type::Prim(PrimType::I64),
                Exp::UnOp(UnOp::Sgn, PrimType::I64, safe_stride),
            )),
        };
        let dist = self.sub64(b, end, start);
        let adj = self.sub64(b, safe_stride, sgn);
        let num = self.add64(b, dist, adj);
        let len = self.binop(b, BinOp::Quot, PrimType::I64, num, safe_stride);
        // Valid: empty, or a positive length with the first and last elements in bounds.
        let empty = self.cmp(b, CmpOp::Eq, PrimType::I64, len, SubExp::i64(0));
        let positive = self.cmp(b, CmpOp::Gt, PrimType::I64, len, SubExp::i64(0));
        let first_ok = self.in_bounds(b, start, n);
        let m = self.sub64(b, len, SubExp::i64(1));
        let m_s = self.mul64(b, m, safe_stride);
        let last = self.add64(b, start, m_s);
        let last_ok = self.in_bounds(b, last, n);
        let inside = self.and(b, first_ok, last_ok);
        let inside = self.and(b, positive, inside);
        let ok = self.or(b, empty, inside);
        let ok = self.and(b, nonzero, ok);
        (DimIndex::Slice { start, len, stride }, ok, msg)
    }

    /// `0 <= i && i < n` for `i64` operands.
    pub fn in_bounds(&mut self, b: &mut BodyBuilder, i: SubExp, n: SubExp) -> SubExp {
        let lo = self.cmp(b, CmpOp::Le, PrimType::I64, SubExp::i64(0), i);
        let hi = self.cmp(b, CmpOp::Lt, PrimType::I64, i, n);
        self.and(b, lo, hi)
    }

    /// Asserts that an index with at least one slice is valid, with Futhark's
    /// message: `Index [0:2, 1:0] out of bounds for array of shape [2][3].`
    /// (`parts` are the dimensions' parts of the message, `shape` the
    /// indexed dimensions' sizes). An index of fixed positions only is
    /// checked by the IR's `Index` itself, with the same wording.
    pub fn index_check(&mut self, b: &mut BodyBuilder, ok: SubExp, parts: Vec<Msg>, shape: &[SubExp]) {
        let mut msg = Msg::default();
        msg.text("Index [");
        for (k, p) in parts.into_iter().enumerate() {
            if k > 0 {
                msg.text(", ");
            }
            msg.append(p);
        }
        msg.text("] out of bounds for array of shape ");
        for d in shape {
            msg.text("[");
            msg.val(*d);
            msg.text("]");
        }
        msg.text(".");
        self.assert_msg(b, ok, msg);
    }

    /// Emits a run-time check unless it is statically true.
    pub fn assert(&mut self, b: &mut BodyBuilder, cond: SubExp, message: &str) {
        let mut msg = Msg::default();
        msg.text(message);
        self.assert_msg(b, cond, msg);
    }

    /// Emits a run-time check with values in its message unless it is statically true.
    pub fn assert_msg(&mut self, b: &mut BodyBuilder, cond: SubExp, msg: Msg) {
        if cond == SubExp::Const(PrimValue::Bool(true)) {
            return;
        }
        b.push(Vec::new(), Exp::Assert { cond, message: msg.text, args: msg.args });
    }

    /// The number of elements of a range from `start` with stride `step`
    /// (all `i64`), asserting validity; see the range rules in `expr`. The
    /// length arithmetic is overflow-checked: a range whose length does not
    /// fit in an `i64` (or whose distance wraps around) is a run-time error,
    /// never a wrong length.
    pub fn range_len(
        &mut self,
        b: &mut BodyBuilder,
        start: SubExp,
        step: SubExp,
        end: SubExp,
        kind: ogham_syntax::ast::RangeEnd,
        message: Msg,
    ) -> SubExp {
        use ogham_syntax::ast::RangeEnd;
        let zero = SubExp::i64(0);
        // Validity first, so that an invalid range fails with its own message
        // (and not an overflow or a division by zero in the length).
        let ok = match kind {
            RangeEnd::UpToExclusive => {
                let step_ok = self.cmp(b, CmpOp::Gt, PrimType::I64, step, zero);
                let order_ok = self.cmp(b, CmpOp::Le, PrimType::I64, start, end);
                self.and(b, step_ok, order_ok)
            }
            RangeEnd::DownToExclusive => {
                let step_ok = self.cmp(b, CmpOp::Lt, PrimType::I64, step, zero);
                let order_ok = self.cmp(b, CmpOp::Ge, PrimType::I64, start, end);
                self.and(b, step_ok, order_ok)
            }
            RangeEnd::ToInclusive => {
                let up = self.cmp(b, CmpOp::Gt, PrimType::I64, step, zero);
                let up_ok = self.cmp(b, CmpOp::Le, PrimType::I64, start, end);
                let up_ok = self.and(b, up, up_ok);
                let down = self.cmp(b, CmpOp::Lt, PrimType::I64, step, zero);
                let down_ok = self.cmp(b, CmpOp::Ge, PrimType::I64, start, end);
                let down_ok = self.and(b, down, down_ok);
                self.or(b, up_ok, down_ok)
            }
        };
        self.assert_msg(b, ok, message);
        // A valid range has a non-zero step; an invalid one (whose check
        // failed, or was removed by `#[unsafe]`) divides by a stand-in.
        let step = match const_i64(step) {
            Some(s) if s != 0 => step,
            Some(_) => SubExp::i64(1),
            None => {
                let is_zero = self.cmp(b, CmpOp::Eq, PrimType::I64, step, zero);
                let z = self.convert(b, PrimType::Bool, PrimType::I64, is_zero);
                self.add64(b, step, z)
            }
        };
        match kind {
            RangeEnd::UpToExclusive => {
                let dist = self.checked_sub64(b, end, start);
                let adj = self.sub64(b, step, SubExp::i64(1));
                let num = self.checked_add64(b, dist, adj);
                self.binop(b, BinOp::Quot, PrimType::I64, num, step)
            }
            RangeEnd::DownToExclusive => {
                let dist = self.checked_sub64(b, start, end);
                let mag = self.checked_sub64(b, zero, step);
                let adj = self.sub64(b, mag, SubExp::i64(1));
                let num = self.checked_add64(b, dist, adj);
                self.binop(b, BinOp::Quot, PrimType::I64, num, mag)
            }
            RangeEnd::ToInclusive => {
                let dist = self.checked_sub64(b, end, start);
                let q = self.binop(b, BinOp::Quot, PrimType::I64, dist, step);
                self.checked_add64(b, q, SubExp::i64(1))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use ogham_types::TypeInfo;

    fn with_lowerer(f: impl FnOnce(&mut Lowerer<'_>, &mut BodyBuilder)) {
        let info = TypeInfo::default();
        let mut l = Lowerer::new(&[], &info);
        let mut b = BodyBuilder::new(ogham_ir::Span::DUMMY);
        f(&mut l, &mut b);
    }

    #[test]
    fn constant_slices_fold() {
        with_lowerer(|l, b| {
            let valid = SubExp::Const(PrimValue::Bool(true));
            // xs[::-1] of 5 elements: from 4, 5 elements, stride -1.
            let (d, ok, _) = l.slice_dim(b, SubExp::i64(5), None, None, Some(SubExp::i64(-1)));
            assert_eq!(d, DimIndex::Slice { start: SubExp::i64(4), len: SubExp::i64(5), stride: SubExp::i64(-1) });
            assert_eq!(ok, valid);
            // xs[1:6:2]: 1, 3, 5.
            let (d, ok, msg) =
                l.slice_dim(b, SubExp::i64(9), Some(SubExp::i64(1)), Some(SubExp::i64(6)), Some(SubExp::i64(2)));
            assert_eq!(d, DimIndex::Slice { start: SubExp::i64(1), len: SubExp::i64(3), stride: SubExp::i64(2) });
            assert_eq!((ok, msg.text.as_str()), (valid, "1:6:2"));
            // xs[3:3] is empty.
            let (d, ok, _) = l.slice_dim(b, SubExp::i64(9), Some(SubExp::i64(3)), Some(SubExp::i64(3)), None);
            assert_eq!(d, DimIndex::Slice { start: SubExp::i64(3), len: SubExp::i64(0), stride: SubExp::i64(1) });
            assert_eq!(ok, valid);
            assert!(b.stms.is_empty(), "constant slices need no statements");
        });
    }

    #[test]
    fn invalid_constant_slices_fold_to_false() {
        with_lowerer(|l, b| {
            let invalid = SubExp::Const(PrimValue::Bool(false));
            // Backwards, past the end, a zero stride.
            let (_, ok, msg) = l.slice_dim(b, SubExp::i64(9), Some(SubExp::i64(5)), Some(SubExp::i64(2)), None);
            assert_eq!((ok, msg.text.as_str()), (invalid, "5:2"));
            let (_, ok, msg) = l.slice_dim(b, SubExp::i64(9), Some(SubExp::i64(5)), None, None);
            assert_eq!((ok, msg.text.as_str()), (SubExp::Const(PrimValue::Bool(true)), "5:"));
            let (_, ok, _) = l.slice_dim(b, SubExp::i64(3), Some(SubExp::i64(1)), Some(SubExp::i64(5)), None);
            assert_eq!(ok, invalid);
            let (_, ok, msg) =
                l.slice_dim(b, SubExp::i64(5), Some(SubExp::i64(0)), Some(SubExp::i64(1)), Some(SubExp::i64(0)));
            assert_eq!((ok, msg.text.as_str()), (invalid, "0:1:0"));
            let (_, ok, msg) = l.slice_dim(b, SubExp::i64(5), None, Some(SubExp::i64(1)), Some(SubExp::i64(0)));
            assert_eq!((ok, msg.text.as_str()), (invalid, ":1:0"));
            // The whole index's check: one assertion with Futhark's message.
            l.index_check(b, invalid, vec![msg], &[SubExp::i64(5)]);
            assert!(matches!(
                b.stms.last().map(|s| &s.exp),
                Some(Exp::Assert { cond: SubExp::Const(PrimValue::Bool(false)), message, args })
                    if message == "Index [:1:0] out of bounds for array of shape [5]." && args.is_empty()
            ));
        });
    }

    #[test]
    fn messages_place_values() {
        with_lowerer(|l, b| {
            let v = SubExp::Var(l.param("i", ogham_ir::Type::Prim(PrimType::I64)).name);
            let mut m = Msg::default();
            m.text("Range ");
            m.val(v);
            m.text("...");
            m.val(SubExp::i64(-2));
            m.text(" is invalid.");
            assert_eq!(m, Msg { text: "Range ...-2 is invalid.".to_string(), args: vec![(6, v)] });
            let mut outer = Msg::default();
            outer.text("[");
            outer.append(m);
            assert_eq!(outer.args, vec![(7, v)]);
            let _ = b;
        });
    }

    #[test]
    fn size_polynomials_evaluate() {
        use ogham_syntax::ast::NodeId;
        with_lowerer(|l, b| {
            let n = NodeId(1);
            let m = NodeId(2);
            let scope = Scope::default().bind(n, Val::Leaf(SubExp::i64(4))).bind(m, Val::Leaf(SubExp::i64(5)));
            // 2*n*m + n - 3 = 41
            let p = Poly::var(n).mul(&Poly::var(m)).mul(&Poly::constant(2)).add(&Poly::var(n)).sub(&Poly::constant(3));
            assert_eq!(l.eval_poly(b, &scope, &p).ok().flatten(), Some(SubExp::i64(41)));
            // An unbound variable makes the size unknown.
            assert_eq!(l.eval_poly(b, &scope, &Poly::var(NodeId(3))).ok().flatten(), None);
            // With a variable operand, arithmetic is emitted.
            let v = l.param("n", ogham_ir::Type::Prim(PrimType::I64));
            let scope = Scope::default().bind(n, Val::Leaf(SubExp::Var(v.name)));
            let p = Poly::var(n).add(&Poly::constant(1));
            assert!(matches!(l.eval_poly(b, &scope, &p).ok().flatten(), Some(SubExp::Var(_))));
            // The sum, then its overflow check.
            assert!(matches!(b.stms[0].exp, Exp::BinOp(BinOp::Add, PrimType::I64, _, _)));
            assert!(
                matches!(b.stms.last().map(|s| &s.exp), Some(Exp::Assert { message, .. }) if message == SIZE_OVERFLOW)
            );
        });
    }

    #[test]
    fn size_overflow_is_checked() {
        with_lowerer(|l, b| {
            // Constant sizes that overflow fold to a failing check.
            l.checked_mul64(b, SubExp::i64(i64::MAX), SubExp::i64(2));
            assert!(matches!(
                b.stms.last().map(|s| &s.exp),
                Some(Exp::Assert { cond: SubExp::Const(PrimValue::Bool(false)), .. })
            ));
            b.stms.clear();
            // Constants that fit fold without a check.
            assert_eq!(l.checked_mul64(b, SubExp::i64(1 << 31), SubExp::i64(1 << 31)), SubExp::i64(1 << 62));
            assert_eq!(l.checked_add64(b, SubExp::i64(i64::MAX), SubExp::i64(i64::MIN)), SubExp::i64(-1));
            assert!(b.stms.is_empty());
        });
    }

    #[test]
    fn range_lengths() {
        use ogham_syntax::ast::RangeEnd;
        with_lowerer(|l, b| {
            let len = |l: &mut Lowerer<'_>, b: &mut BodyBuilder, s, st, e, k| {
                l.range_len(b, SubExp::i64(s), SubExp::i64(st), SubExp::i64(e), k, Msg::default())
            };
            assert_eq!(len(l, b, 0, 1, 5, RangeEnd::UpToExclusive), SubExp::i64(5));
            assert_eq!(len(l, b, 1, 2, 9, RangeEnd::ToInclusive), SubExp::i64(5));
            assert_eq!(len(l, b, 5, -1, 2, RangeEnd::DownToExclusive), SubExp::i64(3));
            assert_eq!(len(l, b, 9, -3, 0, RangeEnd::ToInclusive), SubExp::i64(4));
            assert!(b.stms.is_empty());
        });
    }

    #[test]
    fn floored_division_folds() {
        assert_eq!(fold_i64(BinOp::Div, -7, 2), Some(-4));
        assert_eq!(fold_i64(BinOp::Div, 7, 2), Some(3));
        assert_eq!(fold_i64(BinOp::Div, 7, -2), Some(-4));
        assert_eq!(fold_i64(BinOp::Quot, -7, 2), Some(-3));
        assert_eq!(fold_i64(BinOp::Quot, 1, 0), None);
    }
}
