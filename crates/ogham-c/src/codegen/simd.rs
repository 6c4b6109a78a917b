//! The loop of a SOAC, by the form that runs it fastest.
//!
//! This module owns the choice of how a `Screma`'s loop over iterations
//! `lo .. hi` is generated: as an imperative kernel of register tiles when
//! it is a matrix-product nest (`ogham_imp::lower::tile`), as an imperative
//! kernel when its functions are scalar code that cannot fail, with loops
//! over scalars (`ogham_imp::lower::screma_loop`), or else statement by
//! statement.
//!
//! A kernel goes through `ogham_imp`'s passes (`ogham_imp::passes::PIPELINE`:
//! a copy for unit strides, tested once, with `restrict` pointers and
//! `ivdep` loops; maps of `while` loops stepped in vector lanes;
//! reductions folded in vector lanes; simplification),
//! which is where those decisions are made and tested (`tests/imp/`), and
//! is printed by `kernel.rs`. The reductions' lanes rely on the language's
//! contract that a `reduce` operator is associative (`docs/language.md`).
//!
//! (`#pragma omp simd reduction` would ask the C compiler for the lanes,
//! but GCC 12 falls back to scalar code for it inside large functions,
//! spilling its lane array: the GMM objective took 388 ms with it, 284 ms
//! without.)

use ogham_imp::lower::tile::Target;
use ogham_imp::lower::{Binding, Input, Lowered, ScremaLoop};
use ogham_ir::{HistOp, Lambda, Operator, PrimType, Span, SubExp, Type, VName};

use super::{ctype, vname, Gen, Res, Virtual};

