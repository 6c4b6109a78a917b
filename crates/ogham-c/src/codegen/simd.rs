//! SOAC loops in a form the C compiler vectorises.
//!
//! This module owns how the loop of a `map`/`reduce`/`scan` (a `Screma`)
//! over scalar rows is emitted when its functions are straight-line
//! scalar code that cannot fail ([`straight_line`]: no calls, loops,
//! nested SOACs, allocations or checks, so the loop has no exit and no
//! dependence between iterations but its reductions and scans; scans keep
//! their sequential order, only their accesses are simplified):
//!
//! - **unit strides, decided once.** The loop is emitted twice, under a test
//!   of the strides of its one-dimensional inputs and outputs, taken once
//!   before the loop rather than at every access. In the copy for unit
//!   strides (the common case: fresh arrays and rows of row-major arrays)
//!   each array is a `restrict` pointer to its first element, hoisted out
//!   of the loop, and element `j` is `p[j]`. Arrays the function reads by
//!   index (a stencil's neighbours) are tested for unit stride in their
//!   last dimension and read as `p[i * stride + j]`. The other copy is the
//!   general one. The pointers are `restrict` because the outputs are
//!   arrays the statement allocated (or rows of such an array), which
//!   nothing else in the loop reads, and everything else is only read;
//!   for the same reason the copy is marked `OG_IVDEP` (`GCC ivdep`), since
//!   GCC does not use `restrict` on local pointers to rule out a
//!   dependence with a gather (hotspot's clamped neighbours: 565 → 174 ms).
//! - **reductions reassociated.** The language declares the operator of a
//!   `reduce` associative (and Futhark's compiler also treats it so), so
//!   its terms may be grouped in any way. When every reduction's operator
//!   is elementwise arithmetic the C compiler has vector instructions for
//!   ([`vector_op`]), the loop runs in blocks of a fixed number of lanes
//!   ([`lane_count`]), each lane folding every lane-th term into its own
//!   partial result; the inner loop over the lanes has independent
//!   iterations, which the C compiler vectorises without being allowed to
//!   reassociate anything itself. The partials are then folded in lane
//!   order, then the last terms. The grouping is fixed by the generated
//!   code, so the result is the same at every optimisation level and on
//!   every C compiler; a float sum may differ from the interpreter's
//!   left-to-right one by rounding (see `docs/language.md`).
//!
//! (`#pragma omp simd reduction` would ask the C compiler for the same
//! thing, but GCC 12 falls back to scalar code for it inside large
//! functions, spilling its lane array: the GMM objective took 388 ms with
//! it, 284 ms without.)

use std::collections::HashMap;

use ogham_ir::{BinOp, Body, DimIndex, Exp, Lambda, Operator, PrimType, Span, Stm, SubExp, Type, VName};

use super::{cty, ctype, vname, Gen, IsArray, Res};

/// The arrays the unit-stride copy of a loop reads and writes through
/// hoisted pointers, while it is generated (see [`Gen::unit_ptrs`]).
#[derive(Clone, Debug, Default)]
pub(super) struct UnitPtrs {
    /// Per array (its C variable): the pointer to its first element. Each
    /// has unit stride in its last dimension.
    pub ptrs: HashMap<String, String>,
}

impl UnitPtrs {
    /// The element `idxs` of `arr` through its pointer, when it has one:
    /// `p[j]` for a row of the loop, `p[i * arr.stride[0] + j]` for an
    /// array the body reads by index.
    pub(super) fn elem(&self, arr: &str, idxs: &[String]) -> Option<String> {
        let p = self.ptrs.get(arr)?;
        let (last, outer) = idxs.split_last()?;
        let mut off = String::new();
        for (d, i) in outer.iter().enumerate() {
            off.push_str(&format!("({i}) * {arr}.stride[{d}] + "));
        }
        Some(format!("{p}[{off}{last}]"))
    }
}

