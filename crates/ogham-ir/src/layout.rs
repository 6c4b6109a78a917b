//! The layout attributes: decisions about how a statement is run that the
//! middle end makes (`ogham-opt`'s `layout` pass) and the backends follow,
//! with the conditions under which each is allowed. The verifier checks
//! every attribute against the same conditions, so a backend may rely on
//! them; the interpreter ignores both (they change no value).
//!
//! - `#[virtual]` on a one-dimensional `iota` or a scalar `replicate` whose
//!   every use is as an input array of a SOAC, in the same body or in a
//!   body or lambda nested in it (an `iota` that LICM moved out of a map):
//!   the array is never built; each SOAC computes the element it reads
//!   (`start + i * step`, or the value).
//! - `#[interchange]` on a `map` whose lambda is one reduction over
//!   one-dimensional inputs (a map of dot products, after fusion): the
//!   backend runs the reduction's loop outside and the map's loop inside,
//!   keeping a row of accumulators, so the innermost loop walks along rows.
//!   Each output still folds its terms in index order, and the lambdas are
//!   scalar code that cannot fail, so the results and the errors are those
//!   of the loops in the written order.

use crate::visit::{count_uses, free_vars_lambda};
use crate::{BinOp, Body, Exp, Soac, Stm, SubExp, VName};
use rustc_hash::FxHashMap as HashMap;

/// Whether `stm` has the form `#[virtual]` needs: it binds one array by a
/// one-dimensional `iota` or `replicate` of a scalar.
pub fn virtual_form(stm: &Stm) -> bool {
    let [p] = stm.pat.as_slice() else { return false };
    match &stm.exp {
        Exp::Iota { .. } => true,
        Exp::Replicate { shape, .. } => shape.len() == 1 && p.ty.rank() == 1,
        _ => false,
    }
}

/// The variables of `body` that may be `#[virtual]`: bound by a statement
/// of [`virtual_form`], used at least once, and only as input arrays of
/// SOACs (at any depth in `body`).
pub fn virtual_candidates(body: &Body) -> Vec<VName> {
    fn soac_inputs(body: &Body, uses: &mut HashMap<VName, usize>) {
        for stm in &body.stms {
            if let Exp::Soac(
                Soac::Screma { arrs, .. }
                | Soac::Hist { arrs, .. }
                | Soac::Scatter { arrs, .. }
                | Soac::WithAcc { arrs, .. },
            ) = &stm.exp
            {
                for a in arrs {
                    *uses.entry(*a).or_default() += 1;
                }
            }
            for b in crate::visit::bodies(&stm.exp) {
                soac_inputs(b, uses);
            }
            for l in crate::visit::lambdas(&stm.exp) {
                soac_inputs(&l.body, uses);
            }
        }
    }
    let mut soac_uses: HashMap<VName, usize> = HashMap::default();
    soac_inputs(body, &mut soac_uses);
    let mut all = HashMap::default();
    count_uses(body, &mut all);
    body.stms
        .iter()
        .filter(|s| virtual_form(s))
        .map(|s| s.pat[0].name)
        .filter(|v| {
            let used = all.get(v).copied().unwrap_or(0);
            used > 0 && soac_uses.get(v).copied().unwrap_or(0) == used
        })
        .collect()
}

/// The reduction inside a `map` that `#[interchange]` may mark: `stm` is
/// `map (\x_j -> reduce op ne (map f x_j ys)) xs` with one array result,
/// the lambda's only statement is a `Screma` with one single-valued
/// reduction and no scans over one-dimensional inputs, whose width is not
/// a row parameter, the row parameters are used only as that reduction's
/// inputs, and both lambdas are scalar code that cannot fail.
pub fn interchange_inner(stm: &Stm) -> Option<&Stm> {
    let Exp::Soac(Soac::Screma { scans, reduces, map, .. }) = &stm.exp else { return None };
    if !scans.is_empty() || !reduces.is_empty() || stm.pat.len() != 1 || stm.pat[0].ty.rank() != 1 {
        return None;
    }
    let [inner] = map.body.stms.as_slice() else { return None };
    let [ip] = inner.pat.as_slice() else { return None };
    if map.body.result != [SubExp::Var(ip.name)] || ip.ty.rank() > 0 {
        return None;
    }
    let Exp::Soac(Soac::Screma { w: w2, scans: s2, reduces: r2, map: lam2, .. }) = &inner.exp else {
        return None;
    };
    if !s2.is_empty() || r2.len() != 1 || r2[0].neutral.len() != 1 || lam2.ret.len() != 1 {
        return None;
    }
    if inner.attrs.sequential || stm.attrs.sequential {
        return None;
    }
    let params: Vec<VName> = map.params.iter().map(|p| p.name).collect();
    if matches!(w2, SubExp::Var(v) if params.contains(v)) {
        return None;
    }
    // One-dimensional inputs: the inner lambda's parameters are scalars.
    if lam2.params.iter().any(|p| p.ty.rank() != 0) {
        return None;
    }
    // Row parameters may only be used as inputs of the reduction.
    let mut fv = free_vars_lambda(lam2);
    fv.extend(free_vars_lambda(&r2[0].lambda));
    fv.extend(r2[0].neutral.iter().filter_map(|n| n.as_var()));
    if params.iter().any(|p| fv.contains(p)) {
        return None;
    }
    let safe = |b: &Body| b.stms.iter().all(|s| scalar_cannot_fail(&s.exp));
    (safe(&lam2.body) && safe(&r2[0].lambda.body)).then_some(inner)
}

/// Whether `exp` is a scalar operation that cannot fail: a copy, a
/// comparison, a conversion, or arithmetic other than the integer divisions
/// and powers (which check their operands).
pub fn scalar_cannot_fail(exp: &Exp) -> bool {
    match exp {
        Exp::BinOp(op, t, _, _) => {
            !(t.is_int() && matches!(op, BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow))
        }
        Exp::SubExp(_) | Exp::CmpOp(..) | Exp::UnOp(..) | Exp::TernOp(..) | Exp::Conv(..) => true,
        _ => false,
    }
}
