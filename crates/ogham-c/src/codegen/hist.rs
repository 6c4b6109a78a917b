//! Histograms (`hist`, `reduce_by_index`): the sequential loop, and in
//! multicore code the three parallel forms, chosen at run time: per-chunk
//! partial histograms folded by a second parallel pass (`hist_par`), rows
//! of buckets combined element by element (`hist_par_rows`), and atomic
//! updates of the destination (`hist_atomic`). The loops are kernels of
//! `ogham_imp::lower::hist` where the map function allows one (with
//! `atomic` updates for `hist_atomic`), and the second passes kernels of
//! `ogham_imp::lower::merge` (but for buckets of more than one
//! dimension); a pass that is one kernel runs as a parallel job of it
//! (`Gen::launch_kernel`). The statement-by-statement forms here are for
//! the rest.

use super::*;

/// What a `hist` kernel is given for its destinations (per operator, C
/// arrays shaped like its destinations): per destination a pointer to its
/// first bucket and its strides, and per operator its number of buckets.
fn kernel_dests(dests: &[Vec<(String, Type)>]) -> (Vec<(String, Vec<String>)>, Vec<String>) {
    let ptrs = dests
        .iter()
        .flatten()
        .map(|(d, t)| (simd::data_ptr(d, t.elem()), (0..t.rank()).map(|k| format!("{d}.stride[{k}]")).collect()))
        .collect();
    let buckets = dests.iter().map(|ds| ds.first().map(|d| format!("{}.shape[0]", d.0)).unwrap_or_default()).collect();
    (ptrs, buckets)
}