impl Gen<'_> {
    /// Emits `for (j = lo; j < hi; j++)` and one screma iteration as its
    /// body: in the vectorisable form described in the module's
    /// documentation when the SOAC allows it, as tiles when it is a
    /// matrix-product nest (`tile.rs`), else plainly. `span` locates the
    /// statement's errors (running out of memory for a tile's buffer).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn screma_loop(
        &mut self,
        (j, lo, hi): (&str, &str, &str),
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
        (scan_accs, red_accs): (&[Vec<String>], &[Vec<String>]),
        outs: &[(String, Type)],
        span: Span,
    ) -> Res<()> {
        let header = format!("for (int64_t {j} = {lo}; {j} < {hi}; {j}++)");
        if let Some(nest) = super::tile::nest(map, reduces, outs).filter(|_| scans.is_empty()) {
            // Tiles when there are enough columns to fill one, else as written.
            let wide = self.tile_wide(&nest);
            self.line(&format!("if ({wide}) {{"));
            self.indent += 1;
            let outer_reduce = reduces.first().zip(red_accs.first()).map(|(op, accs)| (op, accs.as_slice()));
            self.tiled_nest((lo, hi), &map.params, arrs, &nest, outs, outer_reduce, span)?;
            return self.else_plain(&header, j, arrs, (scans, reduces), map, (scan_accs, red_accs), outs);
        }
        if super::lanes::applies(map, scans, reduces) {
            return self.lanes_of_loops((j, lo, hi), arrs, map, outs);
        }
        let simple =
            scans.iter().all(|op| op.lambda.ret.iter().all(|t| !t.is_array()) && straight_line(&op.lambda.body))
                && map.params.iter().all(|p| !p.ty.is_array())
                && map.ret.iter().all(|t| !t.is_array())
                && reduces.iter().all(|op| op.lambda.ret.iter().all(|t| !t.is_array()))
                && straight_line(&map.body)
                && reduces.iter().all(|op| straight_line(&op.lambda.body))
                && self.unit_ptrs.is_none();
        if !simple {
            self.line(&header);
            return self.screma_iteration(j, arrs, scans, reduces, map, scan_accs, red_accs, outs);
        }
        // The arrays read and written element `j` at a time: C variable,
        // element type, whether written, the dimension that must be unit-stride.
        let mut arrays: Vec<(String, PrimType, bool, usize)> = Vec::new();
        for a in arrs {
            if !self.virt.contains_key(a) && !arrays.iter().any(|(c, ..)| *c == vname(*a)) {
                arrays.push((vname(*a), self.ty(*a)?.elem(), false, 0));
            }
        }
        for (c, ty) in outs {
            arrays.push((c.clone(), ty.elem(), true, 0));
        }
        // Arrays the body reads elements of, with the loop's index or
        // anything else: unit-stride in their last dimension, an index
        // that moves with the loop's walks along contiguous memory.
        let mut read = Vec::new();
        indexed_arrays(&map.body, &mut read);
        for a in read {
            let rank = self.rank_of(a)?;
            if rank > 0 && !self.virt.contains_key(&a) && !arrays.iter().any(|(c, ..)| *c == vname(a)) {
                arrays.push((vname(a), self.ty(a)?.elem(), false, rank - 1));
            }
        }
        let lanes = lane_count(reduces);
        if arrays.is_empty() {
            return self.lanes_loop((j, lo, hi), lanes, arrs, (scans, reduces), map, (scan_accs, red_accs), outs);
        }
        let conds: Vec<String> = arrays.iter().map(|(c, .., d)| format!("{c}.stride[{d}] == 1")).collect();
        self.line(&format!("if ({}) {{", conds.join(" && ")));
        self.indent += 1;
        let mut unit = UnitPtrs { ptrs: HashMap::new() };
        for (c, elem, written, _) in &arrays {
            let p = self.fresh("p");
            let t = ctype(*elem);
            let konst = if *written { "" } else { "const " };
            self.line(&format!("{konst}{t} *restrict {p} = ({konst}{t} *)og_mem_data({c}.mem) + {c}.offset;"));
            unit.ptrs.insert(c.clone(), p);
        }
        self.unit_ptrs = Some(unit);
        let result = self.lanes_loop((j, lo, hi), lanes, arrs, (scans, reduces), map, (scan_accs, red_accs), outs);
        self.unit_ptrs = None;
        result?;
        self.else_plain(&header, j, arrs, (scans, reduces), map, (scan_accs, red_accs), outs)
    }

    /// Closes the specialised copy of a loop with `} else {`, the loop as
    /// written (`header` and one iteration), and `}`.
    #[allow(clippy::too_many_arguments)]
    fn else_plain(
        &mut self,
        header: &str,
        j: &str,
        arrs: &[VName],
        (scans, reduces): (&[Operator], &[Operator]),
        map: &Lambda,
        (scan_accs, red_accs): (&[Vec<String>], &[Vec<String>]),
        outs: &[(String, Type)],
    ) -> Res<()> {
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.line(header);
        self.screma_iteration(j, arrs, scans, reduces, map, scan_accs, red_accs, outs)?;
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// The loop of a map-reduce whose function is [`straight_line`]: with
    /// `lanes` (see [`lane_count`]), blocks of that many iterations each
    /// fold into their own partial results (`acc_l[l]`), which an inner
    /// loop of fixed length over independent lanes lets the C compiler
    /// keep in vector registers; then the partial results are folded into
    /// the accumulators in lane order, then the last iterations. Without
    /// `lanes`, the plain loop.
    #[allow(clippy::too_many_arguments)]
    fn lanes_loop(
        &mut self,
        (j, lo, hi): (&str, &str, &str),
        lanes: Option<usize>,
        arrs: &[VName],
        (scans, reduces): (&[Operator], &[Operator]),
        map: &Lambda,
        (scan_accs, red_accs): (&[Vec<String>], &[Vec<String>]),
        outs: &[(String, Type)],
    ) -> Res<()> {
        let header = format!("for (int64_t {j} = {lo}; {j} < {hi}; {j}++)");
        let Some(n) = lanes.filter(|_| scans.is_empty()) else {
            if self.unit_ptrs.is_some() {
                self.line("OG_IVDEP");
            }
            self.line(&header);
            return self.screma_iteration(j, arrs, scans, reduces, map, scan_accs, red_accs, outs);
        };
        // Too short for one block: only the loop for the last terms runs,
        // without the lanes' set-up and folding (k-means' 16 coordinates).
        let jb = self.fresh("jb");
        self.line(&format!("int64_t {jb} = {lo};"));
        self.line(&format!("if ({hi} - {lo} >= {n}) {{"));
        self.indent += 1;
        let l = self.fresh("l");
        let mut lane_accs: Vec<Vec<String>> = Vec::new();
        for (op, accs) in reduces.iter().zip(red_accs) {
            let mut v = Vec::new();
            for (acc, ty) in accs.iter().zip(&op.lambda.ret) {
                let lane = format!("{acc}_l");
                self.line(&format!("{} {lane}[{n}];", cty(ty)));
                self.line(&format!("for (int {l} = 0; {l} < {n}; {l}++) {lane}[{l}] = {acc};"));
                v.push(lane);
            }
            lane_accs.push(v);
        }
        self.line(&format!("for (; {hi} - {jb} >= {n}; {jb} += {n}) {{"));
        self.indent += 1;
        if self.unit_ptrs.is_some() {
            self.line("OG_IVDEP");
        }
        self.line(&format!("for (int {l} = 0; {l} < {n}; {l}++) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {j} = {jb} + {l};"));
        let at_lane: Vec<Vec<String>> =
            lane_accs.iter().map(|v| v.iter().map(|lane| format!("{lane}[{l}]")).collect()).collect();
        self.screma_iteration(j, arrs, &[], reduces, map, &[], &at_lane, outs)?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        for ((op, accs), lanes) in reduces.iter().zip(red_accs).zip(&at_lane) {
            self.line(&format!("for (int {l} = 0; {l} < {n}; {l}++)"));
            self.apply_op(op, accs, lanes)?;
        }
        self.indent -= 1;
        self.line("}");
        self.line(&format!("for (int64_t {j} = {jb}; {j} < {hi}; {j}++)"));
        self.screma_iteration(j, arrs, &[], reduces, map, &[], red_accs, outs)
    }
}

