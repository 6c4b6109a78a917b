//! Integer arithmetic as polynomials, for the simplifier: `(i + 3) - (i + 1)`
//! is `2`, `(k + 1) * b - k * b` is `b`, so the slice `xs[i:i+2]` has the
//! size `2`, known outside the loop that varies `i` (reverse mode can then
//! log what an update of such a slice overwrites instead of saving the
//! whole array per iteration).
//!
//! Each `i64` variable bound by `+`, `-` or `*` gets the polynomial of its
//! value in the variables its operands are built from (a variable bound
//! otherwise, or not tracked, stands for itself). A statement whose
//! polynomial is a constant, or one variable, is that operand. Only `i64`,
//! the type of sizes and indices: its addition, subtraction and
//! multiplication wrap, so they are the ring of integers modulo 2⁶⁴, in
//! which polynomial identities hold exactly, overflow or not. Polynomials
//! stay small ([`MAX_TERMS`] monomials of degree at most [`MAX_DEGREE`]);
//! a larger one is not tracked.

use std::collections::BTreeMap;

use ogham_ir::{BinOp, PrimType, PrimValue, SubExp, VName};
use rustc_hash::FxHashMap as HashMap;

/// The most monomials a tracked polynomial has.
const MAX_TERMS: usize = 8;
/// The highest degree of a tracked polynomial's monomials.
const MAX_DEGREE: usize = 3;

/// A polynomial with `i64` coefficients (wrapping): each monomial is its
/// variables in order, with repeats (the constant term's is empty); no
/// coefficient is zero.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Poly(BTreeMap<Vec<VName>, i64>);

impl Poly {
    fn konst(c: i64) -> Poly {
        Poly(if c == 0 { BTreeMap::new() } else { BTreeMap::from([(Vec::new(), c)]) })
    }

    fn var(v: VName) -> Poly {
        Poly(BTreeMap::from([(vec![v], 1)]))
    }

    fn add_term(&mut self, m: Vec<VName>, c: i64) {
        let e = self.0.entry(m).or_insert(0);
        *e = e.wrapping_add(c);
        if *e == 0 {
            self.0.retain(|_, c| *c != 0);
        }
    }

    /// `self + sign · other`.
    fn plus(&self, other: &Poly, sign: i64) -> Poly {
        let mut out = self.clone();
        for (m, c) in &other.0 {
            out.add_term(m.clone(), c.wrapping_mul(sign));
        }
        out
    }

    fn times(&self, other: &Poly) -> Option<Poly> {
        let mut out = Poly(BTreeMap::new());
        for (m1, c1) in &self.0 {
            for (m2, c2) in &other.0 {
                if m1.len() + m2.len() > MAX_DEGREE {
                    return None;
                }
                let mut m: Vec<VName> = m1.iter().chain(m2).copied().collect();
                m.sort();
                out.add_term(m, c1.wrapping_mul(*c2));
            }
        }
        Some(out)
    }

    /// The operand the polynomial is: a constant, or one variable.
    fn operand(&self) -> Option<SubExp> {
        match self.0.iter().collect::<Vec<_>>()[..] {
            [] => Some(SubExp::i64(0)),
            [(m, c)] if m.is_empty() => Some(SubExp::i64(*c)),
            [(m, 1)] if m.len() == 1 => Some(SubExp::Var(m[0])),
            _ => None,
        }
    }
}

/// The polynomials of the `i64` variables bound so far by `+`, `-`, `*`.
#[derive(Default)]
pub(super) struct Polys(HashMap<VName, Poly>);

impl Polys {
    fn of(&self, se: SubExp) -> Option<Poly> {
        match se {
            SubExp::Const(PrimValue::I64(c)) => Some(Poly::konst(c)),
            SubExp::Const(_) => None,
            SubExp::Var(v) => Some(self.0.get(&v).cloned().unwrap_or_else(|| Poly::var(v))),
        }
    }

    /// `result = a op b` (operands resolved): the operand it equals, if its
    /// polynomial is one; otherwise records the polynomial (if tracked).
    pub(super) fn binop(&mut self, result: VName, op: BinOp, t: PrimType, a: SubExp, b: SubExp) -> Option<SubExp> {
        if t != PrimType::I64 {
            return None;
        }
        let (pa, pb) = (self.of(a)?, self.of(b)?);
        let p = match op {
            BinOp::Add => pa.plus(&pb, 1),
            BinOp::Sub => pa.plus(&pb, -1),
            BinOp::Mul => pa.times(&pb)?,
            _ => return None,
        };
        if let Some(value) = p.operand() {
            return Some(value);
        }
        if p.0.len() <= MAX_TERMS {
            self.0.insert(result, p);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I: VName = VName(1);
    const K: VName = VName(2);
    const B: VName = VName(3);

    fn v(x: VName) -> SubExp {
        SubExp::Var(x)
    }

    #[test]
    fn differences_of_shifted_indices() {
        let mut p = Polys::default();
        assert_eq!(p.binop(VName(10), BinOp::Add, PrimType::I64, v(I), SubExp::i64(3)), None);
        assert_eq!(p.binop(VName(11), BinOp::Add, PrimType::I64, v(I), SubExp::i64(1)), None);
        assert_eq!(p.binop(VName(12), BinOp::Sub, PrimType::I64, v(VName(10)), v(VName(11))), Some(SubExp::i64(2)));
        // (i + 1) - 1 is i; i - i is 0.
        assert_eq!(p.binop(VName(13), BinOp::Sub, PrimType::I64, v(VName(11)), SubExp::i64(1)), Some(v(I)));
        assert_eq!(p.binop(VName(14), BinOp::Sub, PrimType::I64, v(I), v(I)), Some(SubExp::i64(0)));
    }

    #[test]
    fn products_distribute() {
        // (k + 1) * b - k * b = b
        let mut p = Polys::default();
        p.binop(VName(10), BinOp::Add, PrimType::I64, v(K), SubExp::i64(1));
        p.binop(VName(11), BinOp::Mul, PrimType::I64, v(VName(10)), v(B));
        p.binop(VName(12), BinOp::Mul, PrimType::I64, v(K), v(B));
        assert_eq!(p.binop(VName(13), BinOp::Sub, PrimType::I64, v(VName(11)), v(VName(12))), Some(v(B)));
    }

    #[test]
    fn wrapping_and_other_types() {
        let mut p = Polys::default();
        // (i + MAX) - (i - 1) wraps to MIN, as the machine computes it.
        p.binop(VName(10), BinOp::Add, PrimType::I64, v(I), SubExp::i64(i64::MAX));
        p.binop(VName(11), BinOp::Sub, PrimType::I64, v(I), SubExp::i64(1));
        let d = p.binop(VName(12), BinOp::Sub, PrimType::I64, v(VName(10)), v(VName(11)));
        assert_eq!(d, Some(SubExp::i64(i64::MAX.wrapping_add(1))));
        // Not i64 (an i32's wrapping differs): not tracked.
        assert_eq!(p.binop(VName(13), BinOp::Sub, PrimType::I32, v(I), v(I)), None);
        // Not a ring operation.
        assert_eq!(p.binop(VName(14), BinOp::Div, PrimType::I64, v(I), v(I)), None);
    }
}
