//! `lanes`: a loop whose only dependence between iterations is
//! `accumulate`s (a reduction) runs in blocks of a fixed number of lanes,
//! each lane folding every lane-th term into its own element of a local
//! array. The loop over the lanes has independent iterations, which the C
//! compiler keeps in vector registers without being allowed to reassociate
//! anything itself. After the blocks the lanes are folded pairwise (lane
//! `l` takes lane `l + n/2`, then `l + n/4`, …: vector operations too),
//! then the last iterations run as written. The grouping is fixed here, so
//! results do not depend on the C compiler or its flags. A loop that reads
//! with unknown strides (the general copy `unit_stride` keeps) is left as
//! it is.

use super::{copy_block, i64c, let_, rewrite_loops, strided};
use crate::{neutral, BinOp, Block, CmpOp, Exp, Kernel, Operand, PrimType, Stm, TernOp, Var};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const I64: PrimType = PrimType::I64;

/// Lanes of partial results kept for accumulators of these types: one
/// 512-bit vector's worth of the widest (16 for `f32`, 8 for `f64`). Two
/// vectors hide the latency of the additions better on long reductions
/// (a 256-long f64 dot product: 68 against 85 ms for 8000 matrix-vector
/// products), but cost more to set up and fold on short ones, which are
/// the common case inside maps (GMM's 64-long rows: 152 against 130 ms for
/// the objective).
fn lane_count(types: &[PrimType]) -> Option<u32> {
    let widest = types.iter().map(|t| t.byte_size()).max()?;
    Some(64 / widest.max(4) as u32)
}

/// See the module documentation.
pub fn run(k: &mut Kernel) {
    rewrite_loops(k, &mut |k, header, body, out| match reduction(body).filter(|_| !strided(k, body, header.0)) {
        Some(accs) => {
            lanes_loop(k, header, body, &accs, out);
            true
        }
        None => false,
    });
}

/// The accumulators of a loop body that [`lanes`] applies to: it has no
/// loops, its only `accumulate`s are statements of its own (not in a
/// branch) with operators the C compiler has vector instructions for (not
/// `f16`, a struct in C), into variables declared outside that it does not
/// otherwise read, and it assigns nothing else declared outside.
fn reduction(body: &Block) -> Option<Vec<(Var, BinOp, PrimType)>> {
    let mut accs: Vec<(Var, BinOp, PrimType)> = Vec::new();
    for s in &body.stms {
        if let Stm::Accumulate { var, op, ty, .. } = s {
            if *ty == PrimType::F16 || accs.iter().any(|(v, ..)| v == var) {
                return None;
            }
            accs.push((*var, *op, *ty));
        }
    }
    if accs.is_empty() {
        return None;
    }
    let mut inside = HashSet::default();
    let acc_vars: HashSet<Var> = accs.iter().map(|a| a.0).collect();
    fn ok(b: &Block, top: bool, inside: &mut HashSet<Var>, accs: &HashSet<Var>) -> bool {
        b.stms.iter().all(|s| {
            let reads_acc = |e: &Exp| e.operands().iter().any(|o| matches!(o, Operand::Var(v) if accs.contains(v)));
            match s {
                Stm::Let { var, exp, .. } => {
                    inside.insert(*var);
                    !reads_acc(exp)
                }
                Stm::Mut { var, init, .. } => {
                    inside.insert(*var);
                    !matches!(init, Operand::Var(v) if accs.contains(v))
                }
                Stm::Array { var, .. } | Stm::Alloc { var, .. } => {
                    inside.insert(*var);
                    true
                }
                Stm::Free { .. } => true,
                Stm::Prefetch { index, .. } => !matches!(index, Operand::Var(v) if accs.contains(v)),
                Stm::Set { var, exp } => inside.contains(var) && !reads_acc(exp),
                Stm::Accumulate { value, times, .. } => {
                    top && !std::iter::once(value)
                        .chain(times)
                        .any(|o| matches!(o, Operand::Var(v) if accs.contains(v)))
                }
                Stm::Store { index, value, .. } => {
                    ![index, value].iter().any(|o| matches!(o, Operand::Var(v) if accs.contains(v)))
                }
                Stm::For { .. } | Stm::While { .. } | Stm::Atomic { .. } => false,
                Stm::If { cond, then_block, else_block } => {
                    !matches!(cond, Operand::Var(v) if accs.contains(v))
                        && ok(then_block, false, inside, accs)
                        && ok(else_block, false, inside, accs)
                }
            }
        })
    }
    ok(body, true, &mut inside, &acc_vars).then_some(accs)
}

