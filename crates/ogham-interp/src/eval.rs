//! The evaluator: statements, bodies, function calls, `if` and loops.
//!
//! Variables live in one slot vector indexed by [`VName`] number (every name
//! is bound once in the whole program), so a lookup is an array access.
//! Recursive calls save and restore the callee's own slots. Arrays consumed
//! by an in-place update are moved out of their slot, which keeps their
//! buffer uniquely owned so the update costs only the written elements.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ogham_data::Buffer;
use ogham_ir::{Body, DimIndex, Exp, FunDef, LoopForm, Param, PrimValue, Program, Stm, SubExp, Type, VName};
use ogham_prim::ops::{eval_binop, eval_cmpop, eval_conv, eval_ternop, eval_unop, ScalarError};

use crate::arrays::{self, Ix};
use crate::value::{checked_count, val_type_text, Array, Val};
use crate::RuntimeError;

/// Calls nested deeper than this fail with an error instead of exhausting
/// the stack, on a thread whose stack the interpreter did not size itself
/// (elsewhere the stack's use is measured: [`set_stack_budget`]).
const MAX_CALL_DEPTH: usize = 5_000;

thread_local! {
    /// The address of the interpreter thread's first frame and how many
    /// bytes below it calls may reach; (0, 0) on other threads.
    static STACK: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// Records that this thread's stack starts at `top` (a local of its first
/// frame) and that calls may use `budget` bytes of it.
pub(crate) fn set_stack_budget(top: &u8, budget: usize) {
    STACK.with(|s| s.set((top as *const u8 as usize, budget)));
}

/// Whether a call now would go deeper than the stack allows: measured where
/// the stack was sized ([`set_stack_budget`], a recursion some 10^5 calls
/// deep), counted by `depth` elsewhere.
fn stack_exhausted(depth: usize) -> bool {
    let here = 0u8;
    let (top, budget) = STACK.with(|s| s.get());
    if top == 0 {
        return depth >= MAX_CALL_DEPTH;
    }
    top.saturating_sub(std::hint::black_box(&here) as *const u8 as usize) > budget
}

/// Why evaluation stopped.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A message to be reported at the span of the statement being evaluated.
    Here(String),
    /// An error already located at a statement nested inside the current one.
    Located(RuntimeError),
}

impl From<RuntimeError> for Fail {
    fn from(e: RuntimeError) -> Fail {
        Fail::Located(e)
    }
}

impl From<String> for Fail {
    fn from(message: String) -> Fail {
        Fail::Here(message)
    }
}

impl From<&str> for Fail {
    fn from(message: &str) -> Fail {
        Fail::Here(message.to_string())
    }
}

impl From<ScalarError> for Fail {
    fn from(e: ScalarError) -> Fail {
        Fail::Here(e.to_string())
    }
}

impl Fail {
    /// The error, located at `span` unless it already has a location.
    pub(crate) fn at(self, span: ogham_ir::Span) -> RuntimeError {
        match self {
            Fail::Here(message) => RuntimeError { message, span, trace: Vec::new() },
            Fail::Located(e) => e,
        }
    }
}

pub(crate) type Eval<T> = Result<T, Fail>;

/// The state of one run of the interpreter over a program.
pub(crate) struct Interp<'p> {
    pub(crate) prog: &'p Program,
    env: Vec<Val>,
    funs: HashMap<&'p str, usize>,
    /// Per function, the variables it binds (computed on its first recursive call).
    fun_locals: Vec<Option<Rc<[VName]>>>,
    /// Per function, how many calls to it are in progress.
    active: Vec<u32>,
    depth: usize,
    /// What reading an unbound slot returns.
    dead: Val,
    /// The tuning parameters the run sets (`Exp::UserParam`).
    pub(crate) tuning: HashMap<String, i64>,
}

