//! The reverse rule of a matrix product written with maps (seed 004 §5.1).
//!
//! `C = map (\r -> map (\c -> sum (map2 (*) r c)) B) A`, with `A: [n][m]`
//! mapped and `B: [p][m]` free (or `transpose B'` of a free `B': [m][p]`,
//! computed inside the outer map or outside it), has the adjoints
//!
//! ```text
//! Ā = C̄ · B    : map (\r̄ -> map (\b -> sum (map2 (*) r̄ b)) (transpose B)) C̄
//! B̄ = C̄ᵀ · A   : map (\c̄ -> map (\a -> sum (map2 (*) c̄ a)) (transpose A)) (transpose C̄)
//! ```
//!
//! (for `B'`, B̄' = Aᵀ · C̄ the same way), two more matrix products, which
//! the C backends then tile like the forward one. The general rule for a
//! map reading a free array would instead add every row's `p×m` outer
//! contribution into B̄'s accumulator, once per row of `A`: `n·m·p`
//! read-modify-writes of memory where the products do `n·m·p` arithmetic
//! on tiles held in registers. This is the result of the seed's
//! accumulator-to-reduction rewrite for the matrix product (interchange
//! the invariant dimension inwards, sum instead of accumulating), made
//! directly where the shape is recognised.

use ogham_ir::{BinOp, Body, Exp, Lambda, Operator, PrimType, Soac, Span, Stm, SubExp, Type, VName};

use super::reduce::single_binop;
use super::{Adjoints, R};
use crate::ad::Ad;

/// A recognised matrix product `map (\r -> map (\c -> dot r c) B) A`.
struct Product {
    a: VName,
    /// The free matrix whose rows are the columns `c`: `[p][m]`.
    b: Operand,
    elem: PrimType,
    n: SubExp,
    m: SubExp,
    p: SubExp,
}

/// How the rows `c` are given.
enum Operand {
    /// A free array `[p][m]`.
    Rows(VName),
    /// `transpose b` of a free array `b: [m][p]`.
    Transposed(VName),
}

/// The second operand of a product: the rows of a `[cols][len]` matrix,
/// or the columns of a `[len][cols]` one; and `cols`.
enum Against {
    Rows(VName, SubExp),
    Columns(VName, SubExp),
}

/// Whether `lam` returns the product of its two scalar parameters.
fn is_product(lam: &Lambda) -> bool {
    matches!(single_binop(lam), Some((BinOp::Mul, _)))
}

/// Whether `op` is `+` with neutral element zero.
fn is_sum(op: &Operator) -> bool {
    let zero = matches!(op.neutral[..], [SubExp::Const(c)] if c == ogham_ir::PrimValue::zero(c.prim_type()));
    zero && matches!(single_binop(&op.lambda), Some((BinOp::Add, _)))
}

/// `sum (map2 (*) r c)` over `m` elements as a body whose parameters are
/// `r` and `c` (one statement: a fused screma, or two: the map then the
/// reduction).
fn dot_of(body: &Body, r: VName, c: VName) -> bool {
    let [res] = &body.result[..] else { return false };
    match &body.stms[..] {
        [s] => {
            let Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. }) = &s.exp else { return false };
            scans.is_empty()
                && matches!(&reduces[..], [op] if is_sum(op))
                && (arrs[..] == [r, c] || arrs[..] == [c, r])
                && is_product(map)
                && *res == SubExp::Var(s.pat[0].name)
        }
        [prod, red] => {
            let Exp::Soac(Soac::Screma { arrs, scans, reduces, map, .. }) = &prod.exp else { return false };
            let elementwise = scans.is_empty() && reduces.is_empty() && is_product(map);
            let inputs = arrs[..] == [r, c] || arrs[..] == [c, r];
            let Exp::Soac(Soac::Screma { arrs: rarrs, scans: rs, reduces: rr, map: rmap, .. }) = &red.exp else {
                return false;
            };
            let identity = matches!((&rmap.params[..], &rmap.body.stms[..], &rmap.body.result[..]),
                ([x], [], [SubExp::Var(y)]) if x.name == *y);
            elementwise
                && inputs
                && prod.pat.len() == 1
                && rarrs[..] == [prod.pat[0].name]
                && rs.is_empty()
                && matches!(&rr[..], [op] if is_sum(op))
                && identity
                && *res == SubExp::Var(red.pat[0].name)
        }
        _ => false,
    }
}

