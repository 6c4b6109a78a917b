//! `contract`: a float sum's term that is a product made only for the sum
//! is added unrounded, by a fused multiply–add.
//!
//! ```text
//! let p_7: f32 = mul.f32 x_5 y_6        accumulate add.f32 acc_4 x_5 * y_6
//! accumulate add.f32 acc_4 p_7     =>
//! ```
//!
//! where `p` is read nowhere else and nothing between the two statements
//! assigns `x` or `y`. An `accumulate` is the step of a `reduce` or `scan`
//! whose operator's terms may be grouped in any order, and the language
//! lets such a float sum round each product with its addition, once
//! instead of twice (`docs/language.md`, "Floating point"): the dot
//! products of matrix products, k-means and GMM then run as one
//! instruction per step where the multiplier and adder ports bound them.
//! The backends run this pass only for targets with fused multiply–add
//! instructions (without them C's `fma` is a library call); the products
//! of the scalar code around the sums are rounded as written everywhere.

use crate::{BinOp, Block, Exp, Kernel, Operand, PrimType, Stm, Var};
use rustc_hash::FxHashMap as HashMap;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    let uses = k.body.uses();
    let body = std::mem::take(&mut k.body);
    k.body = block(body, &uses);
}

fn block(b: Block, uses: &HashMap<Var, usize>) -> Block {
    let mut stms: Vec<Stm> = Vec::with_capacity(b.stms.len());
    for s in b.stms {
        let s = match s {
            Stm::For { index, lo, hi, ivdep, body } => Stm::For { index, lo, hi, ivdep, body: block(body, uses) },
            Stm::While { cond, body } => Stm::While { cond, body: block(body, uses) },
            Stm::If { cond, then_block, else_block } => {
                Stm::If { cond, then_block: block(then_block, uses), else_block: block(else_block, uses) }
            }
            Stm::Accumulate { var, op: BinOp::Add, ty, value: Operand::Var(p), times: None }
                if matches!(ty, PrimType::F32 | PrimType::F64) && uses.get(&p) == Some(&1) =>
            {
                match product(&mut stms, p, ty) {
                    Some((a, b)) => Stm::Accumulate { var, op: BinOp::Add, ty, value: a, times: Some(b) },
                    None => Stm::Accumulate { var, op: BinOp::Add, ty, value: Operand::Var(p), times: None },
                }
            }
            s => s,
        };
        stms.push(s);
    }
    Block { stms }
}

/// If `stms` binds `p` as a product `a * b` of type `ty`, and nothing after
/// it assigns `a` or `b`: removes that binding and returns `(a, b)`.
fn product(stms: &mut Vec<Stm>, p: Var, ty: PrimType) -> Option<(Operand, Operand)> {
    let at = stms.iter().rposition(|s| matches!(s, Stm::Let { var, .. } if *var == p))?;
    let Stm::Let { ty: t, exp: Exp::Bin(BinOp::Mul, _, a, b), .. } = stms[at] else { return None };
    let assigned = |o: Operand| {
        let Operand::Var(v) = o else { return false };
        stms[at + 1..].iter().any(|s| match s {
            Stm::Let { .. } | Stm::Store { .. } | Stm::Prefetch { .. } => false,
            Stm::Set { var, .. } | Stm::Accumulate { var, .. } => *var == v,
            // Compound statements may assign anything declared outside.
            _ => true,
        })
    };
    if t != ty || assigned(a) || assigned(b) {
        return None;
    }
    stms.remove(at);
    Some((a, b))
}
