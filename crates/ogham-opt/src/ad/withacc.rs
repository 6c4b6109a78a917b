//! A `withacc` the program wrote itself (Futhark's `scatter_stream` and
//! `reduce_by_index_stream`, lowered to one) as SOACs both modes have
//! rules for, when its map updates each accumulator only at the top of
//! its body: a `map` computing every update's
//! indices and value, then one `scatter` (for an accumulator whose writes
//! overwrite) or one `hist` (for one combining with `+`, `*`, `min`, `max`
//! or another operator with a neutral element) per accumulator. They
//! compute the same arrays: a `withacc` applies its updates in no
//! particular order, as `scatter` and `hist` do. Reverse mode rewrites
//! every such `withacc`; forward mode those combining other than by `+`
//! or overwriting (which are linear, and get tangent accumulators).
//!
//! Several updates of one accumulator (a chain, each consuming the
//! last) give one `scatter` or `hist` each, one after another. Updates
//! inside a branch, a loop or a nested `withacc` are not rewritten, and
//! both modes reject the statement as before.

use ogham_ir::{BinOp, Body, DimIndex, Exp, HistOp, Lambda, Operator, Param, PrimValue, Soac, Stm, SubExp, Type};

use crate::ad::Ad;

/// One accumulator's update in the map's body.
struct Update {
    /// Its statement's position in the body.
    pos: usize,
    indices: Vec<SubExp>,
    value: SubExp,
    /// The combining operator and its neutral element (`None`: writes
    /// overwrite).
    op: Option<(BinOp, PrimValue)>,
}

impl Ad {
    /// `s` as a `map` and one `scatter` or `hist` per accumulator, if it is
    /// a `withacc` of the shape in the module documentation.
    pub(in crate::ad) fn withacc_as_soacs(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let Exp::Soac(Soac::WithAcc { w, arrs, accs, map }) = &s.exp else { return None };
        let (w, m) = (*w, accs.len());
        // Per accumulator, its chain of updates: each consumes the last.
        let mut chains: Vec<Vec<Update>> = Vec::with_capacity(m);
        for (j, p) in map.params[..m].iter().enumerate() {
            let mut chain = Vec::new();
            let mut current = p.name;
            while SubExp::Var(current) != map.body.result[j] {
                let pos = map
                    .body
                    .stms
                    .iter()
                    .position(|st| matches!(&st.exp, Exp::UpdAcc { acc, .. } if *acc == current))?;
                let st = &map.body.stms[pos];
                let Exp::UpdAcc { slice, value, op, .. } = &st.exp else { return None };
                if st.pat.len() != 1 {
                    return None;
                }
                let indices: Vec<SubExp> = slice
                    .iter()
                    .map(|d| if let DimIndex::Fix(i) = d { Some(*i) } else { None })
                    .collect::<Option<_>>()?;
                // A histogram combines elements; a scatter may write rows.
                let op = match op {
                    None if indices.len() <= p.ty.rank() => None,
                    Some(op) if indices.len() == p.ty.rank() => Some((*op, op.neutral(p.ty.elem())?)),
                    _ => return None,
                };
                if indices.is_empty() {
                    return None;
                }
                current = st.pat[0].name;
                chain.push(Update { pos, indices, value: *value, op });
            }
            if chain.is_empty() {
                return None;
            }
            chains.push(chain);
        }
        let span = s.span;
        // The map: per accumulator its indices and value, then the mapped
        // results.
        let mut part_types = Vec::new();
        let mut result = Vec::new();
        for (chain, p) in chains.iter().zip(&map.params) {
            for u in chain {
                part_types.extend(u.indices.iter().map(|_| Type::Prim(ogham_ir::PrimType::I64)));
                part_types.push(super::rev::scatter::drop_dims(&p.ty, u.indices.len()));
                result.extend(u.indices.iter().copied());
                result.push(u.value);
            }
        }
        result.extend(map.body.result[m..].iter().copied());
        let skip: Vec<usize> = chains.iter().flatten().map(|u| u.pos).collect();
        let stms: Vec<Stm> =
            map.body.stms.iter().enumerate().filter(|(i, _)| !skip.contains(i)).map(|(_, st)| st.clone()).collect();
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
        for (j, ((chain, p), dest)) in chains.iter().zip(&map.params).zip(accs).enumerate() {
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
