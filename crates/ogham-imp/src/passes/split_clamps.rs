//! `split_clamps`: a loop whose indices are clamped into range (a
//! stencil's neighbours at the edges) split into the iterations where the
//! clamps do nothing and the few where they act.
//!
//! In a loop over `j`, `max(j + a, lo')` is `j + a` for `j >= lo' - a`,
//! and `min(j + b, hi')` is `j + b` for `j <= hi' - b` (`a`, `b` constants,
//! `lo'`, `hi'` the same in every iteration). The pass runs the loop in
//! three parts: the iterations before all clamps are identities, those
//! where they are (in which each clamp is replaced by its argument), and
//! those after, the first and last as the loop was. In the middle part the
//! neighbours are `p[j - 1]` and `p[j + 1]`, consecutive in `j`, so the C
//! compiler loads them as vectors where it gathered them element by
//! element before. Only `ivdep` loops without nested loops are split (the
//! unit-stride copies of maps), so the code grows where it pays.

use super::{binders, copy_block, has_loops, i64c, let_, rewrite_loops};
use crate::{BinOp, Exp, Kernel, Operand, PrimType, PrimValue, Stm, Var};
use rustc_hash::FxHashMap as HashMap;

const I64: PrimType = PrimType::I64;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    rewrite_loops(k, &mut |k, (j, lo, hi, ivdep), body, out| {
        if !ivdep || has_loops(body) {
            return false;
        }
        // An operand is the same in every iteration when it is a constant
        // or is bound outside the loop.
        let mut inside = rustc_hash::FxHashSet::from_iter([j]);
        binders(body, &mut inside);
        let invariant = |o: &Operand| match o {
            Operand::Const(_) => true,
            Operand::Var(v) => !inside.contains(v),
        };
        // j + offset, for j and the variables computed from it by adding constants.
        let mut affine: HashMap<Var, i64> = HashMap::from_iter([(j, 0)]);
        // Per clamp: the variable, its argument, and the iteration range where it is one.
        let mut clamps: Vec<(Var, Operand)> = Vec::new();
        let mut from: Vec<Operand> = Vec::new();
        let mut until: Vec<Operand> = Vec::new();
        let mut pre = Vec::new();
        for s in &body.stms {
            let Stm::Let { var, ty: I64, exp } = s else { continue };
            let offset = |o: &Operand| match o {
                Operand::Var(v) => affine.get(v).copied(),
                Operand::Const(_) => None,
            };
            let konst = |o: &Operand| match o {
                Operand::Const(PrimValue::I64(c)) => Some(*c),
                _ => None,
            };
            match exp {
                Exp::Operand(a) => {
                    if let Some(off) = offset(a) {
                        affine.insert(*var, off);
                    }
                }
                Exp::Bin(BinOp::Add, I64, a, b) => {
                    let sum = match (offset(a), konst(b), konst(a), offset(b)) {
                        (Some(x), Some(c), _, _) | (_, _, Some(c), Some(x)) => x.checked_add(c),
                        _ => None,
                    };
                    if let Some(s) = sum {
                        affine.insert(*var, s);
                    }
                }
                Exp::Bin(BinOp::Sub, I64, a, b) => {
                    if let (Some(x), Some(c)) = (offset(a), konst(b)) {
                        if let Some(s) = x.checked_sub(c) {
                            affine.insert(*var, s);
                        }
                    }
                }
                Exp::Bin(op @ (BinOp::Max | BinOp::Min), I64, a, b) => {
                    let (arg, off, bound) = match (offset(a), offset(b)) {
                        (Some(x), None) if invariant(b) => (*a, x, *b),
                        (None, Some(x)) if invariant(a) => (*b, x, *a),
                        _ => continue,
                    };
                    // max(j + off, bound) = j + off from j = bound - off;
                    // min(j + off, bound) = j + off until j = bound - off + 1.
                    let start = let_(k, &mut pre, "edge", I64, Exp::Bin(BinOp::Sub, I64, bound, i64c(off)));
                    if *op == BinOp::Max {
                        from.push(start);
                    } else {
                        until.push(let_(k, &mut pre, "edge", I64, Exp::Bin(BinOp::Add, I64, start, i64c(1))));
                    }
                    clamps.push((*var, arg));
                }
                _ => {}
            }
        }
        if clamps.is_empty() {
            return false;
        }
        // The middle part: [mid_lo, mid_hi), within [lo, hi).
        let mut mid_lo = lo;
        for f in from {
            mid_lo = let_(k, &mut pre, "mid", I64, Exp::Bin(BinOp::Max, I64, mid_lo, f));
        }
        let mut mid_hi = hi;
        for u in until {
            mid_hi = let_(k, &mut pre, "mid", I64, Exp::Bin(BinOp::Min, I64, mid_hi, u));
        }
        let mid_lo = let_(k, &mut pre, "mid_lo", I64, Exp::Bin(BinOp::Min, I64, mid_lo, hi));
        let mid_hi = let_(k, &mut pre, "mid_hi", I64, Exp::Bin(BinOp::Max, I64, mid_hi, mid_lo));
        out.extend(pre);
        let part = |k: &mut Kernel, (from, to): (Operand, Operand), unclamped: bool, out: &mut Vec<Stm>| {
            let index = k.fresh(&k.names[j.0 as usize].clone());
            let mut subst = HashMap::from_iter([(j, Operand::Var(index))]);
            let mut b = body.clone();
            if unclamped {
                for s in &mut b.stms {
                    if let Stm::Let { var, exp, .. } = s {
                        if let Some((_, arg)) = clamps.iter().find(|(v, _)| v == var) {
                            *exp = Exp::Operand(*arg);
                        }
                    }
                }
            }
            let b = copy_block(k, &b, &mut subst);
            out.push(Stm::For { index, lo: from, hi: to, ivdep, body: b });
        };
        part(k, (lo, mid_lo), false, out);
        part(k, (mid_lo, mid_hi), true, out);
        part(k, (mid_hi, hi), false, out);
        true
    });
}
