//! Passes on kernels, and the list every backend runs ([`PIPELINE`],
//! after [`CONTRACT`] for targets with fused multiply–add: [`for_target`]).
//!
//! Each pass has its module, whose documentation says what it does:
//! - [`contract`]: float sums of products by fused multiply–adds;
//! - [`unswitch`]: a branch on a loop-invariant condition taken out of the loop;
//! - [`unit_stride`]: a copy of the kernel for unit strides, tested once;
//! - [`split_clamps`]: loops with clamped indices split where the clamps act;
//! - [`jam`]: rows of inner reductions run together (unroll-and-jam);
//! - [`lanes`]: reductions folded in a fixed number of vector lanes;
//! - [`while_lanes`]: a map of `while` loops stepped in vector lanes;
//! - [`divide`]: division by a loop-invariant divisor by multiplication;
//! - [`prefetch`]: streaming loads fetched ahead in loops that scatter;
//! - [`simplify`]: constants folded, identities and copies removed.
//!
//! Every pass keeps the kernel valid; [`run`] checks that with the verifier.

pub mod contract;
pub mod divide;
pub mod jam;
pub mod lanes;
pub mod prefetch;
pub mod simplify;
pub mod split_clamps;
pub mod unit_stride;
pub mod unswitch;
pub mod while_lanes;

use crate::{verify, Block, Exp, Kernel, Operand, PrimType, PrimValue, Stm, Var};
use rustc_hash::FxHashMap as HashMap;

/// A pass: a name (for `ogham dev` and errors), what it does, and the rewrite.
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub summary: &'static str,
    pub run: fn(&mut Kernel),
}

/// The passes every kernel goes through, in order.
pub const PIPELINE: &[Pass] = &[
    Pass {
        name: "unswitch",
        summary: "a branch on a loop-invariant condition taken out of the loop",
        run: unswitch::run,
    },
    Pass { name: "unit_stride", summary: "a copy of the kernel for unit strides, tested once", run: unit_stride::run },
    Pass {
        name: "split_clamps",
        summary: "loops with clamped indices split into the iterations where the clamps act and the rest",
        run: split_clamps::run,
    },
    Pass { name: "while_lanes", summary: "maps of while loops stepped in vector lanes", run: while_lanes::run },
    Pass { name: "jam", summary: "the inner reductions of several rows run together", run: jam::run },
    Pass { name: "lanes", summary: "reductions folded in vector lanes", run: lanes::run },
    Pass { name: "divide", summary: "division by a loop-invariant divisor by multiplication", run: divide::run },
    Pass { name: "prefetch", summary: "streaming loads fetched ahead in loops that scatter", run: prefetch::run },
    Pass { name: "simplify", summary: "constant folding, identities, copy propagation", run: simplify::run },
];

/// The pass that makes float sums of products fused multiply–adds, which
/// runs before the [`PIPELINE`] on targets that have them ([`for_target`]).
pub const CONTRACT: Pass =
    Pass { name: "contract", summary: "float sums of products by fused multiply-adds", run: contract::run };

/// The passes for a target: the [`PIPELINE`], after [`CONTRACT`] where the
/// target has fused multiply–add instructions (`fma`).
pub fn for_target(fma: bool) -> Vec<Pass> {
    fma.then_some(CONTRACT).into_iter().chain(PIPELINE.iter().copied()).collect()
}

/// Runs `passes` on a kernel and verifies the result. With `verify_each`
/// (`--verify`, `ogham test`, debug builds) it also verifies the kernel
/// before the first pass and after each, and an error names the pass that
/// broke it; otherwise the one check at the end costs a fifteenth of that
/// (verifying after every pass had been a tenth of generating C).
pub fn run(k: &mut Kernel, passes: &[Pass], verify_each: bool) -> Result<(), String> {
    if verify_each {
        verify::kernel(k).map_err(|e| format!("kernel as lowered: {e}"))?;
    }
    for p in passes {
        (p.run)(k);
        if verify_each {
            verify::kernel(k).map_err(|e| format!("after pass `{}`: {e}", p.name))?;
        }
    }
    if !verify_each {
        verify::kernel(k).map_err(|e| format!("after the kernel passes (`--verify` names the pass): {e}"))?;
    }
    Ok(())
}