impl Ad {
    /// The rule of the module documentation for the map statement `s`
    /// with result adjoint `cbar`; whether `s` is a matrix product.
    pub(super) fn rev_matmul(&mut self, s: &Stm, cbar: &SubExp, adj: &mut Adjoints, out: &mut Vec<Stm>) -> R<bool> {
        let Some(prod) = self.matmul_shape(s) else { return Ok(false) };
        let SubExp::Var(cbar) = *cbar else { return Ok(false) };
        let b = match prod.b {
            Operand::Rows(b) | Operand::Transposed(b) => b,
        };
        // Adjoints that are accumulators take the general rule.
        if adj.accs.contains(&prod.a) || adj.accs.contains(&b) {
            return Ok(false);
        }
        let span = s.span;
        let t = prod.elem;
        let (n, m, p) = (prod.n, prod.m, prod.p);
        let matrix = |rows: SubExp, cols: SubExp| Type::Array { elem: t, shape: vec![rows, cols] };
        // Each product runs over rows of a row-major X against either the
        // rows of a row-major Y (X·Yᵀ) or the columns of one (X·Y), the
        // forms the backends tile; a transposed X is copied into row-major
        // order first (1024²: 7 ms, against 21 ms for a product, and 42
        // for a product over the columns of X in place).
        let (abar, bbar) = match prod.b {
            // B: [p][m]: Ā = C̄·B, B̄ = C̄ᵀ·A.
            Operand::Rows(b) => {
                let abar = self.product(out, (cbar, n), Against::Columns(b, m), p, t, span);
                let cbar_t = self.transposed(out, cbar, matrix(p, n), span);
                let bbar = self.product(out, (cbar_t, p), Against::Columns(prod.a, m), n, t, span);
                (abar, bbar)
            }
            // B = transpose B', B': [m][p]: Ā = C̄·B'ᵀ, B̄' = Aᵀ·C̄.
            Operand::Transposed(b) => {
                let abar = self.product(out, (cbar, n), Against::Rows(b, m), p, t, span);
                let a_t = self.transposed(out, prod.a, matrix(m, n), span);
                let bbar = self.product(out, (a_t, m), Against::Columns(cbar, p), n, t, span);
                (abar, bbar)
            }
        };
        self.add(out, adj, prod.a, SubExp::Var(abar), span);
        self.add(out, adj, b, SubExp::Var(bbar), span);
        Ok(true)
    }

    /// A row-major copy of the transpose of matrix `x`, of type `ty`.
    fn transposed(&mut self, out: &mut Vec<Stm>, x: VName, ty: Type, span: Span) -> VName {
        let view = self.bind(out, "tr", ty.clone(), Exp::Rearrange { perm: vec![1, 0], array: x }, span);
        self.bind(out, "tr", ty, Exp::Copy(view), span)
    }