impl Gen<'_> {
    /// The vector registers the kernels are made for: this machine's (the
    /// C compiler targets it with `-march=native`), or SSE2's for
    /// portable code.
    pub(super) fn target(&self) -> Target {
        if self.opts.portable {
            Target { vector_bytes: 16, registers: 16, fma: false }
        } else {
            host_target()
        }
    }

    /// Emits `for (j = lo; j < hi; j++)` and one screma iteration as its
    /// body, by the form described in the module's documentation; whether
    /// that form is a kernel. `span` locates the statement's errors
    /// (running out of memory for a tile's buffer).
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
    ) -> Res<bool> {
        if self.screma_kernel((lo, hi), arrs, (scans, reduces), map, (scan_accs, red_accs), outs, span)? {
            return Ok(true);
        }
        self.line(&format!("for (int64_t {j} = {lo}; {j} < {hi}; {j}++)"));
        self.screma_iteration(j, arrs, scans, reduces, map, scan_accs, red_accs, outs)?;
        Ok(false)
    }

    /// The loop as an imperative kernel (see the module documentation), if
    /// its functions allow one; whether they did.
    #[allow(clippy::too_many_arguments)]
    fn screma_kernel(
        &mut self,
        (lo, hi): (&str, &str),
        arrs: &[VName],
        (scans, reduces): (&[Operator], &[Operator]),
        map: &Lambda,
        (scan_accs, red_accs): (&[Vec<String>], &[Vec<String>]),
        outs: &[(String, Type)],
        span: Span,
    ) -> Res<bool> {
        let Some(lowered) = self.screma_lowered(arrs, (scans, reduces), map, outs) else { return Ok(false) };
        let accs: Vec<&String> = scan_accs.iter().chain(red_accs).flatten().collect();
        self.run_kernel(lowered, (lo, hi), span, |g, b| {
            Ok(match b {
                Binding::Acc(i) => accs.get(i).map(|s| s.to_string()).ok_or("internal error: kernel accumulator")?,
                b => output_binding(outs, b).unwrap_or_else(|| g.common_binding(b))?,
            })
        })?;
        Ok(true)
    }

    /// The kernel of a screma's loop (tiled, or `ogham_imp::lower::screma_loop`),
    /// if its functions allow one.
    pub(super) fn screma_lowered(
        &self,
        arrs: &[VName],
        ops: (&[Operator], &[Operator]),
        map: &Lambda,
        outs: &[(String, Type)],
    ) -> Option<Lowered> {
        let target = self.target();
        self.describe(arrs, ops, map, outs, |desc| {
            let tiled = ogham_imp::lower::tile::tiled(desc, &target).map(|(k, b)| (k, b, Vec::new()));
            tiled.or_else(|| ogham_imp::lower::screma_loop(desc))
        })
    }

    /// Runs `f` on the description of a SOAC's loop: its input arrays (or
    /// their virtual elements), operators, map function and outputs.
    fn describe<T>(
        &self,
        arrs: &[VName],
        (scans, reduces): (&[Operator], &[Operator]),
        map: &Lambda,
        outs: &[(String, Type)],
        f: impl FnOnce(&ScremaLoop) -> T,
    ) -> T {
        let inputs = self.kernel_inputs(arrs);
        let out_types: Vec<(PrimType, usize)> = outs.iter().map(|(_, t)| (t.elem(), t.rank())).collect();
        let ty_of = |v: VName| self.types.get(&v).cloned();
        let virtual_of = |v: VName| self.virt.get(&v).map(kernel_input);
        let desc = ScremaLoop {
            inputs: &inputs,
            scans,
            reduces,
            map,
            outs: &out_types,
            ty_of: &ty_of,
            virtual_of: &virtual_of,
            names: &self.prog.names,
        };
        f(&desc)
    }

    /// The kernel of a `hist`'s loop over iterations `lo .. hi`, if its
    /// functions allow one (`ogham_imp::lower::hist`); whether they did.
    /// `dests` gives, per destination (every operator's, in order), a
    /// pointer to its first bucket and its strides, and `buckets`, per
    /// operator, its number of buckets, all as C expressions.
    pub(super) fn hist_kernel(
        &mut self,
        (lo, hi): (&str, &str),
        arrs: &[VName],
        ops: &[HistOp],
        map: &Lambda,
        dests: (&[(String, Vec<String>)], &[String]),
        span: Span,
    ) -> Res<bool> {
        let Some(lowered) = self.hist_lowered(arrs, ops, map, false) else { return Ok(false) };
        self.run_kernel(lowered, (lo, hi), span, |g, b| hist_binding(g, b, dests))?;
        Ok(true)
    }

    /// The kernel of a `hist`'s loop (`ogham_imp::lower::hist`), if its
    /// functions allow one; with `atomic`, for tasks that update the same
    /// buckets at the same time.
    pub(super) fn hist_lowered(&self, arrs: &[VName], ops: &[HistOp], map: &Lambda, atomic: bool) -> Option<Lowered> {
        self.describe(arrs, (&[], &[]), map, &[], |desc| ogham_imp::lower::hist::hist_loop(desc, ops, atomic))
    }

    /// The kernels folding a parallel `hist`'s partial histograms into each
    /// operator's destinations (`ogham_imp::lower::merge`), if every
    /// operator allows one.
    pub(super) fn hist_merges(&self, ops: &[HistOp]) -> Option<Vec<Lowered>> {
        ops.iter().map(|op| self.describe_merge(op)).collect()
    }

    /// The kernel folding a parallel `hist`'s partial histograms into
    /// `op`'s destinations (`ogham_imp::lower::merge`), if it has one.
    pub(super) fn describe_merge(&self, op: &HistOp) -> Option<Lowered> {
        self.describe(&[], (&[], &[]), &op.op.lambda, &[], |desc| ogham_imp::lower::merge::fold_partials(desc, &op.op))
    }

    /// Starts a merge kernel of [`Self::hist_merges`] as a parallel job
    /// over buckets `0 .. n` of `dests` in `nchunks` chunks; `partials`
    /// gives, per destination, the C expressions of its partials' pointer
    /// and strides, and `parts` their number. Returns the C expression
    /// that runs the job ([`Self::launch_kernel`]).
    pub(super) fn hist_merge_launch(
        &mut self,
        merge: Lowered,
        dests: &[VName],
        (partials, parts): (&[(String, Vec<String>)], &str),
        (n, nchunks): (&str, &str),
        span: Span,
    ) -> Res<String> {
        self.launch_kernel(merge, (n, nchunks), span, |g, b| {
            let missing = || "internal error: merge kernel destination".to_string();
            Ok(match b {
                Binding::Dest(i) => {
                    let d = *dests.get(i).ok_or_else(missing)?;
                    data_ptr(&vname(d), g.ty(d)?.elem())
                }
                Binding::DestStride(i, d) => format!("{}.stride[{d}]", vname(*dests.get(i).ok_or_else(missing)?)),
                Binding::Partial(i) => partials.get(i).ok_or_else(missing)?.0.clone(),
                Binding::PartialStride(i, d) => partials.get(i).and_then(|p| p.1.get(d)).ok_or_else(missing)?.clone(),
                Binding::Chunks => parts.to_string(),
                b => g.common_binding(b)?,
            })
        })
    }

    /// The kernel of a `scatter`'s loop (`ogham_imp::lower::scatter`), if
    /// its function allows one. `dests` are the destinations and `counts`
    /// how many indices each takes.
    pub(super) fn scatter_lowered(
        &self,
        arrs: &[VName],
        map: &Lambda,
        (dests, counts): (&[VName], &[usize]),
    ) -> Option<Lowered> {
        self.describe(arrs, (&[], &[]), map, &[], |desc| ogham_imp::lower::scatter::scatter_loop(desc, dests, counts))
    }

    /// The loop of a `withacc` over iterations `lo .. hi` as a kernel, if
    /// its function allows one (`ogham_imp::lower::acc`); whether it did.
    /// `accs` are the accumulators (C array views) and `outs` the mapped
    /// outputs, as in `with_acc_loop`; `atomic` says which accumulators
    /// other tasks update at the same time.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn with_acc_kernel(
        &mut self,
        w: &SubExp,
        arrs: &[VName],
        map: &Lambda,
        (accs, atomic): (&[String], &[bool]),
        outs: &[(String, Type)],
        (lo, hi): (&str, &str),
        span: Span,
    ) -> Res<bool> {
        let Some(lowered) = self.with_acc_lowered(w, arrs, map, atomic, outs) else { return Ok(false) };
        self.run_kernel(lowered, (lo, hi), span, |g, b| with_acc_binding(g, b, map, accs, outs))?;
        Ok(true)
    }

    /// The kernel of a `withacc`'s loop (`ogham_imp::lower::acc`), if its
    /// function allows one; `atomic` says, per accumulator, whether other
    /// tasks update it at the same time.
    pub(super) fn with_acc_lowered(
        &self,
        w: &SubExp,
        arrs: &[VName],
        map: &Lambda,
        atomic: &[bool],
        outs: &[(String, Type)],
    ) -> Option<Lowered> {
        let n = atomic.len();
        self.describe(arrs, (&[], &[]), map, outs, |desc| ogham_imp::lower::acc::withacc_loop(desc, n, w, atomic))
    }

    /// How the map function's parameters get their rows: the input arrays,
    /// or the elements of virtual ones.
    fn kernel_inputs(&self, arrs: &[VName]) -> Vec<Input> {
        arrs.iter().map(|a| self.virt.get(a).map_or(Input::Array(*a), kernel_input)).collect()
    }

    /// The C expression for a binding every kernel may have: a scalar, an
    /// array's data pointer or stride. (`lo` and `hi` are bound by
    /// [`Self::run_kernel`].)
    pub(super) fn common_binding(&self, b: Binding) -> Res<String> {
        Ok(match b {
            Binding::Scalar(v) => vname(v),
            Binding::Data(v) => data_ptr(&vname(v), self.ty(v)?.elem()),
            Binding::Stride(v, d) => format!("{}.stride[{d}]", vname(v)),
            b => return Err(format!("internal error: kernel parameter {b:?} has no value here")),
        })
    }

    /// Runs a lowered kernel's passes and prints it, its parameters bound
    /// by `bind` (and `lo`, `hi`), after the checks of its divisors (see
    /// `ogham_imp::lower`), which fail at their divisions' locations.
    pub(super) fn run_kernel(
        &mut self,
        (kernel, bindings, checks): Lowered,
        (lo, hi): (&str, &str),
        span: Span,
        bind: impl Fn(&Self, Binding) -> Res<String>,
    ) -> Res<()> {
        let mut args = Vec::new();
        for b in &bindings {
            args.push(match *b {
                Binding::Lo => lo.to_string(),
                Binding::Hi => hi.to_string(),
                b => bind(self, b)?,
            });
        }
        for c in &checks {
            let d = args.get(c.param).ok_or("internal error: kernel check")?.clone();
            self.fail(&format!("{lo} < {hi} && ({d}) == 0"), c.span, "division by zero", &[]);
        }
        let oom = format!("return og_fail(ctx, {}, \"Out of memory.\");", self.loc(span));
        let i = self.kernel_def(kernel)?;
        let (_, fname, passed) = &self.kernel_defs[i];
        crate::kernel::call(passed, fname, &args, (self.indent, &oom), &mut self.out)
    }

    /// The position in `kernel_defs` of a lowered kernel, after its passes
    /// and its C function (added to the file's definitions the first time).
    fn kernel_def(&mut self, mut kernel: ogham_imp::Kernel) -> Res<usize> {
        let known = self.kernel_defs.iter().position(|(k, _, _)| k.params == kernel.params && k.body == kernel.body);
        if let Some(i) = known {
            return Ok(i);
        }
        let lowered = kernel.clone();
        let passes = ogham_imp::passes::for_target(self.target().fma);
        ogham_imp::passes::run(&mut kernel, &passes, self.opts.verify).map_err(|e| format!("internal error: {e}"))?;
        let prefix = self.fresh("k");
        kernel.name.clone_from(&prefix);
        if let Some(kept) = &mut self.kernels {
            kept.push(ogham_imp::print::kernel(&kernel));
        }
        let fname = format!("og_kernel_{prefix}");
        let mut def = String::new();
        crate::kernel::function(&kernel, &fname, &mut def)?;
        self.tasks.push(def);
        self.kernel_defs.push((lowered, fname, kernel));
        Ok(self.kernel_defs.len() - 1)
    }

    /// Starts a lowered kernel as a parallel job over iterations `0 .. n`
    /// in `nchunks` chunks, each chunk running the kernel on its part of
    /// the range (`crate::kernel::launch`); its other parameters are bound
    /// by `bind` to C expressions of the function starting the job, and
    /// its divisors are checked first, as [`Self::run_kernel`] does.
    /// Returns the C expression that runs the job, non-zero when it failed.
    pub(super) fn launch_kernel(
        &mut self,
        lowered: Lowered,
        (n, nchunks): (&str, &str),
        span: Span,
        bind: impl Fn(&Self, Binding) -> Res<String>,
    ) -> Res<String> {
        self.launch_reducing(lowered, (n, nchunks), &[], span, bind)
    }

    /// [`Self::launch_kernel`] for a kernel with accumulators
    /// ([`Binding::Acc`]): `bind` gives each accumulator's value at the
    /// start of every chunk, and `results[i]`, a C array of one element
    /// per chunk, receives accumulator `i`'s final value in each chunk.
    pub(super) fn launch_reducing(
        &mut self,
        (kernel, bindings, checks): Lowered,
        (n, nchunks): (&str, &str),
        results: &[String],
        span: Span,
        bind: impl Fn(&Self, Binding) -> Res<String>,
    ) -> Res<String> {
        let at = |b: Binding| bindings.iter().position(|x| *x == b).ok_or("internal error: kernel without its range");
        let (lo, hi) = (at(Binding::Lo)?, at(Binding::Hi)?);
        let mut args = Vec::new();
        for b in &bindings {
            args.push(match *b {
                Binding::Lo => "0".to_string(),
                Binding::Hi => n.to_string(),
                b => bind(self, b)?,
            });
        }
        for c in &checks {
            let d = args.get(c.param).ok_or("internal error: kernel check")?.clone();
            self.fail(&format!("0 < {n} && ({d}) == 0"), c.span, "division by zero", &[]);
        }
        let i = self.kernel_def(kernel)?;
        if !self.launched.contains(&i) {
            let (_, fname, passed) = &self.kernel_defs[i];
            let mut def = String::new();
            crate::kernel::launch_task(passed, fname, (lo, hi), &mut def)?;
            self.tasks.push(def);
            self.launched.insert(i);
        }
        let mut partials = Vec::new();
        for b in &bindings {
            partials.push(match *b {
                Binding::Acc(a) => Some(results.get(a).ok_or("internal error: kernel accumulator")?.clone()),
                _ => None,
            });
        }
        let cl = self.fresh("args");
        let loc = self.loc(span);
        let (_, fname, passed) = &self.kernel_defs[i];
        let (indent, out) = (self.indent, &mut self.out);
        crate::kernel::launch(passed, fname, (&args, &partials, &loc, &cl), (n, nchunks), (lo, hi, indent), out)
    }
}

