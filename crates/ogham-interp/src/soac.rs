//! The second-order array combinators: `screma` (maps, scans and reductions
//! fused over one traversal), `hist` and `scatter`.
//!
//! Each runs its lambda once per row, binding the row values straight into
//! the parameters' slots (no per-element environment). Operators that are a
//! single scalar binary operation on their two parameters — `(+)`, `max`, … —
//! are applied directly, without evaluating the lambda. Reductions and scans
//! combine strictly left to right, so non-commutative operators are exact.

use ogham_data::Buffer;
use ogham_ir::{BinOp, Exp, HistOp, Lambda, Operator, PrimType, Soac, Stm, SubExp, Type, VName};
use ogham_prim::ops::eval_binop;

use crate::eval::{Eval, Fail, Interp};
use crate::value::{shape_text, val_type_text, Array, Val};

/// How an operator is applied.
enum OpKind {
    /// `\a b -> a op b` (or `b op a` when `swapped`) on scalars of type `t`.
    Scalar { op: BinOp, t: PrimType, swapped: bool },
    /// Anything else: evaluate the lambda.
    General,
}

impl OpKind {
    fn of(op: &Operator) -> OpKind {
        let lambda = &op.lambda;
        if let ([a, b], [stm], [SubExp::Var(result)]) =
            (&lambda.params[..], &lambda.body.stms[..], &lambda.body.result[..])
        {
            if let (Exp::BinOp(bop, t, SubExp::Var(x), SubExp::Var(y)), [out]) = (&stm.exp, &stm.pat[..]) {
                if out.name == *result {
                    if (*x, *y) == (a.name, b.name) {
                        return OpKind::Scalar { op: *bop, t: *t, swapped: false };
                    }
                    if (*x, *y) == (b.name, a.name) {
                        return OpKind::Scalar { op: *bop, t: *t, swapped: true };
                    }
                }
            }
        }
        OpKind::General
    }
}

/// Gathers the rows produced one at a time into a flat buffer.
struct Collector {
    data: Buffer,
    row_shape: Option<Vec<i64>>,
}

impl Collector {
    fn new(elem: PrimType, rows: usize) -> Collector {
        // Capacity is a hint only; cap it so an absurd size cannot abort on allocation.
        Collector { data: Buffer::with_capacity(elem, rows.min(1 << 24)), row_shape: None }
    }

    fn push(&mut self, v: &Val) -> Eval<()> {
        let fits = match v {
            Val::Prim(p) => {
                let shape_ok = match &self.row_shape {
                    Some(s) => s.is_empty(),
                    None => {
                        self.row_shape = Some(Vec::new());
                        true
                    }
                };
                shape_ok && self.data.try_push(*p).is_ok()
            }
            Val::Array(a) => {
                let shape_ok = match &self.row_shape {
                    Some(s) => *s == a.shape,
                    None => {
                        self.row_shape = Some(a.shape.clone());
                        true
                    }
                };
                shape_ok && self.data.try_extend_from(&a.data).is_ok()
            }
            Val::Dead => false,
        };
        if fits {
            Ok(())
        } else {
            Err(Fail::Here(format!(
                "internal error: a {} row of type {} joins rows of shape {}",
                self.data.elem_type(),
                val_type_text(v),
                shape_text(self.row_shape.as_deref().unwrap_or(&[]))
            )))
        }
    }

    /// The array of `rows` rows; `declared_row` is the row shape if no row was pushed.
    fn finish(self, rows: usize, declared_row: Vec<i64>) -> Val {
        let mut shape = vec![rows as i64];
        shape.extend(self.row_shape.unwrap_or(declared_row));
        Val::Array(Array::new(shape, self.data))
    }
}

/// The scalar fast path of [`Interp::combine`]: `acc := acc ⊕ x` when the
/// operator is a plain binary operation and both are scalars; false otherwise.
#[inline]
fn combine_scalar(kind: &OpKind, acc: &mut Val, x: &Val) -> Eval<bool> {
    if let (OpKind::Scalar { op, t, swapped }, Val::Prim(a), Val::Prim(x)) = (kind, &*acc, x) {
        let r = if *swapped { eval_binop(*op, *t, *x, *a)? } else { eval_binop(*op, *t, *a, *x)? };
        *acc = Val::Prim(r);
        return Ok(true);
    }
    Ok(false)
}