impl<'p> Interp<'p> {
    pub(crate) fn new(prog: &'p Program) -> Interp<'p> {
        let mut funs = HashMap::default();
        for (i, f) in prog.funs.iter().enumerate() {
            funs.entry(f.name.as_str()).or_insert(i);
        }
        Interp {
            prog,
            env: vec![Val::Dead; prog.names.len()],
            funs,
            fun_locals: vec![None; prog.funs.len()],
            active: vec![0; prog.funs.len()],
            depth: 0,
            dead: Val::Dead,
            tuning: HashMap::default(),
        }
    }

    // --- slots -------------------------------------------------------------

    #[inline]
    pub(crate) fn slot(&self, v: VName) -> &Val {
        self.env.get(v.0 as usize).unwrap_or(&self.dead)
    }

    #[inline]
    pub(crate) fn set(&mut self, v: VName, value: Val) {
        let i = v.0 as usize;
        if i >= self.env.len() {
            self.env.resize(i + 1, Val::Dead);
        }
        self.env[i] = value;
    }

    /// Moves the value out of a slot (for consumed arrays and block results).
    pub(crate) fn take(&mut self, v: VName) -> Val {
        self.env.get_mut(v.0 as usize).map(std::mem::take).unwrap_or_default()
    }

    pub(crate) fn unbound(&self, v: VName) -> Fail {
        Fail::Here(format!("internal error: variable {} has no value", self.prog.names.display(v)))
    }

    #[inline]
    pub(crate) fn prim(&self, se: &SubExp) -> Eval<PrimValue> {
        match se {
            SubExp::Const(p) => Ok(*p),
            SubExp::Var(v) => match self.slot(*v) {
                Val::Prim(p) => Ok(*p),
                Val::Dead => Err(self.unbound(*v)),
                Val::Array(_) => Err(Fail::Here(format!(
                    "internal error: variable {} is an array where a scalar was expected",
                    self.prog.names.display(*v)
                ))),
            },
        }
    }

    /// An integer operand as `i64` (sizes and indices).
    #[inline]
    pub(crate) fn int(&self, se: &SubExp) -> Eval<i64> {
        let p = self.prim(se)?;
        if p.prim_type().is_int() {
            Ok(p.as_i64())
        } else {
            Err(Fail::Here(format!("internal error: expected an integer, got a value of type {}", p.prim_type())))
        }
    }

    pub(crate) fn boolean(&self, se: &SubExp) -> Eval<bool> {
        match self.prim(se)? {
            PrimValue::Bool(b) => Ok(b),
            other => {
                Err(Fail::Here(format!("internal error: expected a bool, got a value of type {}", other.prim_type())))
            }
        }
    }

    pub(crate) fn val(&self, se: &SubExp) -> Eval<Val> {
        match se {
            SubExp::Const(p) => Ok(Val::Prim(*p)),
            SubExp::Var(v) => match self.slot(*v) {
                Val::Dead => Err(self.unbound(*v)),
                other => Ok(other.clone()),
            },
        }
    }

    pub(crate) fn array(&self, v: VName) -> Eval<&Array> {
        match self.slot(v) {
            Val::Array(a) => Ok(a),
            Val::Dead => Err(self.unbound(v)),
            Val::Prim(_) => Err(Fail::Here(format!(
                "internal error: variable {} is a scalar where an array was expected",
                self.prog.names.display(v)
            ))),
        }
    }

    pub(crate) fn shape(&self, dims: &[SubExp]) -> Eval<Vec<i64>> {
        dims.iter().map(|d| self.int(d)).collect()
    }

    /// A declared shape where sizes that are not (or no longer) available count as 0;
    /// used only for the row shape of empty results.
    pub(crate) fn shape_or_zero(&self, dims: &[SubExp]) -> Vec<i64> {
        dims.iter().map(|d| self.int(d).unwrap_or(0).max(0)).collect()
    }

    fn bind_one(&mut self, pat: &[Param], value: Val) -> Eval<()> {
        match pat {
            [p] => {
                self.set(p.name, value);
                Ok(())
            }
            _ => Err(Fail::Here(format!("internal error: a pattern of {} names binds one value", pat.len()))),
        }
    }

    pub(crate) fn bind_all(&mut self, pat: &[Param], values: Vec<Val>) -> Eval<()> {
        if pat.len() != values.len() {
            return Err(Fail::Here(format!(
                "internal error: a pattern of {} names binds {} values",
                pat.len(),
                values.len()
            )));
        }
        for (p, v) in pat.iter().zip(values) {
            self.set(p.name, v);
        }
        Ok(())
    }

    /// The results of a block just evaluated. Arrays bound inside the block
    /// (or by `is_local`, e.g. loop parameters) are moved out of their slots,
    /// so that a caller updating them in place finds them uniquely owned.
    pub(crate) fn take_results(&mut self, body: &Body, is_local: impl Fn(VName) -> bool) -> Eval<Vec<Val>> {
        let mut out = Vec::with_capacity(body.result.len());
        for (j, se) in body.result.iter().enumerate() {
            let v = match se {
                SubExp::Const(p) => {
                    out.push(Val::Prim(*p));
                    continue;
                }
                SubExp::Var(v) => *v,
            };
            let value = match self.slot(v) {
                Val::Dead => return Err(self.unbound(v)),
                Val::Prim(p) => Val::Prim(*p),
                Val::Array(a) => {
                    let movable = !body.result[j + 1..].contains(se)
                        && (is_local(v) || body.stms.iter().any(|s| s.pat.iter().any(|p| p.name == v)));
                    if movable {
                        self.take(v)
                    } else {
                        Val::Array(a.clone())
                    }
                }
            };
            out.push(value);
        }
        Ok(out)
    }

    // --- statements ----------------------------------------------------------

    pub(crate) fn exec_body(&mut self, body: &Body) -> Result<(), RuntimeError> {
        for stm in &body.stms {
            self.exec_stm(stm)?;
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn exec_stm(&mut self, stm: &Stm) -> Result<(), RuntimeError> {
        self.eval_stm(stm).map_err(|f| f.at(stm.span))
    }

    fn eval_stm(&mut self, stm: &Stm) -> Eval<()> {
        let pat = &stm.pat;
        match &stm.exp {
            Exp::SubExp(se) => {
                let v = self.val(se)?;
                self.bind_one(pat, v)
            }
            Exp::BinOp(op, t, x, y) => {
                let r = eval_binop(*op, *t, self.prim(x)?, self.prim(y)?)?;
                self.bind_one(pat, Val::Prim(r))
            }
            Exp::CmpOp(op, t, x, y) => {
                let r = eval_cmpop(*op, *t, self.prim(x)?, self.prim(y)?)?;
                self.bind_one(pat, Val::Prim(PrimValue::Bool(r)))
            }
            Exp::UnOp(op, t, x) => {
                let r = eval_unop(*op, *t, self.prim(x)?)?;
                self.bind_one(pat, Val::Prim(r))
            }
            Exp::TernOp(op, t, a, b, c) => {
                let r = eval_ternop(*op, *t, self.prim(a)?, self.prim(b)?, self.prim(c)?)?;
                self.bind_one(pat, Val::Prim(r))
            }
            Exp::Conv(op, from, to, x) => {
                let r = eval_conv(*op, *from, *to, self.prim(x)?)?;
                self.bind_one(pat, Val::Prim(r))
            }
            Exp::Apply { func, args } => {
                let index = *self
                    .funs
                    .get(func.as_str())
                    .ok_or_else(|| Fail::Here(format!("internal error: call of unknown function {func}")))?;
                let values = args.iter().map(|a| self.val(a)).collect::<Eval<Vec<Val>>>()?;
                let results = self.call(index, values).map_err(|f| match f {
                    Fail::Located(mut e) => {
                        if !stm.span.is_dummy() {
                            e.trace.push(stm.span);
                        }
                        Fail::Located(e)
                    }
                    here => here,
                })?;
                self.bind_all(pat, results)
            }
            Exp::If { cond, then_body, else_body } => {
                let body = if self.boolean(cond)? { then_body } else { else_body };
                self.exec_body(body)?;
                let results = self.take_results(body, |_| false)?;
                self.bind_all(pat, results)
            }
            Exp::Loop { params, form, body } => self.eval_loop(pat, params, form, body),
            Exp::Index { array, slice } => {
                if let Some(v) = self.index_scalar_fast(*array, slice) {
                    return self.bind_one(pat, Val::Prim(v));
                }
                let ixs = self.eval_slice(slice)?;
                let v = arrays::index(self.array(*array)?, &ixs)?;
                self.bind_one(pat, v)
            }
            Exp::Update { array, slice, value } => {
                let ixs = self.eval_slice(slice)?;
                let value = self.val(value)?;
                let mut target = match self.take(*array) {
                    Val::Array(a) => a,
                    other => {
                        self.set(*array, other);
                        return Err(self.array(*array).err().unwrap_or_else(|| self.unbound(*array)));
                    }
                };
                arrays::update(&mut target, &ixs, &value)?;
                self.bind_one(pat, Val::Array(target))
            }
            Exp::UpdAcc { acc, slice, value, op } => {
                let ixs = self.eval_slice(slice)?;
                let value = self.val(value)?;
                let mut target = match self.take(*acc) {
                    Val::Array(a) => a,
                    other => {
                        self.set(*acc, other);
                        return Err(self.array(*acc).err().unwrap_or_else(|| self.unbound(*acc)));
                    }
                };
                arrays::accumulate(&mut target, &ixs, &value, *op)?;
                self.bind_one(pat, Val::Array(target))
            }
            Exp::Iota { n, start, step, elem } => {
                let a = arrays::iota(self.int(n)?, self.prim(start)?, self.prim(step)?, *elem)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Replicate { shape, value } => {
                let shape = self.shape(shape)?;
                let value = match value {
                    SubExp::Const(p) => Val::Prim(*p),
                    SubExp::Var(v) => self.slot(*v).clone(),
                };
                let a = arrays::replicate(&shape, &value)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Scratch { elem, shape } => {
                let shape = self.shape(shape)?;
                let count = checked_count(&shape, *elem)?;
                self.bind_one(pat, Val::Array(Array::new(shape, Buffer::zeros(*elem, count))))
            }
            Exp::Reshape { array, shape } => {
                let shape = self.shape(shape)?;
                let a = arrays::reshape(self.array(*array)?, shape)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Rearrange { array, perm } => {
                let a = arrays::rearrange(self.array(*array)?, perm)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Concat { dim, arrays: names, len } => {
                let len = self.int(len)?;
                let parts = names.iter().map(|v| self.array(*v)).collect::<Eval<Vec<&Array>>>()?;
                let a = arrays::concat(*dim, &parts, len)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Copy(v) => {
                let copy = match self.slot(*v) {
                    Val::Array(a) => Val::Array(Array::new(a.shape.clone(), (*a.data).clone())),
                    Val::Prim(p) => Val::Prim(*p),
                    Val::Dead => return Err(self.unbound(*v)),
                };
                self.bind_one(pat, copy)
            }
            Exp::ArrayLit { elems, elem_ty } => {
                let a = self.array_literal(elems, elem_ty)?;
                self.bind_one(pat, Val::Array(a))
            }
            Exp::Assert { cond, message, args } => {
                if self.boolean(cond)? {
                    // A user assertion's certificate.
                    let cert = vec![Val::Prim(PrimValue::Bool(true)); pat.len()];
                    self.bind_all(pat, cert)
                } else {
                    let mut values = Vec::with_capacity(args.len());
                    for (_, a) in args {
                        values.push(self.prim(a)?.as_i64().to_string());
                    }
                    let mut values = values.into_iter();
                    Err(Fail::Here(ogham_ir::format_message(message, args, |_| values.next().unwrap_or_default())))
                }
            }
            Exp::Certify { values, .. } => {
                let values = values.iter().map(|v| self.val(v)).collect::<Eval<Vec<Val>>>()?;
                self.bind_all(pat, values)
            }
            Exp::UserParam { name, default } => {
                let v = match self.tuning.get(name) {
                    Some(&v) => PrimValue::I64(v),
                    None => self.prim(default)?,
                };
                self.bind_one(pat, Val::Prim(v))
            }
            Exp::Soac(soac) => self.eval_soac(stm, soac),
            // The middle end's `ad` pass removes every one.
            Exp::Ad { .. } => {
                Err(Fail::Here("internal error: automatic differentiation left for the interpreter".to_string()))
            }
        }
    }

    /// `a[i, j, …]` with every dimension fixed, read without allocating; `None`
    /// sends anything else (including every error) to the general path.
    fn index_scalar_fast(&self, array: VName, slice: &[DimIndex]) -> Option<PrimValue> {
        let Val::Array(a) = self.slot(array) else { return None };
        if slice.len() != a.shape.len() {
            return None;
        }
        let mut offset: usize = 0;
        for (ix, &d) in slice.iter().zip(&a.shape) {
            let DimIndex::Fix(i) = ix else { return None };
            let i = self.int(i).ok()?;
            if i < 0 || i >= d {
                return None;
            }
            offset = offset.checked_mul(d as usize)?.checked_add(i as usize)?;
        }
        a.data.get(offset)
    }

    fn eval_slice(&self, slice: &[DimIndex]) -> Eval<Vec<Ix>> {
        slice
            .iter()
            .map(|ix| {
                Ok(match ix {
                    DimIndex::Fix(i) => Ix::Fix(self.int(i)?),
                    DimIndex::Slice { start, len, stride } => {
                        Ix::Slice { start: self.int(start)?, len: self.int(len)?, stride: self.int(stride)? }
                    }
                })
            })
            .collect()
    }

    fn array_literal(&self, elems: &[SubExp], elem_ty: &Type) -> Eval<Array> {
        let elem = elem_ty.elem();
        let n = elems.len() as i64;
        let row_shape = match elems.first() {
            None => self.shape_or_zero(elem_ty.shape()),
            Some(first) => match first {
                SubExp::Var(v) => self.slot(*v).shape().to_vec(),
                SubExp::Const(_) => Vec::new(),
            },
        };
        let shape = [&[n][..], &row_shape].concat();
        let mut data = Buffer::with_capacity(elem, checked_count(&shape, elem)?);
        for e in elems {
            let pushed = match e {
                SubExp::Const(p) => data.try_push(*p).is_ok() && row_shape.is_empty(),
                SubExp::Var(v) => match self.slot(*v) {
                    Val::Prim(p) => row_shape.is_empty() && data.try_push(*p).is_ok(),
                    Val::Array(a) => a.shape == row_shape && data.try_extend_from(&a.data).is_ok(),
                    Val::Dead => return Err(self.unbound(*v)),
                },
            };
            if !pushed {
                let found = self.val(e).map(|v| val_type_text(&v)).unwrap_or_default();
                return Err(Fail::Here(format!(
                    "internal error: array literal element of type {found} where {} elements of shape {} were expected",
                    elem,
                    crate::value::shape_text(&row_shape)
                )));
            }
        }
        Ok(Array::new(shape, data))
    }

    fn eval_loop(&mut self, pat: &[Param], params: &[(Param, SubExp)], form: &LoopForm, body: &Body) -> Eval<()> {
        let initial = params.iter().map(|(_, se)| self.val(se)).collect::<Eval<Vec<Val>>>()?;
        for ((p, _), v) in params.iter().zip(initial) {
            self.set(p.name, v);
        }
        let is_param = |v: VName| params.iter().any(|(p, _)| p.name == v);
        match form {
            LoopForm::For { i, bound } => {
                let bound = self.int(bound)?;
                for k in 0..bound.max(0) {
                    self.set(*i, Val::Prim(PrimValue::I64(k)));
                    self.exec_body(body)?;
                    let next = self.take_results(body, |v| v == *i || is_param(v))?;
                    self.rebind_loop_params(params, next)?;
                }
            }
            LoopForm::While { cond } => loop {
                match self.slot(*cond) {
                    Val::Prim(PrimValue::Bool(true)) => {}
                    Val::Prim(PrimValue::Bool(false)) => break,
                    _ => return Err(Fail::Here("internal error: while-loop condition is not a bool".to_string())),
                }
                self.exec_body(body)?;
                let next = self.take_results(body, is_param)?;
                self.rebind_loop_params(params, next)?;
            },
        }
        let finals = params.iter().map(|(p, _)| self.take(p.name)).collect();
        self.bind_all(pat, finals)
    }

    fn rebind_loop_params(&mut self, params: &[(Param, SubExp)], next: Vec<Val>) -> Eval<()> {
        if next.len() != params.len() {
            return Err(Fail::Here(format!(
                "internal error: loop body returns {} values for {} parameters",
                next.len(),
                params.len()
            )));
        }
        for ((p, _), v) in params.iter().zip(next) {
            self.set(p.name, v);
        }
        Ok(())
    }

    // --- calls -------------------------------------------------------------

    /// Calls function number `index` with `args`; returns its results.
    pub(crate) fn call(&mut self, index: usize, args: Vec<Val>) -> Eval<Vec<Val>> {
        let prog = self.prog;
        let f = prog.funs.get(index).ok_or("internal error: call of a missing function")?;
        if args.len() != f.params.len() {
            return Err(Fail::Here(format!(
                "internal error: {} takes {} arguments, but {} were given",
                f.name,
                f.params.len(),
                args.len()
            )));
        }
        if stack_exhausted(self.depth) {
            return Err(Fail::Here("Stack exhausted: the recursion is too deep.".to_string()));
        }
        // A recursive call would overwrite the slots of the calls in progress: save them.
        let saved = if self.active[index] > 0 {
            let locals = self.locals_of(index, f);
            Some(locals.iter().map(|&v| (v, self.take(v))).collect::<Vec<_>>())
        } else {
            None
        };
        for (p, v) in f.params.iter().zip(args) {
            self.set(p.name, v);
        }
        self.active[index] += 1;
        self.depth += 1;
        let outcome = match self.exec_body(&f.body) {
            Ok(()) => self.take_results(&f.body, |v| f.params.iter().any(|p| p.name == v)),
            Err(e) => Err(Fail::Located(e)),
        };
        self.active[index] -= 1;
        self.depth -= 1;
        if let Some(saved) = saved {
            for (v, value) in saved {
                self.set(v, value);
            }
        }
        outcome
    }

    fn locals_of(&mut self, index: usize, f: &FunDef) -> Rc<[VName]> {
        if let Some(Some(locals)) = self.fun_locals.get(index) {
            return locals.clone();
        }
        let mut names: Vec<VName> = f.params.iter().map(|p| p.name).collect();
        collect_bound(&f.body, &mut names);
        names.sort();
        names.dedup();
        let locals: Rc<[VName]> = names.into();
        if let Some(slot) = self.fun_locals.get_mut(index) {
            *slot = Some(locals.clone());
        }
        locals
    }
}

/// Every variable bound inside `body`, at any depth.
fn collect_bound(body: &Body, out: &mut Vec<VName>) {
    fn lambda(l: &ogham_ir::Lambda, out: &mut Vec<VName>) {
        out.extend(l.params.iter().map(|p| p.name));
        collect_bound(&l.body, out);
    }
    for stm in &body.stms {
        out.extend(stm.pat.iter().map(|p| p.name));
        match &stm.exp {
            Exp::If { then_body, else_body, .. } => {
                collect_bound(then_body, out);
                collect_bound(else_body, out);
            }
            Exp::Loop { params, form, body } => {
                out.extend(params.iter().map(|(p, _)| p.name));
                if let LoopForm::For { i, .. } = form {
                    out.push(*i);
                }
                collect_bound(body, out);
            }
            Exp::Soac(soac) => match soac {
                ogham_ir::Soac::Screma { scans, reduces, map, .. } => {
                    lambda(map, out);
                    for op in scans.iter().chain(reduces) {
                        lambda(&op.lambda, out);
                    }
                }
                ogham_ir::Soac::Hist { ops, map, .. } => {
                    lambda(map, out);
                    for op in ops {
                        lambda(&op.op.lambda, out);
                    }
                }
                ogham_ir::Soac::Scatter { map, .. } | ogham_ir::Soac::WithAcc { map, .. } => lambda(map, out),
            },
            Exp::Ad { lambda: l, .. } => lambda(l, out),
            _ => {}
        }
    }
}
