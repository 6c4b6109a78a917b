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
//! out of range. Updates inside a loop or a nested `withacc` or `map` are
//! not rewritten, and both modes reject the statement as before.

use ogham_ir::{
    BinOp, Body, DimIndex, Exp, HistOp, Lambda, Operator, Param, PrimType, PrimValue, Soac, Stm, SubExp, Type, VName,
};

use crate::ad::Ad;

/// One update of an accumulator: where it writes, what, and how.
#[derive(Clone)]
struct Update {
    indices: Vec<SubExp>,
    value: SubExp,
    /// The combining operator and its neutral element (`None`: writes
    /// overwrite).
    op: Option<(BinOp, PrimValue)>,
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
    Some((Update { indices, value: *value, op }, st.pat[0].name))
}

/// The chain of updates of accumulator `acc` in a branch's body, with the
/// names of their statements and the position of the branch's result
/// that returns the last; `None` if the body uses the accumulator in any
/// other way.
fn branch_chain(body: &Body, mut acc: VName, ty: &Type) -> Option<(Vec<(VName, Update)>, usize)> {
    let mut chain = Vec::new();
    loop {
        let at: Vec<usize> = (0..body.result.len()).filter(|&r| body.result[r] == SubExp::Var(acc)).collect();
        if let [r] = at[..] {
            return Some((chain, r));
        }
        if !at.is_empty() {
            return None;
        }
        let (u, next) =
            body.stms.iter().find_map(|st| update_of(st, acc, ty).map(|(u, n)| ((st.pat[0].name, u), n)))?;
        chain.push(u);
        acc = next;
    }
}

/// How one step of an accumulator's chain is written in the map's body.
enum Step {
    /// An `updacc` statement (binding this name).
    Direct(VName, Update),
    /// An `if` (at this position) binding the next accumulator (this
    /// name), with each branch's updates.
    Branch { pos: usize, next: VName, then_: Vec<(VName, Update)>, else_: Vec<(VName, Update)> },
}