/// The row shape a pattern element's type declares (its shape without the outer dimension).
fn declared_row(interp: &Interp, ty: Option<&Type>) -> Vec<i64> {
    ty.map(|t| interp.shape_or_zero(t.shape().get(1..).unwrap_or(&[]))).unwrap_or_default()
}

/// The cell of a destination at flat offset `offset` with `shape`: a scalar or a copied sub-array.
fn read_cell(dest: &Array, offset: usize, cell_shape: &[i64], cell_len: usize) -> Val {
    if cell_shape.is_empty() {
        dest.data.get(offset).map(Val::Prim).unwrap_or_default()
    } else {
        Val::Array(Array::new(cell_shape.to_vec(), dest.data.slice(offset..offset + cell_len)))
    }
}

/// Overwrites the cell of `dest` at `offset` with `value`, which must have the cell's shape and type.
fn write_cell(dest: &mut Array, offset: usize, cell_shape: &[i64], cell_len: usize, value: &Val) -> Eval<()> {
    let elem = dest.elem_type();
    match value {
        Val::Prim(p) if cell_shape.is_empty() && p.prim_type() == elem => {
            dest.data_mut().try_set(offset, *p).map_err(|e| Fail::Here(e.to_string()))
        }
        Val::Array(a) if a.shape == cell_shape && a.elem_type() == elem => {
            dest.data_mut().copy_from(offset, &a.data, 0..cell_len);
            Ok(())
        }
        other => Err(Fail::Here(format!(
            "internal error: cannot write a value of type {} into a cell of type {}{elem}",
            val_type_text(other),
            shape_text(cell_shape)
        ))),
    }
}

/// The flat offset of the cell at `indices` (the first dimensions of `shape`), or
/// `None` when an index is out of range.
fn cell_offset(shape: &[i64], indices: &[i64], cell_len: usize) -> Option<usize> {
    let mut offset: usize = 0;
    for (&i, &d) in indices.iter().zip(shape) {
        if i < 0 || i >= d {
            return None;
        }
        offset = offset * d as usize + i as usize;
    }
    Some(offset * cell_len)
}

impl<'p> Interp<'p> {
    pub(crate) fn eval_soac(&mut self, stm: &Stm, soac: &Soac) -> Eval<()> {
        match soac {
            Soac::Screma { w, arrs, scans, reduces, map } => self.screma(stm, w, arrs, scans, reduces, map),
            Soac::Hist { w, arrs, ops, map } => self.hist(stm, w, arrs, ops, map),
            Soac::Scatter { w, arrs, dests, map } => self.scatter(stm, w, arrs, dests, map),
            Soac::WithAcc { w, arrs, accs, map } => self.with_acc(stm, w, arrs, accs, map),
        }
    }

    /// The outer size and the input arrays of a SOAC, checked against each other.
    fn soac_inputs(&self, w: &SubExp, arrs: &[VName], map: &Lambda) -> Eval<(usize, Vec<Array>)> {
        let w = self.int(w)?;
        let w = usize::try_from(w).map_err(|_| Fail::Here(format!("Negative array size {w}.")))?;
        let inputs = arrs.iter().map(|a| self.array(*a).cloned()).collect::<Eval<Vec<Array>>>()?;
        if let Some(bad) = inputs.iter().find(|a| a.rows() != w) {
            return Err(Fail::Here(format!(
                "internal error: an input of shape {} to a SOAC of width {w}",
                shape_text(&bad.shape)
            )));
        }
        if map.params.len() != inputs.len() {
            return Err(Fail::Here(format!(
                "internal error: a lambda of {} parameters over {} arrays",
                map.params.len(),
                inputs.len()
            )));
        }
        Ok((w, inputs))
    }

    /// Binds row `i` of every input to the lambda's parameters and runs its body.
    #[inline]
    fn run_map_lambda(&mut self, map: &Lambda, inputs: &[Array], i: usize) -> Eval<()> {
        for (p, input) in map.params.iter().zip(inputs) {
            self.set(p.name, input.row(i));
        }
        for stm in &map.body.stms {
            self.exec_stm(stm)?;
        }
        Ok(())
    }

