//! Core IR to kernels: the loop of a `withacc` whose map function updates
//! its accumulators one element at a time.
//!
//! The kernel runs iterations `lo .. hi` of the `withacc`: it binds the map
//! function's row parameters to row `j` of the inputs and runs its
//! statements as a screma's kernel does ([`super::screma_loop`]); an
//! `updacc(op) a[i₁, …, iᵣ] = x` of an accumulator, at an element (as many
//! indices as `a` has dimensions) with a scalar `x`, becomes a load of
//! element `[i₁, …, iᵣ]` through the accumulator's pointer, `op`, and a
//! store (a store alone without an operator). The update is skipped when
//! an index is out of range, as the language says; an index that is the
//! loop's own `j` into a dimension equal to the loop's width needs no test.
//! The map's scalar results go to its outputs as a screma's do. When
//! every update is at `[i₁, …, iᵣ₋₁, j]` with the other indices the same
//! in every iteration (reverse mode's adjoints of rows read by a map),
//! the loop is `ivdep`: no two iterations touch the same element.
//!
//! An accumulator is a [`ParamKind::Write`] pointer ([`Binding::AccData`])
//! with one stride per dimension: the `withacc` consumed its array, so
//! nothing else the kernel reads reaches it. The caller says what it is:
//! the array itself, or a chunk's private partial copy on the multicore
//! backend. An accumulator that a parallel `withacc`'s tasks all update
//! at once (its destination itself, the caller says) is updated by
//! [`Stm::Atomic`] statements, and the loop is not `ivdep` then.
//!
//! `updacc` statements must be in the map function's own body (not in a
//! branch or loop), each accumulator updated with one operator, which is
//! [`scalar_cannot_fail`](ogham_ir::layout::scalar_cannot_fail).

use ogham_ir::{DimIndex, Exp as CExp, PrimType, PrimValue, SubExp, Type, VName};
use rustc_hash::FxHashMap as HashMap;

use super::{variable_divisor, Binding, Lowered, Lowerer, ScremaLoop};
use crate::passes::unit_stride::stores_at;
use crate::{BinOp, Block, CmpOp, Exp, Operand, ParamKind, Stm, Ty, Var};

/// The kernel of a `withacc`'s loop over `w` rows: `s` gives its inputs
/// (one per row parameter), its map function (whose first `n_accs`
/// parameters and results are the accumulators) and the element type and
/// rank of its mapped outputs (scalars rows: rank 1). `atomic` says, per
/// accumulator, whether other tasks update it at the same time: its
/// updates with an operator are then [`Stm::Atomic`].
pub fn withacc_loop(s: &ScremaLoop, n_accs: usize, w: &SubExp, atomic: &[bool]) -> Option<Lowered> {
    element_updates(s, n_accs, w, atomic)
        .or_else(|| (!atomic.contains(&true)).then(|| super::arrays::withacc_region(s, n_accs, w)).flatten())
}

