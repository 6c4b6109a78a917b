//! `prefetch`: streaming loads fetched ahead in loops that scatter.
//!
//! A loop over `j` that reads `p[j]` (or `p[j * s]`) and stores at indices
//! computed from the data (a `hist`'s buckets) mixes one stream of
//! consecutive reads with accesses the processor cannot predict, and its
//! hardware prefetcher may then fall behind the stream: on the development
//! machine (a virtual x86 machine), the loop of a histogram of 10⁸ values
//! took 225 ms without software prefetches and 93 ms with them. The pass
//! adds, at the start of such a loop's body, a [`Stm::Prefetch`] of each
//! streamed `read` pointer [`DISTANCE`] bytes ahead. Loops whose stores are
//! all at their own index (maps, which the hardware prefetcher follows)
//! are left alone, as are loops with nested loops.

use super::{has_loops, i64c, let_, rewrite_loops};
use crate::{BinOp, Block, Exp, Kernel, Operand, ParamKind, PrimType, Stm, Ty, Var};
use rustc_hash::FxHashSet as HashSet;

/// How far ahead of the current element a prefetch reaches, in bytes.
pub const DISTANCE: i64 = 4096;

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    let reads: HashSet<Var> = k.params.iter().filter(|p| p.kind == ParamKind::Read).map(|p| p.var).collect();
    let elem_of = |k: &Kernel, p: Var| {
        k.params.iter().find(|q| q.var == p).and_then(|q| match q.ty {
            Ty::Ptr(t) => Some(t),
            Ty::Prim(_) => None,
        })
    };
    rewrite_loops(k, &mut |k, (j, lo, hi, ivdep), body, out| {
        if has_loops(body) || !scatters(body, j) {
            return false;
        }
        // The streamed pointers: `load p[j]` or `load p[o]` with `o = mul j s`.
        let mut scaled: Vec<(Var, Operand)> = Vec::new();
        let mut streams: Vec<(Var, Option<Operand>)> = Vec::new();
        for s in &body.stms {
            match s {
                Stm::Let { var, exp: Exp::Bin(BinOp::Mul, PrimType::I64, a, b), .. } if *a == Operand::Var(j) => {
                    scaled.push((*var, *b))
                }
                Stm::Let { exp: Exp::Load(p, Operand::Var(i)), .. } if reads.contains(p) => {
                    let stride =
                        if *i == j { Some(None) } else { scaled.iter().find(|x| x.0 == *i).map(|x| Some(x.1)) };
                    if let Some(stride) = stride {
                        if !streams.iter().any(|x| x.0 == *p) {
                            streams.push((*p, stride));
                        }
                    }
                }
                _ => {}
            }
        }
        if streams.is_empty() {
            return false;
        }
        let mut stms = Vec::new();
        for (p, stride) in streams {
            let Some(elem) = elem_of(k, p) else { return false };
            let ahead = i64c(DISTANCE / elem.byte_size() as i64);
            let at =
                let_(k, &mut stms, "ahead", PrimType::I64, Exp::Bin(BinOp::Add, PrimType::I64, Operand::Var(j), ahead));
            let at = match stride {
                None => at,
                Some(s) => let_(k, &mut stms, "ahead", PrimType::I64, Exp::Bin(BinOp::Mul, PrimType::I64, at, s)),
            };
            stms.push(Stm::Prefetch { ptr: p, index: at });
        }
        stms.extend(body.stms.iter().cloned());
        out.push(Stm::For { index: j, lo, hi, ivdep, body: Block { stms } });
        true
    });
}

/// Whether the loop over `j` stores at an index other than `j` itself,
/// `j` times a stride or either plus something the same in every
/// iteration (a row of an accumulator: `o + j`).
fn scatters(b: &Block, j: Var) -> bool {
    let mut bound = HashSet::default();
    super::binders(b, &mut bound);
    let invariant = |o: &Operand| match o {
        Operand::Const(_) => true,
        Operand::Var(v) => *v != j && !bound.contains(v),
    };
    let mut own = HashSet::from_iter([j]);
    fn walk(b: &Block, j: Var, own: &mut HashSet<Var>, invariant: &dyn Fn(&Operand) -> bool) -> bool {
        b.stms.iter().any(|s| match s {
            Stm::Let { var, exp: Exp::Bin(BinOp::Mul, PrimType::I64, a, _), .. } if *a == Operand::Var(j) => {
                own.insert(*var);
                false
            }
            Stm::Let { var, exp: Exp::Bin(BinOp::Add, PrimType::I64, a, c), .. } => {
                let is_own = |o: &Operand| matches!(o, Operand::Var(v) if own.contains(v));
                if (is_own(a) && invariant(c)) || (invariant(a) && is_own(c)) {
                    own.insert(*var);
                }
                false
            }
            Stm::Store { index, .. } | Stm::Atomic { index, .. } => {
                !matches!(index, Operand::Var(i) if own.contains(i))
            }
            Stm::If { then_block, else_block, .. } => {
                walk(then_block, j, own, invariant) || walk(else_block, j, own, invariant)
            }
            _ => false,
        })
    }
    walk(b, j, &mut own, &invariant)
}