fn lanes_loop(
    k: &mut Kernel,
    (j, lo, hi, ivdep): (Var, Operand, Operand, bool),
    body: &Block,
    accs: &[(Var, BinOp, PrimType)],
    out: &mut Vec<Stm>,
) {
    let types: Vec<PrimType> = accs.iter().map(|a| a.2).collect();
    let (Some(n), Some(neutrals)) =
        (lane_count(&types), accs.iter().map(|(_, op, t)| neutral(*op, *t)).collect::<Option<Vec<_>>>())
    else {
        out.push(Stm::For { index: j, lo, hi, ivdep, body: body.clone() });
        return;
    };
    let nc = i64c(n as i64);
    let len = let_(k, out, "len", I64, Exp::Bin(BinOp::Sub, I64, hi, lo));
    let blocks = let_(k, out, "blocks", I64, Exp::Bin(BinOp::Quot, I64, len, nc));
    let ok = let_(k, out, "full", PrimType::Bool, Exp::Cmp(CmpOp::Le, I64, nc, len));
    let mut then = Vec::new();
    let mut lane_arrays = Vec::new();
    for ((_, _, t), e) in accs.iter().zip(&neutrals) {
        let a = k.fresh("lanes");
        then.push(Stm::Array { var: a, elem: *t, len: n });
        let l = k.fresh("l");
        let init = Block { stms: vec![Stm::Store { ptr: a, index: Operand::Var(l), value: Operand::Const(*e) }] };
        then.push(Stm::For { index: l, lo: i64c(0), hi: nc, ivdep: true, body: init });
        lane_arrays.push(a);
    }
    // The blocks: lane `l` of block `b` is iteration `lo + b*n + l`.
    let b = k.fresh("block");
    let mut block_body = Vec::new();
    let start = let_(k, &mut block_body, "jb", I64, Exp::Bin(BinOp::Mul, I64, Operand::Var(b), nc));
    let start = let_(k, &mut block_body, "jb", I64, Exp::Bin(BinOp::Add, I64, lo, start));
    let l = k.fresh("l");
    let mut lane_body = Vec::new();
    let jl =
        let_(k, &mut lane_body, &k.names[j.0 as usize].clone(), I64, Exp::Bin(BinOp::Add, I64, start, Operand::Var(l)));
    let mut subst = HashMap::from_iter([(j, jl)]);
    let copy = copy_block(k, body, &mut subst);
    for s in copy.stms {
        match s {
            Stm::Accumulate { var, op, ty, value, times } => {
                let a = lane_arrays[accs.iter().position(|x| x.0 == var).unwrap_or(0)];
                let old = let_(k, &mut lane_body, "lane", ty, Exp::Load(a, Operand::Var(l)));
                let step = match times {
                    Some(t) => Exp::Tern(TernOp::Fma, ty, value, t, old),
                    None => Exp::Bin(op, ty, old, value),
                };
                let new = let_(k, &mut lane_body, "lane", ty, step);
                lane_body.push(Stm::Store { ptr: a, index: Operand::Var(l), value: new });
            }
            s => lane_body.push(s),
        }
    }
    block_body.push(Stm::For { index: l, lo: i64c(0), hi: nc, ivdep, body: Block { stms: lane_body } });
    then.push(Stm::For { index: b, lo: i64c(0), hi: blocks, ivdep: false, body: Block { stms: block_body } });
    // The lanes folded pairwise, halving (lane l takes lane l + h, for
    // h = n/2, n/4, …, 1: vector operations, log2(n) of them in sequence
    // rather than n), then lane 0 into the accumulator.
    for ((acc, op, t), a) in accs.iter().zip(&lane_arrays) {
        let mut h = n / 2;
        while h >= 1 {
            let l = k.fresh("l");
            let mut half = Vec::new();
            let x = let_(k, &mut half, "lane", *t, Exp::Load(*a, Operand::Var(l)));
            let far = let_(k, &mut half, "far", I64, Exp::Bin(BinOp::Add, I64, Operand::Var(l), i64c(h as i64)));
            let y = let_(k, &mut half, "lane", *t, Exp::Load(*a, far));
            let z = let_(k, &mut half, "lane", *t, Exp::Bin(*op, *t, x, y));
            half.push(Stm::Store { ptr: *a, index: Operand::Var(l), value: z });
            then.push(Stm::For { index: l, lo: i64c(0), hi: i64c(h as i64), ivdep: true, body: Block { stms: half } });
            h /= 2;
        }
        let x = let_(k, &mut then, "lane", *t, Exp::Load(*a, i64c(0)));
        then.push(Stm::Set { var: *acc, exp: Exp::Bin(*op, *t, Operand::Var(*acc), x) });
    }
    out.push(Stm::If { cond: ok, then_block: Block { stms: then }, else_block: Block::default() });
    // The last iterations, as written.
    let done = let_(k, out, "tail", I64, Exp::Bin(BinOp::Mul, I64, blocks, nc));
    let tail = let_(k, out, "tail", I64, Exp::Bin(BinOp::Add, I64, lo, done));
    let mut subst = HashMap::default();
    let Stm::For { index, body, .. } =
        copy_block(k, &Block { stms: vec![Stm::For { index: j, lo, hi, ivdep, body: body.clone() }] }, &mut subst)
            .stms
            .remove(0)
    else {
        return;
    };
    out.push(Stm::For { index, lo: tail, hi, ivdep, body });
}
