//! Accumulators (seed 004 §4.5): `updacc` and `withacc`.
//!
//! An `updacc` is a read-modify-write (or a write) of an element, a row or
//! a slice of an array in place, skipped when the slice is out of bounds.
//! A `withacc` is a map over `w` rows whose lambda takes the accumulator
//! arrays and updates them: the accumulators are the destination arrays
//! themselves (the lambda's accumulator parameters and results are views
//! of the same memory), so sequentially it is a plain loop.
//!
//! In multicore code the applications run in parallel, each accumulator
//! updated in one of three ways, chosen per accumulator and, for the first
//! two, at run time (as `hist_par` chooses):
//! - *partials*: when the accumulators combined with an operator are small
//!   next to the work (their elements number at most `w / nchunks`, or
//!   the copies of all threads together at most `4 w` (and 2²⁵), or,
//!   when an application may update many elements — a row, a slice, or
//!   updates in a loop, as reverse-mode derivatives do — when all the
//!   partial copies together have at most 2²⁵ elements), the
//!   applications run in one chunk per thread, each updating its own
//!   partial copy, initialised to the operator's neutral element, with
//!   plain updates; a second parallel pass over the elements folds the
//!   partials into the destination (with a copy per chunk, 16 per thread
//!   for load balance, clearing and folding the copies took 20% of the
//!   k-means gradient's time); the clearing and the fold are kernels
//!   (`ogham_imp::lower::merge::{fill, fold_elements}`);
//! - *atomics*: otherwise, every update of the destination is atomic (in
//!   the loop's kernel, `atomic` statements; statement by statement,
//!   `__atomic_fetch_*` for integer and boolean `+`, `&`, `|`, `^`, a
//!   compare-and-swap loop on the element's bits for the rest);
//! - *direct*: an accumulator that is only overwritten (`updacc` without an
//!   operator) is written directly, any write winning, as in `scatter`; so
//!   is one that each application updates only at elements of its own
//!   (every update indexed by the application's row index at one same
//!   position, [`disjoint_updates`]), with plain read-modify-writes.
//!
//! The task body finds the updates to make atomic by name: every variable
//! made of a parallel `withacc`'s accumulator parameter (through `updacc`,
//! loops, branches and nested `withacc`s, see [`acc_roots`]) is in
//! `Gen::atomic_accs` while the atomic task is generated.

use ogham_ir::{BinOp, DimIndex, Exp, Lambda, PrimType, PrimValue, Soac, Span, Stm, SubExp, Type, VName};
use rustc_hash::FxHashMap as HashMap;

use super::simd::data_ptr;
use super::{binop, ctype, grain, vname, Dest, Gen, IsArray, Res, Virtual};
use crate::scalar::atomic_fetch;
use ogham_imp::lower::Binding;

/// How the applications of a parallel `withacc` update one accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    /// Per-chunk partial copies, or atomic updates, chosen at run time.
    Combine(BinOp),
    /// Never updated with an operator: plain writes into the destination.
    Direct,
}

/// The elements from which the multicore backend adds an array into a
/// slice of another in parallel ([`Gen::combine_par`]).
const PAR_COMBINE: i64 = 1 << 15;

/// Whether no two applications of a `withacc`'s `map` update the same
/// element of accumulator `i`: every update of it is a statement of the
/// map function's own body (not in a branch, loop or nested SOAC) and has,
/// at one same position of its slice, one same parameter of `rows` (each
/// application's row index, `j` of `iota w`), so the applications update
/// disjoint elements and plain read-modify-writes need no combining
/// (`mapinto`'s additions of a map's rows into a row of an array).
fn disjoint_updates(map: &Lambda, i: usize, rows: &[VName]) -> bool {
    let mut cur = map.params[i].name;
    let mut at: Option<(usize, VName)> = None;
    for stm in &map.body.stms {
        if !ogham_ir::visit::free_vars_exp(&stm.exp).contains(&cur) {
            continue;
        }
        let Exp::UpdAcc { acc, slice, .. } = &stm.exp else { return false };
        let index = slice.iter().enumerate().find_map(|(k, d)| match d {
            DimIndex::Fix(SubExp::Var(v)) if rows.contains(v) => Some((k, *v)),
            _ => None,
        });
        match (index, at) {
            (None, _) => return false,
            (Some(x), Some(y)) if x != y => return false,
            (Some(x), _) => at = Some(x),
        }
        if *acc != cur || stm.pat.len() != 1 {
            return false;
        }
        cur = stm.pat[0].name;
    }
    map.body.result.get(i) == Some(&SubExp::Var(cur))
}