    /// The `[rows][cols]` matrix of the dot products (of length `len`) of
    /// the rows of `xs` with the vectors `against` gives:
    /// `map (\x -> map (\c -> sum (map2 (*) x c)) ys) xs`.
    fn product(
        &mut self,
        out: &mut Vec<Stm>,
        (xs, rows): (VName, SubExp),
        against: Against,
        len: SubExp,
        t: PrimType,
        span: Span,
    ) -> VName {
        let (ys, cols) = match against {
            Against::Rows(y, cols) => (y, cols),
            Against::Columns(y, cols) => {
                let cols_ty = Type::Array { elem: t, shape: vec![cols, len] };
                (self.bind(out, "cols", cols_ty, Exp::Rearrange { perm: vec![1, 0], array: y }, span), cols)
            }
        };
        let vec_ty = Type::Array { elem: t, shape: vec![len] };
        let x = self.fresh_typed("x", &vec_ty);
        let y = self.fresh_typed("y", &vec_ty);
        let (a, b) = (self.fresh_typed("a", &Type::Prim(t)), self.fresh_typed("b", &Type::Prim(t)));
        let mut times = Vec::new();
        let ab =
            self.bind(&mut times, "t", Type::Prim(t), Exp::BinOp(BinOp::Mul, t, a.name.into(), b.name.into()), span);
        let times = Lambda {
            params: vec![a, b],
            body: Body { stms: times, result: vec![ab.into()] },
            ret: vec![Type::Prim(t)],
        };
        let plus = self.sum_operator(out, &Type::Prim(t), span);
        let mut inner = Vec::new();
        let dot = Exp::Soac(Soac::Screma {
            w: len,
            arrs: vec![x.name, y.name],
            scans: vec![],
            reduces: vec![plus],
            map: times,
        });
        let d = self.bind(&mut inner, "dot", Type::Prim(t), dot, span);
        let inner =
            Lambda { params: vec![y], body: Body { stms: inner, result: vec![d.into()] }, ret: vec![Type::Prim(t)] };
        let row_ty = Type::Array { elem: t, shape: vec![cols] };
        let mut outer = Vec::new();
        let row_exp = Exp::Soac(Soac::Screma { w: cols, arrs: vec![ys], scans: vec![], reduces: vec![], map: inner });
        let row = self.bind(&mut outer, "row", row_ty.clone(), row_exp, span);
        let outer = Lambda { params: vec![x], body: Body { stms: outer, result: vec![row.into()] }, ret: vec![row_ty] };
        let exp = Exp::Soac(Soac::Screma { w: rows, arrs: vec![xs], scans: vec![], reduces: vec![], map: outer });
        self.bind(out, "dprod", Type::Array { elem: t, shape: vec![rows, cols] }, exp, span)
    }

    /// The product `s` is, if it is one (see the module documentation).
    fn matmul_shape(&self, s: &Stm) -> Option<Product> {
        let Exp::Soac(Soac::Screma { w: n, arrs, scans, reduces, map }) = &s.exp else { return None };
        let ([a], true, true, [_]) = (&arrs[..], scans.is_empty(), reduces.is_empty(), &s.pat[..]) else { return None };
        let [r] = &map.params[..] else { return None };
        let Type::Array { elem, shape } = &self.types[a] else { return None };
        let ([_, m], true) = (&shape[..], elem.is_float()) else { return None };
        // The body: an optional transposition of a free array, then the map
        // over the columns.
        let (transposed, inner) = match &map.body.stms[..] {
            [inner] => (None, inner),
            [tr, inner] => {
                let Exp::Rearrange { perm, array } = &tr.exp else { return None };
                (perm[..] == [1, 0]).then_some(())?;
                (Some((tr.pat[0].name, *array)), inner)
            }
            _ => return None,
        };
        let [res] = &map.body.result[..] else { return None };
        (*res == SubExp::Var(inner.pat.first()?.name)).then_some(())?;
        let Exp::Soac(Soac::Screma { w: p, arrs: cols, scans, reduces, map: dot }) = &inner.exp else { return None };
        let ([cs], true, true, [c]) = (&cols[..], scans.is_empty(), reduces.is_empty(), &dot.params[..]) else {
            return None;
        };
        if !dot_of(&dot.body, r.name, c.name) {
            return None;
        }
        let operand = match transposed {
            Some((t, b)) if t == *cs => Operand::Transposed(b),
            Some(_) => return None,
            None => Operand::Rows(*cs),
        };
        // The columns' matrix is free in the map (not its row).
        let b = match operand {
            Operand::Rows(b) | Operand::Transposed(b) => b,
        };
        if b == r.name {
            return None;
        }
        Some(Product { a: *a, b: operand, elem: *elem, n: *n, m: *m, p: *p })
    }
}
