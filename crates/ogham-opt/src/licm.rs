//! Loop-invariant code motion: statements of a loop body or a SOAC's lambda
//! that depend on nothing bound inside it move out, before the loop or
//! SOAC, so they run once instead of once per iteration or element.
//!
//! A statement moves when every variable it uses (operands, sizes in its
//! types, free variables of nested bodies) is bound outside or by a
//! statement that moved already, and when moving it cannot change what the
//! program does:
//!
//! - It cannot fail (no checked index, division, assertion, call of a
//!   function that may fail, `while` loop…), unless the loop or SOAC is
//!   known to run at least once (a constant positive trip count or width):
//!   a loop that runs zero times must not report an error its body would
//!   have reported.
//! - It consumes nothing, and the arrays it binds are never consumed in
//!   the body, through any alias, nor (for a loop) returned to the next
//!   iteration, which could then update them in place: each iteration must
//!   see a fresh array where it updates one.
//!
//! A `map` of only scalar arithmetic and element reads stays in a loop
//! (see `cheap_map`): hoisted, it would turn arithmetic into memory
//! traffic.
//!
//! Bodies are processed innermost first, so a statement can move out of
//! several nested loops and lambdas in one run. Branches of an `if` are
//! left alone: their statements are not run unconditionally.

use rustc_hash::FxHashSet as HashSet;
use std::collections::BTreeSet;

use ogham_ir::visit::{bodies, free_vars_exp, lambdas, type_vars};
use ogham_ir::{BinOp, Body, DimIndex, Exp, LoopForm, PrimValue, Program, Soac, Stm, SubExp, VName};

use crate::fuse::may_consume;

/// Moves loop-invariant statements out of every loop and lambda of the program.
pub fn licm_program(prog: &mut Program) {
    let failing = failing_functions(prog);
    crate::on_consts(prog, |body, _| licm_body(body, &failing));
    for f in &mut prog.funs {
        licm_body(&mut f.body, &failing);
    }
}