    /// `acc := acc ⊕ new`, for an operator over `acc.len()` values.
    fn combine(&mut self, op: &Operator, kind: &OpKind, acc: &mut Vec<Val>, new: Vec<Val>) -> Eval<()> {
        if let (OpKind::Scalar { op: bop, t, swapped }, [Val::Prim(a)], [Val::Prim(x)]) = (kind, &acc[..], &new[..]) {
            let r = if *swapped { eval_binop(*bop, *t, *x, *a)? } else { eval_binop(*bop, *t, *a, *x)? };
            acc[0] = Val::Prim(r);
            return Ok(());
        }
        let lambda = &op.lambda;
        let k = acc.len();
        if lambda.params.len() != 2 * k || new.len() != k {
            return Err(Fail::Here(format!(
                "internal error: an operator of {} parameters combines {k} values",
                lambda.params.len()
            )));
        }
        for (p, v) in lambda.params.iter().zip(acc.drain(..).chain(new)) {
            self.set(p.name, v);
        }
        for stm in &lambda.body.stms {
            self.exec_stm(stm)?;
        }
        *acc = self.take_results(&lambda.body, |v| lambda.params.iter().any(|p| p.name == v))?;
        if acc.len() != k {
            return Err(Fail::Here("internal error: an operator returns the wrong number of values".to_string()));
        }
        Ok(())
    }

    fn screma(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        scans: &[Operator],
        reduces: &[Operator],
        map: &Lambda,
    ) -> Eval<()> {
        let (w, inputs) = self.soac_inputs(w, arrs, map)?;
        let scan_width: usize = scans.iter().map(|op| op.neutral.len()).sum();
        let reduce_width: usize = reduces.iter().map(|op| op.neutral.len()).sum();
        let results = &map.body.result;
        if results.len() < scan_width + reduce_width || stm.pat.len() != results.len() {
            return Err(Fail::Here(format!(
                "internal error: screma lambda returns {} values for {} scanned, {} reduced, and a pattern of {}",
                results.len(),
                scan_width,
                reduce_width,
                stm.pat.len()
            )));
        }
        let map_width = results.len() - scan_width - reduce_width;
        let scan_kinds: Vec<OpKind> = scans.iter().map(OpKind::of).collect();
        let reduce_kinds: Vec<OpKind> = reduces.iter().map(OpKind::of).collect();
        let mut scan_accs = scans
            .iter()
            .map(|op| op.neutral.iter().map(|n| self.val(n)).collect::<Eval<Vec<Val>>>())
            .collect::<Eval<Vec<_>>>()?;
        let mut reduce_accs = reduces
            .iter()
            .map(|op| op.neutral.iter().map(|n| self.val(n)).collect::<Eval<Vec<Val>>>())
            .collect::<Eval<Vec<_>>>()?;
        let elem_of = |k: usize| stm.pat[k].ty.elem();
        let mut scan_out: Vec<Collector> = (0..scan_width).map(|k| Collector::new(elem_of(k), w)).collect();
        let mut map_out: Vec<Collector> =
            (0..map_width).map(|k| Collector::new(elem_of(scan_width + reduce_width + k), w)).collect();

        // A lambda without statements only projects its parameters (the map of
        // a plain `reduce` or `scan`): read the rows directly, binding nothing.
        let projection: Option<Vec<Option<usize>>> = map.body.stms.is_empty().then(|| {
            results.iter().map(|se| se.as_var().and_then(|v| map.params.iter().position(|p| p.name == v))).collect()
        });
        let mut row_results: Vec<Val> = vec![Val::Dead; results.len()];
        for i in 0..w {
            match &projection {
                Some(sources) => {
                    for ((slot, source), se) in row_results.iter_mut().zip(sources).zip(results) {
                        *slot = match source {
                            Some(j) => inputs[*j].row(i),
                            None => self.val(se)?,
                        };
                    }
                }
                None => {
                    self.run_map_lambda(map, &inputs, i)?;
                    for (slot, se) in row_results.iter_mut().zip(results) {
                        *slot = self.val(se)?;
                    }
                }
            }
            let mut pos = 0;
            for ((op, kind), acc) in scans.iter().zip(&scan_kinds).zip(&mut scan_accs) {
                let k = acc.len();
                let fast = k == 1 && combine_scalar(kind, &mut acc[0], &row_results[pos])?;
                if !fast {
                    let new = row_results[pos..pos + k].iter_mut().map(std::mem::take).collect();
                    self.combine(op, kind, acc, new)?;
                }
                for (c, v) in acc.iter().enumerate() {
                    scan_out[pos + c].push(v)?;
                }
                pos += k;
            }
            for ((op, kind), acc) in reduces.iter().zip(&reduce_kinds).zip(&mut reduce_accs) {
                let k = acc.len();
                let fast = k == 1 && combine_scalar(kind, &mut acc[0], &row_results[pos])?;
                if !fast {
                    let new = row_results[pos..pos + k].iter_mut().map(std::mem::take).collect();
                    self.combine(op, kind, acc, new)?;
                }
                pos += k;
            }
            for (collector, value) in map_out.iter_mut().zip(&row_results[pos..]) {
                collector.push(value)?;
            }
        }

        let mut values = Vec::with_capacity(stm.pat.len());
        for (k, collector) in scan_out.into_iter().enumerate() {
            values.push(collector.finish(w, declared_row(self, stm.pat.get(k).map(|p| &p.ty))));
        }
        values.extend(reduce_accs.into_iter().flatten());
        for (k, collector) in map_out.into_iter().enumerate() {
            let ty = stm.pat.get(scan_width + reduce_width + k).map(|p| &p.ty);
            values.push(collector.finish(w, declared_row(self, ty)));
        }
        self.bind_all(&stm.pat, values)
    }