/// The C expression for a binding of a `hist` kernel's parameter: per
/// destination (every operator's, in order), a pointer to its first bucket
/// and its strides, and per operator its number of buckets.
pub(super) fn hist_binding(
    g: &Gen,
    b: Binding,
    (dests, buckets): (&[(String, Vec<String>)], &[String]),
) -> Res<String> {
    let missing = || "internal error: kernel destination".to_string();
    Ok(match b {
        Binding::Dest(i) => dests.get(i).ok_or_else(missing)?.0.clone(),
        Binding::DestStride(i, d) => dests.get(i).ok_or_else(missing)?.1.get(d).ok_or_else(missing)?.clone(),
        Binding::Buckets(i) => buckets.get(i).ok_or_else(missing)?.clone(),
        b => g.common_binding(b)?,
    })
}

/// The C expression for a binding of a `scatter` kernel's parameter:
/// `dests` are the destinations.
pub(super) fn scatter_binding(g: &Gen, b: Binding, dests: &[VName]) -> Res<String> {
    let dest = |i: usize| dests.get(i).copied().ok_or("internal error: kernel destination");
    Ok(match b {
        Binding::Dest(i) => data_ptr(&vname(dest(i)?), g.ty(dest(i)?)?.elem()),
        Binding::DestStride(i, d) => format!("{}.stride[{d}]", vname(dest(i)?)),
        Binding::DestShape(i, d) => format!("{}.shape[{d}]", vname(dest(i)?)),
        b => g.common_binding(b)?,
    })
}