/// For the map function of a `withacc` with `n` accumulators: which
/// accumulator (its position) every variable made of one comes from, and
/// the operator each accumulator is updated with (`None` inside for
/// overwriting; absent when never updated). Variables are unique in the
/// program, so the map covers every nested scope of the lambda.
fn acc_roots(map: &Lambda, n: usize) -> (HashMap<VName, usize>, Vec<Option<Option<BinOp>>>) {
    fn body(b: &ogham_ir::Body, roots: &mut HashMap<VName, usize>, ops: &mut Vec<Option<Option<BinOp>>>) {
        for stm in &b.stms {
            match &stm.exp {
                Exp::UpdAcc { acc, op, .. } => {
                    if let Some(&r) = roots.get(acc) {
                        if ops[r].is_none() {
                            ops[r] = Some(*op);
                        }
                        if let Some(p) = stm.pat.first() {
                            roots.insert(p.name, r);
                        }
                    }
                }
                Exp::Soac(Soac::WithAcc { accs, map, .. }) => {
                    for (i, a) in accs.iter().enumerate() {
                        if let Some(&r) = roots.get(a) {
                            if let Some(p) = map.params.get(i) {
                                roots.insert(p.name, r);
                            }
                            if let Some(p) = stm.pat.get(i) {
                                roots.insert(p.name, r);
                            }
                        }
                    }
                    body(&map.body, roots, ops);
                }
                Exp::Loop { params, body: lbody, .. } => {
                    for (i, (p, init)) in params.iter().enumerate() {
                        if let Some(&r) = init.as_var().and_then(|v| roots.get(&v)) {
                            roots.insert(p.name, r);
                            if let Some(q) = stm.pat.get(i) {
                                roots.insert(q.name, r);
                            }
                        }
                    }
                    body(lbody, roots, ops);
                }
                Exp::If { then_body, else_body, .. } => {
                    body(then_body, roots, ops);
                    body(else_body, roots, ops);
                    for (i, p) in stm.pat.iter().enumerate() {
                        let r = [then_body, else_body]
                            .iter()
                            .find_map(|b| b.result.get(i).and_then(|r| r.as_var()).and_then(|v| roots.get(&v)))
                            .copied();
                        if let Some(r) = r {
                            roots.insert(p.name, r);
                        }
                    }
                }
                // Other lambdas and bodies cannot see accumulators (the
                // verifier's linear-use rules), but may hold withaccs of
                // their own, whose updates are plain.
                _ => {}
            }
        }
    }
    let mut roots = HashMap::default();
    for (i, p) in map.params.iter().take(n).enumerate() {
        roots.insert(p.name, i);
    }
    let mut ops = vec![None; n];
    body(&map.body, &mut roots, &mut ops);
    (roots, ops)
}

/// Whether an application of the map function may update many elements
/// of the accumulators in `roots`: an update of a row or slice, or one
/// inside a loop or a nested `withacc` (reverse-mode derivatives add whole
/// adjoint arrays per application). Atomics would then cost an atomic
/// operation per element per application, so partial copies are better
/// whenever they fit in memory.
fn dense_updates(
    body: &ogham_ir::Body,
    roots: &HashMap<VName, usize>,
    rank: &dyn Fn(VName) -> usize,
    nested: bool,
) -> bool {
    body.stms.iter().any(|stm| match &stm.exp {
        Exp::UpdAcc { acc, slice, .. } if roots.contains_key(acc) => {
            nested || slice.len() < rank(*acc) || slice.iter().any(|d| matches!(d, DimIndex::Slice { .. }))
        }
        Exp::If { then_body, else_body, .. } => {
            dense_updates(then_body, roots, rank, nested) || dense_updates(else_body, roots, rank, nested)
        }
        Exp::Loop { body: lbody, .. } => dense_updates(lbody, roots, rank, true),
        Exp::Soac(Soac::WithAcc { map, .. }) => dense_updates(&map.body, roots, rank, true),
        _ => false,
    })
}

/// At most this many elements of per-chunk partial copies, when
/// applications update many elements each.
const DENSE_PARTIALS_LIMIT: i64 = 1 << 25;

/// The neutral element of an accumulator operator on `t`.
fn neutral(op: BinOp, t: PrimType) -> Res<PrimValue> {
    op.neutral(t).ok_or_else(|| format!("C backend: `{op:?}` on {t} is not an accumulator operator"))
}

