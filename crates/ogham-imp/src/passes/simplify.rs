//! `simplify`: folds constants (with the interpreter's scalar semantics),
//! removes `x * 1` and `x + 0` on integers, takes constant branches and
//! propagates copies of variables that do not change.

use ogham_prim::ops;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::{BinOp, Block, Exp, Kernel, Operand, ParamKind, PrimType, PrimValue, Stm, Var};

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    let mut s = Simplify { subst: HashMap::default(), assignable: HashSet::default() };
    s.assignable.extend(k.params.iter().filter(|p| p.kind == ParamKind::InOut).map(|p| p.var));
    let body = std::mem::take(&mut k.body);
    k.body = s.block(body);
}

struct Simplify {
    /// What each variable removed so far is replaced by.
    subst: HashMap<Var, Operand>,
    /// The `mut` variables and `inout` parameters: a copy of one is not
    /// propagated, since the variable may change after the copy.
    assignable: HashSet<Var>,
}

impl Simplify {
    fn block(&mut self, b: Block) -> Block {
        let sub = |subst: &HashMap<Var, Operand>, o: &mut Operand| {
            if let Operand::Var(v) = o {
                if let Some(x) = subst.get(v) {
                    *o = *x;
                }
            }
        };
        let mut stms = Vec::new();
        for mut s in b.stms {
            match &mut s {
                Stm::Let { var, ty, exp } => {
                    exp.map_operands(|o| sub(&self.subst, o));
                    let fixed = |x: &Operand| !matches!(x, Operand::Var(v) if self.assignable.contains(v));
                    if let Some(x) = fold(exp, *ty).filter(fixed) {
                        self.subst.insert(*var, x);
                        continue;
                    }
                }
                Stm::Mut { var, init, .. } => {
                    sub(&self.subst, init);
                    self.assignable.insert(*var);
                }
                Stm::Set { exp, .. } => exp.map_operands(|o| sub(&self.subst, o)),
                Stm::Accumulate { value, times, .. } => {
                    sub(&self.subst, value);
                    if let Some(t) = times {
                        sub(&self.subst, t)
                    }
                }
                Stm::Store { index, value, .. } => {
                    sub(&self.subst, index);
                    sub(&self.subst, value);
                }
                Stm::Atomic { index, body, new, .. } => {
                    sub(&self.subst, index);
                    *body = self.block(std::mem::take(body));
                    sub(&self.subst, new);
                }
                Stm::Prefetch { index, .. } => sub(&self.subst, index),
                Stm::Array { .. } | Stm::Free { .. } => {}
                Stm::Alloc { len, .. } => sub(&self.subst, len),
                Stm::For { lo, hi, body, .. } => {
                    sub(&self.subst, lo);
                    sub(&self.subst, hi);
                    *body = self.block(std::mem::take(body));
                }
                Stm::While { body, .. } => *body = self.block(std::mem::take(body)),
                Stm::If { cond, then_block, else_block } => {
                    sub(&self.subst, cond);
                    if let Operand::Const(PrimValue::Bool(c)) = cond {
                        let taken = if *c { std::mem::take(then_block) } else { std::mem::take(else_block) };
                        stms.extend(self.block(taken).stms);
                        continue;
                    }
                    *then_block = self.block(std::mem::take(then_block));
                    *else_block = self.block(std::mem::take(else_block));
                }
            }
            stms.push(s);
        }
        Block { stms }
    }
}

/// What an expression reduces to without computing anything: a copy, an
/// integer `x * 1`, `1 * x`, `x + 0`, `0 + x`, `x - 0`, or an operation on
/// constants.
fn fold(exp: &Exp, ty: PrimType) -> Option<Operand> {
    let is = |o: &Operand, x: i64| *o == Operand::Const(PrimValue::from_i64(ty, x));
    match exp {
        Exp::Operand(o) => Some(*o),
        Exp::Bin(op, t, Operand::Const(a), Operand::Const(b)) => {
            ops::eval_binop(*op, *t, *a, *b).ok().map(Operand::Const)
        }
        Exp::Cmp(op, t, Operand::Const(a), Operand::Const(b)) => {
            ops::eval_cmpop(*op, *t, *a, *b).ok().map(|x| Operand::Const(PrimValue::Bool(x)))
        }
        Exp::Bin(BinOp::Mul, t, a, b) if t.is_int() => (is(b, 1).then_some(*a)).or(is(a, 1).then_some(*b)),
        Exp::Bin(BinOp::Add, t, a, b) if t.is_int() => (is(b, 0).then_some(*a)).or(is(a, 0).then_some(*b)),
        Exp::Bin(BinOp::Sub, t, a, b) if t.is_int() => is(b, 0).then_some(*a),
        Exp::Bin(BinOp::LogAnd, PrimType::Bool, a, b) => {
            let t = Operand::Const(PrimValue::Bool(true));
            (*b == t).then_some(*a).or((*a == t).then_some(*b))
        }
        _ => None,
    }
}
