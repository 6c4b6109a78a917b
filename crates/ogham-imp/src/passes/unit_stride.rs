//! `unit_stride`: versions a kernel on its strides. One copy is for the
//! common case where every [`ParamKind::Stride`] parameter is 1, tested
//! once before any loop: in it, element `j` is `p[j]`, and the loops whose
//! every store is at their own index are marked `ivdep` (their iterations
//! write different elements, and read only through `read` pointers, which
//! nothing in the kernel writes). The other copy is the kernel as it was.

use super::{copy_block, i64c, let_};
use crate::{BinOp, Block, CmpOp, Exp, Kernel, Operand, ParamKind, PrimType, PrimValue, Stm, Var};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const I64: PrimType = PrimType::I64;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    let strides: Vec<Var> = k.params.iter().filter(|p| p.kind == ParamKind::Stride).map(|p| p.var).collect();
    let old = std::mem::take(&mut k.body);
    k.body = Block { stms: versioned(k, &strides, old) };
}

/// `block`, versioned on every one of `strides` being 1 (see the module
/// documentation); `block` as it is when there are none.
pub(crate) fn versioned(k: &mut Kernel, strides: &[Var], block: Block) -> Vec<Stm> {
    if strides.is_empty() {
        return block.stms;
    }
    let mut subst: HashMap<Var, Operand> = strides.iter().map(|s| (*s, i64c(1))).collect();
    let mut fast = copy_block(k, &block, &mut subst);
    mark_ivdep(&mut fast);
    let mut stms = Vec::new();
    let mut cond: Option<Operand> = None;
    for &s in strides {
        let c = let_(k, &mut stms, "unit", PrimType::Bool, Exp::Cmp(CmpOp::Eq, I64, Operand::Var(s), i64c(1)));
        cond = Some(match cond {
            None => c,
            Some(prev) => let_(k, &mut stms, "unit", PrimType::Bool, Exp::Bin(BinOp::LogAnd, PrimType::Bool, prev, c)),
        });
    }
    if let Some(cond) = cond {
        stms.push(Stm::If { cond, then_block: fast, else_block: block });
    }
    stms
}

/// Marks `ivdep` every loop whose stores (outside nested loops) are all at
/// the loop's own index, after simplification of `j * 1`: its iterations
/// write different elements, and read only through `read` pointers, which
/// nothing in the kernel writes. A loop marked already stays marked: what
/// held for every stride holds for strides of 1 (a register tile's loop
/// over its columns, whose stores are at an offset from its index).
fn mark_ivdep(b: &mut Block) {
    for s in &mut b.stms {
        match s {
            Stm::For { index, body, ivdep, .. } => {
                let copies = copies_of(body, *index);
                *ivdep = *ivdep || stores_at(body, &|i| matches!(i, Operand::Var(v) if copies.contains(v)));
                mark_ivdep(body);
            }
            Stm::If { then_block, else_block, .. } => {
                mark_ivdep(then_block);
                mark_ivdep(else_block);
            }
            _ => {}
        }
    }
}

/// `j` and the variables equal to it: `let x = j`, `let x = mul j 1`.
fn copies_of(b: &Block, j: Var) -> HashSet<Var> {
    let mut set = HashSet::from_iter([j]);
    for s in &b.stms {
        if let Stm::Let { var, exp, .. } = s {
            let same = match exp {
                Exp::Operand(Operand::Var(v)) => set.contains(v),
                Exp::Bin(BinOp::Mul, t, Operand::Var(v), one) | Exp::Bin(BinOp::Mul, t, one, Operand::Var(v)) => {
                    t.is_int() && set.contains(v) && *one == Operand::Const(PrimValue::from_i64(*t, 1))
                }
                _ => false,
            };
            if same {
                set.insert(*var);
            }
        }
    }
    set
}

/// Whether every store in `b` (nested blocks included) is at an index
/// that `at` accepts.
pub(crate) fn stores_at(b: &Block, at: &dyn Fn(&Operand) -> bool) -> bool {
    b.stms.iter().all(|s| match s {
        Stm::Store { index, .. } => at(index),
        // Atomic updates are for elements that iterations share.
        Stm::Atomic { .. } => false,
        Stm::If { then_block, else_block, .. } => stores_at(then_block, at) && stores_at(else_block, at),
        Stm::For { body, .. } | Stm::While { body, .. } => stores_at(body, at),
        _ => true,
    })
}
