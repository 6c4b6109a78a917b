//! The first index of a minimum (or maximum) computed with it, in one loop.
//!
//! Reverse mode differentiates `reduce min` (and `f32.minimum`, and max)
//! by sending the adjoint to the first element equal to the result (seed
//! 004 §4.1), which it finds after the reduction, from the mapped values
//! the reduction's statement also returns:
//!
//! ```text
//! let (m, vs) = screma(w, xs, reduces [min ne], \x -> let v = f x in (v, v))
//! let i = screma(w, iota w, vs, reduces [min w], \(j, y) -> if y == m then j else w)
//! ```
//!
//! That keeps `w` values per iteration of whatever encloses it (k-means'
//! distances of a point to every centre) and runs `f` in a map the backends
//! cannot treat as the reduction it is. The rewrite computes both in one
//! sequential loop over the rows, keeping the minimum so far and the first
//! index that holds it:
//!
//! ```text
//! let (m, i) = loop (v, k) = (ne, w) for j < w do
//!   let x = xs[j]  let y = f x  let v' = min v y
//!   in (v', if v == v' && k < w then k else if y == v' then j else w)
//! ```
//!
//! The index is the same: an element equal to the final minimum `v'` can
//! only come before iteration `j` if the minimum so far `v` is `v'` already
//! (every element is at least the minimum of those before it), so the first
//! index found stays; otherwise it is `j` when `y` is the new minimum. The
//! minimum itself is the same fold (`min` is exact). The loop is the form
//! the C backends run in register tiles when a map encloses it (k-means'
//! nearest centre, `ogham-imp`'s `lower/tile.rs`). Only reductions inside a
//! SOAC are rewritten: one in a function's own body may be all the
//! parallelism there is.

use ogham_ir::visit::{count_uses, nested_bodies_mut};
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, Lambda, LoopForm, NameTable, Operator, Param, PrimType, PrimValue, Program,
    Soac, Stm, StmAttrs, SubExp, Type, VName,
};
use rustc_hash::FxHashMap as HashMap;

/// Rewrites every function of the program (see the module documentation).
pub fn argmin_program(prog: &mut Program) {
    for f in &mut prog.funs {
        let mut iotas = HashMap::default();
        collect_iotas(&f.body, &mut iotas);
        body(&mut f.body, false, &iotas, &mut prog.names);
    }
}

/// The variables bound to `iota(n, 0, 1)` of `i64`, with their `n`.
fn collect_iotas(b: &Body, iotas: &mut HashMap<VName, SubExp>) {
    for stm in &b.stms {
        if let (Exp::Iota { n, start, step, elem: PrimType::I64 }, [p]) = (&stm.exp, stm.pat.as_slice()) {
            if is_const(start, 0) && is_const(step, 1) {
                iotas.insert(p.name, *n);
            }
        }
        for nb in ogham_ir::visit::bodies(&stm.exp) {
            collect_iotas(nb, iotas);
        }
    }
}

fn is_const(s: &SubExp, x: i64) -> bool {
    matches!(s, SubExp::Const(PrimValue::I64(v)) if *v == x)
}

/// Rewrites `b` and the bodies nested in it; only where a SOAC encloses
/// them (`in_soac`): a reduction of a function's own body may be the only
/// parallelism there is, which the sequential loop would give up.
fn body(b: &mut Body, in_soac: bool, iotas: &HashMap<VName, SubExp>, names: &mut NameTable) {
    for stm in &mut b.stms {
        let nested = in_soac || matches!(stm.exp, Exp::Soac(_));
        for nb in nested_bodies_mut(&mut stm.exp) {
            body(nb, nested, iotas, names);
        }
    }
    if in_soac {
        while rewrite_one(b, iotas, names) {}
    }
}

/// A reduction with `min` or `max` whose statement also returns the values
/// it reduces.
struct Extremum {
    w: SubExp,
    op: BinOp,
    ty: PrimType,
    ne: SubExp,
    /// The reduction's result and the array of values.
    result: VName,
    values: VName,
}

fn extremum(stm: &Stm) -> Option<Extremum> {
    let Exp::Soac(Soac::Screma { w, scans, reduces, map, .. }) = &stm.exp else { return None };
    let ([op], true, [r, vs]) = (reduces.as_slice(), scans.is_empty(), stm.pat.as_slice()) else { return None };
    let (bop, ty) = binary(op)?;
    if !matches!(bop, BinOp::Min | BinOp::Max) || map.body.result.len() != 2 || map.body.result[0] != map.body.result[1]
    {
        return None;
    }
    let [ne] = op.neutral.as_slice() else { return None };
    Some(Extremum { w: *w, op: bop, ty, ne: *ne, result: r.name, values: vs.name })
}

/// The operation of an operator `\x y -> x ⊕ y` (either order).
fn binary(op: &Operator) -> Option<(BinOp, PrimType)> {
    let l = &op.lambda;
    let ([x, y], [s], [SubExp::Var(r)]) = (l.params.as_slice(), l.body.stms.as_slice(), l.body.result.as_slice())
    else {
        return None;
    };
    let Exp::BinOp(bop, t, SubExp::Var(a), SubExp::Var(b)) = &s.exp else { return None };
    let operands = (*a == x.name && *b == y.name) || (*a == y.name && *b == x.name);
    (operands && s.pat.len() == 1 && s.pat[0].name == *r).then_some((*bop, *t))
}