/// How many lanes of partial results a map-reduce keeps (see
/// [`Gen::lanes_loop`]): two 512-bit vectors' worth of its widest
/// accumulator, when it has reductions and every operator is one the
/// language lets us reassociate and the C compiler vectorises
/// ([`vector_op`]); none otherwise.
fn lane_count(reduces: &[Operator]) -> Option<usize> {
    if reduces.is_empty() || !reduces.iter().all(vector_op) {
        return None;
    }
    let widest = reduces.iter().flat_map(|op| op.lambda.ret.iter()).map(|t| t.elem().byte_size()).max()?;
    Some(128 / widest.max(4))
}

/// The arrays whose elements `body` reads (`Index` with every dimension
/// fixed), at any depth of its branches.
fn indexed_arrays(body: &Body, out: &mut Vec<VName>) {
    for s in &body.stms {
        match &s.exp {
            Exp::Index { array, slice }
                if slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) && !out.contains(array) =>
            {
                out.push(*array)
            }
            Exp::If { then_body, else_body, .. } => {
                indexed_arrays(then_body, out);
                indexed_arrays(else_body, out);
            }
            _ => {}
        }
    }
}

/// Whether `body` is scalar code that cannot fail (see [`straight_line_stm`]).
pub(super) fn straight_line(body: &Body) -> bool {
    body.stms.iter().all(straight_line_stm)
}

