//! `unswitch`: a branch on a loop-invariant condition taken out of the loop.
//!
//! An innermost loop whose body has, among its statements, an `if` whose
//! condition is the same in every iteration (a parameter, or a variable
//! bound before the loop and not assigned in it) becomes an `if` on that condition with a copy of
//! the loop in each branch, each copy running that branch's statements in
//! place of the `if`. The loops then have straight bodies, which the C
//! compiler vectorises: a `withacc` kernel's update of an accumulator
//! element whose outer indices are tested against the accumulator's shape
//! once (`lower::acc`) is the case this is for. At most [`ROUNDS`] branches
//! per loop nest are taken out, so a loop never becomes more than
//! 2^`ROUNDS` copies.

use super::{binders, copy_block, has_loops, rewrite_loops};
use crate::{Block, Kernel, Operand, Stm};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// How many times the pass takes a branch out of the same loop.
pub const ROUNDS: usize = 2;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    for _ in 0..ROUNDS {
        let mut changed = false;
        rewrite_loops(k, &mut |k, (j, lo, hi, ivdep), body, out| {
            if has_loops(body) {
                return false;
            }
            // Variables bound in the loop, or assigned in it (a `mut`
            // declared before it, such as a loop parameter), vary.
            let mut bound = HashSet::default();
            binders(body, &mut bound);
            assigned(body, &mut bound);
            let invariant = |s: &Stm| match s {
                Stm::If { cond: Operand::Var(c), .. } => *c != j && !bound.contains(c),
                _ => false,
            };
            let Some(pos) = body.stms.iter().position(invariant) else { return false };
            let Stm::If { cond, then_block, else_block } = &body.stms[pos] else { return false };
            let version = |branch: &Block| {
                let mut stms = body.stms[..pos].to_vec();
                stms.extend(branch.stms.iter().cloned());
                stms.extend(body.stms[pos + 1..].iter().cloned());
                Block { stms: vec![Stm::For { index: j, lo, hi, ivdep, body: Block { stms } }] }
            };
            let then_loop = version(then_block);
            // The second copy gets fresh variables: every variable is bound once.
            let else_loop = copy_block(k, &version(else_block), &mut HashMap::default());
            out.push(Stm::If { cond: *cond, then_block: then_loop, else_block: else_loop });
            changed = true;
            true
        });
        if !changed {
            break;
        }
    }
}

/// Every variable `set` or `accumulate`d in `b`, at any depth.
fn assigned(b: &Block, out: &mut HashSet<crate::Var>) {
    for s in &b.stms {
        match s {
            Stm::Set { var, .. } | Stm::Accumulate { var, .. } => {
                out.insert(*var);
            }
            Stm::For { body, .. } | Stm::While { body, .. } => assigned(body, out),
            Stm::If { then_block, else_block, .. } => {
                assigned(then_block, out);
                assigned(else_block, out);
            }
            _ => {}
        }
    }
}
