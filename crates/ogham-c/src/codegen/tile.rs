//! Register tiling of matrix-product-shaped nests.
//!
//! A `map` over the rows `r` of an array whose function is one map of a
//! reduction over one-dimensional inputs (the nest `#[interchange]` is
//! allowed on, see `ogham_ir::layout`),
//!
//! ```text
//! map (\r -> map (\c -> reduce op ne (map f r c)) bt) a
//! ```
//!
//! computes `out[i][j] = ne op f(a[i][0], bt[j][0]) op f(a[i][1], bt[j][1]) …`.
//! Emitted as written, every element of `bt` is loaded once per row of `a`
//! (interchanged, as a row of accumulators; otherwise one dot product at a
//! time), so the loop runs at the speed of memory. When there are enough
//! columns for a tile ([`Gen::tile_wide`]) it runs in tiles of [`ROWS`]
//! rows of `a` by a vector's worth of columns ([`cols`]) instead: the
//! tile's accumulators stay in registers while the reduction's loop runs,
//! each element of `bt` loaded is used [`ROWS`] times and each element of
//! `a` a whole tile-width of times. The column tiles are the outer loop;
//! for each, the slice of `bt` it reads (its columns, every step of the
//! reduction) is first copied into a contiguous buffer, row after row, so
//! that the tiles read it as one stream from cache whatever the layout of
//! `bt` (on a 1024³ f32 product, 58 ms without the copy, 20 ms with it; a
//! `bt` whose rows are rows in memory, as k-means' centres are, is
//! transposed by the copy). The last tiles' missing rows and columns
//! repeat their last row or column: computed (the function is scalar code
//! that cannot fail) but never stored, so every tile takes the same
//! vectorised loop. Each output still folds its terms in index order, so
//! the results are those of the loops as written.

use ogham_ir::{Exp, Lambda, Operator, Param, PrimType, Soac, Span, SubExp, Type, VName};

use super::simd::straight_line;
use super::{cty, vname, Dest, Gen, Res};

/// Rows of `a` per tile.
const ROWS: usize = 4;

/// Columns per tile: 256 bytes of accumulators per row, four 512-bit
/// vectors (so a tile's accumulators take half of AVX-512's 32 vector
/// registers); for portable code, which may only have SSE2's sixteen
/// 128-bit registers, 64 bytes.
fn cols(elem: PrimType, portable: bool) -> usize {
    (if portable { 64 } else { 256 }) / elem.byte_size().max(1)
}

/// The parts of a nest [`Gen::tiled_nest`] tiles.
pub(super) struct Nest<'s> {
    /// The inner SOAC's width (the columns) and its input arrays.
    w2: &'s SubExp,
    inner_arrs: &'s [VName],
    inner_map: &'s Lambda,
    /// What becomes of each row's column results.
    sink: Sink<'s>,
    /// The reduction's width, inputs, operator and function.
    w3: &'s SubExp,
    red_arrs: &'s [VName],
    op: &'s Operator,
    f: &'s Lambda,
}

impl Nest<'_> {
    /// The type of the reduction's values (and of the output's elements).
    fn elem(&self) -> PrimType {
        self.op.lambda.ret[0].elem()
    }
}

/// What the inner SOAC makes of a row's results `out[i][0..w2]`.
#[derive(Clone, Copy)]
enum Sink<'s> {
    /// A map: they are the row of a matrix, the outer map's one output.
    Matrix,
    /// A reduction with this operator: they are folded into one value per
    /// row (k-means' nearest centre), the outer map's one result.
    Fold(&'s Operator),
}

