//! Tapes: what a `for` loop's forward sweep saves per iteration besides
//! its parameters, so that the return sweep does not run it again.
//!
//! The seed's loops save their parameters once per iteration, and the
//! reverse loop re-executes each iteration's body from them. A body that
//! holds a loop or a call then runs that inner work three times (the
//! forward loop, the re-execution, and the inner return sweep's own
//! re-execution), once more per level of nesting. Here the forward loop
//! runs its body's forward sweep instead of the plain body, and saves,
//! for each top-level `for` loop and call of the body, the statement's
//! results and what its forward sweep saved (the inner loop's arrays, the
//! call's residuals: see [`super::calls`]); the re-execution then reads
//! them back by the iteration's index instead of running the statement.
//!
//! An inner loop's own saved arrays are filled in place, in the rows of
//! the outer loop's tapes for the current iteration (`write_into`),
//! rather than in arrays of their own copied there after each iteration;
//! the ones the return sweep does not read go with DCE. (Only one level:
//! a middle loop's tape of its inner loop's saved arrays is copied.)
//!
//! A statement is taped only when every value it saves has a type known
//! before the loop (no size computed in the body), so that the tape is
//! one array per value with the loop's count as its outer dimension; any
//! other statement is re-executed as before. Taped statements are found
//! again in the re-executed copy by their position among the body's
//! loops and calls, which renaming and splitting of SOACs keep.
//!
//! A loop also tapes the elementary functions of its body (`exp`, `tanh`:
//! one number per iteration, where it saves its parameters anyway), which
//! its re-executed body then reads instead of computing them again.
//!
//! A `map` saves the same way, per element ([`Ad::forward_map`]): the
//! forward `map` also returns what its function computes that is costly
//! to compute again (elementary functions, reductions such as dot
//! products, nested maps' results and what they save in turn, and its
//! `for` loops' results with their checkpoints and tapes), and the return
//! sweep's copy of the function reads them from its parameters.

use ogham_ir::{BinOp, DimIndex, Exp, Lambda, LoopForm, Param, PrimType, Soac, Stm, SubExp, Type, VName};
use rustc_hash::FxHashSet as HashSet;

use super::undo::{self, UndoLog};
use super::{Checkpoints, R};
use crate::ad::{internal, stm, Ad};

/// One taped statement: where its values are among its loop's tape arrays
/// (which follow the arrays of the loop's parameters).
#[derive(Clone, Debug)]
pub(super) struct TapeLayout {
    /// The statement's position among the body's loops and calls.
    stm: usize,
    /// How many results it has (saved first).
    results: usize,
    /// How many values its forward sweep saved (saved after the results).
    extra: usize,
    kind: TapeKind,
}

#[derive(Clone, Debug)]
enum TapeKind {
    /// A `for` loop: the extra values are its own saved arrays, laid out
    /// as these taped statements of its body say.
    Loop(Vec<TapeLayout>),
    /// A call: the extra values are the residuals its reverse function
    /// reads.
    Call(String),
    /// Scalars computed in a `map`'s function: an elementary function, or
    /// a reduction's results.
    Value,
    /// A `map` nested in a `map`'s function: the extra values are what
    /// its own forward sweep saved per element, laid out as these say.
    Map(Vec<TapeLayout>),
}

impl TapeKind {
    /// Records in `ck`, for the return sweep of the taped statement whose
    /// first result is `first`, what its forward sweep saved (`extra`, read
    /// back from the tapes).
    fn record(&self, ck: &mut Checkpoints, first: VName, extra: Vec<VName>) {
        match self {
            TapeKind::Loop(inner) => {
                ck.loops.insert(first, extra);
                if !inner.is_empty() {
                    ck.tapes.insert(first, inner.clone());
                }
            }
            TapeKind::Call(f) => {
                ck.calls.insert(first, (f.clone(), extra));
            }
            TapeKind::Map(inner) => {
                ck.maps.insert(first, (inner.clone(), extra));
            }
            TapeKind::Value => {}
        }
    }
}

/// A re-execution's tapes: the layouts and the tapes in order. In a loop
/// body, the tapes are arrays read at the iteration's index; in a `map`'s
/// function (no index), they are the function's parameters, one element
/// of each of the forward `map`'s extra results.
#[derive(Clone)]
pub(super) struct Replay {
    pub(super) layouts: Vec<TapeLayout>,
    pub(super) arrays: Vec<VName>,
    pub(super) index: Option<SubExp>,
}