/// The C expression for a binding of a `withacc` kernel's parameter:
/// `accs` are the accumulators and `outs` the mapped outputs (C array
/// views).
pub(super) fn with_acc_binding(
    g: &Gen,
    b: Binding,
    map: &Lambda,
    accs: &[String],
    outs: &[(String, Type)],
) -> Res<String> {
    let missing = || "internal error: kernel accumulator".to_string();
    Ok(match b {
        Binding::AccData(i) => {
            let elem = map.params.get(i).ok_or_else(missing)?.ty.elem();
            data_ptr(accs.get(i).ok_or_else(missing)?, elem)
        }
        Binding::AccStride(i, d) => format!("{}.stride[{d}]", accs.get(i).ok_or_else(missing)?),
        b => output_binding(outs, b).unwrap_or_else(|| g.common_binding(b))?,
    })
}

/// The C expression for an output's pointer or stride binding (`outs`:
/// the outputs' C views and types); `None` for other bindings.
pub(super) fn output_binding(outs: &[(String, Type)], b: Binding) -> Option<Res<String>> {
    let missing = || "internal error: kernel output".to_string();
    match b {
        Binding::Out(i) => Some(outs.get(i).map(|(c, t)| data_ptr(c, t.elem())).ok_or_else(missing)),
        Binding::OutStride(i, d) => Some(outs.get(i).map(|(c, _)| format!("{c}.stride[{d}]")).ok_or_else(missing)),
        _ => None,
    }
}

