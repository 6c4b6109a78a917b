//! `divide`: integer division by a divisor that does not change in a loop,
//! by multiplication.
//!
//! A hardware division takes tens of cycles (a 64-bit `idiv` 40 to 90 on
//! many x86 cores), a multiplication three or four. For `a op d` (`div`,
//! `mod`, `quot`, `rem` on any integer type) inside a `for` loop, where `d`
//! is bound outside the loop, the pass computes before the loop, once,
//! M = ⌊(2⁶⁴ − 1) / d⌋ + 1 = ⌈2⁶⁴ / d⌉ (for d not a power of two), in `u64`,
//! and in the loop, when 0 ≤ a < 2³² and 1 < d < 2³²:
//! - the quotient is the high word of M·a (`mulhi.u64 M a`),
//! - the remainder the high word of (M·a mod 2⁶⁴)·d (`mulhi.u64 (mul.u64 M a) d`),
//!
//! which are exact for every such a and d (Lemire, Kaser and Kurz, "Faster
//! remainder by direct computation", 2019, with N = 32 and F = 64). For
//! a ≥ 0 and d > 0 the four operations agree (the language's `/` and `%`
//! round towards −∞, `//` and `%%` towards 0), so one fast path serves
//! them all; any other operands take the division as it was, in the
//! other branch of an `if`. The divisor is never zero where the division
//! runs (the lowering's checks, `crate::lower`), and the pass computes M
//! from a divisor replaced by 2 when it is not in range, so the code
//! before the loop never divides by zero either.

use super::{binders, let_};
use crate::{BinOp, Block, CmpOp, ConvOp, Exp, Kernel, Operand, PrimType, PrimValue, Stm, Var};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const U64: PrimType = PrimType::U64;
const BOOL: PrimType = PrimType::Bool;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    let body = std::mem::take(&mut k.body);
    k.body = block(k, body);
}

/// The magic numbers of one divisor, computed before a loop.
#[derive(Clone, Copy)]
struct Magic {
    /// `d` as `u64`.
    d: Operand,
    /// ⌈2⁶⁴ / d⌉ when 1 < d < 2³², else 0.
    m: Operand,
    /// Whether 1 < d < 2³².
    ok: Operand,
}

fn block(k: &mut Kernel, b: Block) -> Block {
    let mut stms = Vec::new();
    for s in b.stms {
        match s {
            Stm::For { index, lo, hi, ivdep, body } => {
                let mut inside = HashSet::from_iter([index]);
                binders(&body, &mut inside);
                let mut divisors = Vec::new();
                invariant_divisors(&body, &inside, &mut divisors);
                let mut magics = HashMap::default();
                for (d, t) in divisors {
                    magics.insert((d, t), magic(k, &mut stms, d, t));
                }
                let body = if magics.is_empty() { body } else { rewrite(k, body, &magics) };
                let body = block(k, body);
                stms.push(Stm::For { index, lo, hi, ivdep, body });
            }
            Stm::If { cond, then_block, else_block } => {
                let then_block = block(k, then_block);
                let else_block = block(k, else_block);
                stms.push(Stm::If { cond, then_block, else_block });
            }
            Stm::While { cond, body } => {
                let body = block(k, body);
                stms.push(Stm::While { cond, body });
            }
            s => stms.push(s),
        }
    }
    Block { stms }
}

/// An integer division's operation, type, dividend and variable divisor.
fn division(exp: &Exp) -> Option<(BinOp, PrimType, Operand, Var)> {
    match exp {
        Exp::Bin(op @ (BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem), t, a, Operand::Var(d)) if t.is_int() => {
            Some((*op, *t, *a, *d))
        }
        _ => None,
    }
}

/// The divisors (with the division's type) of the divisions in `b` whose
/// divisor is not bound inside the loop, in order of first use.
fn invariant_divisors(b: &Block, inside: &HashSet<Var>, out: &mut Vec<(Var, PrimType)>) {
    for s in &b.stms {
        match s {
            Stm::Let { exp, .. } => {
                if let Some((_, t, _, d)) = division(exp) {
                    if !inside.contains(&d) && !out.contains(&(d, t)) {
                        out.push((d, t));
                    }
                }
            }
            Stm::For { body, .. } | Stm::While { body, .. } => invariant_divisors(body, inside, out),
            Stm::If { then_block, else_block, .. } => {
                invariant_divisors(then_block, inside, out);
                invariant_divisors(else_block, inside, out);
            }
            _ => {}
        }
    }
}