/// Whether a statement of a loop body may be taped: a `for` loop or a
/// call, with results, or an elementary function (one number per
/// iteration, where the loop saves its parameters anyway; the D-LSTM's
/// gates, computed once instead of twice when a `map` runs the loop).
fn tapeable(s: &Stm) -> bool {
    (!s.pat.is_empty() && matches!(s.exp, Exp::Loop { form: LoopForm::For { .. }, .. } | Exp::Apply { .. }))
        || costly(s)
}

/// Whether a statement of a `map`'s function may be saved by the forward
/// `map`: an elementary function, a reduction to scalars (a dot product:
/// work in the length of its input, one value to save), a nested `map`
/// (what it saves in turn) or a `for` loop (its results and its
/// checkpoints, per element).
fn saveable(s: &Stm) -> bool {
    costly(s) || reduction(s) || nested_map(s) || tapeable_loop(s)
}

/// A `for` loop with results.
fn tapeable_loop(s: &Stm) -> bool {
    !s.pat.is_empty() && matches!(s.exp, Exp::Loop { form: LoopForm::For { .. }, .. })
}

/// A reduction (no scans, no map left after splitting) with scalar results.
fn reduction(s: &Stm) -> bool {
    matches!(&s.exp, Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && !reduces.is_empty())
        && !s.pat.is_empty()
        && s.pat.iter().all(|p| p.ty.rank() == 0)
}

/// A plain `map` with results.
fn nested_map(s: &Stm) -> bool {
    matches!(&s.exp, Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && reduces.is_empty())
        && !s.pat.is_empty()
}

/// Whether a statement of a function is scalar work: scalar results, and
/// no loop, branch, SOAC or call.
pub(super) fn scalar(s: &Stm) -> bool {
    s.pat.iter().all(|p| p.ty.rank() == 0)
        && !matches!(s.exp, Exp::Loop { .. } | Exp::If { .. } | Exp::Soac(_) | Exp::Apply { .. })
}

/// Whether a statement is a floating-point elementary function.
pub(super) fn costly(s: &Stm) -> bool {
    let float = matches!(s.pat.as_slice(), [p] if matches!(p.ty, Type::Prim(t) if t.is_float()));
    float
        && match s.exp {
            Exp::UnOp(op, ..) => op.is_elementary_function(),
            Exp::BinOp(op, ..) => op.is_elementary_function(),
            _ => false,
        }
}

/// The statements at the top of `lam`'s body that compute an integer from
/// values bound outside it, without failing (`c - 1`: the bound of a loop
/// in the function, and so a size of its checkpoints), moved out of it so
/// that the forward `map` can return what has such a size per element
/// ([`Ad::loop_residuals`]); and the function without them. Its return
/// sweep's copy keeps its own.
fn hoist_integers(lam: &Lambda) -> (Vec<Stm>, Lambda) {
    let mut inside: HashSet<VName> = lam.params.iter().map(|p| p.name).collect();
    let (mut hoisted, mut kept) = (Vec::new(), Vec::new());
    for s in &lam.body.stms {
        let integer = matches!(s.pat.as_slice(), [p] if matches!(p.ty, Type::Prim(t) if t.is_int()));
        let scalar_op = matches!(s.exp, Exp::BinOp(..) | Exp::UnOp(..) | Exp::Conv(..) | Exp::SubExp(_));
        let total = scalar_op && !crate::licm::may_fail(s, &Default::default());
        let free = ogham_ir::visit::free_vars_exp(&s.exp).iter().all(|v| !inside.contains(v));
        if integer && total && free {
            hoisted.push(s.clone());
        } else {
            inside.extend(s.pat.iter().map(|p| p.name));
            kept.push(s.clone());
        }
    }
    if hoisted.is_empty() {
        return (hoisted, lam.clone());
    }
    let body = ogham_ir::Body { stms: kept, result: lam.body.result.clone() };
    (hoisted, Lambda { params: lam.params.clone(), body, ret: lam.ret.clone() })
}

/// Each statement with its position among the statements `taped` picks
/// (`None` for the others): how a taped statement is found again in the
/// renamed, re-split copy of its body that a return sweep runs.
fn positions(stms: &[Stm], taped: fn(&Stm) -> bool) -> impl Iterator<Item = (&Stm, Option<usize>)> {
    let mut n = 0;
    stms.iter().map(move |s| {
        let k = taped(s).then_some(n);
        n += usize::from(k.is_some());
        (s, k)
    })
}

