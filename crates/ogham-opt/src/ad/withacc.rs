//! A `withacc` the program wrote itself (Futhark's `scatter_stream` and
//! `reduce_by_index_stream`, lowered to one) as SOACs both modes have
//! rules for, when its map updates each accumulator only at the top of
//! its body or in the branches of an `if` there: a `map` computing every update's
//! indices and value, then one `scatter` (for an accumulator whose writes
//! overwrite) or one `hist` (for one combining with `+`, `*`, `min`, `max`
//! or another operator with a neutral element) per accumulator. They
//! compute the same arrays: a `withacc` applies its updates in no
//! particular order, as `scatter` and `hist` do. Reverse mode rewrites
//! every such `withacc`; forward mode those combining other than by `+`
//! or overwriting (which are linear, and get tangent accumulators).
//!
//! Several updates of one accumulator (a chain, each consuming the
//! last) give one `scatter` or `hist` each, one after another. An `if`
//! whose branches update the accumulator (each a chain of its own, or
//! none) gives one per update of its longer branch: the branch with fewer
//! returns the index -1 for the rest, which `scatter` and `hist` skip as
//! out of range. A `for` loop whose one parameter is the accumulator, and
//! whose trip count is the same for every element of the map, becomes a
//! `map` over its iterations making each update's indices and values, and
//! the `scatter` or `hist` runs over all of them (the map's width times
//! the trip counts). These nest: loops in branches, branches in loops.
//! Updates inside a nested `withacc` or `map`, or in a loop carrying
//! anything else, are not rewritten, and both modes reject the statement
//! as before.

use std::collections::BTreeSet;

use ogham_ir::{
    BinOp, Body, DimIndex, Exp, HistOp, Lambda, LoopForm, Operator, Param, PrimType, PrimValue, Soac, Stm, SubExp,
    Type, VName,
};

use super::rev::scatter::drop_dims;
use crate::ad::Ad;

/// One update of an accumulator: where it writes, what, and how.
#[derive(Clone)]
struct Update {
    indices: Vec<SubExp>,
    value: SubExp,
    /// The combining operator and its neutral element (`None`: writes
    /// overwrite).
    op: Option<(BinOp, PrimValue)>,
    /// The trip counts of the loops around the update in the map's
    /// function, outermost first: its indices and value are arrays of
    /// this shape, one element per iteration.
    dims: Vec<SubExp>,
}

impl Update {
    /// Whether `self` and `other` can be one update (the two branches'
    /// updates of one position in their chains).
    fn matches(&self, other: &Update) -> bool {
        self.indices.len() == other.indices.len() && self.op == other.op && self.dims == other.dims
    }

    /// The types of its indices, then of its value, in an accumulator of
    /// type `ty`.
    fn part_types(&self, ty: &Type) -> Vec<Type> {
        let k = self.indices.len();
        let mut types: Vec<Type> = (0..k).map(|_| with_dims(Type::Prim(PrimType::I64), &self.dims)).collect();
        types.push(with_dims(drop_dims(ty, k), &self.dims));
        types
    }

    /// Its indices, then its value.
    fn parts(&self) -> impl Iterator<Item = SubExp> + '_ {
        self.indices.iter().copied().chain([self.value])
    }
}

/// `ty` with the outer dimensions `dims`.
fn with_dims(ty: Type, dims: &[SubExp]) -> Type {
    dims.iter().rev().fold(ty, |t, d| t.array_of(*d))
}

/// `st` as an update of accumulator `acc` of type `ty` (by fixed indices
/// only), with the accumulator it binds.
fn update_of(st: &Stm, acc: VName, ty: &Type) -> Option<(Update, VName)> {
    let Exp::UpdAcc { acc: a, slice, value, op } = &st.exp else { return None };
    if *a != acc || st.pat.len() != 1 {
        return None;
    }
    let indices: Vec<SubExp> =
        slice.iter().map(|d| if let DimIndex::Fix(i) = d { Some(*i) } else { None }).collect::<Option<_>>()?;
    // A histogram combines elements; a scatter may write rows.
    let op = match op {
        None if indices.len() <= ty.rank() => None,
        Some(op) if indices.len() == ty.rank() => Some((*op, op.neutral(ty.elem())?)),
        _ => return None,
    };
    if indices.is_empty() {
        return None;
    }
    Some((Update { indices, value: *value, op, dims: Vec::new() }, st.pat[0].name))
}

