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
use ogham_imp::lower::{Binding, Input, ScremaLoop};
use ogham_ir::{Lambda, Operator, PrimType, Span, Type, VName};

use super::{ctype, vname, Gen, Res, Virtual};

impl Gen<'_> {
    /// Emits `for (j = lo; j < hi; j++)` and one screma iteration as its
    /// body, by the form described in the module's documentation. `span`
    /// locates the statement's errors (running out of memory for a tile's
    /// buffer).
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
        if self.screma_kernel((lo, hi), arrs, (scans, reduces), map, (scan_accs, red_accs), outs, span)? {
            return Ok(());
        }
        self.line(&format!("for (int64_t {j} = {lo}; {j} < {hi}; {j}++)"));
        self.screma_iteration(j, arrs, scans, reduces, map, scan_accs, red_accs, outs)
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
        let input = |v: &Virtual| match v {
            Virtual::Iota { start, step, elem } => Input::Iota { start: *start, step: *step, elem: *elem },
            Virtual::Replicate { value } => Input::Replicate(*value),
        };
        let inputs: Vec<Input> = arrs.iter().map(|a| self.virt.get(a).map_or(Input::Array(*a), input)).collect();
        let out_types: Vec<(PrimType, usize)> = outs.iter().map(|(_, t)| (t.elem(), t.rank())).collect();
        let ty_of = |v: VName| self.types.get(&v).cloned();
        let virtual_of = |v: VName| self.virt.get(&v).map(input);
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
        let target = Target { vector_bytes: if self.opts.portable { 16 } else { 64 } };
        let lowered = ogham_imp::lower::tile::tiled(&desc, &target).or_else(|| ogham_imp::lower::screma_loop(&desc));
        let Some((mut kernel, bindings)) = lowered else { return Ok(false) };
        ogham_imp::passes::run(&mut kernel, ogham_imp::passes::PIPELINE).map_err(|e| format!("internal error: {e}"))?;
        let accs: Vec<&String> = scan_accs.iter().chain(red_accs).flatten().collect();
        let data = |c: &str, t: PrimType| format!("({} *)og_mem_data({c}.mem) + {c}.offset", ctype(t));
        let mut args = Vec::new();
        for b in &bindings {
            args.push(match *b {
                Binding::Lo => lo.to_string(),
                Binding::Hi => hi.to_string(),
                Binding::Scalar(v) => vname(v),
                Binding::Data(v) => data(&vname(v), self.ty(v)?.elem()),
                Binding::Stride(v, d) => format!("{}.stride[{d}]", vname(v)),
                Binding::Acc(i) => accs.get(i).map(|s| s.to_string()).ok_or("internal error: kernel accumulator")?,
                Binding::Out(i) => {
                    outs.get(i).map(|(c, t)| data(c, t.elem())).ok_or("internal error: kernel output")?
                }
                Binding::OutStride(i, d) => {
                    outs.get(i).map(|(c, _)| format!("{c}.stride[{d}]")).ok_or("internal error: kernel output")?
                }
            });
        }
        let prefix = self.fresh("k");
        kernel.name.clone_from(&prefix);
        if let Some(kept) = &mut self.kernels {
            kept.push(ogham_imp::print::kernel(&kernel));
        }
        let oom = format!("return og_fail(ctx, {}, \"Out of memory.\");", self.loc(span));
        crate::kernel::print(&kernel, &args, (&prefix, self.indent), &oom, &mut self.out)?;
        Ok(true)
    }
}