/// Whether `v`, a result of the `for` loop `swept[at]`, is an array that
/// the loop fills one row per iteration from a `scratch` made for it (a
/// saved array of its own forward sweep): its position among the loop's
/// parameters, whose only use in the body is `update p[i] = …` (the
/// loop's index), returned.
fn writes_rows(swept: &[Stm], at: usize, v: VName) -> Option<usize> {
    let Exp::Loop { params, form: LoopForm::For { i, .. }, body } = &swept[at].exp else { return None };
    let k = swept[at].pat.iter().position(|p| p.name == v)?;
    let (p, SubExp::Var(init)) = &params[k] else { return None };
    let scratch =
        swept[..at].iter().any(|t| t.pat.len() == 1 && t.pat[0].name == *init && matches!(t.exp, Exp::Scratch { .. }));
    let SubExp::Var(r) = body.result[k] else { return None };
    let writes = body.stms.iter().find(|t| t.pat.len() == 1 && t.pat[0].name == r)?;
    let own_row = matches!(&writes.exp, Exp::Update { array, slice, .. }
        if array == &p.name && matches!(slice.as_slice(), [DimIndex::Fix(SubExp::Var(j))] if j == i));
    let uses = body.stms.iter().filter(|t| ogham_ir::visit::free_vars_exp(&t.exp).contains(&p.name)).count();
    let returned = body.result.iter().filter(|x| **x == SubExp::Var(p.name)).count();
    (scratch && own_row && uses == 1 && returned == 0).then_some(k)
}

/// Makes the loop `inner` fill its `k`th parameter's rows in row `outer_i`
/// of `tape` (an array of one more dimension, a parameter of the
/// enclosing loop) instead of in its own scratch array: the parameter
/// starts as `tape`, is updated at `[outer_i, i]`, and the loop returns
/// the tape. (`writes_rows` checked the shape of the loop.)
fn write_into(cx: &mut Ad, inner: &mut Stm, k: usize, tape: VName, outer_i: VName) {
    let Exp::Loop { params, body, .. } = &mut inner.exp else { return };
    let ty = cx.types[&tape].clone();
    let p = params[k].0.name;
    params[k] = (Param { name: p, ty: ty.clone() }, SubExp::Var(tape));
    cx.types.insert(p, ty.clone());
    let SubExp::Var(r) = body.result[k] else { return };
    for t in body.stms.iter_mut().filter(|t| t.pat.len() == 1 && t.pat[0].name == r) {
        if let Exp::Update { slice, .. } = &mut t.exp {
            slice.insert(0, DimIndex::Fix(SubExp::Var(outer_i)));
        }
        t.pat[0].ty = ty.clone();
    }
    cx.types.insert(r, ty.clone());
    inner.pat[k].ty = ty.clone();
    cx.types.insert(inner.pat[k].name, ty);
}

/// The parameters among `params` that the statements of a loop body
/// update in place (directly, or through a view or any value that may
/// alias them), apart from the statements `layouts` says are read back
/// from tapes, which are not run again.
pub(super) fn consumed_params(stms: &[Stm], layouts: &[TapeLayout], params: &[VName]) -> HashSet<VName> {
    let run = positions(stms, tapeable).filter(|(_, k)| !k.is_some_and(|k| layouts.iter().any(|l| l.stm == k)));
    ogham_ir::visit::consumed_through(run.map(|(s, _)| s), params).into_iter().collect()
}

impl Ad {
    /// How many iterations a `for` loop of this bound runs: the bound, or
    /// 0 if it is negative. A size of some array's type is not negative
    /// and is its own count; an enclosing loop's forward sweep may have
    /// computed the count already (`Ad::lengths`).
    fn iterations(&mut self, bound: SubExp, out: &mut Vec<Stm>, span: ogham_ir::Span) -> SubExp {
        match bound {
            SubExp::Const(c) if c.as_i64() >= 0 => bound,
            SubExp::Var(v) if self.lengths.contains_key(&v) => self.lengths[&v],
            SubExp::Var(v) if self.types.values().any(|t| t.shape().contains(&bound)) => SubExp::Var(v),
            _ => self.bin(out, BinOp::Max, PrimType::I64, bound, SubExp::i64(0), span),
        }
    }