/// The nest when `map`, the function of a map over rows (with `outs`, and
/// `reduces` taking the function's results), has the form above, or the
/// form whose inner SOAC reduces each row instead of building it:
///
/// ```text
/// map (\r -> reduce op2 ne2 (map (\c -> reduce op ne (map f r c)) bt)) a
/// ```
///
/// whose row results may also be reduced by the outer SOAC
/// (`f32.sum (map (\p -> f32.minimum (map (dist p) centres)) points)`).
/// The rows `r` and `c` may only be read as the reduction's inputs, and
/// the functions must be scalar code that cannot fail.
pub(super) fn nest<'s>(map: &'s Lambda, reduces: &[Operator], outs: &[(String, Type)]) -> Option<Nest<'s>> {
    let [inner] = map.body.stms.as_slice() else { return None };
    let [ip] = inner.pat.as_slice() else { return None };
    if map.body.result != [SubExp::Var(ip.name)] || inner.attrs.sequential {
        return None;
    }
    let Exp::Soac(Soac::Screma { w: w2, arrs: inner_arrs, scans, reduces: inner_reduces, map: inner_map }) = &inner.exp
    else {
        return None;
    };
    let sink = match (inner_reduces.as_slice(), reduces, outs) {
        ([], [], [(_, t)]) if t.rank() == 2 => Sink::Matrix,
        ([op2], [], [(_, t)]) if t.rank() == 1 => Sink::Fold(op2),
        ([op2], [_], []) => Sink::Fold(op2),
        _ => return None,
    };
    if let Sink::Fold(op2) = sink {
        if op2.neutral.len() != 1 || !straight_line(&op2.lambda.body) {
            return None;
        }
    }
    if !scans.is_empty() {
        return None;
    }
    let [red] = inner_map.body.stms.as_slice() else { return None };
    let [rp] = red.pat.as_slice() else { return None };
    if inner_map.body.result != [SubExp::Var(rp.name)] || rp.ty.rank() != 0 || red.attrs.sequential {
        return None;
    }
    let Exp::Soac(Soac::Screma { w: w3, arrs: red_arrs, scans: s3, reduces: r3, map: f }) = &red.exp else {
        return None;
    };
    let [op] = r3.as_slice() else { return None };
    if !s3.is_empty() || op.neutral.len() != 1 || f.ret.len() != 1 {
        return None;
    }
    if f.params.iter().any(|p| p.ty.rank() != 0) || !straight_line(&f.body) || !straight_line(&op.lambda.body) {
        return None;
    }
    // The rows, outer and inner, are only the reduction's inputs.
    let rows: Vec<VName> = map.params.iter().chain(&inner_map.params).map(|p| p.name).collect();
    let mut used = ogham_ir::visit::free_vars_lambda(f);
    used.extend(ogham_ir::visit::free_vars_lambda(&op.lambda));
    used.extend(op.neutral.iter().filter_map(|n| n.as_var()));
    used.extend(w3.as_var());
    if let Sink::Fold(op2) = sink {
        used.extend(ogham_ir::visit::free_vars_lambda(&op2.lambda));
        used.extend(op2.neutral.iter().filter_map(|n| n.as_var()));
    }
    if rows.iter().any(|r| used.contains(r)) || inner_arrs.iter().any(|a| map.params.iter().any(|p| p.name == *a)) {
        return None;
    }
    Some(Nest { w2, inner_arrs, inner_map, sink, w3, red_arrs, op, f })
}

/// Where each of the reduction function's parameters gets its element.
enum Source {
    /// Element `[j][k]` of this inner map input (a row parameter's array).
    Column(VName),
    /// Element `[i][k]` of this outer map input.
    Row(VName),
    /// Element `[k]` of a free one-dimensional array (or computed, if virtual).
    Free(VName),
}