/// How one step of an accumulator's chain is written in a body.
enum Step {
    /// An `updacc` statement (binding this name).
    Direct(VName, Update),
    /// An `if` binding the next accumulator (this name), with each
    /// branch's steps.
    Branch { next: VName, then_: Vec<Step>, else_: Vec<Step> },
    /// A `for` loop over the accumulator alone binding the next (this
    /// name), with its body's steps.
    Loop { next: VName, body: Vec<Step> },
}

/// The steps that take accumulator `acc` (of type `ty`) in `body` to one
/// of the body's results, and that result's position; `None` if the body
/// uses the accumulator in any other way. `free`: the names bound outside
/// the map's function (a loop's trip count must be one of them, or a
/// constant).
fn chain(body: &Body, mut acc: VName, ty: &Type, free: &BTreeSet<VName>) -> Option<(Vec<Step>, usize)> {
    let mut steps = Vec::new();
    loop {
        let at: Vec<usize> = (0..body.result.len()).filter(|&r| body.result[r] == SubExp::Var(acc)).collect();
        if let [r] = at[..] {
            return Some((steps, r));
        }
        if !at.is_empty() {
            return None;
        }
        let (step, next) = body.stms.iter().find_map(|st| step_of(st, acc, ty, free))?;
        steps.push(step);
        acc = next;
    }
}

/// `st` as a step of the chain of accumulator `acc`, with the
/// accumulator it binds.
fn step_of(st: &Stm, acc: VName, ty: &Type, free: &BTreeSet<VName>) -> Option<(Step, VName)> {
    match &st.exp {
        Exp::UpdAcc { .. } => update_of(st, acc, ty).map(|(u, next)| (Step::Direct(next, u), next)),
        Exp::If { then_body, else_body, .. } => {
            let (then_, r) = chain(then_body, acc, ty, free)?;
            let (else_, r2) = chain(else_body, acc, ty, free)?;
            let next = st.pat[r].name;
            (r == r2 && !(then_.is_empty() && else_.is_empty())).then_some((Step::Branch { next, then_, else_ }, next))
        }
        Exp::Loop { params, form: LoopForm::For { bound, .. }, body } => {
            let [(p, init)] = &params[..] else { return None };
            if *init != SubExp::Var(acc) || bound.as_var().is_some_and(|v| !free.contains(&v)) {
                return None;
            }
            let (steps, r) = chain(body, p.name, ty, free)?;
            let next = st.pat[0].name;
            (r == 0 && !steps.is_empty()).then_some((Step::Loop { next, body: steps }, next))
        }
        _ => None,
    }
}