    /// The forward sweep of a `for` loop: its parameters saved at the
    /// start of every iteration, and its body's loops and calls taped.
    pub(super) fn forward_for(&mut self, s: &Stm, out: &mut Vec<Stm>, ck: &mut Checkpoints) -> R<()> {
        let Exp::Loop { params, form: LoopForm::For { i, bound }, body } = &s.exp else {
            return Err(internal(s.span, "a forward loop that is not a `for` loop".into()));
        };
        let span = s.span;
        let mut params = params.clone();
        let mut pat = s.pat.clone();
        let mut result = body.result.clone();
        let mut stms = Vec::new();
        let mut saved = Vec::new();
        let originals: Vec<Param> = params.iter().map(|(p, _)| p.clone()).collect();
        let chains = if std::mem::take(&mut self.undo.off) { Vec::new() } else { undo::chains(&params, *i, body) };
        // The tapes' length: the number of iterations, none for a negative
        // bound (the loop runs none). A size of some array's type is not
        // negative, and stays the length (an inner loop's tapes then have
        // a type known before the outer loop, which tapes them in turn).
        let len = self.iterations(*bound, out, span);
        // The same for the inner loops whose bounds come from outside this
        // one: computed here, outside it, so that their tapes' types are
        // known before it and it tapes them in turn.
        let mut inside: HashSet<VName> = body.stms.iter().flat_map(|t| t.pat.iter().map(|p| p.name)).collect();
        inside.extend(params.iter().map(|(p, _)| p.name));
        inside.insert(*i);
        let mut hoisted = Vec::new();
        for t in &body.stms {
            if let Exp::Loop { form: LoopForm::For { bound: SubExp::Var(v), .. }, .. } = &t.exp {
                if !inside.contains(v) && !self.lengths.contains_key(v) {
                    let n = self.iterations(SubExp::Var(*v), out, span);
                    self.lengths.insert(*v, n);
                    hoisted.push(*v);
                }
            }
        }
        // A tape: an array of `bound` values of type `ty`, a parameter of
        // the loop. `v` is the value saved per iteration, or, with `direct`,
        // an inner loop that writes its own saved array straight into the
        // tape's row (see `write_into`) and returns the tape.
        let mut tape = |cx: &mut Ad, stms: &mut Vec<Stm>, v: VName, ty: &Type, direct: Option<(&mut Stm, usize)>| {
            let ty = ty.array_of(len);
            let init =
                cx.bind(out, "saved", ty.clone(), Exp::Scratch { elem: ty.elem(), shape: ty.shape().to_vec() }, span);
            let sp = cx.fresh_typed("saved", &ty);
            match direct {
                Some((inner, k)) => {
                    write_into(cx, inner, k, sp.name, *i);
                    result.push(SubExp::Var(v));
                }
                None => {
                    let next = cx.fresh_typed("saved", &ty);
                    let slice = vec![DimIndex::Fix(SubExp::Var(*i))];
                    stms.push(stm(next.clone(), Exp::Update { array: sp.name, slice, value: SubExp::Var(v) }, span));
                    result.push(SubExp::Var(next.name));
                }
            }
            params.push((sp, SubExp::Var(init)));
            let fin = cx.fresh_typed("saved", &ty);
            pat.push(fin.clone());
            fin.name
        };
        // Parameters changed only by in-place updates log them instead of
        // being saved whole ([`undo`]), unless this loop is itself taped.
        let mut logs: Vec<UndoLog> = chains.iter().map(|c| UndoLog { param: c.param, updates: Vec::new() }).collect();
        for (k, lp) in originals.iter().enumerate() {
            if !chains.iter().any(|c| c.param == k) {
                saved.push(tape(self, &mut stms, lp.name, &lp.ty, None));
            }
        }
        // The body: its loops and calls by their forward sweeps, taped.
        let mut inner = Checkpoints::of(body);
        let mut bound_here: HashSet<VName> = originals.iter().map(|p| p.name).collect();
        bound_here.insert(*i);
        let mut layouts = Vec::new();
        // The outer levels of a strip-mined loop recompute their inner
        // loops (`StmAttrs::stripmine`).
        let tape_inner = s.attrs.stripmine != Some(1);
        for (bs, k) in positions(&body.stms, tapeable) {
            let logged = chains.iter().position(|c| c.updates.contains(&bs.pat.first().map_or(*i, |p| p.name)));
            if let (Some(c), Exp::Update { array, slice, .. }) = (logged, &bs.exp) {
                // What the update overwrites, and where, saved per iteration.
                let (old, part_ty) = self.overwritten(&mut stms, *array, slice, span);
                let old = tape(self, &mut stms, old, &part_ty, None);
                // Its indices, or its range's start and stride, saved per
                // iteration (a range's length is the same in every one).
                let mut taped = |cx: &mut Ad, stms: &mut Vec<Stm>, se: &SubExp| match se {
                    SubExp::Var(v) => {
                        let ty = cx.types[v].clone();
                        SubExp::Var(tape(cx, stms, *v, &ty, None))
                    }
                    c => *c,
                };
                let mut logged = Vec::new();
                for d in slice {
                    logged.push(match d {
                        DimIndex::Fix(x) => DimIndex::Fix(taped(self, &mut stms, x)),
                        DimIndex::Slice { start, len, stride } => DimIndex::Slice {
                            start: taped(self, &mut stms, start),
                            len: *len,
                            stride: taped(self, &mut stms, stride),
                        },
                    });
                }
                logs[c].updates.push(undo::Logged { place: undo::Place::Slice(logged), old, flag: None });
                bound_here.extend(bs.pat.iter().map(|p| p.name));
                stms.push(bs.clone());
                continue;
            }
            let scattered = match &bs.exp {
                Exp::Soac(Soac::Scatter { w, arrs, dests, .. }) => {
                    self.scatter_parts(arrs, dests).into_iter().next().map(|(idx, _)| (dests[0], idx, w))
                }
                Exp::Soac(Soac::Hist { w, arrs, ops, .. }) => {
                    ops.first().map(|op| (op.dests[0], arrs[..op.shape.len()].to_vec(), w))
                }
                _ => None,
            };
            if let (Some(c), Some((dest, idx, w))) = (logged, scattered) {
                // What the scatter or histogram overwrites (zero where an
                // index is out of range) and its index arrays, saved per
                // iteration, as arrays of its `w` values (the same in
                // every iteration).
                let ty = self.types[&dest].clone();
                let elem = super::scatter::drop_dims(&ty, idx.len());
                let old = self.gather_nd(&mut stms, dest, &idx, *w, &elem, span);
                let old = tape(self, &mut stms, old, &elem.array_of(*w), None);
                let ity = Type::Prim(PrimType::I64).array_of(*w);
                let mut indices = Vec::new();
                for is in idx {
                    let shaped = if self.types[&is].shape().first() == Some(w) {
                        is
                    } else {
                        let exp = Exp::Reshape { array: is, shape: vec![*w] };
                        self.bind(&mut stms, "logged_indices", ity.clone(), exp, span)
                    };
                    indices.push(tape(self, &mut stms, shaped, &ity, None));
                }
                logs[c].updates.push(undo::Logged { place: undo::Place::Scatter { w: *w, indices }, old, flag: None });
                bound_here.extend(bs.pat.iter().map(|p| p.name));
                stms.push(bs.clone());
                continue;
            }
            let links: Vec<(usize, usize)> = chains
                .iter()
                .enumerate()
                .filter_map(|(c, ch)| Some((c, bs.pat.iter().position(|p| ch.updates.contains(&p.name))?)))
                .collect();
            if !links.is_empty() && matches!(bs.exp, Exp::If { .. }) {
                let names = self.log_conditional(bs, &links, &mut logs, &mut stms, &mut |cx, stms, v, ty| {
                    tape(cx, stms, v, ty, None)
                })?;
                bound_here.extend(names);
                continue;
            }
            if let Some(k) = k.filter(|_| costly(bs)) {
                stms.push(bs.clone());
                let p = &bs.pat[0];
                saved.push(tape(self, &mut stms, p.name, &p.ty, None));
                layouts.push(TapeLayout { stm: k, results: 1, extra: 0, kind: TapeKind::Value });
                bound_here.insert(p.name);
                continue;
            }
            if let Some(k) = k.filter(|_| tape_inner || !matches!(bs.exp, Exp::Loop { .. })) {
                let mut swept = Vec::new();
                // A taped loop saves its parameters whole (its layout).
                self.undo.off = matches!(bs.exp, Exp::Loop { .. });
                let swept_ok = self.forward(std::slice::from_ref(bs), &mut swept, &mut inner);
                self.undo.off = false;
                swept_ok?;
                let first = bs.pat[0].name;
                let found = match &bs.exp {
                    Exp::Loop { .. } => inner
                        .loops
                        .get(&first)
                        .map(|a| (a.clone(), TapeKind::Loop(inner.tapes.get(&first).cloned().unwrap_or_default()))),
                    _ => inner.calls.get(&first).map(|(f, res)| (res.clone(), TapeKind::Call(f.clone()))),
                };
                if let Some((extra, kind)) = found {
                    let mut inside = bound_here.clone();
                    inside.extend(swept.iter().flat_map(|t| t.pat.iter().map(|p| p.name)));
                    let values: Vec<(VName, Type)> = bs
                        .pat
                        .iter()
                        .map(|p| (p.name, p.ty.clone()))
                        .chain(extra.iter().map(|v| (*v, self.types[v].clone())))
                        .collect();
                    let fixed = values.iter().all(|(_, t)| ogham_ir::visit::type_vars(t).all(|d| !inside.contains(&d)));
                    if fixed {
                        bound_here = inside;
                        let at = swept.iter().position(|t| t.pat.first().map(|p| p.name) == Some(first));
                        let mut saves = Vec::new();
                        for (v, ty) in &values {
                            // The inner loop's own saved arrays go straight
                            // into rows of this loop's tapes.
                            let direct = at.and_then(|a| {
                                let k = writes_rows(&swept, a, *v)?;
                                Some((&mut swept[a], k))
                            });
                            saved.push(tape(self, &mut saves, *v, ty, direct));
                        }
                        stms.extend(swept);
                        stms.append(&mut saves);
                        layouts.push(TapeLayout { stm: k, results: bs.pat.len(), extra: extra.len(), kind });
                        continue;
                    }
                }
            }
            bound_here.extend(bs.pat.iter().map(|p| p.name));
            stms.push(bs.clone());
        }
        for v in hoisted {
            self.lengths.remove(&v);
        }
        ck.loops.insert(s.pat[0].name, saved);
        if !logs.is_empty() {
            ck.undo.insert(s.pat[0].name, logs);
        }
        if !layouts.is_empty() {
            ck.tapes.insert(s.pat[0].name, layouts);
        }
        // The loop runs to the tapes' length, which is its bound where it
        // runs at all, so that the bounds of the tapes' indices are plain
        // (the reverse loop reads it from the tapes).
        let form = LoopForm::For { i: *i, bound: len };
        let body = ogham_ir::Body { stms, result };
        out.push(Stm { pat, exp: Exp::Loop { params, form, body }, attrs: s.attrs, span });
        Ok(())
    }