/// A pointer to the first element of the array view `c` of elements `t`,
/// as a C expression.
pub(super) fn data_ptr(c: &str, t: PrimType) -> String {
    format!("({} *)og_mem_data({c}.mem) + {c}.offset", ctype(t))
}

fn kernel_input(v: &Virtual) -> Input {
    match v {
        Virtual::Iota { start, step, elem } => Input::Iota { start: *start, step: *step, elem: *elem },
        Virtual::Replicate { value } => Input::Replicate(*value),
    }
}

/// The vector registers of the machine ogham runs on, which is the one
/// `-march=native` compiles for: AVX-512's 32 of 64 bytes, AVX's 16 of 32
/// bytes, else 16 of 16 bytes (SSE2 on x86-64; NEON's 32 on AArch64), and
/// whether it has fused multiply–add instructions.
fn host_target() -> Target {
    #[cfg(target_arch = "x86_64")]
    {
        let fma = std::arch::is_x86_feature_detected!("fma");
        if std::arch::is_x86_feature_detected!("avx512f") {
            Target { vector_bytes: 64, registers: 32, fma }
        } else if std::arch::is_x86_feature_detected!("avx") {
            Target { vector_bytes: 32, registers: 16, fma }
        } else {
            Target { vector_bytes: 16, registers: 16, fma }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        Target { vector_bytes: 16, registers: 32, fma: true }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Target { vector_bytes: 16, registers: 16, fma: false }
    }
}
