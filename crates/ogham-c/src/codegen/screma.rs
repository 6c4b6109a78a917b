//! Screma (`map`, `reduce`, `scan` fused): the loop of one iteration and
//! its outputs, the sequential loop (`screma_seq`), the map-of-reduce nest
//! run interchanged (`screma_interchanged`), and in multicore code the
//! parallel forms: chunks with per-chunk partials combined in order
//! (`screma_par`), the one-pass parallel scan (`scan_chain`), and the
//! choice between running a small screma's iterations one after another
//! so that the SOACs inside run in parallel (`screma_par_or_seq`).

use super::*;

impl Gen<'_> {
    /// The loop body of a screma for iteration `j`: runs the map lambda, feeds
    /// scans and reduces, and writes scan and map outputs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn screma_iteration(
        &mut self,
        j: &str,
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
        scan_accs: &[Vec<String>],
        red_accs: &[Vec<String>],
        outs: &[(String, Type)],
    ) -> Res<()> {
        self.line("{");
        self.indent += 1;
        let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
        let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
        let mut temps = Vec::new();
        let mut dests = Vec::new();
        for (i, rt) in map.ret.iter().enumerate() {
            if i < n_scan + n_red {
                let (t, dest) = self.iteration_temp(map, i);
                dests.push(dest);
                temps.push((t, rt.clone()));
            } else {
                let (arr, ty) = &outs[n_scan + (i - n_scan - n_red)];
                dests.push(Dest::At { arr: arr.clone(), rank: ty.rank(), elem: ty.elem(), idxs: vec![j.to_string()] });
            }
        }
        self.line("{");
        self.indent += 1;
        self.bind_rows(&map.params, arrs, j)?;
        self.body(&map.body, &dests)?;
        self.indent -= 1;
        self.line("}");
        let mut pos = 0;
        for (si, op) in scans.iter().enumerate() {
            let k = op.neutral.len();
            let news: Vec<String> = temps[pos..pos + k].iter().map(|(t, _)| t.clone()).collect();
            self.apply_op(op, &scan_accs[si], &news)?;
            for (c, acc) in scan_accs[si].iter().enumerate() {
                let (arr, ty) = &outs[pos + c];
                let dest = Dest::At { arr: arr.clone(), rank: ty.rank(), elem: ty.elem(), idxs: vec![j.to_string()] };
                self.store(&dest, acc, &ty.row());
            }
            pos += k;
        }
        for (ri, op) in reduces.iter().enumerate() {
            let k = op.neutral.len();
            let news: Vec<String> = temps[pos..pos + k].iter().map(|(t, _)| t.clone()).collect();
            self.apply_op(op, &red_accs[ri], &news)?;
            pos += k;
        }
        self.release_temps(map, &temps);
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Emits a map-of-reduce marked `#[interchange]` (see `ogham_ir::layout`):
    /// the reduction loop is outside and the map loop inside, so the
    /// innermost loop walks contiguous memory (for matmul: rows of `b`
    /// instead of its columns) and vectorises. The map's iterations go in
    /// blocks of four vectors' worth, each block's accumulators a local
    /// array the C compiler keeps in registers across the reduction loop:
    /// with the accumulators in the output row, every step of the reduction
    /// loaded and stored all of them (a matrix–vector product `Qᵀv` with
    /// `Q: [64][64]f64` took 2.4 µs, 0.4 µs in blocks). A block's loops are
    /// emitted twice, one copy specialised for unit strides and whole
    /// blocks, so the C compiler sees plain contiguous accesses and loops of
    /// a constant length over the accumulators.
    pub(super) fn screma_interchanged(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        map: &Lambda,
        inner: &Stm,
    ) -> Res<()> {
        let Exp::Soac(Soac::Screma { w: w2, arrs: arrs2, reduces, map: lam2, .. }) = &inner.exp else {
            return Err("C backend: malformed interchange".to_string());
        };
        let op = &reduces[0];
        let outs = self.screma_outputs(stm, 0, 0);
        let (out, out_ty) = outs[0].clone();
        let elem = out_ty.elem();
        let (w, w2) = (self.se(w), self.se(w2));
        let neutral = self.se(&op.neutral[0]);
        let j = self.fresh("j");
        let k = self.fresh("k");
        let (jb, jj, nb, blk) = (self.fresh("jb"), self.fresh("jj"), self.fresh("nb"), self.fresh("blk"));
        // Eight vectors of accumulators, whose chains of additions
        // (through the local array, a store and a load per step) overlap.
        // With four, GMM's `Q_kᵀ v` took a third of the gradient's time.
        let block = 8 * ogham_imp::lower::tile::narrow_cols(elem, &self.target());
        let out_j = Self::elem(&out, elem, &[j.clone()]);
        self.line(&format!("for (int64_t {jb} = 0; {jb} < {w}; {jb} += {block}) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {nb} = {w} - {jb} < {block} ? {w} - {jb} : {block};"));
        // Which map input each row parameter comes from.
        let row_src: HashMap<VName, VName> = map.params.iter().zip(arrs).map(|(p, a)| (p.name, *a)).collect();
        let mut unit_conds = vec![format!("{nb} == {block}")];
        let mut unit_arrs = Vec::new();
        for a in arrs2 {
            if let Some(src) = row_src.get(a) {
                if !self.virt.contains_key(src) {
                    unit_conds.push(format!("{}.stride[0] == 1", vname(*src)));
                    unit_arrs.push(vname(*src));
                }
            }
        }
        let unit = self.fresh("unit");
        self.line(&format!("bool {unit} = {};", unit_conds.join(" && ")));
        let start = self.out.len();
        self.line("{");
        self.indent += 1;
        self.line(&format!("{} {blk}[{block}];", ctype(elem)));
        self.line(&format!("for (int64_t {jj} = 0; {jj} < {nb}; {jj}++) {blk}[{jj}] = {neutral};"));
        self.line(&format!("for (int64_t {k} = 0; {k} < {w2}; {k}++) {{"));
        self.indent += 1;
        // Invariant inputs: their element k, once per k.
        let (inv_params, inv_arrs): (Vec<Param>, Vec<VName>) = lam2
            .params
            .iter()
            .zip(arrs2)
            .filter(|(_, a)| !row_src.contains_key(a))
            .map(|(p, a)| (p.clone(), *a))
            .unzip();
        self.bind_rows(&inv_params, &inv_arrs, &k)?;
        self.line(&format!("for (int64_t {jj} = 0; {jj} < {nb}; {jj}++) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {j} = {jb} + {jj};"));
        for (p, a) in lam2.params.iter().zip(arrs2) {
            if let Some(src) = row_src.get(a) {
                // Element k of row j of the map input.
                let c = vname(p.name);
                if let Some(v) = self.virt.get(src).cloned() {
                    // A virtual source is one-dimensional, so it cannot have rows; never happens.
                    let _ = v;
                    return Err("C backend: interchange over a virtual array".to_string());
                }
                let sty = self.ty(*src)?.clone();
                let e = Self::elem(&vname(*src), sty.elem(), &[j.clone(), k.clone()]);
                self.line(&format!("{} {c} = {e};", cty(&p.ty)));
            }
        }
        let x = self.fresh("x");
        self.line(&format!("{} {x};", cty(&lam2.ret[0])));
        self.body(&lam2.body, &[Dest::Fresh(x.clone())])?;
        let acc = self.fresh("acc");
        self.line(&format!("{} {acc} = {blk}[{jj}];", ctype(elem)));
        self.apply_op(op, &[acc.clone()], &[x])?;
        self.line(&format!("{blk}[{jj}] = {acc};"));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.line(&format!("for (int64_t {jj} = 0; {jj} < {nb}; {jj}++) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {j} = {jb} + {jj};"));
        self.line(&format!("{out_j} = {blk}[{jj}];"));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        let generic = self.out.split_off(start);
        let mut special = generic.replace(&format!("{jj} < {nb};"), &format!("{jj} < {block};"));
        for a in &unit_arrs {
            special = special.replace(&format!("({j}) * {a}.stride[0]"), &j);
        }
        self.line(&format!("if ({unit}) {{"));
        self.out.push_str(&special);
        self.line("} else {");
        self.out.push_str(&generic);
        self.line("}");
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Declares and allocates the array outputs of a screma (scans then maps).
    pub(super) fn screma_outputs(&mut self, stm: &Stm, n_scan: usize, n_red: usize) -> Vec<(String, Type)> {
        let mut outs = Vec::new();
        for (i, p) in stm.pat.iter().enumerate() {
            if i >= n_scan && i < n_scan + n_red {
                continue;
            }
            let c = vname(p.name);
            let dims = self.type_dims(&p.ty);
            if let Some(Dest::At { arr, rank, idxs, .. }) = self.redirect.remove(&p.name) {
                // Written in place into its final row; the enclosing array owns the memory.
                let view = self.subview(&arr, rank, &idxs);
                self.line(&format!("og_arr {c} = {view};"));
                let conds: Vec<String> =
                    dims.iter().enumerate().map(|(d, n)| format!("{c}.shape[{d}] != {n}")).collect();
                if !conds.is_empty() {
                    self.fail(&conds.join(" || "), stm.span, "Result shape differs from its destination's.", &[]);
                }
            } else {
                self.line(&format!("og_arr {c} = {{0}};"));
                self.alloc(&c, p.ty.elem(), &dims, stm.span);
            }
            outs.push((c, p.ty.clone()));
        }
        outs
    }

    pub(super) fn screma_seq(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
    ) -> Res<()> {
        let (_, _, outs) = self.screma_outputs_of(stm, scans, reduces);
        self.screma_seq_into(stm, w, arrs, (scans, reduces), map, &outs, SeqForm { declare: true, nested: false })?;
        Ok(())
    }

    /// [`Gen::screma_outputs`] of a screma with these operators, and the
    /// numbers of its scan and reduction results.
    pub(super) fn screma_outputs_of(
        &mut self,
        stm: &Stm,
        scans: &[Operator],
        reduces: &[Operator],
    ) -> (usize, usize, Vec<(String, Type)>) {
        let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
        let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
        (n_scan, n_red, self.screma_outputs(stm, n_scan, n_red))
    }

    /// The loop of [`Gen::screma_seq`] into outputs already allocated, in
    /// the form `form` says; whether it became a kernel.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn screma_seq_into(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        (scans, reduces): (&[Operator], &[Operator]),
        map: &Lambda,
        outs: &[(String, Type)],
        SeqForm { declare, nested }: SeqForm,
    ) -> Res<bool> {
        let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
        let scan_accs: Vec<Vec<String>> = scans.iter().map(|o| self.init_accs(o)).collect();
        let red_accs: Vec<Vec<String>> = reduces.iter().map(|o| self.init_accs(o)).collect();
        let j = self.fresh("j");
        let w = self.se(w);
        let kernel = if nested {
            self.line(&format!("for (int64_t {j} = 0; {j} < {w}; {j}++)"));
            self.screma_iteration(&j, arrs, scans, reduces, map, &scan_accs, &red_accs, outs)?;
            false
        } else {
            self.screma_loop((&j, "0", &w), arrs, scans, reduces, map, (&scan_accs, &red_accs), outs, stm.span)?
        };
        for accs in &scan_accs {
            for (acc, op_ty) in accs.iter().zip(scans.iter().flat_map(|o| o.lambda.ret.iter())) {
                if op_ty.is_array() {
                    self.line(&format!("og_unref({acc}.mem);"));
                }
            }
        }
        let flat_red: Vec<String> = red_accs.concat();
        for (k, acc) in flat_red.iter().enumerate() {
            let p = &stm.pat[n_scan + k];
            if declare {
                self.line(&format!("{} {} = {acc};", cty(&p.ty), vname(p.name)));
            } else {
                self.line(&format!("{} = {acc};", vname(p.name)));
            }
            if p.ty.is_array() {
                self.own(&vname(p.name));
            }
        }
        Ok(kernel)
    }

    /// A parallelisable screma: in parallel chunks, or, when there is
    /// only one chunk's worth of work (`og_grain`), as the sequential loop
    /// on the calling thread, without building a task's closure (which
    /// copies every view it takes) for one chunk.
    pub(super) fn screma_par_or_seq(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
    ) -> Res<()> {
        let (n_scan, n_red, outs) = self.screma_outputs_of(stm, scans, reduces);
        for p in &stm.pat[n_scan..n_scan + n_red] {
            self.line(&format!("{} {};", cty(&p.ty), vname(p.name)));
        }
        let nchunks = self.fresh("nchunks");
        let wc = self.se(w);
        // A tiled nest runs in one chunk per thread: every chunk copies the
        // whole column panel it reads (with 16 chunks per thread, the 1024³
        // product took 14.6 ms on two threads; with one, 11.1 ms).
        let out_types: Vec<(PrimType, usize)> = outs.iter().map(|(_, t)| (t.elem(), t.rank())).collect();
        let grain = if ogham_imp::lower::tile::is_nest(map, scans, reduces, &out_types) {
            format!("og_per_thread(ctx, {wc})")
        } else {
            grain(map)
        };
        self.line(&format!("int64_t {nchunks} = og_num_chunks(ctx, {wc}, {grain});"));
        // One chunk: the loop on the calling thread, in its fastest form.
        let outer = std::mem::take(&mut self.out);
        self.indent += 1;
        let form = SeqForm { declare: false, nested: false };
        let kernel = self.screma_seq_into(stm, w, arrs, (scans, reduces), map, &outs, form);
        self.indent -= 1;
        let one_chunk = std::mem::replace(&mut self.out, outer);
        // Fewer iterations than threads (one row to sum), where that form
        // is a kernel, which would run the SOACs inside it on this thread:
        // the iterations one after another, statement by statement, so
        // that those SOACs may run in parallel. (The statement form is
        // already that.)
        let nested = kernel? && has_inner_soac(&map.body);
        // The launch is laid out of line: it costs far more than a jump
        // when taken, and a loop of small SOACs (the D-LSTM's recurrence)
        // runs its sequential paths back to back.
        if nested {
            self.line(&format!("if (__builtin_expect({nchunks} <= 1 && {wc} >= ctx->num_threads, 1)) {{"));
        } else {
            self.line(&format!("if (__builtin_expect({nchunks} <= 1, 1)) {{"));
        }
        self.out.push_str(&one_chunk);
        if nested {
            self.line(&format!("}} else if (__builtin_expect({wc} < ctx->num_threads, 0)) {{"));
            self.indent += 1;
            let form = SeqForm { declare: false, nested: true };
            self.screma_seq_into(stm, w, arrs, (scans, reduces), map, &outs, form)?;
            self.indent -= 1;
        }
        self.line("} else {");
        self.indent += 1;
        self.screma_par(stm, w, arrs, scans, reduces, map, &outs, &nchunks)?;
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    pub(super) fn screma_parallelisable(&self, stm: &Stm, scans: &[Operator], reduces: &[Operator]) -> Res<bool> {
        // Per-chunk partial results are kept in plain C arrays, so only scalar accumulators run in parallel.
        let scalar_ops = scans.iter().chain(reduces).all(|o| o.lambda.ret.iter().all(|t| !t.is_array()));
        Ok(scalar_ops && stm.pat.iter().all(|p| p.ty.rank() <= MAX_RANK))
    }

    /// A parallel screma: each chunk scans and reduces from the neutral
    /// elements, keeping its totals in per-chunk partials; the reduce
    /// partials are combined in order afterwards.
    ///
    /// With scans, it is one pass over the input: the chunks (a few tens of
    /// KiB of its arrays, so that they stay in the core's cache,
    /// `og_scan_chunks`) are handed out in order (`og_parallel_in_order`),
    /// and each then waits for the chunk before it to publish its inclusive
    /// prefix, publishes its own and adds the prefix before it to its scan
    /// results while they are still in the cache ([`Self::scan_chain`]).
    /// Run as two passes over the whole arrays (scan each chunk, then add
    /// each chunk's carry), a memory-bound scan moved its results through
    /// memory twice and took 1.5 times as long on two threads as on one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn screma_par(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
        outs: &[(String, Type)],
        nchunks: &str,
    ) -> Res<()> {
        let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
        let w = self.se(w);
        let chained = n_scan > 0;
        let nchunks = if chained {
            let chunks = self.fresh("nchunks_scan");
            self.line(&format!("int64_t {chunks} = og_scan_chunks({w}, {nchunks});"));
            chunks
        } else {
            nchunks.to_string()
        };
        let free = self.task_free_vars(stm);
        let acc_types: Vec<Type> = scans.iter().chain(reduces).flat_map(|o| o.lambda.ret.clone()).collect();
        // Per-chunk arrays: the chunks' scan totals and reduce results;
        // with scans, their inclusive prefixes and whether each is published.
        let partials: Vec<String> = (0..acc_types.len()).map(|_| self.fresh("partial")).collect();
        let prefixes: Vec<String> = (0..n_scan).map(|_| self.fresh("prefix")).collect();
        let ready = chained.then(|| self.fresh("ready"));
        let mut arrays: Vec<(String, &str)> =
            partials.iter().chain(&prefixes).cloned().zip(acc_types.iter().chain(&acc_types).map(cty)).collect();
        for (p, t) in &arrays {
            self.line(&format!("{t} *{p} = malloc((size_t){nchunks} * sizeof({t}));"));
        }
        if let Some(r) = &ready {
            self.line(&format!("int *{r} = calloc((size_t){nchunks}, sizeof(int));"));
            arrays.push((r.clone(), "int"));
        }
        let free_all: String = arrays.iter().map(|(p, _)| format!(" free({p});")).collect();
        let loc = self.loc(stm.span);
        if !arrays.is_empty() {
            let missing: Vec<String> = arrays.iter().map(|(p, _)| format!("{p} == NULL")).collect();
            self.line(&format!(
                "if ({}) {{{free_all} return og_fail(ctx, {loc}, \"Out of memory.\"); }}",
                missing.join(" || ")
            ));
        }
        if !chained {
            if let Some(lowered) = self.screma_lowered(arrs, (scans, reduces), map, outs) {
                // The loop is a kernel: a parallel job of it, each chunk's
                // reductions starting from the neutral elements and ending
                // in `partials[chunk]` (`crate::kernel::launch_task`).
                let accs: Vec<String> = reduces.iter().flat_map(|o| &o.neutral).map(|n| self.se(n)).collect();
                let job = self.launch_reducing(lowered, (&w, &nchunks), &partials, stm.span, |g, b| {
                    Ok(match b {
                        ogham_imp::lower::Binding::Acc(i) => {
                            accs.get(i).cloned().ok_or("internal error: kernel accumulator")?
                        }
                        b => simd::output_binding(outs, b).unwrap_or_else(|| g.common_binding(b))?,
                    })
                })?;
                self.line(&format!("if ({job}) {{{free_all} return og_propagate(); }}"));
                return self.combine_reduce_partials(stm, &w, reduces, n_scan, &partials, &nchunks);
            }
        }
        let mut fields: Vec<String> = outs.iter().map(|(c, _)| format!("og_arr {c}")).collect();
        fields.extend(arrays.iter().map(|(p, t)| format!("{t} *{p}")));
        let (sname, fname, saved) = self.begin_task(&free, &fields);
        for (c, _) in outs {
            self.line(&format!("og_arr {c} = cl->{c};"));
        }
        let scan_accs: Vec<Vec<String>> = scans.iter().map(|o| self.init_accs(o)).collect();
        let red_accs: Vec<Vec<String>> = reduces.iter().map(|o| self.init_accs(o)).collect();
        self.screma_loop(("j", "start", "end"), arrs, scans, reduces, map, (&scan_accs, &red_accs), outs, stm.span)?;
        for (acc, p) in scan_accs.concat().iter().chain(red_accs.concat().iter()).zip(&partials) {
            self.line(&format!("cl->{p}[chunk] = {acc};"));
        }
        if let Some(r) = &ready {
            self.scan_chain(scans, outs, &acc_types, &partials, &prefixes, r)?;
        }
        self.end_task(&fname, saved);
        let mut extra: Vec<(String, String)> = outs.iter().map(|(c, _)| (c.clone(), c.clone())).collect();
        extra.extend(arrays.iter().map(|(p, _)| (p.clone(), p.clone())));
        let cl = self.closure_init(&sname, &free, &extra);
        let launch = if chained { "og_parallel_in_order" } else { "og_parallel" };
        self.line(&format!(
            "if ({launch}(ctx, {fname}, &{cl}, {w}, {nchunks})) {{{free_all} (void){loc}; return og_propagate(); }}"
        ));
        for (p, _) in arrays.iter().filter(|(p, _)| !partials[n_scan..].contains(p)) {
            self.line(&format!("free({p});"));
        }
        self.combine_reduce_partials(stm, &w, reduces, n_scan, &partials[n_scan..], &nchunks)
    }

    /// In a chunk's task, after its scan totals are in `partials`: waits for
    /// the chunk before it to publish its inclusive prefix (the neutral
    /// elements before the first chunk), publishes its own (that prefix
    /// combined with the chunk's totals) in `prefixes` and `ready`, and adds
    /// the prefix before it to each of the chunk's scan results. A chunk
    /// that fails publishes nothing: the one waiting for it stops when the
    /// job has failed (`og_job_failed`).
    pub(super) fn scan_chain(
        &mut self,
        scans: &[Operator],
        outs: &[(String, Type)],
        acc_types: &[Type],
        partials: &[String],
        prefixes: &[String],
        ready: &str,
    ) -> Res<()> {
        let mut pos = 0;
        let mut carries: Vec<Vec<String>> = Vec::new();
        for op in scans {
            let k = op.neutral.len();
            let carry = self.init_accs(op);
            let incl = self.init_accs(op);
            self.line("if (chunk > 0) {");
            self.indent += 1;
            self.line(&format!(
                "while (__atomic_load_n(&cl->{ready}[chunk - 1], __ATOMIC_ACQUIRE) == 0) {{ if (og_job_failed(ctx)) return 1; og_cpu_relax(); }}"
            ));
            for i in 0..k {
                self.line(&format!("{} = cl->{}[chunk - 1];", carry[i], prefixes[pos + i]));
                self.line(&format!("{} = {};", incl[i], carry[i]));
            }
            self.indent -= 1;
            self.line("}");
            let totals: Vec<String> = (0..k).map(|i| format!("cl->{}[chunk]", partials[pos + i])).collect();
            self.apply_op(op, &incl, &totals)?;
            for i in 0..k {
                self.line(&format!("cl->{}[chunk] = {};", prefixes[pos + i], incl[i]));
            }
            carries.push(carry);
            pos += k;
        }
        self.line(&format!("__atomic_store_n(&cl->{ready}[chunk], 1, __ATOMIC_RELEASE);"));
        // Each scan result of the chunk, after the prefix before it.
        self.line("if (chunk > 0) {");
        self.indent += 1;
        let mut pos = 0;
        for (op, carry) in scans.iter().zip(&carries) {
            let k = op.neutral.len();
            self.line("for (int64_t j = start; j < end; j++) {");
            self.indent += 1;
            let acc: Vec<String> = (0..k).map(|i| self.fresh(&format!("carry{i}"))).collect();
            let cur: Vec<String> = (0..k).map(|i| self.fresh(&format!("cur{i}"))).collect();
            let elems: Vec<String> =
                outs[pos..pos + k].iter().map(|(arr, aty)| Self::elem(arr, aty.elem(), &["j".to_string()])).collect();
            for i in 0..k {
                let t = cty(&acc_types[pos + i]);
                self.line(&format!("{t} {} = {};", acc[i], carry[i]));
                self.line(&format!("{t} {} = {};", cur[i], elems[i]));
            }
            self.apply_op(op, &acc, &cur)?;
            for i in 0..k {
                self.line(&format!("{} = {};", elems[i], acc[i]));
            }
            self.indent -= 1;
            self.line("}");
            pos += k;
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// After a parallel screma: combines the chunks' partial reduce results
    /// in order into the statement's reduce results (none were computed
    /// when `w` is 0), and frees the partials.
    pub(super) fn combine_reduce_partials(
        &mut self,
        stm: &Stm,
        w: &str,
        reduces: &[Operator],
        n_scan: usize,
        partials: &[String],
        nchunks: &str,
    ) -> Res<()> {
        let mut pos = 0;
        for (ri, op) in reduces.iter().enumerate() {
            let k = op.neutral.len();
            let accs = self.init_accs(op);
            let c = self.fresh("c");
            self.line(&format!("for (int64_t {c} = 0; {c} < ({w} > 0 ? {nchunks} : 0); {c}++) {{"));
            self.indent += 1;
            let news: Vec<String> = (0..k).map(|i| format!("{}[{c}]", partials[pos + i])).collect();
            self.apply_op(op, &accs, &news)?;
            self.indent -= 1;
            self.line("}");
            let first: usize = reduces[..ri].iter().map(|o| o.neutral.len()).sum();
            for (i, acc) in accs.iter().enumerate() {
                let p = &stm.pat[n_scan + first + i];
                self.line(&format!("{} = {acc};", vname(p.name)));
            }
            pos += k;
        }
        for p in partials {
            self.line(&format!("free({p});"));
        }
        Ok(())
    }
}