impl Gen<'_> {
    /// The C condition under which [`Gen::tiled_nest`] is worth it: at
    /// least a tile's width of columns.
    pub(super) fn tile_wide(&self, nest: &Nest) -> String {
        format!("{} >= {}", self.se(nest.w2), cols(nest.elem(), self.opts.portable))
    }

    /// Emits the outer map's loop over rows `lo..hi` of `nest` (see the
    /// module's documentation): writing the matrix `outs[0]`, or folding
    /// each row and handing its result to `outer_reduce` or `outs[0]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tiled_nest(
        &mut self,
        (lo, hi): (&str, &str),
        outer_params: &[Param],
        outer_arrs: &[VName],
        nest: &Nest,
        outs: &[(String, Type)],
        outer_reduce: Option<(&Operator, &[String])>,
        span: Span,
    ) -> Res<()> {
        let elem = nest.elem();
        let sources: Vec<Source> = nest
            .red_arrs
            .iter()
            .map(|a| {
                if let Some(i) = nest.inner_map.params.iter().position(|p| p.name == *a) {
                    Source::Column(nest.inner_arrs[i])
                } else if let Some(i) = outer_params.iter().position(|p| p.name == *a) {
                    Source::Row(outer_arrs[i])
                } else {
                    Source::Free(*a)
                }
            })
            .collect();
        if sources.iter().any(|s| matches!(s, Source::Column(a) | Source::Row(a) if self.virt.contains_key(a))) {
            return Err("C backend: a tiled nest over a virtual array".to_string());
        }
        let (w2, w3) = (self.se(nest.w2), self.se(nest.w3));
        let t = cty(&nest.op.lambda.ret[0]);
        let neutral = self.se(&nest.op.neutral[0]);
        let cols = cols(elem, self.opts.portable);
        let (j0, i0, k) = (self.fresh("j0"), self.fresh("i0"), self.fresh("k"));
        let (ii, jj, nj) = (self.fresh("ii"), self.fresh("jj"), self.fresh("nj"));
        let columns: Vec<VName> =
            sources.iter().filter_map(|s| if let Source::Column(a) = s { Some(*a) } else { None }).collect();
        // One buffer per column array: its tile's columns, row after row.
        let mut packs = Vec::new();
        for a in &columns {
            let pk = self.fresh("pack");
            let ct = super::ctype(self.ty(*a)?.elem());
            self.line(&format!("{ct} *{pk} = malloc(sizeof({ct}) * (size_t)({w3} > 0 ? {w3} : 1) * {cols});"));
            self.fail(&format!("{pk} == NULL"), span, "Out of memory.", &[]);
            packs.push((pk, ct, *a));
        }
        // Folded rows: each row's accumulator, across the column tiles.
        let rowacc = if let Sink::Fold(_) = nest.sink { self.fresh("rowacc") } else { String::new() };
        if let Sink::Fold(op2) = nest.sink {
            let t2 = cty(&op2.lambda.ret[0]);
            let ne2 = self.se(&op2.neutral[0]);
            self.line(&format!("{t2} *{rowacc} = malloc(sizeof({t2}) * (size_t)({hi} - {lo} > 0 ? {hi} - {lo} : 1));"));
            self.fail(&format!("{rowacc} == NULL"), span, "Out of memory.", &[]);
            self.line(&format!("for (int64_t {i0} = {lo}; {i0} < {hi}; {i0}++) {rowacc}[{i0} - {lo}] = {ne2};"));
        }
        self.line(&format!("for (int64_t {j0} = 0; {j0} < {w2}; {j0} += {cols}) {{"));
        self.indent += 1;
        self.line(&format!("int64_t {nj} = {w2} - {j0} < {cols} ? {w2} - {j0} : {cols};"));
        // The last tile's missing columns repeat its last column: computed, never stored.
        for (pk, ct, a) in &packs {
            let c = vname(*a);
            let elem_ty = self.ty(*a)?.elem();
            self.line(&format!("if ({nj} == {cols} && {c}.stride[0] == 1) {{"));
            self.line(&format!(
                "  for (int64_t {k} = 0; {k} < {w3}; {k}++) memcpy({pk} + {k} * {cols}, ({ct} *)og_mem_data({c}.mem) + {c}.offset + {k} * {c}.stride[1] + {j0}, sizeof({ct}) * {cols});"
            ));
            self.line("} else {");
            let src = Self::elem(&c, elem_ty, &[format!("{j0} + ({jj} < {nj} ? {jj} : {nj} - 1)"), k.clone()]);
            self.line(&format!(
                "  for (int64_t {k} = 0; {k} < {w3}; {k}++) for (int {jj} = 0; {jj} < {cols}; {jj}++) {pk}[{k} * {cols} + {jj}] = {src};"
            ));
            self.line("}");
        }
        self.line(&format!("for (int64_t {i0} = {lo}; {i0} < {hi}; {i0} += {ROWS}) {{"));
        self.indent += 1;
        // The tile: acc[ii][jj] for rows i0 + ii and columns j0 + jj. The
        // last tile's missing rows repeat its last row: computed, never stored.
        let acc = self.fresh("acc");
        self.line(&format!("{t} {acc}[{ROWS}][{cols}];"));
        self.line(&format!(
            "for (int {ii} = 0; {ii} < {ROWS}; {ii}++) for (int {jj} = 0; {jj} < {cols}; {jj}++) {acc}[{ii}][{jj}] = {neutral};"
        ));
        self.line(&format!("for (int64_t {k} = 0; {k} < {w3}; {k}++) {{"));
        self.indent += 1;
        let mut col_ptrs = Vec::new();
        for (pk, ct, _) in &packs {
            let p = self.fresh("p");
            self.line(&format!("const {ct} *restrict {p} = {pk} + {k} * {cols};"));
            col_ptrs.push(p);
        }
        self.line(&format!("for (int {ii} = 0; {ii} < {ROWS}; {ii}++) {{"));
        self.indent += 1;
        let row = format!("({i0} + {ii} < {hi} ? {i0} + {ii} : {hi} - 1)");
        self.bind_row_params(nest, &sources, &row, &k)?;
        self.line(&format!("for (int {jj} = 0; {jj} < {cols}; {jj}++) {{"));
        self.indent += 1;
        self.bind_column_params(nest, &sources, &col_ptrs, &jj);
        let x = self.fresh("x");
        self.line(&format!("{t} {x};"));
        self.body(&nest.f.body, &[Dest::Fresh(x.clone())])?;
        self.apply_op(nest.op, &[format!("{acc}[{ii}][{jj}]")], &[x])?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        let tile_rows = format!(
            "for (int {ii} = 0; {ii} < {ROWS} && {i0} + {ii} < {hi}; {ii}++) for (int {jj} = 0; {jj} < {nj}; {jj}++)"
        );
        match nest.sink {
            Sink::Matrix => {
                let out_el = Self::elem(&outs[0].0, elem, &[format!("{i0} + {ii}"), format!("{j0} + {jj}")]);
                self.line(&format!("{tile_rows} {out_el} = {acc}[{ii}][{jj}];"));
            }
            Sink::Fold(op2) => {
                self.line(&tile_rows);
                self.apply_op(op2, &[format!("{rowacc}[{i0} + {ii} - {lo}]")], &[format!("{acc}[{ii}][{jj}]")])?;
            }
        }
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        for (pk, ..) in &packs {
            self.line(&format!("free({pk});"));
        }
        if let Sink::Fold(_) = nest.sink {
            // Each row's result, in order: into the outer reduction or the output.
            let i = self.fresh("i");
            self.line(&format!("for (int64_t {i} = {lo}; {i} < {hi}; {i}++)"));
            let y = format!("{rowacc}[{i} - {lo}]");
            match outer_reduce {
                Some((op, accs)) => self.apply_op(op, accs, &[y])?,
                None => {
                    let (out, ty) = &outs[0];
                    let out_el = Self::elem(out, ty.elem(), &[i]);
                    self.line(&format!("  {out_el} = {y};"));
                }
            }
            self.line(&format!("free({rowacc});"));
        }
        Ok(())
    }

    /// Binds the reduction function's parameters that come from rows (at
    /// row `i`) and from free arrays, for step `k`.
    fn bind_row_params(&mut self, nest: &Nest, sources: &[Source], i: &str, k: &str) -> Res<()> {
        for (p, s) in nest.f.params.iter().zip(sources) {
            match s {
                Source::Row(a) => {
                    let e = Self::elem(&vname(*a), self.ty(*a)?.elem(), &[i.to_string(), k.to_string()]);
                    self.line(&format!("{} {} = {e};", cty(&p.ty), vname(p.name)));
                }
                Source::Free(a) => self.bind_rows(std::slice::from_ref(p), &[*a], k)?,
                Source::Column(_) => {}
            }
        }
        Ok(())
    }

    /// Binds the reduction function's parameters that come from columns:
    /// element `jj` of their buffers' pointers `ptrs` (in order).
    fn bind_column_params(&mut self, nest: &Nest, sources: &[Source], ptrs: &[String], jj: &str) {
        let columns = nest.f.params.iter().zip(sources).filter(|(_, s)| matches!(s, Source::Column(_)));
        for ((p, _), ptr) in columns.zip(ptrs) {
            self.line(&format!("{} {} = {ptr}[{jj}];", cty(&p.ty), vname(p.name)));
        }
    }
}