impl Gen<'_> {
    /// `acc[slice] ⊕= value`: nothing happens when the slice is out of
    /// bounds; the result views the updated array. Inside the atomic task
    /// of a parallel `withacc`, an update of its accumulator is atomic.
    pub(super) fn upd_acc(
        &mut self,
        stm: &Stm,
        acc: VName,
        slice: &[DimIndex],
        value: &SubExp,
        op: Option<BinOp>,
    ) -> Res<()> {
        let a = vname(acc);
        let aty = self.ty(acc)?.clone();
        let (rank, elem) = (aty.rank(), aty.elem());
        let atomic = op.is_some() && self.atomic_accs.contains(&acc);
        let mut fits = Vec::new();
        let mut nonempty = Vec::new();
        for (d, di) in slice.iter().enumerate() {
            let n = format!("{a}.shape[{d}]");
            match di {
                DimIndex::Fix(i) => {
                    let i = self.se(i);
                    fits.push(format!("({i} >= 0 && {i} < {n})"));
                }
                DimIndex::Slice { start, len, stride } => {
                    let (s, l, k) = (self.se(start), self.se(len), self.se(stride));
                    fits.push(format!("og_slice_fits({s}, {l}, {k}, {n})"));
                    nonempty.push(format!("{l} > 0"));
                }
            }
        }
        let v = self.se(value);
        let vty = self.se_type(value)?;
        self.line(&format!("if ({}) {{", if fits.is_empty() { "true".to_string() } else { fits.join(" && ") }));
        self.indent += 1;
        if slice.len() == rank && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
            let idxs: Vec<String> = slice
                .iter()
                .map(|d| match d {
                    DimIndex::Fix(i) => self.se(i),
                    DimIndex::Slice { .. } => unreachable!("checked all Fix"),
                })
                .collect();
            let e = Self::elem(&a, elem, &idxs);
            self.combine_elem(&e, &v, elem, op, atomic)?;
        } else {
            // The slice's shape: its ranges' lengths, then the array's remaining dimensions.
            let mut dims = Vec::new();
            for di in slice {
                if let DimIndex::Slice { len, .. } = di {
                    dims.push(self.se(len));
                }
            }
            dims.extend((slice.len()..rank).map(|d| format!("{a}.shape[{d}]")));
            if vty.is_array() {
                let conds: Vec<String> =
                    dims.iter().enumerate().map(|(d, n)| format!("{v}.shape[{d}] != {n}")).collect();
                if !conds.is_empty() {
                    self.fail(
                        &conds.join(" || "),
                        stm.span,
                        "Value of shape does not match the shape of the slice being updated.",
                        &[],
                    );
                }
            }
            // An empty range writes nothing, and its start may be anything.
            if !nonempty.is_empty() {
                self.line(&format!("if ({}) {{", nonempty.join(" && ")));
                self.indent += 1;
            }
            let view = self.slice_view(&a, slice, rank);
            match (op, vty.is_array()) {
                (None, true) => {
                    let r = vty.rank();
                    self.line(&format!("og_copy_into(&{view}, &{v}, {}, {r});", elem.byte_size()));
                }
                _ => {
                    let parallel = self.opts.backend == crate::Backend::Multicore
                        && !self.in_parallel
                        && !atomic
                        && vty.is_array()
                        && dims.len() >= 2;
                    if parallel {
                        // Only big updates pay for waking the threads.
                        self.line(&format!("if (og_shape_elems({}, {view}.shape) >= {PAR_COMBINE}) {{", dims.len()));
                        self.indent += 1;
                        self.combine_par(&view, &v, dims.len(), elem, op)?;
                        self.indent -= 1;
                        self.line("} else {");
                        self.indent += 1;
                    }
                    self.combine_into(&view, &v, (dims.len(), vty.is_array()), elem, op, atomic)?;
                    if parallel {
                        self.indent -= 1;
                        self.line("}");
                    }
                }
            }
            if !nonempty.is_empty() {
                self.indent -= 1;
                self.line("}");
            }
        }
        self.indent -= 1;
        self.line("}");
        self.line(&format!("og_arr {} = {a};", vname(stm.pat[0].name)));
        Ok(())
    }

    /// `view ⊕= v` element by element (`v` an array of `view`'s shape, of
    /// `rank` dimensions, or a scalar), unit-stride rows through pointers.
    fn combine_into(
        &mut self,
        view: &str,
        v: &str,
        (rank, array): (usize, bool),
        elem: PrimType,
        op: Option<BinOp>,
        atomic: bool,
    ) -> Res<()> {
        let vdims: Vec<String> = (0..rank).map(|d| format!("{view}.shape[{d}]")).collect();
        if !atomic && !vdims.is_empty() {
            // Unit-stride rows, tested once: the innermost loop through
            // pointers, which the C compiler vectorises (a reverse-mode
            // adjoint adds whole rows and matrices).
            let last = vdims.len() - 1;
            let mut unit = vec![format!("{view}.stride[{last}] == 1")];
            if array {
                unit.push(format!("{v}.stride[{last}] == 1"));
            }
            self.line(&format!("if ({}) {{", unit.join(" && ")));
            self.indent += 1;
            let idxs = self.open_loops(&vdims[..last]);
            let row_off = |arr: &str| -> String {
                let mut off = format!("{arr}.offset");
                for (d, i) in idxs.iter().enumerate() {
                    off.push_str(&format!(" + ({i}) * {arr}.stride[{d}]"));
                }
                off
            };
            let t = ctype(elem);
            let pd = self.fresh("pd");
            self.line(&format!("{t} *restrict {pd} = ({t} *)og_mem_data({view}.mem) + {};", row_off(view)));
            let src = if array {
                let ps = self.fresh("ps");
                self.line(&format!("const {t} *restrict {ps} = (const {t} *)og_mem_data({v}.mem) + {};", row_off(v)));
                Some(ps)
            } else {
                None
            };
            let j = self.fresh("j");
            self.line(&format!("for (int64_t {j} = 0; {j} < {}; {j}++) {{", vdims[last]));
            self.indent += 1;
            let x = src.map_or_else(|| v.to_string(), |ps| format!("{ps}[{j}]"));
            self.combine_elem(&format!("{pd}[{j}]"), &x, elem, op, false)?;
            self.indent -= 1;
            self.line("}");
            self.close_loops(last);
            self.indent -= 1;
            self.line("} else {");
            self.indent += 1;
            // Any strides (GMM's transposed `[d][d]` sums): the same
            // pointers, taken once, not reloaded through the views at
            // every element.
            let t = ctype(elem);
            let (pd, ps) = (self.fresh("pd"), self.fresh("ps"));
            self.line(&format!("{t} *restrict {pd} = ({t} *)og_mem_data({view}.mem) + {view}.offset;"));
            if array {
                self.line(&format!("const {t} *restrict {ps} = (const {t} *)og_mem_data({v}.mem) + {v}.offset;"));
            }
            let idxs = self.open_loops(&vdims);
            let at = |base: &str, arr: &str| {
                let terms: Vec<String> =
                    idxs.iter().enumerate().map(|(d, i)| format!("{i} * {arr}.stride[{d}]")).collect();
                format!("{base}[{}]", terms.join(" + "))
            };
            let x = if array { at(&ps, v) } else { v.to_string() };
            self.combine_elem(&at(&pd, view), &x, elem, op, false)?;
            self.close_loops(vdims.len());
            self.indent -= 1;
            self.line("}");
            return Ok(());
        }
        let idxs = self.open_loops(&vdims);
        let e = Self::elem(view, elem, &idxs);
        let x = if array { Self::elem(v, elem, &idxs) } else { v.to_string() };
        self.combine_elem(&e, &x, elem, op, atomic)?;
        self.close_loops(vdims.len());
        Ok(())
    }

    /// [`Self::combine_into`] of arrays of at least two dimensions, on the
    /// multicore backend: the rows of the first dimension in parallel (the
    /// chunked sums of `accreduce`, GMM's `[K][d][d]` per chunk of points,
    /// were the gradient's one sequential loop).
    fn combine_par(&mut self, view: &str, v: &str, rank: usize, elem: PrimType, op: Option<BinOp>) -> Res<()> {
        let fields = vec!["og_arr dst".to_string(), "og_arr src".to_string()];
        let (sname, fname, saved) = self.begin_task(&[], &fields);
        self.line("for (int64_t r = start; r < end; r++) {");
        self.indent += 1;
        self.line(&format!("og_arr dst = og_row(cl->dst, {rank}, r);"));
        self.line(&format!("og_arr src = og_row(cl->src, {rank}, r);"));
        self.combine_into("dst", "src", (rank - 1, true), elem, op, false)?;
        self.indent -= 1;
        self.line("}");
        self.end_task(&fname, saved);
        let extra = vec![("dst".to_string(), view.to_string()), ("src".to_string(), v.to_string())];
        let cl = self.closure_init(&sname, &[], &extra);
        let rows = format!("{view}.shape[0]");
        self.line(&format!(
            "if (og_parallel(ctx, {fname}, &{cl}, {rows}, og_num_chunks(ctx, {rows}, 1))) return og_propagate();"
        ));
        Ok(())
    }

    /// `e ⊕= x` on one element (an lvalue), or `e = x` without an operator.
    fn combine_elem(&mut self, e: &str, x: &str, elem: PrimType, op: Option<BinOp>, atomic: bool) -> Res<()> {
        let Some(op) = op else {
            self.line(&format!("{e} = {x};"));
            return Ok(());
        };
        if !atomic {
            let new = binop(op, elem, e, x)?;
            self.line(&format!("{e} = {new};"));
            return Ok(());
        }
        let bits = format!("uint{}_t", elem.byte_size() * 8);
        self.line("{");
        self.indent += 1;
        let addr = self.fresh("addr");
        self.line(&format!("{bits} *{addr} = ({bits} *)&{e};"));
        if let Some(f) = atomic_fetch(op, elem) {
            self.line(&format!("{f}({addr}, ({bits})({x}), __ATOMIC_RELAXED);"));
        } else {
            self.cas_loop(&addr, elem, |g, cur| {
                let combined = binop(op, elem, cur, x)?;
                g.line(&format!("{cur} = {combined};"));
                Ok(())
            })?;
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// A `withacc`: its accumulator results are the destinations, updated
    /// in place; its mapped results are allocated and filled row by row.
    pub(super) fn with_acc(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        accs: &[VName],
        map: &Lambda,
        parallel: bool,
    ) -> Res<()> {
        let n = accs.len();
        if map.params.len() < n || map.ret.len() < n || stm.pat.len() != map.ret.len() {
            return Err("C backend: malformed withacc".to_string());
        }
        for (p, d) in stm.pat.iter().zip(accs) {
            self.line(&format!("og_arr {} = {};", vname(p.name), vname(*d)));
        }
        let outs = self.screma_outputs(stm, 0, n);
        let dests: Vec<String> = accs.iter().map(|a| vname(*a)).collect();
        let wc = self.se(w);
        if !parallel {
            return self.with_acc_loop(w, arrs, map, &dests, &outs, ("0", &wc), stm.span);
        }
        self.with_acc_par(stm, (w, &wc), arrs, accs, map, &outs)
    }

    /// The loop over rows `[start, end)` of a `withacc`, its accumulator
    /// parameters viewing `accs` (C arrays), its mapped results going to
    /// row `j` of `outs`.
    #[allow(clippy::too_many_arguments)]
    fn with_acc_loop(
        &mut self,
        w: &SubExp,
        arrs: &[VName],
        map: &Lambda,
        accs: &[String],
        outs: &[(String, Type)],
        (start, end): (&str, &str),
        span: Span,
    ) -> Res<()> {
        let n = accs.len();
        let atomic: Vec<bool> = map.params[..n].iter().map(|p| self.atomic_accs.contains(&p.name)).collect();
        if self.with_acc_kernel(w, arrs, map, (accs, &atomic), outs, (start, end), span)? {
            return Ok(());
        }
        let j = self.fresh("j");
        self.line(&format!("for (int64_t {j} = {start}; {j} < {end}; {j}++) {{"));
        self.indent += 1;
        let mut dests = Vec::new();
        for i in 0..map.ret.len() {
            if i < n {
                // The accumulator results are views of the accumulators'
                // memory: nothing to store (a reference the body took is
                // released when the body's block ends).
                let t = self.fresh("acc");
                self.line(&format!("og_arr {t} = {{0}};"));
                dests.push(Dest::Borrow(t));
            } else {
                let (arr, ty) = &outs[i - n];
                dests.push(Dest::At { arr: arr.clone(), rank: ty.rank(), elem: ty.elem(), idxs: vec![j.clone()] });
            }
        }
        self.line("{");
        self.indent += 1;
        for (p, a) in map.params.iter().zip(accs) {
            self.line(&format!("og_arr {} = {a};", vname(p.name)));
        }
        self.bind_rows(&map.params[n..], arrs, &j)?;
        self.body(&map.body, &dests)?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// A parallel `withacc` (see the module's documentation).
    fn with_acc_par(
        &mut self,
        stm: &Stm,
        (w, wc): (&SubExp, &str),
        arrs: &[VName],
        accs: &[VName],
        map: &Lambda,
        outs: &[(String, Type)],
    ) -> Res<()> {
        let n = accs.len();
        let (roots, ops) = acc_roots(map, n);
        // The parameters taking the rows of `iota w`: each application's own index.
        let rows: Vec<VName> = map.params[n..]
            .iter()
            .zip(arrs)
            .filter(|(_, a)| {
                let one = |s: &SubExp, k: i64| matches!(s, SubExp::Const(c) if c.as_i64() == k);
                matches!(self.virt.get(a), Some(Virtual::Iota { start, step, .. }) if one(start, 0) && one(step, 1))
            })
            .map(|(p, _)| p.name)
            .collect();
        let strategies: Vec<Strategy> = ops
            .iter()
            .enumerate()
            .map(|(i, op)| match op {
                Some(Some(_)) if disjoint_updates(map, i, &rows) => Strategy::Direct,
                Some(Some(op)) => Strategy::Combine(*op),
                _ => Strategy::Direct,
            })
            .collect();
        let combined: Vec<usize> = (0..n).filter(|&i| strategies[i] != Strategy::Direct).collect();
        let dests: Vec<String> = accs.iter().map(|a| vname(*a)).collect();
        let nchunks = self.fresh("nchunks");
        self.line(&format!("int64_t {nchunks} = og_num_chunks(ctx, {wc}, {});", grain(map)));
        // One chunk: the plain loop.
        self.line(&format!("if (__builtin_expect({nchunks} <= 1, 1)) {{"));
        self.indent += 1;
        self.with_acc_loop(w, arrs, map, &dests, outs, ("0", wc), stm.span)?;
        self.indent -= 1;
        let mut free = self.task_free_vars(stm);
        for a in accs {
            if !free.contains(a) {
                free.push(*a);
            }
        }
        self.line("} else {");
        self.indent += 1;
        if !combined.is_empty() {
            // Small accumulators next to the work: partial copies, one per
            // thread (see the module's documentation).
            let nparts = self.fresh("nparts");
            self.line(&format!("int64_t {nparts} = og_num_chunks(ctx, {wc}, og_per_thread(ctx, {wc}));"));
            let counts: Vec<String> = combined
                .iter()
                .map(|&i| Ok(format!("og_shape_elems({}, {}.shape)", self.rank_of(accs[i])?, dests[i])))
                .collect::<Res<_>>()?;
            let rank = |v: VName| self.rank_of(v).unwrap_or(0);
            let dense = dense_updates(&map.body, &roots, &rank, false);
            let fits = if dense {
                format!("({}) * {nparts} <= {DENSE_PARTIALS_LIMIT}", counts.join(" + "))
            } else {
                // Or, with few threads, copies that together are no larger
                // than a few times the work (a derivative's accumulator as
                // large as its input, each element updated by a few
                // applications: plain updates of two copies and a fold
                // beat a compare-and-swap loop per update).
                let c = counts.join(" + ");
                format!(
                    "({c}) <= {wc} / {nchunks} || (({c}) * {nparts} <= 4 * {wc} && ({c}) * {nparts} <= {DENSE_PARTIALS_LIMIT})"
                )
            };
            self.line(&format!("if ({fits}) {{"));
            self.indent += 1;
            self.with_acc_partials(stm, (w, wc), arrs, accs, map, outs, &combined, &strategies, &nparts, &free)?;
            self.indent -= 1;
            self.line("} else {");
            self.indent += 1;
        }
        // Atomic updates of the destinations: a kernel as a parallel job
        // when the function allows one.
        let atomic: Vec<bool> = (0..n).map(|i| combined.contains(&i)).collect();
        if let Some(lowered) = self.with_acc_lowered(w, arrs, map, &atomic, outs) {
            let job = self.launch_kernel(lowered, (wc, &nchunks), stm.span, |g, b| {
                super::simd::with_acc_binding(g, b, map, &dests, outs)
            })?;
            self.line(&format!("if ({job}) return og_propagate();"));
        } else {
            self.with_acc_atomic_task(stm, (w, wc, &nchunks), arrs, map, outs, (&roots, &combined, &dests, &free))?;
        }
        if !combined.is_empty() {
            self.indent -= 1;
            self.line("}");
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// [`Self::with_acc_par`]'s atomic updates of the destinations by a
    /// task running the loop statement by statement: every variable made
    /// of a `combined` accumulator's parameter (`roots`) is updated
    /// atomically.
    #[allow(clippy::type_complexity)]
    fn with_acc_atomic_task(
        &mut self,
        stm: &Stm,
        (w, wc, nchunks): (&SubExp, &str, &str),
        arrs: &[VName],
        map: &Lambda,
        outs: &[(String, Type)],
        (roots, combined, dests, free): (&HashMap<VName, usize>, &[usize], &[String], &[VName]),
    ) -> Res<()> {
        let out_fields: Vec<String> = outs.iter().map(|(c, _)| format!("og_arr {c}")).collect();
        let out_extra: Vec<(String, String)> = outs.iter().map(|(c, _)| (c.clone(), c.clone())).collect();
        let (sname, fname, saved) = self.begin_task(free, &out_fields);
        for (c, _) in outs {
            self.line(&format!("og_arr {c} = cl->{c};"));
        }
        let mine: Vec<VName> = roots.iter().filter(|(_, r)| combined.contains(r)).map(|(v, _)| *v).collect();
        self.atomic_accs.extend(mine.iter().copied());
        let res = self.with_acc_loop(w, arrs, map, dests, outs, ("start", "end"), stm.span);
        for v in &mine {
            self.atomic_accs.remove(v);
        }
        res?;
        self.end_task(&fname, saved);
        let cl = self.closure_init(&sname, free, &out_extra);
        self.pinned_job(dests, &format!("og_parallel(ctx, {fname}, &{cl}, {wc}, {nchunks})"));
        Ok(())
    }

    /// Runs the parallel job `call` with the memory of the arrays `pinned`
    /// (accumulators and their partials) pinned: the tasks' references to
    /// them are not counted (`og_mem.pinned` in the runtime).
    fn pinned_job(&mut self, pinned: &[String], call: &str) {
        let pin = |on: bool| pinned.iter().map(|a| format!("og_pin({a}.mem, {on}); ")).collect::<String>();
        self.line(pin(true).trim_end());
        self.line(&format!("if ({call}) {{"));
        self.line(&format!("  {}", pin(false).trim_end()));
        self.line("  return og_propagate();");
        self.line("}");
        self.line(pin(false).trim_end());
    }

    /// The partials strategy: chunk `c` of `nchunks` (one per thread)
    /// updates its own copy of every combined accumulator (`partial + c *
    /// pitch`, a pitch of whole cache lines apart, row-major), starting
    /// from the neutral element; then one parallel pass per accumulator
    /// over its elements folds the chunks' copies into the destination.
    #[allow(clippy::too_many_arguments)]
    fn with_acc_partials(
        &mut self,
        stm: &Stm,
        (w, wc): (&SubExp, &str),
        arrs: &[VName],
        accs: &[VName],
        map: &Lambda,
        outs: &[(String, Type)],
        combined: &[usize],
        strategies: &[Strategy],
        nchunks: &str,
        free: &[VName],
    ) -> Res<()> {
        self.open_scope();
        // (accumulator position, partial array, element type, rank, operator)
        let mut partials = Vec::new();
        for &i in combined {
            let Strategy::Combine(op) = strategies[i] else { continue };
            let aty = self.ty(accs[i])?.clone();
            let (elem, rank) = (aty.elem(), aty.rank());
            let d = vname(accs[i]);
            let p = self.fresh("partial");
            let t = ctype(elem);
            self.line(&format!("og_arr {p} = {{0}};"));
            let size = format!("{nchunks} * OG_PITCH(og_shape_elems({rank}, {d}.shape), {t})");
            self.alloc(&p, elem, &[size], stm.span);
            partials.push((i, p, elem, rank, op));
        }
        let mut fields: Vec<String> = outs.iter().map(|(c, _)| format!("og_arr {c}")).collect();
        fields.extend(partials.iter().map(|(_, p, ..)| format!("og_arr {p}")));
        let mut extra: Vec<(String, String)> = outs.iter().map(|(c, _)| (c.clone(), c.clone())).collect();
        extra.extend(partials.iter().map(|(_, p, ..)| (p.clone(), p.clone())));
        // Pass 1: every chunk fills its partials.
        let (sname, fname, saved) = self.begin_task(free, &fields);
        for (c, _) in outs {
            self.line(&format!("og_arr {c} = cl->{c};"));
        }
        let mut srcs: Vec<String> = accs.iter().map(|a| vname(*a)).collect();
        for (i, p, elem, rank, op) in &partials {
            let (t, d) = (ctype(*elem), vname(accs[*i]));
            let (count, view) = (self.fresh("count"), self.fresh("mine"));
            self.line(&format!("int64_t {count} = og_shape_elems({rank}, {d}.shape);"));
            self.line(&format!("og_arr {view} = cl->{p};"));
            self.line(&format!("{view}.offset = chunk * OG_PITCH({count}, {t});"));
            for k in 0..*rank {
                self.line(&format!("{view}.shape[{k}] = {d}.shape[{k}];"));
            }
            self.line(&format!("og_set_row_major(&{view}, {rank});"));
            let fill = ogham_imp::lower::merge::fill(neutral(*op, *elem)?);
            let dest = data_ptr(&view, *elem);
            self.run_kernel(fill, ("0", &count), stm.span, |g, b| match b {
                Binding::Dest(0) => Ok(dest.clone()),
                b => g.common_binding(b),
            })?;
            srcs[*i] = view;
        }
        self.with_acc_loop(w, arrs, map, &srcs, outs, ("start", "end"), stm.span)?;
        self.end_task(&fname, saved);
        let cl = self.closure_init(&sname, free, &extra);
        let mut pinned: Vec<String> = accs.iter().map(|a| vname(*a)).collect();
        pinned.extend(partials.iter().map(|(_, p, ..)| p.clone()));
        self.pinned_job(&pinned, &format!("og_parallel(ctx, {fname}, &{cl}, {wc}, {nchunks})"));
        // Pass 2: per accumulator, its elements in parallel, each folding in the chunks' partials in order.
        for (i, p, elem, rank, op) in &partials {
            let (t, d) = (ctype(*elem), vname(accs[*i]));
            // A kernel (`ogham_imp::lower::merge::fold_elements`) per chunk
            // in order, run as a parallel job over the elements; a
            // row-major destination (as accumulators mostly are) as one
            // dimension, so that the fold is one vectorisable loop (GMM's
            // [K][d][d] sums with an index computed by three divisions per
            // element took 5% of its gradient at n = 1000).
            let count = format!("og_shape_elems({rank}, {d}.shape)");
            let pitch = format!("OG_PITCH({count}, {t})");
            let part = data_ptr(p, *elem);
            let size = (count.as_str(), format!("og_num_chunks(ctx, {count}, 4096)"));
            let bind = (d.as_str(), *elem, part.as_str(), pitch.as_str(), nchunks);
            self.line(&format!("if (og_is_contiguous(&{d}, {rank})) {{"));
            self.indent += 1;
            let flat = ogham_imp::lower::merge::fold_elements(*op, *elem, 1).ok_or("internal error: fold kernel")?;
            let job = self.launch_kernel(flat, (size.0, &size.1), stm.span, |g, b| {
                Ok(match b {
                    Binding::DestStride(0, 0) => "1".to_string(),
                    Binding::DestShape(0, 0) => count.clone(),
                    b => fold_binding(g, b, bind)?,
                })
            })?;
            self.line(&format!("if ({job}) return og_propagate();"));
            self.indent -= 1;
            self.line("} else {");
            self.indent += 1;
            let any = ogham_imp::lower::merge::fold_elements(*op, *elem, *rank).ok_or("internal error: fold kernel")?;
            let job = self.launch_kernel(any, (size.0, &size.1), stm.span, |g, b| fold_binding(g, b, bind))?;
            self.line(&format!("if ({job}) return og_propagate();"));
            self.indent -= 1;
            self.line("}");
        }
        self.close_scope();
        Ok(())
    }
}

/// What a kernel of `ogham_imp::lower::merge::fold_elements` is given: the
/// destination `dest` (a C array view, elements `elem`), its chunks'
/// partials (`part`, a pointer, chunks `pitch` apart) and their number.
fn fold_binding(
    g: &Gen,
    b: Binding,
    (dest, elem, part, pitch, chunks): (&str, PrimType, &str, &str, &str),
) -> Res<String> {
    Ok(match b {
        Binding::Dest(0) => data_ptr(dest, elem),
        Binding::DestStride(0, d) => format!("{dest}.stride[{d}]"),
        Binding::DestShape(0, d) => format!("{dest}.shape[{d}]"),
        Binding::Partial(0) => part.to_string(),
        Binding::PartialStride(0, 0) => pitch.to_string(),
        Binding::Chunks => chunks.to_string(),
        b => g.common_binding(b)?,
    })
}