    /// The forward sweep of a `map`: the `map`, also returning, per
    /// element, what its function computes at top level that would be
    /// costly to compute again (recorded in `ck` for the return sweep,
    /// which reads it instead; DCE removes what it does not read): its
    /// elementary functions, the results of its reductions, and the
    /// results of its nested maps with what those save the same way.
    ///
    /// Saved only where the forward `map` runs anyway: its results are
    /// read by a statement whose return sweep needs them (anything but a
    /// sum), or returned from a scope that is not re-executed. A `map`
    /// only summed in a re-executed scope is removed by DCE, and its
    /// return sweep computes each element once. Outside a re-executed
    /// scope, a `map` of scalar statements saves its elementary functions
    /// regardless: there the map and its return sweep run far apart, so
    /// fusion does not join them.
    pub(super) fn forward_map(&mut self, s: &Stm, out: &mut Vec<Stm>, ck: &mut Checkpoints) {
        let Exp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp else { return out.push(s.clone()) };
        let reread =
            s.pat.iter().any(|p| ck.reread.contains(&p.name) || (!self.reexecuting && ck.results.contains(&p.name)));
        let elementary = !self.reexecuting && map.body.stms.iter().all(scalar);
        if s.pat.is_empty() || !(reread || elementary) {
            return out.push(s.clone());
        }
        let (hoisted, map) = hoist_integers(map);
        // The iteration counts of the function's loops whose bounds come
        // from outside it, computed outside it (as `forward_for` does for
        // its inner loops), so that their checkpoints have sizes the
        // forward map can return.
        let bound_inside: HashSet<VName> = map.body.stms.iter().flat_map(|t| t.pat.iter().map(|p| p.name)).collect();
        let (mut counts, mut added) = (Vec::new(), Vec::new());
        for t in &map.body.stms {
            if let Exp::Loop { form: LoopForm::For { bound: SubExp::Var(v), .. }, .. } = &t.exp {
                if !bound_inside.contains(v) && !self.lengths.contains_key(v) {
                    let n = self.iterations(SubExp::Var(*v), &mut counts, s.span);
                    self.lengths.insert(*v, n);
                    added.push(*v);
                }
            }
        }
        let residuals = self.map_residuals(&map, true);
        for v in added {
            self.lengths.remove(&v);
        }
        let Some((lam, layouts, saved)) = residuals else { return out.push(s.clone()) };
        out.extend(hoisted);
        out.extend(counts);
        let mut pat = s.pat.clone();
        for t in &lam.ret[pat.len()..] {
            pat.push(self.fresh_typed("residual", &t.array_of(*w)));
        }
        let arrays = saved.iter().map(|&k| pat[k].name).collect();
        let exp = Exp::Soac(Soac::Screma {
            w: *w,
            arrs: arrs.clone(),
            scans: scans.clone(),
            reduces: reduces.clone(),
            map: lam,
        });
        out.push(Stm { pat, exp, attrs: s.attrs, span: s.span });
        ck.maps.insert(s.pat[0].name, (layouts, arrays));
    }