/// The pass named `name`.
pub fn by_name(name: &str) -> Option<&'static Pass> {
    std::iter::once(&CONTRACT).chain(PIPELINE).find(|p| p.name == name)
}

/// Whether a loop over `j` with this body still scales its index by a
/// stride parameter (`mul j s`): the general copy [`unit_stride`] keeps,
/// whose accesses are gathers. The lane passes leave such loops as they
/// are, since lanes would not make them vector code and would double the
/// code of every kernel.
pub(crate) fn strided(k: &Kernel, body: &Block, j: Var) -> bool {
    let strides: rustc_hash::FxHashSet<Var> =
        k.params.iter().filter(|p| p.kind == crate::ParamKind::Stride).map(|p| p.var).collect();
    fn walk(b: &Block, j: Var, strides: &rustc_hash::FxHashSet<Var>) -> bool {
        b.stms.iter().any(|s| match s {
            Stm::Let { exp: Exp::Bin(crate::BinOp::Mul, _, a, c), .. } => {
                let is = |o: &Operand, v: Var| *o == Operand::Var(v);
                strides.iter().any(|st| (is(a, j) && is(c, *st)) || (is(c, j) && is(a, *st)))
            }
            Stm::For { body, .. } | Stm::While { body, .. } => walk(body, j, strides),
            Stm::If { then_block, else_block, .. } => walk(then_block, j, strides) || walk(else_block, j, strides),
            _ => false,
        })
    }
    walk(body, j, &strides)
}

/// A `for` loop's header: index, bounds, `ivdep`.
pub(crate) type Header = (Var, Operand, Operand, bool);

/// What [`rewrite_loops`] calls on each loop: given its header and body,
/// push what replaces it and say whether it did.
pub(crate) type Rewrite<'r> = dyn FnMut(&mut Kernel, Header, &Block, &mut Vec<Stm>) -> bool + 'r;

/// Rewrites the kernel's `for` loops, outermost first, in branches too:
/// `rewrite` replaces a loop (pushing what replaces it) and says whether it
/// did; a loop it leaves is searched inside.
pub(crate) fn rewrite_loops(k: &mut Kernel, rewrite: &mut Rewrite) {
    fn block(k: &mut Kernel, b: Block, rewrite: &mut Rewrite) -> Block {
        let mut stms = Vec::new();
        for s in b.stms {
            match s {
                Stm::For { index, lo, hi, ivdep, body } => {
                    if !rewrite(k, (index, lo, hi, ivdep), &body, &mut stms) {
                        let body = block(k, body, rewrite);
                        stms.push(Stm::For { index, lo, hi, ivdep, body })
                    }
                }
                Stm::If { cond, then_block, else_block } => {
                    let then_block = block(k, then_block, rewrite);
                    let else_block = block(k, else_block, rewrite);
                    stms.push(Stm::If { cond, then_block, else_block })
                }
                s => stms.push(s),
            }
        }
        Block { stms }
    }
    let body = std::mem::take(&mut k.body);
    k.body = block(k, body, rewrite);
}

/// Whether `b` has a loop, in branches too.
pub(crate) fn has_loops(b: &Block) -> bool {
    b.stms.iter().any(|s| match s {
        Stm::For { .. } | Stm::While { .. } => true,
        Stm::If { then_block, else_block, .. } => has_loops(then_block) || has_loops(else_block),
        _ => false,
    })
}

/// Every variable `b` binds, at any depth (loop indices included).
pub(crate) fn binders(b: &Block, out: &mut rustc_hash::FxHashSet<Var>) {
    for s in &b.stms {
        match s {
            Stm::Let { var, .. } | Stm::Mut { var, .. } | Stm::Array { var, .. } | Stm::Alloc { var, .. } => {
                out.insert(*var);
            }
            Stm::For { index, body, .. } => {
                out.insert(*index);
                binders(body, out);
            }
            Stm::While { body, .. } => binders(body, out),
            Stm::Atomic { old, body, .. } => {
                out.insert(*old);
                binders(body, out);
            }
            Stm::If { then_block, else_block, .. } => {
                binders(then_block, out);
                binders(else_block, out);
            }
            _ => {}
        }
    }
}