impl Gen<'_> {
    /// The kernels merging per-chunk partial histograms into each
    /// operator's destinations ([`Self::hist_merges`]), when a `hist` can
    /// run with such partials: one index per operator and scalar buckets
    /// (the partials are plain C arrays), and operators whose merge is a
    /// kernel.
    pub(super) fn hist_par_merges(&self, ops: &[HistOp]) -> Res<Option<Vec<ogham_imp::lower::Lowered>>> {
        for op in ops {
            if op.shape.len() != 1 || op.op.lambda.params.iter().any(|p| p.ty.is_array()) {
                return Ok(None);
            }
            for d in &op.dests {
                if self.rank_of(*d)? != 1 {
                    return Ok(None);
                }
            }
        }
        Ok(self.hist_merges(ops))
    }

    /// A parallel `hist`: when the histograms are small next to the input
    /// (each chunk's private copy costs as much as `w / nchunks` updates at
    /// most), every chunk accumulates into its own partial histograms starting
    /// from the neutral elements, and a second parallel pass over the buckets
    /// folds the partials into the destinations. Operators are associative
    /// and commutative, so the order of combination does not matter. Large
    /// histograms run sequentially instead (no atomics: operators are
    /// arbitrary lambdas).
    /// `merges` are the kernels of the second pass ([`Self::hist_par_merges`]).
    pub(super) fn hist_par(
        &mut self,
        stm: &Stm,
        (w, arrs): (&SubExp, &[VName]),
        ops: &[HistOp],
        map: &Lambda,
        merges: Vec<ogham_imp::lower::Lowered>,
    ) -> Res<()> {
        self.bind_hist_results(stm, ops);
        let wc = self.se(w);
        let nchunks = self.fresh("nchunks");
        self.line(&format!("int64_t {nchunks} = og_num_chunks(ctx, {wc}, {});", grain(map)));
        // Buckets of every operator (its destinations share the shape).
        let sizes: Vec<String> = ops.iter().map(|op| format!("{}.shape[0]", vname(op.dests[0]))).collect();
        let total = sizes.join(" + ");
        let small = self.fresh("small");
        self.line(&format!("bool {small} = {nchunks} > 1 && ({total}) <= {wc} / {nchunks};"));
        self.line(&format!("if (!{small}) {{"));
        self.indent += 1;
        // Large histograms: atomic updates of the destinations when every
        // operator updates one scalar, else the sequential loop.
        let atomic = ops.iter().all(|op| op.dests.len() == 1);
        if atomic {
            self.line(&format!("if ({nchunks} > 1) {{"));
            self.indent += 1;
            self.hist_atomic(stm, w, arrs, ops, map, &nchunks)?;
            self.indent -= 1;
            self.line("} else {");
            self.indent += 1;
        }
        self.in_parallel = true;
        let dests = self.hist_dests(ops)?;
        let res = self.hist_loop(arrs, ops, map, &dests, ("0", &wc), stm.span);
        self.in_parallel = false;
        res?;
        if atomic {
            self.indent -= 1;
            self.line("}");
        }
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        // The partial histograms: chunk c's buckets of destination i start at partial_i + c * size.
        let mut partials = Vec::new();
        for (oi, op) in ops.iter().enumerate() {
            for (di, d) in op.dests.iter().enumerate() {
                let t = ctype(self.ty(*d)?.elem());
                let p = self.fresh("partial");
                // Chunks' partials lie a padded pitch apart, so no two threads
                // ever write the same cache line (false sharing cost k-means a
                // third of its parallel speed-up).
                self.line(&format!(
                    "{t} *{p} = malloc((size_t)({nchunks} * OG_PITCH({}, {t}) + 1) * sizeof({t}));",
                    sizes[oi]
                ));
                partials.push((p, t, oi, di));
            }
        }
        let any_null: Vec<String> = partials.iter().map(|(p, ..)| format!("{p} == NULL")).collect();
        let free_all: String = partials.iter().map(|(p, ..)| format!(" free({p});")).collect();
        let loc = self.loc(stm.span);
        self.line(&format!(
            "if ({}) {{{free_all} return og_fail(ctx, {loc}, \"Out of memory.\"); }}",
            any_null.join(" || ")
        ));
        let free = self.hist_task_free_vars(stm, ops);
        let fields: Vec<String> = partials.iter().map(|(p, t, ..)| format!("{t} *{p}")).collect();
        // Pass 1: each chunk fills its own partial histograms.
        let (sname, fname, saved) = self.begin_task(&free, &fields);
        for (p, t, oi, di) in &partials {
            let n = self.se(&ops[*oi].op.neutral[*di]);
            let size = &sizes[*oi];
            self.line(&format!("{t} *{p} = cl->{p} + chunk * OG_PITCH({size}, {t});"));
            self.line(&format!("for (int64_t b = 0; b < {size}; b++) {p}[b] = {n};"));
        }
        let ptrs: Vec<(String, Vec<String>)> =
            partials.iter().map(|(p, ..)| (p.clone(), vec!["1".to_string()])).collect();
        if !self.hist_kernel(("start", "end"), arrs, ops, map, (&ptrs, &sizes), stm.span)? {
            self.hist_partial_loop(arrs, ops, map, &partials, &sizes)?;
        }
        self.end_task(&fname, saved);
        let extra: Vec<(String, String)> = partials.iter().map(|(p, ..)| (p.clone(), p.clone())).collect();
        let cl = self.closure_init(&sname, &free, &extra);
        self.line(&format!(
            "if (og_parallel(ctx, {fname}, &{cl}, {wc}, {nchunks})) {{{free_all} return og_propagate(); }}"
        ));
        // Pass 2: per operator, the buckets in parallel, each folding the
        // chunks' partials in (a kernel, `ogham_imp::lower::merge`).
        for ((oi, op), merge) in ops.iter().enumerate().zip(merges) {
            let size = sizes[oi].clone();
            let parts: Vec<(String, Vec<String>)> = partials
                .iter()
                .filter(|x| x.2 == oi)
                .map(|(p, t, ..)| (p.clone(), vec![format!("OG_PITCH({size}, {t})"), "1".to_string()]))
                .collect();
            let chunks = format!("og_num_chunks(ctx, {size}, {})", grain(&op.op.lambda));
            let job = self.hist_merge_launch(merge, &op.dests, (&parts, &nchunks), (&size, &chunks), stm.span)?;
            self.line(&format!("if ({job}) {{{free_all} return og_propagate(); }}"));
        }
        self.line(free_all.trim_start());
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// A chunk's loop over its input rows, statement by statement, into its
    /// partial histograms (per destination: the C pointer, its element
    /// type, operator and component).
    pub(super) fn hist_partial_loop(
        &mut self,
        arrs: &[VName],
        ops: &[HistOp],
        map: &Lambda,
        partials: &[(String, &str, usize, usize)],
        sizes: &[String],
    ) -> Res<()> {
        self.line("for (int64_t j = start; j < end; j++) {");
        self.indent += 1;
        let temps = self.hist_map_body(arrs, map, "j")?;
        let mut pos = 0;
        for (oi, op) in ops.iter().enumerate() {
            let kk = op.dests.len();
            let idx = temps[pos].0.clone();
            self.line(&format!("if ({idx} >= 0 && {idx} < {}) {{", sizes[oi]));
            self.indent += 1;
            let mine: Vec<&(String, &str, usize, usize)> = partials.iter().filter(|x| x.2 == oi).collect();
            let accs: Vec<String> = (0..kk).map(|_| self.fresh("acc")).collect();
            for (a, (p, t, ..)) in accs.iter().zip(&mine) {
                self.line(&format!("{t} {a} = {p}[{idx}];"));
            }
            let news: Vec<String> = temps[pos + 1..pos + 1 + kk].iter().map(|(t, _)| t.clone()).collect();
            self.apply_op(&op.op, &accs, &news)?;
            for (a, (p, ..)) in accs.iter().zip(&mine) {
                self.line(&format!("{p}[{idx}] = {a};"));
            }
            self.indent -= 1;
            self.line("}");
            pos += 1 + kk;
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// A parallel `hist` into large scalar histograms: chunks of the input
    /// update the destinations directly with atomic operations. Integer
    /// addition is one `fetch_add` (on the unsigned type, so it wraps like
    /// the language's `+`); every other operator runs in a compare-and-swap
    /// loop on the bucket's bits, retried when another thread changed the
    /// bucket in between. Operators are commutative and associative, so any
    /// interleaving gives the sequential result (up to float rounding).
    pub(super) fn hist_atomic(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        ops: &[HistOp],
        map: &Lambda,
        nchunks: &str,
    ) -> Res<()> {
        let wc = self.se(w);
        if let Some(lowered) = self.hist_lowered(arrs, ops, map, true) {
            // A kernel with atomic updates, as a parallel job.
            let (ptrs, buckets) = kernel_dests(&self.hist_dests(ops)?);
            let job = self
                .launch_kernel(lowered, (&wc, nchunks), stm.span, |g, b| simd::hist_binding(g, b, (&ptrs, &buckets)))?;
            self.line(&format!("if ({job}) return og_propagate();"));
            return Ok(());
        }
        let free = self.hist_task_free_vars(stm, ops);
        let (sname, fname, saved) = self.begin_task(&free, &[]);
        self.hist_atomic_loop(arrs, ops, map)?;
        self.end_task(&fname, saved);
        let cl = self.closure_init(&sname, &free, &[]);
        self.line(&format!("if (og_parallel(ctx, {fname}, &{cl}, {wc}, {nchunks})) return og_propagate();"));
        Ok(())
    }

    /// [`Self::hist_atomic`]'s loop over `start .. end`, statement by
    /// statement, for map functions that are no kernel's.
    fn hist_atomic_loop(&mut self, arrs: &[VName], ops: &[HistOp], map: &Lambda) -> Res<()> {
        self.line("for (int64_t j = start; j < end; j++) {");
        self.indent += 1;
        let temps = self.hist_map_body(arrs, map, "j")?;
        for (oi, op) in ops.iter().enumerate() {
            let (idx, val) = (&temps[2 * oi].0, &temps[2 * oi + 1].0);
            let d = vname(op.dests[0]);
            let elem = self.ty(op.dests[0])?.elem();
            let bits = format!("uint{}_t", elem.byte_size() * 8);
            self.line(&format!("if ({idx} >= 0 && {idx} < {d}.shape[0]) {{"));
            self.indent += 1;
            let addr = self.fresh("addr");
            self.line(&format!("{bits} *{addr} = ({bits} *)&{};", Self::elem(&d, elem, std::slice::from_ref(idx))));
            if is_integer_add(&op.op.lambda) && elem.is_int() {
                self.line(&format!("__atomic_fetch_add({addr}, ({bits}){val}, __ATOMIC_RELAXED);"));
            } else {
                self.cas_loop(&addr, elem, |g, acc| g.apply_op(&op.op, &[acc.to_string()], std::slice::from_ref(val)))?;
            }
            self.indent -= 1;
            self.line("}");
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// `*addr ⊕= …` atomically for an element of type `elem`, whatever ⊕
    /// is: a compare-and-swap loop on the element's bits, retried when
    /// another thread changed the element in between. `combine` updates
    /// the C variable it is given (holding the element's value) in place.
    pub(crate) fn cas_loop(
        &mut self,
        addr: &str,
        elem: PrimType,
        combine: impl FnOnce(&mut Self, &str) -> Res<()>,
    ) -> Res<()> {
        let (t, bits) = (ctype(elem), format!("uint{}_t", elem.byte_size() * 8));
        let (old, cur, new) = (self.fresh("old"), self.fresh("cur"), self.fresh("new"));
        self.line(&format!("{bits} {old} = __atomic_load_n({addr}, __ATOMIC_RELAXED);"));
        self.line("for (;;) {");
        self.indent += 1;
        self.line(&format!("{t} {cur}; memcpy(&{cur}, &{old}, sizeof {cur});"));
        combine(self, &cur)?;
        self.line(&format!("{bits} {new}; memcpy(&{new}, &{cur}, sizeof {new});"));
        self.line(&format!(
            "if (__atomic_compare_exchange_n({addr}, &{old}, {new}, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;"
        ));
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// The variables a task running a `hist`'s input loop needs: those of
    /// the statement and the destinations it updates.
    pub(super) fn hist_task_free_vars(&self, stm: &Stm, ops: &[HistOp]) -> Vec<VName> {
        let mut free = self.task_free_vars(stm);
        for d in ops.iter().flat_map(|op| &op.dests) {
            if !free.contains(d) {
                free.push(*d);
            }
        }
        free
    }

    /// The variables a task merging partial histograms into `op`'s
    /// destinations needs.
    pub(super) fn hist_merge_free_vars(&self, op: &HistOp) -> Vec<VName> {
        let mut fv = ogham_ir::visit::free_vars_lambda(&op.op.lambda);
        fv.extend(op.dests.iter().copied());
        fv.into_iter().filter(|v| self.types.contains_key(v)).collect()
    }

    /// Declares the map results of one `hist`/`scatter` iteration and runs the map lambda on row `j`.
    pub(super) fn hist_map_body(&mut self, arrs: &[VName], map: &Lambda, j: &str) -> Res<Vec<(String, Type)>> {
        let mut temps = Vec::new();
        let mut dests = Vec::new();
        for (i, rt) in map.ret.iter().enumerate() {
            let (t, dest) = self.iteration_temp(map, i);
            dests.push(dest);
            temps.push((t, rt.clone()));
        }
        self.line("{");
        self.indent += 1;
        self.bind_rows(&map.params, arrs, j)?;
        self.body(&map.body, &dests)?;
        self.indent -= 1;
        self.line("}");
        Ok(temps)
    }

    /// Declares the temporary for result `i` of one iteration of a SOAC's
    /// lambda; returns it and where the lambda's body puts the result.
    pub(super) fn iteration_temp(&mut self, lam: &Lambda, i: usize) -> (String, Dest) {
        let rt = &lam.ret[i];
        let t = self.fresh("t");
        if rt.is_array() {
            self.line(&format!("og_arr {t} = {{0}};"));
            if borrowed_results(lam)[i] {
                return (t.clone(), Dest::Borrow(t));
            }
        } else {
            self.line(&format!("{} {t};", cty(rt)));
        }
        (t.clone(), Dest::Fresh(t))
    }

    /// Releases the iteration temporaries (results `0..temps.len()` of
    /// `lam`) that hold a reference.
    pub(super) fn release_temps(&mut self, lam: &Lambda, temps: &[(String, Type)]) {
        let borrowed = borrowed_results(lam);
        for (i, (t, ty)) in temps.iter().enumerate() {
            if ty.is_array() && !borrowed[i] {
                self.line(&format!("og_unref({t}.mem);"));
            }
        }
    }

    /// A histogram's results are its destinations, updated in place.
    pub(super) fn bind_hist_results(&mut self, stm: &Stm, ops: &[HistOp]) {
        let dests = ops.iter().flat_map(|op| &op.dests);
        for (p, d) in stm.pat.iter().zip(dests) {
            self.line(&format!("og_arr {} = {};", vname(p.name), vname(*d)));
        }
    }

    pub(super) fn hist(&mut self, stm: &Stm, w: &SubExp, arrs: &[VName], ops: &[HistOp], map: &Lambda) -> Res<()> {
        self.bind_hist_results(stm, ops);
        let dests = self.hist_dests(ops)?;
        let w = self.se(w);
        self.hist_loop(arrs, ops, map, &dests, ("0", &w), stm.span)
    }

    /// The C variables and types of every operator's destinations.
    pub(super) fn hist_dests(&self, ops: &[HistOp]) -> Res<Vec<Vec<(String, Type)>>> {
        ops.iter().map(|op| op.dests.iter().map(|d| Ok((vname(*d), self.ty(*d)?.clone()))).collect()).collect()
    }

    /// The sequential histogram loop over input rows `[start, end)`, updating
    /// `dests` (per operator, C arrays shaped like its destinations) in place.
    pub(super) fn hist_loop(
        &mut self,
        arrs: &[VName],
        ops: &[HistOp],
        map: &Lambda,
        dests: &[Vec<(String, Type)>],
        (start, end): (&str, &str),
        span: ogham_ir::Span,
    ) -> Res<()> {
        let (ptrs, buckets) = kernel_dests(dests);
        if self.hist_kernel((start, end), arrs, ops, map, (&ptrs, &buckets), span)? {
            return Ok(());
        }
        let j = self.fresh("j");
        self.line(&format!("for (int64_t {j} = {start}; {j} < {end}; {j}++) {{"));
        self.indent += 1;
        let temps = self.hist_map_body(arrs, map, &j)?;
        let mut pos = 0;
        for (op, op_dests) in ops.iter().zip(dests) {
            let nidx = op.shape.len();
            let kk = op.dests.len();
            let idxs: Vec<String> = temps[pos..pos + nidx].iter().map(|(t, _)| t.clone()).collect();
            let vals: Vec<String> = temps[pos + nidx..pos + nidx + kk].iter().map(|(t, _)| t.clone()).collect();
            let conds: Vec<String> = idxs
                .iter()
                .enumerate()
                .map(|(d, i)| format!("{i} >= 0 && {i} < {}.shape[{d}]", op_dests[0].0))
                .collect();
            self.line(&format!("if ({}) {{", if conds.is_empty() { "true".to_string() } else { conds.join(" && ") }));
            self.indent += 1;
            self.hist_update(op, op_dests, &idxs, &vals)?;
            self.indent -= 1;
            self.line("}");
            pos += nidx + kk;
        }
        self.release_temps(map, &temps);
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// `dests[idxs] := op(dests[idxs], vals)` for one histogram operator: the
    /// operator reads the current bucket (a view when it is an array) and
    /// the new values, and its result is stored back into the bucket.
    pub(super) fn hist_update(
        &mut self,
        op: &HistOp,
        dests: &[(String, Type)],
        idxs: &[String],
        vals: &[String],
    ) -> Res<()> {
        self.line("{");
        self.indent += 1;
        let kk = op.dests.len();
        // The operator writes its results straight into the destinations,
        // so its array accumulators read copies: viewing the destinations,
        // a later result may read an accumulator an earlier one
        // overwrote, and a kernel computing a result would get the same
        // row as a read pointer and as a `restrict` write pointer.
        let copy_accs = op.op.lambda.params[..kk].iter().any(|p| p.ty.is_array());
        let mut copies = Vec::new();
        for (i, p) in op.op.lambda.params.iter().enumerate() {
            let c = vname(p.name);
            if i < kk {
                let (d, dty) = &dests[i];
                if p.ty.is_array() && copy_accs {
                    let v = self.subview(d, dty.rank(), idxs);
                    self.line(&format!("og_arr {c} = {{0}};"));
                    self.line(&format!(
                        "if (og_copy_fresh(ctx, &{c}, &{v}, {}, {}, NULL)) return og_propagate();",
                        p.ty.elem().byte_size(),
                        p.ty.rank()
                    ));
                    copies.push(c);
                } else if p.ty.is_array() {
                    let v = self.subview(d, dty.rank(), idxs);
                    self.line(&format!("og_arr {c} = {v};"));
                } else {
                    let e = Self::elem(d, dty.elem(), idxs);
                    self.line(&format!("{} {c} = {e};", cty(&p.ty)));
                }
            } else {
                self.line(&format!("{} {c} = {};", cty(&p.ty), vals[i - kk]));
            }
        }
        let odests: Vec<Dest> = dests
            .iter()
            .map(|(d, dty)| Dest::At { arr: d.clone(), rank: dty.rank(), elem: dty.elem(), idxs: idxs.to_vec() })
            .collect();
        self.body(&op.op.lambda.body, &odests)?;
        for c in copies {
            self.line(&format!("og_unref({c}.mem);"));
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Whether a `hist` can run in parallel with partial histograms stored
    /// as arrays: one index per operator, buckets of any rank.
    pub(super) fn hist_rows_parallelisable(&self, ops: &[HistOp]) -> Res<bool> {
        for op in ops {
            for d in &op.dests {
                if op.shape.len() != 1 || self.rank_of(*d)? + 1 > MAX_RANK {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// A parallel `hist` whose buckets are arrays (`hist (map2 (+))` of
    /// k-means' centroid sums): every chunk of the input accumulates into
    /// its own partial histograms, one row of an array `[nchunks]` × the
    /// destination's shape, starting from the neutral element; then the
    /// buckets are merged in parallel, each folding in the chunks' partials.
    /// As with scalar buckets, this pays off only when the histograms are
    /// small next to the input; otherwise the loop runs sequentially.
    pub(super) fn hist_par_rows(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        ops: &[HistOp],
        map: &Lambda,
    ) -> Res<()> {
        self.bind_hist_results(stm, ops);
        let dests = self.hist_dests(ops)?;
        let wc = self.se(w);
        let nchunks = self.fresh("nchunks");
        self.line(&format!("int64_t {nchunks} = og_num_chunks(ctx, {wc}, {});", grain(map)));
        let buckets: Vec<String> = dests.iter().map(|ds| format!("{}.shape[0]", ds[0].0)).collect();
        let small = self.fresh("small");
        self.line(&format!("bool {small} = {nchunks} > 1 && ({}) <= {wc} / {nchunks};", buckets.join(" + ")));
        self.line(&format!("if (!{small}) {{"));
        self.indent += 1;
        self.in_parallel = true; // the fallback is the sequential loop
        let res = self.hist_loop(arrs, ops, map, &dests, ("0", &wc), stm.span);
        self.in_parallel = false;
        res?;
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.open_scope();
        // partials[oi][di]: the C array of all chunks' partial histograms.
        let mut partials: Vec<Vec<(String, Type)>> = Vec::new();
        for op_dests in &dests {
            let mut mine = Vec::new();
            for (d, dty) in op_dests {
                let p = self.fresh("partial");
                self.line(&format!("og_arr {p} = {{0}};"));
                let mut dims = vec![nchunks.clone()];
                dims.extend((0..dty.rank()).map(|k| format!("{d}.shape[{k}]")));
                self.alloc(&p, dty.elem(), &dims, stm.span);
                mine.push((p, dty.clone()));
            }
            partials.push(mine);
        }
        let part_fields: Vec<String> = partials.iter().flatten().map(|(p, _)| format!("og_arr {p}")).collect();
        let part_extra: Vec<(String, String)> =
            partials.iter().flatten().map(|(p, _)| (p.clone(), p.clone())).collect();
        // Pass 1: chunk c fills row c of the partials.
        let free = self.hist_task_free_vars(stm, ops);
        let (sname, fname, saved) = self.begin_task(&free, &part_fields);
        let mut rows: Vec<Vec<(String, Type)>> = Vec::new();
        for (op, mine) in ops.iter().zip(&partials) {
            let mut op_rows = Vec::new();
            for ((p, dty), neutral) in mine.iter().zip(&op.op.neutral) {
                let row = self.fresh("part");
                self.line(&format!("og_arr {row} = og_row(cl->{p}, {}, chunk);", dty.rank() + 1));
                let b = self.fresh("b");
                self.line(&format!("for (int64_t {b} = 0; {b} < {row}.shape[0]; {b}++) {{"));
                self.indent += 1;
                let nty = self.se_type(neutral)?;
                let n = self.se(neutral);
                let at = Dest::At { arr: row.clone(), rank: dty.rank(), elem: dty.elem(), idxs: vec![b] };
                self.store(&at, &n, &nty);
                self.indent -= 1;
                self.line("}");
                op_rows.push((row, dty.clone()));
            }
            rows.push(op_rows);
        }
        self.hist_loop(arrs, ops, map, &rows, ("start", "end"), stm.span)?;
        self.end_task(&fname, saved);
        let cl = self.closure_init(&sname, &free, &part_extra);
        self.line(&format!("if (og_parallel(ctx, {fname}, &{cl}, {wc}, {nchunks})) return og_propagate();"));
        // Pass 2: per operator, its buckets in parallel, each folding in the chunks' partials in chunk order.
        for ((op, op_dests), mine) in ops.iter().zip(&dests).zip(&partials) {
            let size = &op_dests[0].0;
            if let Some(merge) = self.describe_merge(op) {
                // Rows combined element by element: a kernel (`ogham_imp::lower::merge`).
                let parts: Vec<(String, Vec<String>)> = mine
                    .iter()
                    .map(|(p, dty)| {
                        let strides = (0..=dty.rank()).map(|d| format!("{p}.stride[{d}]")).collect();
                        (simd::data_ptr(p, dty.elem()), strides)
                    })
                    .collect();
                let (n, chunks) = (format!("{size}.shape[0]"), format!("og_num_chunks(ctx, {size}.shape[0], 1)"));
                let job = self.hist_merge_launch(merge, &op.dests, (&parts, &nchunks), (&n, &chunks), stm.span)?;
                self.line(&format!("if ({job}) return og_propagate();"));
                continue;
            }
            let free2 = self.hist_merge_free_vars(op);
            let mut fields2: Vec<String> = mine.iter().map(|(p, _)| format!("og_arr {p}")).collect();
            fields2.push("int64_t nchunks".to_string());
            let (sname2, fname2, saved2) = self.begin_task(&free2, &fields2);
            self.hist_merge_rows(op, op_dests, mine)?;
            self.end_task(&fname2, saved2);
            let mut extra2: Vec<(String, String)> = mine.iter().map(|(p, _)| (p.clone(), p.clone())).collect();
            extra2.push(("nchunks".to_string(), nchunks.clone()));
            let cl2 = self.closure_init(&sname2, &free2, &extra2);
            self.line(&format!(
                "if (og_parallel(ctx, {fname2}, &{cl2}, {size}.shape[0], og_num_chunks(ctx, {size}.shape[0], 1))) return og_propagate();"
            ));
        }
        self.close_scope();
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// [`Self::hist_par_rows`]'s merge of `op`'s partials (`mine`: per
    /// destination, the closure's field and the destination's type) into
    /// buckets `start .. end` of `dests`, statement by statement: for
    /// operators on arrays other than rows combined element by element.
    fn hist_merge_rows(&mut self, op: &HistOp, dests: &[(String, Type)], mine: &[(String, Type)]) -> Res<()> {
        self.line("for (int64_t b = start; b < end; b++) {");
        self.indent += 1;
        self.line("for (int64_t c = 0; c < cl->nchunks; c++) {");
        self.indent += 1;
        let mut vals = Vec::new();
        for (p, dty) in mine {
            let v = self.fresh("x");
            let rank = dty.rank() + 1;
            if dty.rank() > 1 {
                self.line(&format!("og_arr {v} = og_row(og_row(cl->{p}, {rank}, c), {}, b);", rank - 1));
            } else {
                let e = Self::elem(&format!("cl->{p}"), dty.elem(), &["c".to_string(), "b".to_string()]);
                self.line(&format!("{} {v} = {e};", ctype(dty.elem())));
            }
            vals.push(v);
        }
        self.hist_update(op, dests, &["b".to_string()], &vals)?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        Ok(())
    }
}
