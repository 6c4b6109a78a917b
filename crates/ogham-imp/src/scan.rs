//! Loops that build inclusive scans, in the form a vectorising C compiler
//! takes them.
//!
//! An `accumulate` whose variable the loop body reads after it (a scan's
//! store of its running value) builds an inclusive scan: the value read in
//! iteration `j` combines the terms of iterations `lo ..= j`, and, as for
//! any `accumulate`, they may be grouped in any way. A C compiler runs such
//! a loop in vector lanes (prefix sums within a vector, plus the running
//! value) when told which statements feed the scan and which read it:
//! OpenMP's `simd reduction(inscan, …)` with its `scan inclusive`
//! separating the two phases. [`scan_loop`] finds that split where it is
//! simple enough to state: straight-line bodies whose iterations touch
//! nothing another iteration writes but the accumulators.

use crate::{BinOp, Block, Exp, Kernel, Operand, ParamKind, PrimType, Stm, Ty, Var};
use rustc_hash::FxHashSet as HashSet;

/// A loop body split around its scans.
#[derive(Debug)]
pub struct ScanLoop<'b> {
    /// Each accumulator with its operator and type.
    pub accs: Vec<(Var, BinOp, PrimType)>,
    /// The statements up to the last `accumulate`: they do not read the
    /// accumulators but for accumulating into them.
    pub input: &'b [Stm],
    /// The rest: they read the accumulators' running values, and nothing
    /// the input phase binds.
    pub scan: &'b [Stm],
}

/// The split of a `for` loop's body of kernel `k` around its scans, when
/// it has one: only `let`s (loading only through `read` pointers),
/// `store`s through `write` pointers and `accumulate`s of 32- or 64-bit
/// integers with `+`, `*`, `&`, `|` or `^` (whose running values need no
/// neutral element of their own: OpenMP starts each lane at 0 for `+`,
/// where a float sum's neutral element is -0.0), each accumulator updated
/// once and read after its update.
pub fn scan_loop<'b>(k: &Kernel, body: &'b Block) -> Option<ScanLoop<'b>> {
    let stms = body.stms.as_slice();
    let last = stms.iter().rposition(|s| matches!(s, Stm::Accumulate { .. }))?;
    let (input, scan) = stms.split_at(last + 1);
    let mut accs: Vec<(Var, BinOp, PrimType)> = Vec::new();
    for s in input {
        if let Stm::Accumulate { var, op, ty, .. } = s {
            let int = matches!(ty, PrimType::I32 | PrimType::I64 | PrimType::U32 | PrimType::U64);
            let op_ok = matches!(op, BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor);
            if !int || !op_ok || accs.iter().any(|a| a.0 == *var) {
                return None;
            }
            accs.push((*var, *op, *ty));
        }
    }
    let is_acc = |o: &Operand| matches!(o, Operand::Var(v) if accs.iter().any(|a| a.0 == *v));
    let kind = |p: Var| k.params.iter().find(|q| q.var == p).map(|q| (q.kind, q.ty));
    let reads_ok = |e: &Exp| match e {
        Exp::Load(p, _) => matches!(kind(*p), Some((ParamKind::Read, Ty::Ptr(_)))),
        _ => true,
    };
    let mut bound = HashSet::default();
    for s in input {
        match s {
            Stm::Let { var, exp, .. } if reads_ok(exp) && !exp.operands().iter().any(is_acc) => {
                bound.insert(*var);
            }
            Stm::Store { ptr, index, value } if matches!(kind(*ptr), Some((ParamKind::Write, _))) => {
                if is_acc(index) || is_acc(value) {
                    return None;
                }
            }
            Stm::Accumulate { value, .. } if !is_acc(value) => {}
            _ => return None,
        }
    }
    let from_input = |o: &Operand| matches!(o, Operand::Var(v) if bound.contains(v));
    let mut reads_acc = false;
    for s in scan {
        let operands = match s {
            Stm::Let { exp, .. } if reads_ok(exp) => exp.operands(),
            Stm::Store { ptr, index, value } if matches!(kind(*ptr), Some((ParamKind::Write, _))) => {
                vec![*index, *value]
            }
            _ => return None,
        };
        if operands.iter().any(from_input) {
            return None;
        }
        reads_acc |= operands.iter().any(is_acc);
    }
    reads_acc.then_some(ScanLoop { accs, input, scan })
}

#[cfg(test)]
mod tests {
    use super::scan_loop;
    use crate::{parse::parse_kernel, Stm};

    /// The split of the kernel's first loop, as (input, scan) statement counts.
    fn split(text: &str) -> Option<(usize, usize)> {
        let k = parse_kernel(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let Some(Stm::For { body, .. }) = k.body.stms.first() else { panic!("no loop") };
        scan_loop(&k, body).map(|s| (s.input.len(), s.scan.len()))
    }

    #[test]
    fn prefix_sums_and_a_map_split_after_the_last_accumulate() {
        let k = "kernel k(lo_0: i64, hi_1: i64, a_2: inout i32, b_3: inout u64, in_4: read i32*, out_5: write i32*, \
                 sq_6: write i32*, out_7: write u64*) {
  for j_8 in lo_0 .. hi_1 {
    let x_9: i32 = load in_4[j_8]
    let y_10: i32 = mul.i32 x_9 x_9
    store sq_6[j_8] = y_10
    let z_11: u64 = convert.i32.u64 x_9
    accumulate add.i32 a_2 x_9
    accumulate xor.u64 b_3 z_11
    store out_5[j_8] = a_2
    store out_7[j_8] = b_3
  }
}
";
        assert_eq!(split(k), Some((6, 2)));
    }

    #[test]
    fn reductions_floats_and_reads_across_phases_are_not_scans() {
        // A reduction: nothing reads the accumulator in the loop.
        let sum = "kernel k(lo_0: i64, hi_1: i64, a_2: inout i64, in_3: read i64*) {
  for j_4 in lo_0 .. hi_1 {
    let x_5: i64 = load in_3[j_4]
    accumulate add.i64 a_2 x_5
  }
}
";
        assert_eq!(split(sum), None);
        // A float scan: OpenMP would start its lanes at 0.0, not -0.0.
        let float = "kernel k(lo_0: i64, hi_1: i64, a_2: inout f32, in_3: read f32*, out_4: write f32*) {
  for j_5 in lo_0 .. hi_1 {
    let x_6: f32 = load in_3[j_5]
    accumulate add.f32 a_2 x_6
    store out_4[j_5] = a_2
  }
}
";
        assert_eq!(split(float), None);
        // The scan phase reads a value of the input phase.
        let across = "kernel k(lo_0: i64, hi_1: i64, a_2: inout i32, in_3: read i32*, out_4: write i32*) {
  for j_5 in lo_0 .. hi_1 {
    let x_6: i32 = load in_3[j_5]
    accumulate add.i32 a_2 x_6
    let y_7: i32 = add.i32 a_2 x_6
    store out_4[j_5] = y_7
  }
}
";
        assert_eq!(split(across), None);
        // The input phase reads the accumulator.
        let early =
            "kernel k(lo_0: i64, hi_1: i64, a_2: inout i32, b_3: inout i32, in_4: read i32*, out_5: write i32*) {
  for j_6 in lo_0 .. hi_1 {
    let x_7: i32 = load in_4[j_6]
    accumulate add.i32 a_2 x_7
    accumulate add.i32 b_3 a_2
    store out_5[j_6] = b_3
  }
}
";
        assert_eq!(split(early), None);
    }
}