pub(crate) fn i64c(x: i64) -> Operand {
    Operand::Const(PrimValue::I64(x))
}

pub(crate) fn let_(k: &mut Kernel, out: &mut Vec<Stm>, base: &str, ty: PrimType, exp: Exp) -> Operand {
    let var = k.fresh(base);
    out.push(Stm::Let { var, ty, exp });
    Operand::Var(var)
}

/// A copy of `b` whose every binder is a fresh variable, with the free
/// variables replaced as `subst` says (binders are added to it).
pub fn copy_block(k: &mut Kernel, b: &Block, subst: &mut HashMap<Var, Operand>) -> Block {
    let op = |subst: &HashMap<Var, Operand>, o: &Operand| match o {
        Operand::Var(v) => subst.get(v).copied().unwrap_or(*o),
        c => *c,
    };
    let var = |subst: &HashMap<Var, Operand>, v: &Var| match subst.get(v) {
        Some(Operand::Var(w)) => *w,
        _ => *v,
    };
    let rebind = |k: &mut Kernel, subst: &mut HashMap<Var, Operand>, v: &Var| {
        let base = k.names[v.0 as usize].clone();
        let w = k.fresh(&base);
        subst.insert(*v, Operand::Var(w));
        w
    };
    let mut stms = Vec::new();
    for s in &b.stms {
        stms.push(match s {
            Stm::Let { var: v, ty, exp } => {
                let mut exp = exp.clone();
                exp.map_operands(|o| *o = op(subst, o));
                Stm::Let { var: rebind(k, subst, v), ty: *ty, exp }
            }
            Stm::Mut { var: v, ty, init } => {
                let init = op(subst, init);
                Stm::Mut { var: rebind(k, subst, v), ty: *ty, init }
            }
            Stm::Set { var: v, exp } => {
                let mut exp = exp.clone();
                exp.map_operands(|o| *o = op(subst, o));
                Stm::Set { var: var(subst, v), exp }
            }
            Stm::Accumulate { var: v, op: bop, ty, value, times } => Stm::Accumulate {
                var: var(subst, v),
                op: *bop,
                ty: *ty,
                value: op(subst, value),
                times: times.map(|t| op(subst, &t)),
            },
            Stm::Store { ptr, index, value } => {
                Stm::Store { ptr: var(subst, ptr), index: op(subst, index), value: op(subst, value) }
            }
            Stm::Atomic { ptr, index, old, body, new } => {
                let (ptr, index) = (var(subst, ptr), op(subst, index));
                let old = rebind(k, subst, old);
                let body = copy_block(k, body, subst);
                Stm::Atomic { ptr, index, old, body, new: op(subst, new) }
            }
            Stm::Prefetch { ptr, index } => Stm::Prefetch { ptr: var(subst, ptr), index: op(subst, index) },
            Stm::Array { var: v, elem, len } => Stm::Array { var: rebind(k, subst, v), elem: *elem, len: *len },
            Stm::Alloc { var: v, elem, len } => {
                let len = op(subst, len);
                Stm::Alloc { var: rebind(k, subst, v), elem: *elem, len }
            }
            Stm::Free { var: v } => Stm::Free { var: var(subst, v) },
            Stm::For { index, lo, hi, ivdep, body } => {
                let (lo, hi) = (op(subst, lo), op(subst, hi));
                let index = rebind(k, subst, index);
                let body = copy_block(k, body, subst);
                Stm::For { index, lo, hi, ivdep: *ivdep, body }
            }
            Stm::While { cond, body } => Stm::While { cond: var(subst, cond), body: copy_block(k, body, subst) },
            Stm::If { cond, then_block, else_block } => Stm::If {
                cond: op(subst, cond),
                then_block: copy_block(k, then_block, subst),
                else_block: copy_block(k, else_block, subst),
            },
        });
    }
    Block { stms }
}