impl Ad {
    /// `s` as a `map` and one `scatter` or `hist` per accumulator, if it is
    /// a `withacc` of the shape in the module documentation.
    pub(in crate::ad) fn withacc_as_soacs(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &s.exp else { return None };
        let (w, m) = (*w, accs.len());
        let span = s.span;
        let free = ogham_ir::visit::free_vars_lambda(map);
        // Per accumulator, its chain of steps: each consumes the last.
        let mut chains: Vec<Vec<Step>> = Vec::with_capacity(m);
        for (j, p) in map.params[..m].iter().enumerate() {
            let (steps, r) = chain(&map.body, p.name, &p.ty, &free)?;
            if r != j || steps.is_empty() {
                return None;
            }
            chains.push(steps);
        }
        // The map's body without the updates: per accumulator its
        // updates' indices and values.
        let mut stms = map.body.stms.clone();
        let mut updates: Vec<Vec<Update>> = Vec::with_capacity(m);
        // Statements before the map: the loops' trip counts.
        let mut out = Vec::new();
        for (chain, p) in chains.iter().zip(&map.params) {
            updates.push(self.take_updates(&mut stms, chain, &p.ty, span, &mut out)?);
        }
        // The map: per accumulator its indices and value, then the mapped
        // results.
        let mut part_types = Vec::new();
        let mut result = Vec::new();
        for (chain, p) in updates.iter().zip(&map.params) {
            for u in chain {
                part_types.extend(u.part_types(&p.ty));
                result.extend(u.parts());
            }
        }
        result.extend(map.body.result[m..].iter().copied());
        let ret = part_types.iter().chain(&map.ret[m..]).cloned().collect();
        let lambda = Lambda { params: map.params[m..].to_vec(), body: Body { stms, result }, ret };
        let mut parts: Vec<Param> = part_types.iter().map(|t| self.fresh_typed("acc_in", &t.array_of(w))).collect();
        let names: Vec<ogham_ir::VName> = parts.iter().map(|p| p.name).collect();
        parts.extend(s.pat[m..].iter().cloned());
        out.push(Stm {
            pat: parts,
            exp: Exp::Soac(Soac::Screma { w, arrs: arrs.clone(), scans: vec![], reduces: vec![], map: lambda }),
            attrs: s.attrs,
            span,
        });
        // Per update, a scatter or histogram, one after another into the
        // accumulator's array (in no particular order, as in a `withacc`).
        let mut at = 0;
        for (j, ((chain, p), dest)) in updates.iter().zip(&map.params).zip(accs).enumerate() {
            let mut dest = *dest;
            for (c, u) in chain.iter().enumerate() {
                let k = u.indices.len();
                let mut ins = names[at..at + k + 1].to_vec();
                // The parts' elements, without the loops' dimensions.
                let elems: Vec<Type> = part_types[at..at + k + 1].iter().map(|t| drop_dims(t, u.dims.len())).collect();
                at += k + 1;
                // Updates made in loops: every iteration's, all in a row.
                let mut width = w;
                for d in &u.dims {
                    width = self.bin(&mut out, BinOp::Mul, PrimType::I64, width, *d, span);
                }
                if !u.dims.is_empty() {
                    for (x, t) in ins.iter_mut().zip(&elems) {
                        let flat = t.array_of(width);
                        let exp = Exp::Reshape { array: *x, shape: flat.shape().to_vec() };
                        *x = self.bind(&mut out, "acc_flat", flat, exp, span);
                    }
                }
                let identity = self.identity_lambda(&elems);
                let w = width;
                let exp = match u.op {
                    None => Exp::Soac(Soac::Scatter { w, arrs: ins, dests: vec![dest], map: identity }),
                    Some((op, neutral)) => {
                        let elem = p.ty.elem();
                        let t = Type::Prim(elem);
                        let (x, y) = (self.fresh_typed("x", &t), self.fresh_typed("y", &t));
                        let mut body = Vec::new();
                        let r = self.bin(&mut body, op, elem, SubExp::Var(x.name), SubExp::Var(y.name), span);
                        let op = Operator {
                            lambda: Lambda {
                                params: vec![x, y],
                                body: Body { stms: body, result: vec![r] },
                                ret: vec![t],
                            },
                            neutral: vec![SubExp::Const(neutral)],
                            commutative: true,
                        };
                        let hist = HistOp { shape: p.ty.shape().to_vec(), dests: vec![dest], op };
                        Exp::Soac(Soac::Hist { w, arrs: ins, ops: vec![hist], map: identity })
                    }
                };
                let pat =
                    if c + 1 == chain.len() { s.pat[j].clone() } else { self.fresh_typed("acc_part", &s.pat[j].ty) };
                dest = pat.name;
                out.push(Stm { pat: vec![pat], exp, attrs: s.attrs, span });
            }
        }
        Some(out)
    }
}