    /// Moves the consumed destination arrays out of their slots.
    fn take_dests(&mut self, dests: &[VName]) -> Eval<Vec<Array>> {
        let mut out = Vec::with_capacity(dests.len());
        for &d in dests {
            match self.take(d) {
                Val::Array(a) => out.push(a),
                other => {
                    self.set(d, other);
                    return Err(self.array(d).err().unwrap_or_else(|| self.unbound(d)));
                }
            }
        }
        Ok(out)
    }

    fn hist(&mut self, stm: &Stm, w: &SubExp, arrs: &[VName], ops: &[HistOp], map: &Lambda) -> Eval<()> {
        let (w, inputs) = self.soac_inputs(w, arrs, map)?;
        let kinds: Vec<OpKind> = ops.iter().map(|h| OpKind::of(&h.op)).collect();
        let mut dests = Vec::with_capacity(ops.len());
        for h in ops {
            let taken = self.take_dests(&h.dests)?;
            let dims = h.shape.len();
            let first_shape = taken.first().map(|a| a.shape.clone()).unwrap_or_default();
            let consistent = h.op.neutral.len() == taken.len()
                && taken.iter().all(|a| a.rank() >= dims && a.shape[..dims] == first_shape[..dims]);
            if !consistent {
                return Err(Fail::Here(
                    "internal error: histogram destinations disagree with the operator".to_string(),
                ));
            }
            dests.push(taken);
        }
        let expected: usize = ops.iter().map(|h| h.shape.len() + h.dests.len()).sum();
        let results = &map.body.result;
        if results.len() != expected {
            return Err(Fail::Here(format!(
                "internal error: hist lambda returns {} values, expected {expected}",
                results.len()
            )));
        }
        let mut indices = Vec::new();
        for i in 0..w {
            self.run_map_lambda(map, &inputs, i)?;
            let mut pos = 0;
            for ((h, kind), targets) in ops.iter().zip(&kinds).zip(&mut dests) {
                let dims = h.shape.len();
                indices.clear();
                for se in &results[pos..pos + dims] {
                    indices.push(self.int(se)?);
                }
                let values = &results[pos + dims..pos + dims + targets.len()];
                pos += dims + targets.len();
                let Some(first) = targets.first() else { continue };
                let cell_shape = first.shape[dims..].to_vec();
                let cell_len: usize = cell_shape.iter().map(|&d| d as usize).product();
                // Out-of-range bins are ignored, as Futhark specifies.
                let Some(bucket) = cell_offset(&first.shape, &indices, 1) else { continue };
                let offset = bucket * cell_len;
                if let ([target], [value], OpKind::Scalar { op, t, swapped }) = (&mut targets[..], values, kind) {
                    if cell_shape.is_empty() {
                        let (Some(a), x) = (target.data.get(offset), self.prim(value)?) else { continue };
                        let r = if *swapped { eval_binop(*op, *t, x, a)? } else { eval_binop(*op, *t, a, x)? };
                        target.data_mut().try_set(offset, r).map_err(|e| Fail::Here(e.to_string()))?;
                        continue;
                    }
                }
                // Each destination has its own cell shape (a tuple may pair
                // rows with scalars).
                let cells: Vec<(Vec<i64>, usize, usize)> = targets
                    .iter()
                    .map(|d| {
                        let shape = d.shape[dims..].to_vec();
                        let len: usize = shape.iter().map(|&x| x as usize).product();
                        (shape, len, bucket * len)
                    })
                    .collect();
                let mut acc: Vec<Val> =
                    targets.iter().zip(&cells).map(|(d, (shape, len, at))| read_cell(d, *at, shape, *len)).collect();
                let new = values.iter().map(|se| self.val(se)).collect::<Eval<Vec<Val>>>()?;
                self.combine(&h.op, kind, &mut acc, new)?;
                for ((target, v), (shape, len, at)) in targets.iter_mut().zip(&acc).zip(&cells) {
                    write_cell(target, *at, shape, *len, v)?;
                }
            }
        }
        let values = dests.into_iter().flatten().map(Val::Array).collect();
        self.bind_all(&stm.pat, values)
    }