/// [`withacc_loop`] where the map function's own statements update
/// elements of the accumulators and make no arrays.
fn element_updates(s: &ScremaLoop, n_accs: usize, w: &SubExp, atomic: &[bool]) -> Option<Lowered> {
    let map = s.map;
    if !s.scans.is_empty() || !s.reduces.is_empty() || map.params.len() < n_accs || map.ret.len() < n_accs {
        return None;
    }
    let mapped = &map.ret[n_accs..];
    if !mapped.iter().all(|t| matches!(t, Type::Prim(_)))
        || s.outs.len() != mapped.len()
        || s.outs.iter().any(|(_, r)| *r != 1)
    {
        return None;
    }
    // Every accumulator variable of the body: the accumulator it is made of.
    let mut root: HashMap<VName, usize> = map.params[..n_accs].iter().enumerate().map(|(i, p)| (p.name, i)).collect();
    let mut ops: Vec<Option<Option<ogham_ir::BinOp>>> = vec![None; n_accs];
    for stm in &map.body.stms {
        match &stm.exp {
            CExp::UpdAcc { acc, slice, op, .. } => {
                let r = *root.get(acc)?;
                let Type::Array { shape, .. } = &map.params[r].ty else { return None };
                let element = slice.len() == shape.len() && slice.iter().all(|d| matches!(d, DimIndex::Fix(_)));
                if !element || stm.pat.len() != 1 || ops[r].is_some_and(|o| o != *op) {
                    return None;
                }
                if let Some(bop) = op {
                    let t = map.params[r].ty.elem();
                    let probe = CExp::BinOp(*bop, t, SubExp::Var(*acc), SubExp::Var(*acc));
                    if !ogham_ir::layout::scalar_cannot_fail(&probe) {
                        return None;
                    }
                }
                ops[r] = Some(*op);
                root.insert(stm.pat[0].name, r);
            }
            _ => {
                let kernel_stm = super::scalar_loop_stm(stm) || variable_divisor(&stm.exp).is_some();
                let touches_acc = stm.pat.iter().any(|p| root.contains_key(&p.name));
                if !kernel_stm || touches_acc {
                    return None;
                }
            }
        }
    }
    // The accumulator results are the last of each accumulator's updates.
    for (i, r) in map.body.result[..n_accs].iter().enumerate() {
        let SubExp::Var(v) = r else { return None };
        if root.get(v) != Some(&i) {
            return None;
        }
    }

    let mut l = Lowerer::new("withacc", s);
    let lo = l.param("lo", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Hi);
    let outs = l.output_params();
    let j = l.k.fresh("j");
    let mut pre = Vec::new();
    let mut body = Vec::new();
    l.bind_rows(j, n_accs, &mut body)?;
    l.every_iteration = true;
    // The elements this iteration owns: the offsets of its updates at
    // `[…, j]` and of its outputs' elements `j` (see `ivdep` below).
    let mut own = vec![Operand::Var(j)];
    let mut all_rows = true;
    for stm in &map.body.stms {
        match &stm.exp {
            CExp::UpdAcc { acc, slice, value, op } => {
                let r = *root.get(acc)?;
                let shared = atomic.get(r).copied().unwrap_or(false);
                match l.update(r, &map.params[r].ty, slice, value, (*op, shared), (j, w), (&mut pre, &mut body))? {
                    Some(at) => own.push(at),
                    None => all_rows = false,
                }
            }
            _ => l.stm(stm, &mut body)?,
        }
    }
    l.every_iteration = false;
    for (m, r) in map.body.result[n_accs..].iter().enumerate() {
        let value = l.operand(r)?;
        let (ptr, stride) = *outs.get(m)?;
        own.push(l.store(ptr, stride, j, value, &mut body));
    }
    let body = Block { stms: body };
    // When every store is at an element the iteration owns, no two
    // iterations touch the same element (an array the `withacc` consumed
    // has one element per index, and the indices differ in `j`), nor read
    // what another writes (an update reads only its own element; the rest
    // is read through `read` pointers): the loop is `ivdep`, and GCC
    // vectorises reverse mode's row updates (the LSTM's weight adjoints,
    // four rows of one array per iteration) without testing every pair of
    // them for overlap at run time, which it gives up on.
    let ivdep = all_rows && stores_at(&body, &|i| own.contains(i));
    let for_loop = Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep, body };
    l.k.body.stms.extend(pre);
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}

impl Lowerer<'_, '_> {
    /// Whether `o` is the same in every iteration: a constant or a parameter.
    pub(crate) fn invariant(&self, o: Operand) -> bool {
        match o {
            Operand::Const(_) => true,
            Operand::Var(v) => self.k.params.iter().any(|p| p.var == v),
        }
    }