impl Ad {
    /// Removes the updates of `steps` (one accumulator's chain, of type
    /// `ty`) from `stms`, and gives them, their indices and values bound
    /// in `stms`: an `if` returns its branches' updates' instead of the
    /// accumulator (index -1 where a branch has fewer), and a loop becomes
    /// a `map` over its iterations returning its body's.
    fn take_updates(
        &mut self,
        stms: &mut Vec<Stm>,
        steps: &[Step],
        ty: &Type,
        span: ogham_ir::Span,
        pre: &mut Vec<Stm>,
    ) -> Option<Vec<Update>> {
        let mut out = Vec::new();
        for step in steps {
            match step {
                Step::Direct(name, u) => {
                    stms.retain(|st| !matches!(&st.exp, Exp::UpdAcc { .. } if st.pat[0].name == *name));
                    out.push(u.clone());
                }
                Step::Branch { next, then_, else_ } => {
                    let pos = stms.iter().position(|st| st.pat.iter().any(|q| q.name == *next))?;
                    let mut if_ = stms[pos].clone();
                    out.extend(self.branch_updates(&mut if_, (*next, then_, else_), ty, span, pre)?);
                    stms[pos] = if_;
                }
                Step::Loop { next, body: inner } => {
                    let pos = stms.iter().position(|st| st.pat.iter().any(|q| q.name == *next))?;
                    let (iota, map, updates) = self.loop_updates(&stms[pos], inner, ty, pre)?;
                    stms.splice(pos..=pos, [iota, map]);
                    out.extend(updates);
                }
            }
        }
        Some(out)
    }

    /// `loop_` (a `for` loop over an accumulator alone, whose body's
    /// updates are `steps`) as an `iota` and a `map` over it returning per
    /// update its indices and values for every iteration, and those
    /// updates; the trip count (at least 0) is computed in `pre`, before
    /// the `withacc`'s map.
    fn loop_updates(
        &mut self,
        loop_: &Stm,
        steps: &[Step],
        ty: &Type,
        pre: &mut Vec<Stm>,
    ) -> Option<(Stm, Stm, Vec<Update>)> {
        let Exp::Loop { form: LoopForm::For { i, bound }, body, .. } = &loop_.exp else { return None };
        let span = loop_.span;
        let mut stms = body.stms.clone();
        let inner = self.take_updates(&mut stms, steps, ty, span, pre)?;
        // A loop to a negative bound runs no iteration: no negative size.
        let bound = &match bound {
            SubExp::Const(PrimValue::I64(b)) => SubExp::Const(PrimValue::I64((*b).max(0))),
            _ => self.bin(pre, BinOp::Max, PrimType::I64, *bound, SubExp::Const(PrimValue::I64(0)), span),
        };
        let counter = Param { name: *i, ty: Type::Prim(PrimType::I64) };
        let iota = self.fresh_typed("acc_iterations", &counter.ty.array_of(*bound));
        let iota_stm = Stm {
            pat: vec![iota.clone()],
            exp: Exp::Iota {
                n: *bound,
                start: SubExp::Const(PrimValue::I64(0)),
                step: SubExp::Const(PrimValue::I64(1)),
                elem: PrimType::I64,
            },
            attrs: loop_.attrs,
            span,
        };
        let (mut result, mut ret, mut pat, mut updates) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for u in inner {
            let mut parts = Vec::with_capacity(u.indices.len() + 1);
            for (x, part_ty) in u.parts().zip(u.part_types(ty)) {
                let q = self.fresh_typed("acc_parts", &part_ty.array_of(*bound));
                result.push(x);
                ret.push(part_ty);
                parts.push(SubExp::Var(q.name));
                pat.push(q);
            }
            let value = parts.pop().expect("the value is the last part");
            let dims = std::iter::once(*bound).chain(u.dims.iter().copied()).collect();
            updates.push(Update { indices: parts, value, op: u.op, dims });
        }
        let lambda = Lambda { params: vec![counter], body: Body { stms, result }, ret };
        let map = Stm {
            pat,
            exp: Exp::Soac(Soac::Screma {
                w: *bound,
                arrs: vec![iota.name],
                scans: vec![],
                reduces: vec![],
                map: lambda,
            }),
            attrs: loop_.attrs,
            span,
        };
        Some((iota_stm, map, updates))
    }