/// The functions whose calls may fail or not terminate: those with a
/// statement that may, those calling one, and the recursive ones.
fn failing_functions(prog: &Program) -> HashSet<String> {
    // Recursion: a function that reaches itself through calls.
    let mut out: HashSet<String> = ogham_ir::visit::recursive_functions(prog).into_iter().collect();
    loop {
        let before = out.len();
        for f in &prog.funs {
            if !out.contains(&f.name) && f.body.stms.iter().any(|s| may_fail(s, &out)) {
                out.insert(f.name.clone());
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Whether running the statement may fail (or not terminate).
pub(crate) fn may_fail(stm: &Stm, failing: &HashSet<String>) -> bool {
    let checked = |slice: &[DimIndex]| !stm.attrs.unsafe_ && !slice.is_empty();
    let here = match &stm.exp {
        Exp::Assert { .. } => true,
        Exp::Index { slice, .. } | Exp::Update { slice, .. } => checked(slice),
        Exp::BinOp(op, t, _, b) => {
            let nonzero = matches!(b, SubExp::Const(c) if !is_zero(c));
            let nonneg = matches!(b, SubExp::Const(c) if !is_negative(c));
            (t.is_int() && matches!(op, BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem) && !nonzero)
                || (t.is_signed_int() && *op == BinOp::Pow && !nonneg)
        }
        Exp::Apply { func, .. } => failing.contains(func),
        Exp::Loop { form: LoopForm::While { .. }, .. } => true,
        // Shapes are checked at run time.
        Exp::Reshape { .. } | Exp::Concat { .. } | Exp::ArrayLit { .. } => true,
        _ => false,
    };
    here || bodies(&stm.exp).into_iter().any(|b| b.stms.iter().any(|s| may_fail(s, failing)))
        || lambdas(&stm.exp).into_iter().any(|l| l.body.stms.iter().any(|s| may_fail(s, failing)))
}

fn is_zero(c: &PrimValue) -> bool {
    c.as_i64() == 0
}

fn is_negative(c: &PrimValue) -> bool {
    c.as_i64() < 0
}

/// Processes the loops and lambdas of `body` (innermost first), putting
/// what moves out of each before its statement.
fn licm_body(body: &mut Body, failing: &HashSet<String>) {
    let mut stms = Vec::with_capacity(body.stms.len());
    for mut stm in std::mem::take(&mut body.stms) {
        match &mut stm.exp {
            Exp::If { then_body, else_body, .. } => {
                licm_body(then_body, failing);
                licm_body(else_body, failing);
            }
            Exp::Loop { params, form, body: inner } => {
                licm_body(inner, failing);
                let mut bound: HashSet<VName> = params.iter().map(|(p, _)| p.name).collect();
                let runs = match form {
                    LoopForm::For { i, bound: n } => {
                        bound.insert(*i);
                        positive(n)
                    }
                    LoopForm::While { .. } => false,
                };
                stms.extend(hoist(inner, bound, runs, true, failing));
            }
            Exp::Soac(soac) => {
                let w = match soac {
                    Soac::Screma { w, .. }
                    | Soac::Hist { w, .. }
                    | Soac::Scatter { w, .. }
                    | Soac::WithAcc { w, .. } => *w,
                };
                let lams = ogham_ir::visit::soac_lambdas_mut(soac);
                // An operator may run fewer times than the map (never, on
                // one element), so only the map counts on the width.
                let n = lams.len();
                for (k, lam) in lams.into_iter().enumerate() {
                    licm_body(&mut lam.body, failing);
                    let bound = lam.params.iter().map(|p| p.name).collect();
                    let runs = k + 1 == n && positive(&w);
                    stms.extend(hoist(&mut lam.body, bound, runs, false, failing));
                }
            }
            _ => {}
        }
        stms.push(stm);
    }
    body.stms = stms;
}

fn positive(n: &SubExp) -> bool {
    matches!(n, SubExp::Const(c) if c.as_i64() > 0)
}

/// Takes the invariant statements out of `body`, whose own binders (loop
/// parameters, index, lambda parameters) are `bound`. `runs` says the body
/// surely runs at least once; `is_loop` that its results feed the next
/// iteration.
fn hoist(body: &mut Body, mut bound: HashSet<VName>, runs: bool, is_loop: bool, failing: &HashSet<String>) -> Vec<Stm> {
    let consumed: BTreeSet<VName> = body.stms.iter().flat_map(|s| may_consume(&s.exp)).collect();
    let mut out = Vec::new();
    let mut kept = Vec::with_capacity(body.stms.len());
    let stms = std::mem::take(&mut body.stms);
    for (k, stm) in stms.iter().enumerate() {
        let mut uses = free_vars_exp(&stm.exp);
        uses.extend(stm.pat.iter().flat_map(|p| type_vars(&p.ty)));
        let invariant = uses.iter().all(|v| !bound.contains(v));
        let movable = invariant
            && !stm.pat.is_empty()
            && !(is_loop && cheap_map(&stm.exp))
            && (runs || !may_fail(stm, failing))
            && may_consume(&stm.exp).is_empty()
            && stm
                .pat
                .iter()
                .filter(|p| p.ty.rank() > 0)
                .all(|p| !aliases_consumed_or_returned(p.name, &stms[k + 1..], &body.result, &consumed, is_loop));
        if movable {
            out.push(stm.clone());
        } else {
            bound.extend(stm.pat.iter().map(|p| p.name));
            kept.push(stm.clone());
        }
    }
    body.stms = kept;
    out
}

/// Whether `exp` is a `map` whose lambda, at every depth, does only scalar
/// arithmetic, reads single elements and maps such lambdas (index
/// computations, as fission leaves them): kept in a loop, its work is no
/// more than reading back the array it would build outside, and fusion
/// can still merge it into the loop's statement that reads it.
fn cheap_map(exp: &Exp) -> bool {
    let Exp::Soac(Soac::Screma { scans, reduces, map, .. }) = exp else { return false };
    scans.is_empty()
        && reduces.is_empty()
        && map.body.stms.iter().all(|s| match &s.exp {
            Exp::SubExp(_) | Exp::BinOp(..) | Exp::CmpOp(..) | Exp::UnOp(..) | Exp::Conv(..) => true,
            Exp::Index { slice, .. } => slice.iter().all(|d| matches!(d, DimIndex::Fix(_))),
            e => cheap_map(e),
        })
}

/// Whether the array `v`, or a view of it made by a later statement, is
/// consumed in the body or (for a loop) returned to the next iteration.
fn aliases_consumed_or_returned(
    v: VName,
    later: &[Stm],
    result: &[SubExp],
    consumed: &BTreeSet<VName>,
    is_loop: bool,
) -> bool {
    let mut aliases: HashSet<VName> = HashSet::from_iter([v]);
    for s in later {
        let source = match &s.exp {
            Exp::SubExp(SubExp::Var(a)) | Exp::Reshape { array: a, .. } | Exp::Rearrange { array: a, .. } => Some(*a),
            Exp::Index { array, slice, .. } if s.pat.iter().any(|p| p.ty.rank() > 0) && !slice.is_empty() => {
                Some(*array)
            }
            _ => None,
        };
        let certified = matches!(&s.exp, Exp::Certify { values, .. }
            if values.iter().any(|x| matches!(x, SubExp::Var(a) if aliases.contains(a))));
        // Branches and loops may return (a view of) the array itself.
        let through = matches!(&s.exp, Exp::If { .. } | Exp::Loop { .. })
            && free_vars_exp(&s.exp).iter().any(|a| aliases.contains(a));
        // A branch or loop that reads an alias and updates something in
        // place may update a view of it made inside (the consumed set names
        // that view, not the alias).
        if through && !may_consume(&s.exp).is_empty() {
            return true;
        }
        if source.is_some_and(|a| aliases.contains(&a)) || certified || through {
            aliases.extend(s.pat.iter().filter(|p| p.ty.rank() > 0).map(|p| p.name));
        }
    }
    aliases.iter().any(|a| consumed.contains(a))
        || (is_loop && result.iter().any(|r| matches!(r, SubExp::Var(a) if aliases.contains(a))))
}