    /// `lam` also returning what its top-level statements save (see
    /// [`Ad::forward_map`]), with where each is and, per saved value in
    /// order, its position among the new function's results (a value
    /// already returned is not returned twice); `None` when it saves
    /// nothing. A nested map is saved only when it saves something itself
    /// and the types of its values do not depend on what the function
    /// computes; it saves only reductions (and nested maps of them), each
    /// value saving work in the length of what it reduced, not elementary
    /// functions, which would save an array of the nested map's size per
    /// element for a few instructions each.
    fn map_residuals(&mut self, lam: &Lambda, elementary: bool) -> Option<(Lambda, Vec<TapeLayout>, Vec<usize>)> {
        let mut inside: HashSet<VName> = lam.params.iter().map(|p| p.name).collect();
        let mut stms = Vec::new();
        let (mut result, mut ret) = (lam.body.result.clone(), lam.ret.clone());
        let mut layouts = Vec::new();
        let mut saved = Vec::new();
        let mut save = |v: &Param, result: &mut Vec<SubExp>, ret: &mut Vec<Type>| {
            let k = result.iter().position(|r| *r == SubExp::Var(v.name)).unwrap_or_else(|| {
                result.push(SubExp::Var(v.name));
                ret.push(v.ty.clone());
                result.len() - 1
            });
            saved.push(k);
        };
        for (bs, k) in positions(&lam.body.stms, saveable) {
            let mut bs = bs.clone();
            if let Some(k) = k.filter(|_| tapeable_loop(&bs)) {
                if let Some((swept, results, extra, kind)) = self.loop_residuals(&bs, &lam.body, &inside) {
                    for p in &results {
                        save(p, &mut result, &mut ret);
                    }
                    for v in &extra {
                        save(&Param { name: *v, ty: self.types[v].clone() }, &mut result, &mut ret);
                    }
                    layouts.push(TapeLayout { stm: k, results: bs.pat.len(), extra: extra.len(), kind });
                    inside.extend(swept.iter().flat_map(|t| t.pat.iter().map(|p| p.name)));
                    stms.extend(swept);
                    continue;
                }
            }
            match k {
                Some(k) if nested_map(&bs) => 'nested: {
                    let Exp::Soac(Soac::Screma { w, map, .. }) = &mut bs.exp else { break 'nested };
                    let w = *w;
                    let Some((inner, kinds, elems)) = self.map_residuals(map, false) else { break 'nested };
                    let fixed = |t: &Type| ogham_ir::visit::type_vars(&t.array_of(w)).all(|v| !inside.contains(&v));
                    if !inner.ret.iter().all(fixed) {
                        break 'nested;
                    }
                    let results = bs.pat.len();
                    for t in &inner.ret[results..] {
                        bs.pat.push(self.fresh_typed("residual", &t.array_of(w)));
                    }
                    *map = inner;
                    for p in &bs.pat[..results] {
                        save(p, &mut result, &mut ret);
                    }
                    for &e in &elems {
                        save(&bs.pat[e], &mut result, &mut ret);
                    }
                    layouts.push(TapeLayout { stm: k, results, extra: elems.len(), kind: TapeKind::Map(kinds) });
                }
                Some(k) if (elementary && costly(&bs)) || reduction(&bs) => {
                    for p in &bs.pat {
                        save(p, &mut result, &mut ret);
                    }
                    layouts.push(TapeLayout { stm: k, results: bs.pat.len(), extra: 0, kind: TapeKind::Value });
                }
                _ => {}
            }
            inside.extend(bs.pat.iter().map(|p| p.name));
            stms.push(bs);
        }
        if layouts.is_empty() {
            return None;
        }
        let body = ogham_ir::Body { stms, result };
        Some((Lambda { params: lam.params.clone(), body, ret }, layouts, saved))
    }

    /// The forward sweep of the `for` loop `s` of a `map`'s function
    /// (`body`) that the forward `map` runs: the statements that replace
    /// it, the checkpoints it saves (its parameters whole, per iteration,
    /// and what its own loops and calls save), and their layout; `None`
    /// where a checkpoint's type depends on what the function computes
    /// (`inside`), so that the forward `map` cannot return it per element.
    /// The return sweep of the map's function then reads them instead of
    /// running the loop again: the D-LSTM's recurrence written per
    /// channel, a `map` of loops over time, ran every step three times
    /// (the forward `map`, the forward sweep in the reverse `map`, the
    /// reverse loop's re-execution) and twice with this (once with the
    /// loop's tapes of elementary functions). The memory is that of the
    /// same loop run outside the `map` over all elements at once (a loop
    /// over time of a `map` over the elements, which saves its
    /// parameters and tapes its inner loops per iteration): proportional
    /// to the work, where re-executing needed only one element's
    /// checkpoints per thread at a time.
    fn loop_residuals(
        &mut self,
        s: &Stm,
        body: &ogham_ir::Body,
        inside: &HashSet<VName>,
    ) -> Option<(Vec<Stm>, Vec<Param>, Vec<VName>, TapeKind)> {
        let mut swept = Vec::new();
        let mut inner = Checkpoints::of(body);
        // Saved whole, as the tapes of a loop's inner loops are.
        self.undo.off = true;
        let ok = self.forward(std::slice::from_ref(s), &mut swept, &mut inner);
        self.undo.off = false;
        ok.ok()?;
        let first = s.pat[0].name;
        let extra = inner.loops.get(&first)?.clone();
        // The loop's results with the types its forward sweep gives them
        // (the sizes it carries fixed to their initial values).
        let swept_loop = swept.iter().find(|t| t.pat.first().is_some_and(|p| p.name == first))?;
        let results = swept_loop.pat[..s.pat.len()].to_vec();
        let mut bound = inside.clone();
        bound.extend(swept.iter().flat_map(|t| t.pat.iter().map(|p| p.name)));
        let fixed = |ty: &Type| ogham_ir::visit::type_vars(ty).all(|d| !bound.contains(&d));
        if !extra.iter().all(|v| fixed(&self.types[v])) || !results.iter().all(|p| fixed(&p.ty)) {
            return None;
        }
        Some((swept, results, extra, TapeKind::Loop(inner.tapes.get(&first).cloned().unwrap_or_default())))
    }

    /// The forward sweep of a re-executed loop body: the statements its
    /// loop taped are read back from the tapes at the iteration's index,
    /// with what their own return sweeps need recorded in `ck`; the rest
    /// run again.
    pub(super) fn forward_replaying(
        &mut self,
        stms: &[Stm],
        out: &mut Vec<Stm>,
        ck: &mut Checkpoints,
        replay: Option<&Replay>,
    ) -> R<()> {
        let Some(replay) = replay.filter(|r| !r.layouts.is_empty()) else { return self.forward(stms, out, ck) };
        let consumed: HashSet<VName> = stms.iter().flat_map(|s| ogham_ir::visit::consumed_deep(&s.exp)).collect();
        let mut offset = 0;
        let mut layouts = replay.layouts.iter().peekable();
        let taped = if replay.index.is_some() { tapeable } else { saveable };
        for (s, here) in positions(stms, taped) {
            let Some(lay) = layouts.next_if(|l| Some(l.stm) == here) else {
                self.forward(std::slice::from_ref(s), out, ck)?;
                continue;
            };
            let kinds_agree = match (&lay.kind, &s.exp) {
                (TapeKind::Loop(_), Exp::Loop { .. }) | (TapeKind::Call(_), Exp::Apply { .. }) => true,
                (TapeKind::Value, _) => costly(s) || reduction(s),
                (TapeKind::Map(_), _) => nested_map(s),
                _ => false,
            };
            if !kinds_agree || lay.results != s.pat.len() || offset + lay.results + lay.extra > replay.arrays.len() {
                return Err(internal(s.span, "a taped statement not found again where it was taped".into()));
            }
            let arrays = &replay.arrays[offset..offset + lay.results + lay.extra];
            offset += arrays.len();
            let Some(index) = replay.index else {
                for (p, a) in s.pat.iter().zip(arrays) {
                    let copy = p.ty.rank() > 0 && consumed.contains(&p.name);
                    let exp = if copy { Exp::Copy(*a) } else { Exp::SubExp(SubExp::Var(*a)) };
                    out.push(stm(p.clone(), exp, s.span));
                }
                lay.kind.record(ck, s.pat[0].name, arrays[lay.results..].to_vec());
                continue;
            };
            for (p, a) in s.pat.iter().zip(arrays) {
                let exp = Exp::Index { array: *a, slice: vec![DimIndex::Fix(index)] };
                if p.ty.rank() > 0 && consumed.contains(&p.name) {
                    let row = self.bind(out, "taped", p.ty.clone(), exp, s.span);
                    out.push(stm(p.clone(), Exp::Copy(row), s.span));
                } else {
                    out.push(stm(p.clone(), exp, s.span));
                }
            }
            let mut extra = Vec::new();
            for a in &arrays[lay.results..] {
                let ty = self.types[a].row();
                let exp = Exp::Index { array: *a, slice: vec![DimIndex::Fix(index)] };
                extra.push(self.bind(out, "taped", ty, exp, s.span));
            }
            lay.kind.record(ck, s.pat[0].name, extra);
        }
        Ok(())
    }
}
