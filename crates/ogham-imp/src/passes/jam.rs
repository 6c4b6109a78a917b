//! `jam`: unroll-and-jam of a loop whose iterations each run one inner
//! reduction, such as a matrix–vector product's rows (GMM's `Q_k (x - μ_k)`
//! as dot products of `Q_k`'s rows).
//!
//! Each iteration of the outer loop (`ivdep`: independent iterations) runs
//! some statements, declares the reduction's accumulators, runs the inner
//! loop (its bounds the same in every iteration, its body only `let`s and
//! updates of those accumulators) and then statements that use the
//! results. Run as written, the inner loop is one chain of dependent
//! additions per row (after [`lanes`](super::lanes), one vector of them),
//! as long as the adder's latency times the row's length. Jammed,
//! [`FACTOR`] rows run together: their statements before the loop, one
//! inner loop whose body does the work of each of them (so [`lanes`] folds
//! [`FACTOR`] independent chains, and a vector the rows share is loaded
//! once), then their statements after it, in row order; the last rows
//! (fewer than [`FACTOR`]) run as written. Only rows with one accumulator
//! are jammed. Every row's sum is folded in the
//! same order as before, and updates of accumulators outside the loop come
//! in row order, so the results do not change.

use super::{copy_block, i64c, let_, rewrite_loops, strided};
use crate::{BinOp, Block, Exp, Kernel, Operand, PrimType, Stm, Var};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Rows run together.
pub const FACTOR: i64 = 4;

const I64: PrimType = PrimType::I64;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    rewrite_loops(k, &mut |k, header, body, out| {
        let (j, _, _, ivdep) = header;
        if !ivdep || strided(k, body, j) {
            return false;
        }
        let Some(at) = jammable(body, j) else { return false };
        jam(k, header, body, at, out);
        true
    });
}

/// The position of the inner loop in `body` when the loop has the form of
/// the module documentation.
fn jammable(body: &Block, j: Var) -> Option<usize> {
    let at = body.stms.iter().position(|s| matches!(s, Stm::For { .. }))?;
    let (before, rest) = body.stms.split_at(at);
    let (inner, after) = rest.split_first()?;
    let Stm::For { lo, hi, body: inner_body, .. } = inner else { return None };
    // Bound in the iteration: the index, its variables, and its accumulators.
    let mut local = HashSet::from_iter([j]);
    let mut accs = HashSet::default();
    for s in before {
        match s {
            Stm::Let { var, .. } => {
                local.insert(*var);
            }
            Stm::Mut { var, .. } => {
                local.insert(*var);
                accs.insert(*var);
            }
            _ => return None,
        }
    }
    let invariant = |o: &Operand| !matches!(o, Operand::Var(v) if local.contains(v));
    // One accumulator per row: a chain of dependent additions, which the
    // rows run together overlap. (With several, as n-body's three force
    // components, the chains already overlap, and four rows of them took
    // 3% longer.)
    if accs.len() != 1 || !invariant(lo) || !invariant(hi) {
        return None;
    }
    let inner_ok = inner_body.stms.iter().all(|s| match s {
        Stm::Let { .. } => true,
        Stm::Accumulate { var, .. } | Stm::Set { var, .. } => accs.contains(var),
        _ => false,
    });
    // After the loop: no loops, branches or updates of mutable variables
    // declared outside (a dependence between iterations), but accumulations.
    let after_ok = after.iter().all(|s| match s {
        Stm::Let { .. } | Stm::Store { .. } | Stm::Accumulate { .. } => true,
        Stm::Set { var, .. } => local.contains(var),
        _ => false,
    });
    (inner_ok && after_ok).then_some(at)
}

fn jam(k: &mut Kernel, (j, lo, hi, ivdep): (Var, Operand, Operand, bool), body: &Block, at: usize, out: &mut Vec<Stm>) {
    let Stm::For { index: i, lo: ilo, hi: ihi, ivdep: iivdep, body: inner } = &body.stms[at] else {
        unreachable!("checked by jammable")
    };
    let before = Block { stms: body.stms[..at].to_vec() };
    let after = Block { stms: body.stms[at + 1..].to_vec() };
    let len = let_(k, out, "len", I64, Exp::Bin(BinOp::Sub, I64, hi, lo));
    let blocks = let_(k, out, "blocks", I64, Exp::Bin(BinOp::Quot, I64, len, i64c(FACTOR)));
    let jb = k.fresh("jb");
    let mut stms = Vec::new();
    let start = let_(k, &mut stms, "j", I64, Exp::Bin(BinOp::Mul, I64, Operand::Var(jb), i64c(FACTOR)));
    let start = let_(k, &mut stms, "j", I64, Exp::Bin(BinOp::Add, I64, lo, start));
    let mut substs: Vec<HashMap<Var, Operand>> = Vec::new();
    for r in 0..FACTOR {
        let row = let_(k, &mut stms, "j", I64, Exp::Bin(BinOp::Add, I64, start, i64c(r)));
        let mut subst = HashMap::from_iter([(j, row)]);
        stms.extend(copy_block(k, &before, &mut subst).stms);
        substs.push(subst);
    }
    let i2 = k.fresh(&k.names[i.0 as usize].clone());
    let mut jammed = Vec::new();
    for subst in &mut substs {
        subst.insert(*i, Operand::Var(i2));
        jammed.extend(copy_block(k, inner, subst).stms);
    }
    stms.push(Stm::For { index: i2, lo: *ilo, hi: *ihi, ivdep: *iivdep, body: Block { stms: jammed } });
    for subst in &mut substs {
        stms.extend(copy_block(k, &after, subst).stms);
    }
    out.push(Stm::For { index: jb, lo: i64c(0), hi: blocks, ivdep, body: Block { stms } });
    let done = let_(k, out, "done", I64, Exp::Bin(BinOp::Mul, I64, blocks, i64c(FACTOR)));
    let rest = let_(k, out, "rest", I64, Exp::Bin(BinOp::Add, I64, lo, done));
    out.push(Stm::For { index: j, lo: rest, hi, ivdep, body: body.clone() });
}