    /// A `withacc`: the applications of `map` run in order, each taking
    /// the accumulators the previous one returned (the order of updates
    /// does not matter: they commute).
    fn with_acc(&mut self, stm: &Stm, w: &SubExp, arrs: &[VName], accs: &[VName], map: &Lambda) -> Eval<()> {
        let n = accs.len();
        let (acc_params, row_params) = map.params.split_at(n.min(map.params.len()));
        let rows_only = Lambda { params: row_params.to_vec(), body: ogham_ir::Body::default(), ret: Vec::new() };
        let (w, inputs) = self.soac_inputs(w, arrs, &rows_only)?;
        let results = &map.body.result;
        if results.len() < n || stm.pat.len() != results.len() || acc_params.len() != n {
            return Err(Fail::Here("internal error: malformed withacc".to_string()));
        }
        let mut current: Vec<Val> = self.take_dests(accs)?.into_iter().map(Val::Array).collect();
        let mut mapped: Vec<Collector> = stm.pat[n..].iter().map(|p| Collector::new(p.ty.elem(), w)).collect();
        for i in 0..w {
            for (p, v) in acc_params.iter().zip(current.drain(..)) {
                self.set(p.name, v);
            }
            for (p, input) in row_params.iter().zip(&inputs) {
                self.set(p.name, input.row(i));
            }
            for stm in &map.body.stms {
                self.exec_stm(stm)?;
            }
            let mut out = self.take_results(&map.body, |v| acc_params.iter().any(|p| p.name == v))?;
            for (col, v) in mapped.iter_mut().zip(out.drain(n..)) {
                col.push(&v)?;
            }
            current = out;
        }
        let mut values = current;
        for (col, p) in mapped.into_iter().zip(&stm.pat[n..]) {
            values.push(col.finish(w, declared_row(self, Some(&p.ty))));
        }
        self.bind_all(&stm.pat, values)
    }

    fn scatter(&mut self, stm: &Stm, w: &SubExp, arrs: &[VName], dests: &[VName], map: &Lambda) -> Eval<()> {
        let (w, inputs) = self.soac_inputs(w, arrs, map)?;
        let mut targets = self.take_dests(dests)?;
        let index_counts = ogham_ir::scatter_layout(&map.ret, targets.iter().map(|t| t.rank()))
            .ok_or_else(|| Fail::Here("internal error: malformed scatter lambda".to_string()))?;
        let results = &map.body.result;
        let expected: usize = index_counts.iter().map(|k| k + 1).sum();
        if results.len() != expected {
            return Err(Fail::Here(format!(
                "internal error: scatter lambda returns {} values, expected {expected}",
                results.len()
            )));
        }
        let mut indices = Vec::new();
        for i in 0..w {
            self.run_map_lambda(map, &inputs, i)?;
            let mut pos = 0;
            for (target, &k) in targets.iter_mut().zip(&index_counts) {
                indices.clear();
                for se in &results[pos..pos + k] {
                    indices.push(self.int(se)?);
                }
                let value = &results[pos + k];
                pos += k + 1;
                let cell_shape = &target.shape[k..];
                let cell_len: usize = cell_shape.iter().map(|&d| d as usize).product();
                // Out-of-range writes are ignored, as Futhark specifies.
                let Some(offset) = cell_offset(&target.shape, &indices, cell_len) else { continue };
                let cell_shape = cell_shape.to_vec();
                match value {
                    SubExp::Const(p) => write_cell(target, offset, &cell_shape, cell_len, &Val::Prim(*p))?,
                    SubExp::Var(v) => write_cell(target, offset, &cell_shape, cell_len, self.slot(*v))?,
                }
            }
        }
        let values = targets.into_iter().map(Val::Array).collect();
        self.bind_all(&stm.pat, values)
    }
}