fn u64c(x: u64) -> Operand {
    Operand::Const(PrimValue::U64(x))
}

/// The statements before the loop that compute divisor `d`'s magic numbers.
fn magic(k: &mut Kernel, out: &mut Vec<Stm>, d: Var, t: PrimType) -> Magic {
    let du = let_(k, out, "d", U64, Exp::Conv(ConvOp::Convert, t, U64, Operand::Var(d)));
    let one = Operand::Const(PrimValue::from_i64(t, 1));
    let big = let_(k, out, "big", BOOL, Exp::Cmp(CmpOp::Gt, t, Operand::Var(d), one));
    let small = let_(k, out, "small", BOOL, Exp::Cmp(CmpOp::Lt, U64, du, u64c(1 << 32)));
    let ok = let_(k, out, "magic_ok", BOOL, Exp::Bin(BinOp::LogAnd, BOOL, big, small));
    let safe = let_(k, out, "d", U64, Exp::Select(ok, du, u64c(2)));
    let q = let_(k, out, "q", U64, Exp::Bin(BinOp::Quot, U64, u64c(u64::MAX), safe));
    let m1 = let_(k, out, "m", U64, Exp::Bin(BinOp::Add, U64, q, u64c(1)));
    let m = let_(k, out, "magic", U64, Exp::Select(ok, m1, u64c(0)));
    Magic { d: du, m, ok }
}

/// `b` with every division by a divisor in `magics` replaced by its fast
/// path, in a branch taken when the operands allow it.
fn rewrite(k: &mut Kernel, b: Block, magics: &HashMap<(Var, PrimType), Magic>) -> Block {
    let mut stms = Vec::new();
    for s in b.stms {
        match s {
            Stm::Let { var, ty, exp } => {
                match division(&exp).and_then(|(op, t, a, d)| Some((op, t, a, magics.get(&(d, t))?))) {
                    Some((op, t, a, mg)) => {
                        let au = let_(k, &mut stms, "a", U64, Exp::Conv(ConvOp::Convert, t, U64, a));
                        let fits = let_(k, &mut stms, "fits", BOOL, Exp::Cmp(CmpOp::Lt, U64, au, u64c(1 << 32)));
                        let fast = let_(k, &mut stms, "fast", BOOL, Exp::Bin(BinOp::LogAnd, BOOL, fits, mg.ok));
                        let r = k.fresh(&k.names[var.0 as usize].clone());
                        stms.push(Stm::Mut { var: r, ty, init: Operand::Const(PrimValue::zero(ty)) });
                        let mut quick = Vec::new();
                        let u = if matches!(op, BinOp::Div | BinOp::Quot) {
                            let_(k, &mut quick, "q", U64, Exp::Bin(BinOp::MulHi, U64, mg.m, au))
                        } else {
                            let low = let_(k, &mut quick, "low", U64, Exp::Bin(BinOp::Mul, U64, mg.m, au));
                            let_(k, &mut quick, "r", U64, Exp::Bin(BinOp::MulHi, U64, low, mg.d))
                        };
                        quick.push(Stm::Set { var: r, exp: Exp::Conv(ConvOp::Convert, U64, t, u) });
                        let slow = vec![Stm::Set { var: r, exp }];
                        stms.push(Stm::If {
                            cond: fast,
                            then_block: Block { stms: quick },
                            else_block: Block { stms: slow },
                        });
                        stms.push(Stm::Let { var, ty, exp: Exp::Operand(Operand::Var(r)) });
                    }
                    None => stms.push(Stm::Let { var, ty, exp }),
                }
            }
            Stm::For { index, lo, hi, ivdep, body } => {
                let body = rewrite(k, body, magics);
                stms.push(Stm::For { index, lo, hi, ivdep, body });
            }
            Stm::While { cond, body } => {
                let body = rewrite(k, body, magics);
                stms.push(Stm::While { cond, body });
            }
            Stm::If { cond, then_block, else_block } => {
                let then_block = rewrite(k, then_block, magics);
                let else_block = rewrite(k, else_block, magics);
                stms.push(Stm::If { cond, then_block, else_block });
            }
            s => stms.push(s),
        }
    }
    Block { stms }
}