    /// Rewrites `if_`, whose branches update an accumulator (`then_` and
    /// `else_`) and bind the next as `next`, to return per update of the
    /// longer branch its indices and values instead (index -1 where the
    /// branch has no such update), and gives those updates.
    fn branch_updates(
        &mut self,
        if_: &mut Stm,
        (next, then_, else_): (VName, &[Step], &[Step]),
        ty: &Type,
        span: ogham_ir::Span,
        pre: &mut Vec<Stm>,
    ) -> Option<Vec<Update>> {
        let Exp::If { then_body, else_body, .. } = &mut if_.exp else { return None };
        let at = if_.pat.iter().position(|q| q.name == next)?;
        let then_ = self.take_updates(&mut then_body.stms, then_, ty, span, pre)?;
        let else_ = self.take_updates(&mut else_body.stms, else_, ty, span, pre)?;
        // The updates of one position in both chains become one where they
        // agree in kind; the others are each branch's own.
        let mut pairs: Vec<(Option<&Update>, Option<&Update>)> = Vec::new();
        for i in 0..then_.len().max(else_.len()) {
            match (then_.get(i), else_.get(i)) {
                (Some(t), Some(e)) if t.matches(e) => pairs.push((Some(t), Some(e))),
                (t, e) => {
                    pairs.extend(t.map(|t| (Some(t), None)));
                    pairs.extend(e.map(|e| (None, Some(e))));
                }
            }
        }
        let mut out = Vec::new();
        for (t, e) in pairs {
            let u = t.or(e).expect("every pair has an update");
            let (k, in_loops) = (u.indices.len(), !u.dims.is_empty());
            // The indices, then the value.
            let mut parts = Vec::with_capacity(k + 1);
            for (d, part_ty) in u.part_types(ty).into_iter().enumerate() {
                let q = self.fresh_typed("acc_part", &part_ty);
                parts.push(SubExp::Var(q.name));
                if_.pat.push(q);
                for (body, u) in [(&mut *then_body, t), (&mut *else_body, e)] {
                    let part = match u {
                        Some(u) => u.parts().nth(d).expect("the branches' updates match"),
                        // No such update in this branch: an index out of
                        // range, which `scatter` and `hist` skip (for
                        // every iteration of the loops around it).
                        None if d < k => {
                            let skip = SubExp::Const(PrimValue::I64(if d == 0 { -1 } else { 0 }));
                            if in_loops {
                                let exp = Exp::Replicate { shape: part_ty.shape().to_vec(), value: skip };
                                SubExp::Var(self.bind(&mut body.stms, "acc_skip", part_ty.clone(), exp, span))
                            } else {
                                skip
                            }
                        }
                        None => self.zero(&mut body.stms, &part_ty, span),
                    };
                    body.result.push(part);
                }
            }
            let value = parts.pop().expect("the value is the last part");
            out.push(Update { indices: parts, value, op: u.op, dims: u.dims.clone() });
        }
        then_body.result.remove(at);
        else_body.result.remove(at);
        if_.pat.remove(at);
        Some(out)
    }
}

/// Whether `exp` is a `withacc` whose map (at any depth) updates an
/// accumulator with an operator other than `+`, which forward mode has no
/// tangent accumulator for.
pub(super) fn combines_nonlinearly(exp: &Exp) -> bool {
    fn body_has(b: &Body) -> bool {
        b.stms.iter().any(|s| match &s.exp {
            Exp::UpdAcc { op, .. } => !matches!(op, None | Some(ogham_ir::BinOp::Add)),
            e => {
                ogham_ir::visit::bodies(e).into_iter().any(body_has)
                    || ogham_ir::visit::lambdas(e).into_iter().any(|l| body_has(&l.body))
            }
        })
    }
    matches!(exp, Exp::Soac(Soac::WithAcc { map, .. }) if body_has(&map.body))
}