    /// `updacc(op) acc[slice] = value` of accumulator `r` (of type `ty`),
    /// an element update, in the loop over `j < w`, atomic when `shared`
    /// (other tasks update the accumulator too). Returns the offset of the
    /// element when the update is at `[i₁, …, iᵣ₋₁, j]` with every `iₖ`
    /// the same in every iteration, and not atomic.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        r: usize,
        ty: &Type,
        slice: &[DimIndex],
        value: &SubExp,
        (op, shared): (Option<ogham_ir::BinOp>, bool),
        (j, w): (Var, &SubExp),
        (pre, out): (&mut Vec<Stm>, &mut Vec<Stm>),
    ) -> Option<Option<Operand>> {
        let Type::Array { elem, shape } = ty else { return None };
        let elem = *elem;
        let x = self.operand(value)?;
        let ptr = self.param("acc", Ty::Ptr(elem), ParamKind::Write, Binding::AccData(r));
        let i64 = PrimType::I64;
        // The test that the element is in range, and whether it is the
        // same in every iteration (then computed before the loop).
        let mut inside: Option<(Operand, bool)> = None;
        let mut offset: Option<Operand> = None;
        let mut fixed: Option<Operand> = None;
        let mut update = Vec::new();
        let mut own_row = !slice.is_empty() && slice.len() == shape.len();
        for (d, (di, dim)) in slice.iter().zip(shape).enumerate() {
            let DimIndex::Fix(ix) = di else { return None };
            let i = self.operand(ix)?;
            own_row &= if d + 1 == shape.len() { i == Operand::Var(j) } else { self.invariant(i) };
            let in_range = match (i, self.operand(dim)?) {
                (Operand::Var(v), _) if v == j && dim == w => true,
                (Operand::Const(PrimValue::I64(c)), Operand::Const(PrimValue::I64(n))) => 0 <= c && c < n,
                _ => false,
            };
            if !in_range {
                // A test of an index that is the same in every iteration
                // goes before the loop.
                let invariant = self.invariant(i);
                let at: &mut Vec<Stm> = if invariant { &mut *pre } else { &mut *out };
                let n = self.operand(dim)?;
                let zero = Operand::Const(PrimValue::I64(0));
                let ge = self.let_("ge", PrimType::Bool, Exp::Cmp(CmpOp::Ge, i64, i, zero), at);
                let lt = self.let_("lt", PrimType::Bool, Exp::Cmp(CmpOp::Lt, i64, i, n), at);
                let both = self.let_("inside", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, ge, lt), at);
                inside = Some(match inside {
                    None => (both, invariant),
                    Some((prev, prev_invariant)) => {
                        let and = Exp::Bin(BinOp::LogAnd, PrimType::Bool, prev, both);
                        let both_invariant = invariant && prev_invariant;
                        let at: &mut Vec<Stm> = if both_invariant { &mut *pre } else { &mut *out };
                        (self.let_("inside", PrimType::Bool, and, at), both_invariant)
                    }
                });
            }
            // Only the innermost stride is a `Stride`, most often 1 (see
            // `passes::unit_stride`); the outer ones are row pitches.
            let kind = if d + 1 == shape.len() { ParamKind::Stride } else { ParamKind::Value };
            let stride = self.param("acc_stride", Ty::Prim(i64), kind, Binding::AccStride(r, d));
            // The invariant indices' part of the offset is computed before the loop.
            let (part, at) = if self.invariant(i) { (&mut fixed, &mut *pre) } else { (&mut offset, &mut update) };
            let term = self.scaled(i, Operand::Var(stride), at);
            *part = Some(match *part {
                None => term,
                Some(prev) => self.let_("o", i64, Exp::Bin(BinOp::Add, i64, prev, term), at),
            });
        }
        let offset = match (fixed, offset) {
            (Some(a), Some(b)) => self.let_("o", i64, Exp::Bin(BinOp::Add, i64, a, b), &mut update),
            (a, b) => a.or(b)?,
        };
        match op {
            Some(bop) if shared => {
                let old = self.k.fresh("old");
                let mut combine = Vec::new();
                let new = self.let_("new", elem, Exp::Bin(bop, elem, Operand::Var(old), x), &mut combine);
                update.push(Stm::Atomic { ptr, index: offset, old, body: Block { stms: combine }, new });
                own_row = false;
            }
            Some(bop) => {
                let old = self.let_("old", elem, Exp::Load(ptr, offset), &mut update);
                let new = self.let_("new", elem, Exp::Bin(bop, elem, old, x), &mut update);
                update.push(Stm::Store { ptr, index: offset, value: new });
            }
            None => update.push(Stm::Store { ptr, index: offset, value: x }),
        }
        match inside {
            None => out.extend(update),
            Some((cond, _)) => {
                out.push(Stm::If { cond, then_block: Block { stms: update }, else_block: Block::default() })
            }
        }
        Some(own_row.then_some(offset))
    }
}