/// Whether `stm` is the search for the first index of `e`'s result among
/// its values: `screma(w, iota w, values, reduces [min w], \(j, y) -> if y
/// == result then j else w)`.
fn first_search(stm: &Stm, e: &Extremum, iotas: &HashMap<VName, SubExp>) -> bool {
    let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &stm.exp else { return false };
    let ([idx, vals], [op], [_]) = (arrs.as_slice(), reduces.as_slice(), stm.pat.as_slice()) else { return false };
    if *w != e.w || !scans.is_empty() || *vals != e.values || iotas.get(idx) != Some(&e.w) {
        return false;
    }
    if binary(op) != Some((BinOp::Min, PrimType::I64)) || op.neutral != [e.w] {
        return false;
    }
    let ([j, y], [eq, pick], [SubExp::Var(r)]) =
        (map.params.as_slice(), map.body.stms.as_slice(), map.body.result.as_slice())
    else {
        return false;
    };
    let Exp::CmpOp(CmpOp::Eq, t, a, b) = &eq.exp else { return false };
    let compared = (*a == SubExp::Var(y.name) && *b == SubExp::Var(e.result))
        || (*b == SubExp::Var(y.name) && *a == SubExp::Var(e.result));
    let Exp::If { cond: SubExp::Var(c), then_body, else_body } = &pick.exp else { return false };
    *t == e.ty
        && compared
        && eq.pat.len() == 1
        && *c == eq.pat[0].name
        && pick.pat.len() == 1
        && pick.pat[0].name == *r
        && then_body.stms.is_empty()
        && then_body.result == [SubExp::Var(j.name)]
        && else_body.stms.is_empty()
        && else_body.result == [e.w]
}

/// Does one rewrite in `b` (not in nested bodies); whether it did.
fn rewrite_one(b: &mut Body, iotas: &HashMap<VName, SubExp>, names: &mut NameTable) -> bool {
    let mut uses = HashMap::default();
    count_uses(b, &mut uses);
    for a in 0..b.stms.len() {
        let Some(e) = extremum(&b.stms[a]) else { continue };
        if uses.get(&e.values) != Some(&1) {
            continue;
        }
        let Some(s) = (a + 1..b.stms.len()).find(|&s| first_search(&b.stms[s], &e, iotas)) else { continue };
        let search = b.stms.remove(s);
        let reduction = std::mem::replace(&mut b.stms[a], search.clone());
        b.stms[a] = as_loop(reduction, &e, search.pat[0].clone(), names);
        return true;
    }
    false
}

/// The loop of the module documentation, binding the reduction's result
/// and the search's.
fn as_loop(reduction: Stm, e: &Extremum, first: Param, names: &mut NameTable) -> Stm {
    let Exp::Soac(Soac::Screma { arrs, map, .. }) = reduction.exp else { unreachable!("checked by extremum") };
    let Lambda { params, body: f, .. } = map;
    let (j, v, k) = (names.fresh("j"), names.fresh("v"), names.fresh("k"));
    let scalar = |name: VName, t: PrimType| Param { name, ty: Type::Prim(t) };
    let stm = |pat: Vec<Param>, exp: Exp| Stm { pat, exp, attrs: StmAttrs::default(), span: reduction.span };
    let mut stms = Vec::new();
    // The rows: in bounds, as `j < w` and every input has `w` rows.
    for (p, a) in params.into_iter().zip(arrs) {
        let mut index = stm(vec![p], Exp::Index { array: a, slice: vec![DimIndex::Fix(SubExp::Var(j))] });
        index.attrs.unsafe_ = true;
        stms.push(index);
    }
    stms.extend(f.stms);
    let y = f.result[0];
    let var = |n: VName| SubExp::Var(n);
    let (v2, same, found, keep) = (names.fresh("v"), names.fresh("same"), names.fresh("found"), names.fresh("keep"));
    let (hit, at, k2) = (names.fresh("hit"), names.fresh("at"), names.fresh("k"));
    stms.push(stm(vec![scalar(v2, e.ty)], Exp::BinOp(e.op, e.ty, var(v), y)));
    stms.push(stm(vec![scalar(same, PrimType::Bool)], Exp::CmpOp(CmpOp::Eq, e.ty, var(v), var(v2))));
    stms.push(stm(vec![scalar(found, PrimType::Bool)], Exp::CmpOp(CmpOp::Lt, PrimType::I64, var(k), e.w)));
    stms.push(stm(
        vec![scalar(keep, PrimType::Bool)],
        Exp::BinOp(BinOp::LogAnd, PrimType::Bool, var(same), var(found)),
    ));
    stms.push(stm(vec![scalar(hit, PrimType::Bool)], Exp::CmpOp(CmpOp::Eq, e.ty, y, var(v2))));
    let just = |x: SubExp| Body { stms: Vec::new(), result: vec![x] };
    stms.push(stm(
        vec![scalar(at, PrimType::I64)],
        Exp::If { cond: var(hit), then_body: just(var(j)), else_body: just(e.w) },
    ));
    stms.push(stm(
        vec![scalar(k2, PrimType::I64)],
        Exp::If { cond: var(keep), then_body: just(var(k)), else_body: just(var(at)) },
    ));
    let body = Body { stms, result: vec![var(v2), var(k2)] };
    let exp = Exp::Loop {
        params: vec![(scalar(v, e.ty), e.ne), (scalar(k, PrimType::I64), e.w)],
        form: LoopForm::For { i: j, bound: e.w },
        body,
    };
    let result = Param { name: e.result, ty: Type::Prim(e.ty) };
    stm(vec![result, first], exp)
}