/// Whether `stm` is scalar code that cannot fail: a scalar operation that
/// cannot fail (`ogham_ir::layout::scalar_cannot_fail`), a read of a scalar
/// that needs no bounds check, or a branch of such code. Its C has no exit
/// and no call that may fail.
pub(super) fn straight_line_stm(s: &Stm) -> bool {
    s.pat.iter().all(|p| !p.ty.is_array())
        && match &s.exp {
            Exp::Index { slice, .. } => s.attrs.unsafe_ && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))),
            Exp::If { then_body, else_body, .. } => straight_line(then_body) && straight_line(else_body),
            exp => ogham_ir::layout::scalar_cannot_fail(exp),
        }
}

/// Whether an operator combines its values componentwise, result `i`
/// being `x_i ⊕ y_i` (in either operand order) computed by one statement,
/// with ⊕ `f32` or `f64` `+`, `*`, `min` or `max` (`f16` is a struct in C),
/// or an integer or boolean `+`, `*`, `&`, `|`, `^`, `min`, `max`, `&&`,
/// `||`: operators the C compiler has vector instructions for.
fn vector_op(op: &Operator) -> bool {
    let params = &op.lambda.params;
    let k = op.neutral.len();
    let body = &op.lambda.body;
    if params.len() != 2 * k || body.result.len() != k || body.stms.len() != k {
        return false;
    }
    (0..k).all(|i| {
        let SubExp::Var(r) = body.result[i] else { return false };
        let Some(stm) = body.stms.iter().find(|s| s.pat.len() == 1 && s.pat[0].name == r) else { return false };
        let Exp::BinOp(bop, t, SubExp::Var(a), SubExp::Var(b)) = &stm.exp else { return false };
        let (x, y) = (params[i].name, params[k + i].name);
        let operands = (*a == x && *b == y) || (*a == y && *b == x);
        let supported = match bop {
            BinOp::Add | BinOp::Mul | BinOp::Min | BinOp::Max => *t != PrimType::F16,
            BinOp::And | BinOp::Or | BinOp::Xor => !t.is_float(),
            BinOp::LogAnd | BinOp::LogOr => *t == PrimType::Bool,
            _ => false,
        };
        operands && supported
    })
}