impl Ad {
    /// `s` as a `map` and one `scatter` or `hist` per accumulator, if it is
    /// a `withacc` of the shape in the module documentation.
    pub(in crate::ad) fn withacc_as_soacs(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &s.exp else { return None };
        let (w, m) = (*w, accs.len());
        let span = s.span;
        // Per accumulator, its chain of steps: each consumes the last.
        let mut chains: Vec<Vec<Step>> = Vec::with_capacity(m);
        for (j, p) in map.params[..m].iter().enumerate() {
            let mut chain = Vec::new();
            let mut current = p.name;
            while SubExp::Var(current) != map.body.result[j] {
                let (step, next) = map.body.stms.iter().enumerate().find_map(|(pos, st)| match &st.exp {
                    Exp::UpdAcc { .. } => update_of(st, current, &p.ty).map(|(u, next)| (Step::Direct(next, u), next)),
                    Exp::If { then_body, else_body, .. } => {
                        let (then_, r) = branch_chain(then_body, current, &p.ty)?;
                        let (else_, r2) = branch_chain(else_body, current, &p.ty)?;
                        (r == r2 && !(then_.is_empty() && else_.is_empty()))
                            .then(|| (Step::Branch { pos, next: st.pat[r].name, then_, else_ }, st.pat[r].name))
                    }
                    _ => None,
                })?;
                chain.push(step);
                current = next;
            }
            if chain.is_empty() {
                return None;
            }
            chains.push(chain);
        }
        // The map's body without the updates: each branch returns its
        // updates' indices and values instead of the accumulator, and per
        // accumulator its updates' indices and values in the body.
        let mut stms = map.body.stms.clone();
        let mut updates: Vec<Vec<Update>> = Vec::with_capacity(m);
        for (chain, p) in chains.iter().zip(&map.params) {
            let mut slots = Vec::new();
            for step in chain {
                match step {
                    Step::Direct(_, u) => slots.push(u.clone()),
                    Step::Branch { pos, next, then_, else_ } => {
                        slots.extend(self.branch_updates(&mut stms[*pos], *next, then_, else_, &p.ty, span)?);
                    }
                }
            }
            updates.push(slots);
        }
        let direct: Vec<VName> = chains
            .iter()
            .flatten()
            .filter_map(|st| if let Step::Direct(n, _) = st { Some(*n) } else { None })
            .collect();
        stms.retain(|st| !matches!(&st.exp, Exp::UpdAcc { .. } if direct.contains(&st.pat[0].name)));
        // The map: per accumulator its indices and value, then the mapped
        // results.
        let mut part_types = Vec::new();
        let mut result = Vec::new();
        for (chain, p) in updates.iter().zip(&map.params) {
            for u in chain {
                part_types.extend(u.indices.iter().map(|_| Type::Prim(ogham_ir::PrimType::I64)));
                part_types.push(super::rev::scatter::drop_dims(&p.ty, u.indices.len()));
                result.extend(u.indices.iter().copied());
                result.push(u.value);
            }
        }
        result.extend(map.body.result[m..].iter().copied());
        let ret = part_types.iter().chain(&map.ret[m..]).cloned().collect();
        let lambda = Lambda { params: map.params[m..].to_vec(), body: Body { stms, result }, ret };
        let mut parts: Vec<Param> = part_types.iter().map(|t| self.fresh_typed("acc_in", &t.array_of(w))).collect();
        let names: Vec<ogham_ir::VName> = parts.iter().map(|p| p.name).collect();
        parts.extend(s.pat[m..].iter().cloned());
        let mut out = vec![Stm {
            pat: parts,
            exp: Exp::Soac(Soac::Screma { w, arrs: arrs.clone(), scans: vec![], reduces: vec![], map: lambda }),
            attrs: s.attrs,
            span,
        }];
        // Per update, a scatter or histogram, one after another into the
        // accumulator's array (in no particular order, as in a `withacc`).
        let mut at = 0;
        for (j, ((chain, p), dest)) in updates.iter().zip(&map.params).zip(accs).enumerate() {
            let mut dest = *dest;
            for (c, u) in chain.iter().enumerate() {
                let k = u.indices.len();
                let ins = names[at..at + k + 1].to_vec();
                let identity = self.identity_lambda(&part_types[at..at + k + 1]);
                at += k + 1;
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
    /// Rewrites `if_`, whose branches update an accumulator (`then_` and
    /// `else_`) and bind the next as `next`, to return per update of the
    /// longer branch its indices and value instead (index -1 where the
    /// branch has no such update), and gives those updates.
    fn branch_updates(
        &mut self,
        if_: &mut Stm,
        next: VName,
        then_: &[(VName, Update)],
        else_: &[(VName, Update)],
        ty: &Type,
        span: ogham_ir::Span,
    ) -> Option<Vec<Update>> {
        let Exp::If { then_body, else_body, .. } = &mut if_.exp else { return None };
        let at = if_.pat.iter().position(|q| q.name == next)?;
        let mut out = Vec::new();
        for i in 0..then_.len().max(else_.len()) {
            let (t, e) = (then_.get(i).map(|u| &u.1), else_.get(i).map(|u| &u.1));
            let (k, op) = match (t, e) {
                (Some(t), Some(e)) if t.indices.len() != e.indices.len() || t.op != e.op => return None,
                (Some(u), _) | (_, Some(u)) => (u.indices.len(), u.op),
                (None, None) => unreachable!("i is below the longer branch's length"),
            };
            let value_ty = super::rev::scatter::drop_dims(ty, k);
            // The indices, then the value.
            let mut parts = Vec::with_capacity(k + 1);
            for d in 0..=k {
                let part_ty = if d < k { Type::Prim(PrimType::I64) } else { value_ty.clone() };
                let q = self.fresh_typed(if d < k { "acc_index" } else { "acc_value" }, &part_ty);
                parts.push(SubExp::Var(q.name));
                if_.pat.push(q);
                for (body, u) in [(&mut *then_body, t), (&mut *else_body, e)] {
                    let part = match u {
                        Some(u) => u.indices.get(d).copied().unwrap_or(u.value),
                        // No such update in this branch: an index out of
                        // range, which `scatter` and `hist` skip.
                        None if d == 0 => SubExp::Const(PrimValue::I64(-1)),
                        None if d < k => SubExp::Const(PrimValue::I64(0)),
                        None => self.zero(&mut body.stms, &part_ty, span),
                    };
                    body.result.push(part);
                }
            }
            let value = parts.pop().expect("the value is the last part");
            out.push(Update { indices: parts, value, op });
        }
        for (body, chain) in [(&mut *then_body, then_), (&mut *else_body, else_)] {
            let names: Vec<VName> = chain.iter().map(|(n, _)| *n).collect();
            body.stms.retain(|st| !matches!(&st.exp, Exp::UpdAcc { .. } if names.contains(&st.pat[0].name)));
            body.result.remove(at);
        }
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
