//! Core IR to kernels: the loop of a `Screma` whose functions are scalar
//! code that cannot fail, with loops, rows and reductions inside
//! ([`scalar_loops`]).
//!
//! The kernel runs iterations `lo .. hi` of the SOAC: it reads row `j` of
//! each input (a load at `j * stride`, the element of a virtual `iota` or
//! `replicate` computed from `j`, or, for an input of higher rank, a view of
//! the row), runs the map function's statements, feeds the scans and
//! reductions, and stores the scans' and the map's results at
//! `j * stride` of the output arrays. Inside, an array is a view (a
//! pointer, an offset and strides): a row of an input, a free array, or a
//! row of either taken by an index; a reduction over views and iotas (a
//! `screma` without scans whose every result is reduced, k-means'
//! distance, a matrix row's dot product) is an inner loop with `mut`
//! accumulators; `for` and `while` loops over scalars are loops with `mut`
//! parameters. Everything the kernel reads or writes from outside is a
//! parameter, and [`Binding`] says what the caller passes for each, so
//! the caller (the C backend) decides only how to name the values of the
//! core IR, never what the loop does.
//!
//! A reduction or scan whose operator combines its values componentwise
//! with one [`reassociable`](crate::reassociable) operation each becomes
//! `accumulate` statements (a scan's followed by the stores of the running
//! values); any other operator is its function's statements followed by
//! `set`s of the accumulators, in order.
//!
//! Where the target has fused multiply–add instructions, a tiled nest's
//! float `+` reduction whose term is a product made only for the sum adds
//! that product unrounded ([`contract`]).
//!
//! A map over rows whose function is a matrix-product-shaped nest becomes
//! a tiled kernel instead ([`tile`]); the loop of a `hist` into scalar
//! buckets is a kernel too ([`hist`]), and so is the fold of a parallel
//! `hist`'s partial histograms into its destinations ([`merge`]), as is the loop of a `scatter`
//! ([`scatter`]), and so is a map or `withacc` whose
//! function makes and updates arrays in loops, with the memory planned
//! when it is lowered ([`arrays`]).
//!
//! Integer division: by a nonzero constant, anywhere; by a free variable
//! of the SOAC (the same in every iteration), only in the statements the
//! map function runs in every iteration (not in a branch or a loop). The
//! kernel cannot fail, so such a divisor comes with a [`Check`]: the
//! caller tests it before running the kernel, when the kernel runs any
//! iteration, and fails there as the division would have in the first
//! iteration (nothing else in the function can fail). Inside the kernel,
//! every division's divisor is therefore nonzero, which
//! [`passes::divide`](crate::passes::divide) relies on.

pub mod acc;
pub(crate) mod arrays;
pub mod hist;
pub mod merge;
pub mod scatter;
pub mod tile;

use ogham_ir::{
    Body, DimIndex, Exp as CExp, Lambda, LoopForm, Operator, PrimType, PrimValue, Soac, Span, Stm as CStm, SubExp,
    Type, VName,
};
use rustc_hash::FxHashMap as HashMap;

use crate::{reassociable, BinOp, Block, ConvOp, Exp, Kernel, Operand, ParamKind, Stm, Ty, Var};
use arrays::is_array;

/// What the caller passes for a kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The first iteration of the loop.
    Lo,
    /// One past the last iteration.
    Hi,
    /// A scalar variable of the core IR.
    Scalar(VName),
    /// A pointer to the first element of an array of the core IR.
    Data(VName),
    /// Stride `d` (in elements) of an array of the core IR.
    Stride(VName, usize),
    /// Accumulator `i`: the scans' first, then the reductions', in order.
    Acc(usize),
    /// A pointer to the first element of output `i` (scans' outputs, then the map's).
    Out(usize),
    /// Stride `d` of output `i`.
    OutStride(usize, usize),
    /// A pointer to the first bucket of a `hist`'s destination `i` (the
    /// destinations of every operator, in order), or to the first element
    /// of a `scatter`'s destination `i`.
    Dest(usize),
    /// Stride `d` of destination `i`.
    DestStride(usize, usize),
    /// Size of dimension `d` of a `scatter`'s destination `i`.
    DestShape(usize, usize),
    /// The number of buckets of operator `i`.
    Buckets(usize),
    /// A pointer to the first element of a `withacc`'s accumulator `i`.
    AccData(usize),
    /// Stride `d` of accumulator `i`.
    AccStride(usize, usize),
    /// A pointer to the first chunk's partial results of destination `i`
    /// ([`merge`]).
    Partial(usize),
    /// Stride `d` of the partial results of destination `i` (dimension 0:
    /// between chunks).
    PartialStride(usize, usize),
    /// The number of chunks whose partial results are merged.
    Chunks,
}

/// A test the caller makes before running a kernel, when it runs any
/// iteration: scalar parameter `param` (by position) is a divisor, and if
/// it is zero the program fails with "division by zero" at `span`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    pub param: usize,
    pub span: Span,
}

/// A lowered loop: the kernel, the binding of each of its parameters, in
/// order, and the checks to make before running it.
pub type Lowered = (Kernel, Vec<Binding>, Vec<Check>);

/// How the map function's parameter gets row `j`.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Element `j` of a one-dimensional array.
    Array(VName),
    /// `start + j * step`, of type `elem`: a `#[virtual]` `iota`.
    Iota { start: SubExp, step: SubExp, elem: PrimType },
    /// The same value in every row: a `#[virtual]` `replicate`.
    Replicate(SubExp),
}

/// A screma's loop, as the caller sees it.
pub struct ScremaLoop<'a> {
    /// One per parameter of `map`.
    pub inputs: &'a [Input],
    pub scans: &'a [Operator],
    pub reduces: &'a [Operator],
    pub map: &'a Lambda,
    /// The element type and rank of each output: the scans' results, then the map's.
    pub outs: &'a [(PrimType, usize)],
    /// The type of a variable of the core IR defined outside the SOAC.
    pub ty_of: &'a dyn Fn(VName) -> Option<Type>,
    /// What a free array is when it is `#[virtual]`, which the kernel
    /// computes elements of instead of loading them.
    pub virtual_of: &'a dyn Fn(VName) -> Option<Input>,
    /// The core IR's names, whose bases the kernel's variables keep.
    pub names: &'a ogham_ir::NameTable,
}

/// The kernel of a screma's loop; `None` when its map function is not a
/// [`kernel_function`] or its operators not [`straight_line`] over scalars.
pub fn screma_loop(s: &ScremaLoop) -> Option<Lowered> {
    let scalar_ops = s.scans.iter().chain(s.reduces).all(|op| {
        op.lambda.params.iter().all(|p| matches!(p.ty, Type::Prim(_)))
            && op.lambda.ret.iter().all(|t| matches!(t, Type::Prim(_)))
            && straight_line(&op.lambda.body)
    });
    if !s.map.ret.iter().all(|t| matches!(t, Type::Prim(_))) || !kernel_function(&s.map.body) || !scalar_ops {
        return arrays::screma_region(s);
    }
    if s.inputs.len() != s.map.params.len() {
        return None;
    }
    if s.outs.iter().any(|(_, rank)| *rank != 1) {
        return arrays::screma_region(s);
    }
    let mut l = Lowerer::new("screma", s);
    let lo = l.param("lo", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Lo);
    let hi = l.param("hi", Ty::Prim(PrimType::I64), ParamKind::Value, Binding::Hi);
    let ops: Vec<&Operator> = s.scans.iter().chain(s.reduces).collect();
    let mut accs: Vec<Vec<Var>> = Vec::new();
    let mut i = 0;
    for op in &ops {
        let mut v = Vec::new();
        for t in &op.lambda.ret {
            v.push(l.param("acc", Ty::Prim(t.elem()), ParamKind::InOut, Binding::Acc(i)));
            i += 1;
        }
        accs.push(v);
    }
    let outs = l.output_params();
    let j = l.k.fresh("j");
    let mut body = Vec::new();
    let results = l.map_function(j, &mut body)?;
    let n_scan: usize = s.scans.iter().map(|o| o.neutral.len()).sum();
    let n_acc: usize = ops.iter().map(|o| o.neutral.len()).sum();
    // The map's results first: they read no accumulator.
    for (m, r) in results[n_acc..].iter().enumerate() {
        let (ptr, stride) = *outs.get(n_scan + m)?;
        l.store(ptr, stride, j, *r, &mut body);
    }
    let mut pos = 0;
    for (oi, op) in ops.iter().enumerate() {
        let k = op.neutral.len();
        let news = &results[pos..pos + k];
        match componentwise(op) {
            Some(steps) => {
                for ((acc, (bop, t)), new) in accs[oi].iter().zip(steps).zip(news) {
                    body.push(Stm::Accumulate { var: *acc, op: bop, ty: t, value: *new, times: None });
                }
            }
            None => l.apply(op, &accs[oi], news, &mut body)?,
        }
        pos += k;
    }
    // The scans' running values, stored once every accumulator is updated
    // (so that the updates and the reads of several scans are two phases,
    // see `scan::scan_loop`).
    for (c, acc) in accs[..s.scans.len()].iter().flatten().enumerate() {
        let (ptr, stride) = outs[c];
        l.store(ptr, stride, j, Operand::Var(*acc), &mut body);
    }
    let for_loop =
        Stm::For { index: j, lo: Operand::Var(lo), hi: Operand::Var(hi), ivdep: false, body: Block { stms: body } };
    l.k.body.stms.push(for_loop);
    Some((l.k, l.bindings, l.checks))
}

/// Contracts one step of a reduction by a float `+` (the operator `op`)
/// into a fused multiply–add: where `stms[from..]` computes the step's term `x` as a product `a * b`
/// used only by the operator's addition `acc + x` (or `x + acc`), that
/// addition becomes `fma(a, b, acc)` and the product goes. The product is
/// then added unrounded: one rounding per step instead of two, which the
/// language allows for the operator of a `reduce` or `scan` as it allows
/// regrouping its terms (see `docs/language.md`), and what lets the step
/// run as one instruction (GMM's and k-means' inner loops are bound by
/// the multiplier and adder ports). The statements from the product to
/// the addition must all be `let`s, so that `a` and `b` keep their values.
pub(crate) fn contract(op: &Operator, stms: &mut Vec<Stm>, from: usize, x: Operand) {
    let Some([(BinOp::Add, PrimType::F32 | PrimType::F64)]) = componentwise(op).as_deref() else { return };
    let Operand::Var(x) = x else { return };
    let Some(m) = (from..stms.len()).find(|&i| matches!(&stms[i], Stm::Let { var, .. } if *var == x)) else {
        return;
    };
    let Stm::Let { ty, exp: Exp::Bin(BinOp::Mul, _, a, b), .. } = stms[m] else { return };
    if !matches!(ty, PrimType::F32 | PrimType::F64) {
        return;
    }
    let x_op = Operand::Var(x);
    // Whether a statement may read `x` (a compound one is assumed to).
    let reads_x =
        |s: &Stm| matches!(s, Stm::For { .. } | Stm::While { .. } | Stm::If { .. }) || s.operands().contains(&x_op);
    let rest = &stms[m + 1..];
    let Some(n) = rest.iter().position(|s| reads_x(s) || !matches!(s, Stm::Let { .. })) else { return };
    let Stm::Let { exp: Exp::Bin(BinOp::Add, t, p, q), .. } = rest[n] else { return };
    let acc = if p == x_op { q } else { p };
    if t != ty || acc == x_op || rest[n + 1..].iter().any(reads_x) {
        return;
    }
    let Stm::Let { exp, .. } = &mut stms[m + 1 + n] else { return };
    *exp = Exp::Tern(crate::TernOp::Fma, ty, a, b, acc);
    stms.remove(m);
}

/// Whether `body` may be a kernel's map function: [`scalar_loops`], but for
/// integer divisions by variables among the statements it runs in every
/// iteration (see the module documentation).
pub fn kernel_function(body: &Body) -> bool {
    body.stms.iter().all(|s| scalar_loop_stm(s) || variable_divisor(&s.exp).is_some())
}

/// The divisor of an integer division (`/`, `%`, `//`, `%%`) by a variable.
fn variable_divisor(exp: &CExp) -> Option<VName> {
    match exp {
        CExp::BinOp(BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem, t, _, SubExp::Var(d)) if t.is_int() => Some(*d),
        _ => None,
    }
}

/// Whether `exp` is an integer division by a nonzero constant, which cannot fail.
fn constant_divisor(exp: &CExp) -> bool {
    match exp {
        CExp::BinOp(BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem, t, _, SubExp::Const(c)) if t.is_int() => {
            *c != PrimValue::zero(*t)
        }
        _ => false,
    }
}

/// Whether `body` is scalar code that cannot fail, with `for` and `while`
/// loops over scalars whose bodies are such code too, rows of arrays taken
/// without bounds checks, and reductions (`screma`s without scans or
/// mapped results) whose functions are such code: what a kernel's map
/// function may be. (Whether the arrays are ones a kernel can address is
/// for the lowering to find.)
pub fn scalar_loops(body: &Body) -> bool {
    body.stms.iter().all(scalar_loop_stm)
}

fn scalar_loop_stm(s: &CStm) -> bool {
    match &s.exp {
        CExp::Index { slice, .. } if s.pat.iter().all(|p| matches!(p.ty, Type::Array { .. })) => {
            s.attrs.unsafe_ && slice.iter().all(|d| matches!(d, DimIndex::Fix(_)))
        }
        CExp::Soac(Soac::Screma { scans, reduces, map, .. }) => {
            scans.is_empty()
                && !s.attrs.sequential
                && s.pat.iter().all(|p| matches!(p.ty, Type::Prim(_)))
                && map.ret.len() == reduces.iter().map(|op| op.neutral.len()).sum::<usize>()
                && map.ret.iter().all(|t| matches!(t, Type::Prim(_)))
                && scalar_loops(&map.body)
                && reduces.iter().all(|op| {
                    op.lambda.ret.iter().all(|t| matches!(t, Type::Prim(_))) && straight_line(&op.lambda.body)
                })
        }
        CExp::Loop { params, body, .. } => {
            params.iter().all(|(p, _)| matches!(p.ty, Type::Prim(_)))
                && s.pat.len() == params.len()
                && scalar_loops(body)
        }
        CExp::If { then_body, else_body, .. } => {
            s.pat.iter().all(|p| matches!(p.ty, Type::Prim(_))) && scalar_loops(then_body) && scalar_loops(else_body)
        }
        _ => straight_line_stm(s),
    }
}

/// Whether `body` is scalar code that cannot fail (see [`straight_line_stm`]).
pub fn straight_line(body: &Body) -> bool {
    body.stms.iter().all(straight_line_stm)
}

/// Whether `stm` is scalar code that cannot fail: a scalar operation that
/// cannot fail (`ogham_ir::layout::scalar_cannot_fail`), a read of a scalar
/// that needs no bounds check, or a branch of such code.
pub fn straight_line_stm(s: &CStm) -> bool {
    s.pat.iter().all(|p| matches!(p.ty, Type::Prim(_)))
        && match &s.exp {
            CExp::Index { slice, .. } => s.attrs.unsafe_ && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))),
            CExp::If { then_body, else_body, .. } => straight_line(then_body) && straight_line(else_body),
            exp => ogham_ir::layout::scalar_cannot_fail(exp) || constant_divisor(exp),
        }
}

/// The operation of each component of an operator whose result `i` is
/// `x_i ⊕ y_i` (either operand order) computed by one statement, with ⊕
/// [`reassociable`](crate::reassociable).
pub fn componentwise(op: &Operator) -> Option<Vec<(BinOp, PrimType)>> {
    let params = &op.lambda.params;
    let k = op.neutral.len();
    let body = &op.lambda.body;
    if params.len() != 2 * k || body.result.len() != k || body.stms.len() != k {
        return None;
    }
    (0..k)
        .map(|i| {
            let SubExp::Var(r) = body.result[i] else { return None };
            let stm = body.stms.iter().find(|s| s.pat.len() == 1 && s.pat[0].name == r)?;
            let CExp::BinOp(bop, t, SubExp::Var(a), SubExp::Var(b)) = &stm.exp else { return None };
            let (x, y) = (params[i].name, params[k + i].name);
            let operands = (*a == x && *b == y) || (*a == y && *b == x);
            (operands && reassociable(*bop, *t)).then_some((*bop, *t))
        })
        .collect()
}

/// A result of the map function in a kernel: a scalar, or an array it
/// has a view of.
#[derive(Clone, Debug)]
pub(crate) enum MapResult {
    Scalar(Operand),
    Row(View),
}

/// An array inside a kernel: element `[i, j, …]` is at `ptr[offset + i *
/// strides[0] + j * strides[1] + …]`.
#[derive(Clone, Debug)]
pub(crate) struct View {
    ptr: Var,
    elem: PrimType,
    offset: Operand,
    strides: Vec<Operand>,
}

pub(crate) struct Lowerer<'a, 'b> {
    k: Kernel,
    bindings: Vec<Binding>,
    /// Each scalar variable of the core IR in scope: what it is in the kernel.
    env: HashMap<VName, Operand>,
    /// Each array variable of the core IR bound in the kernel: a view.
    views: HashMap<VName, View>,
    s: &'a ScremaLoop<'b>,
    /// Whether statements being lowered run in every iteration of the
    /// kernel's loop (the map function's, outside branches and loops).
    every_iteration: bool,
    checks: Vec<Check>,
    /// Buffers for arrays made inside the kernel ([`arrays`]).
    pub(crate) bufs: arrays::Buffers,
}

impl<'a, 'b> Lowerer<'a, 'b> {
    pub(crate) fn new(name: &str, s: &'a ScremaLoop<'b>) -> Self {
        Lowerer {
            k: Kernel::new(name),
            bindings: Vec::new(),
            env: HashMap::default(),
            views: HashMap::default(),
            s,
            every_iteration: false,
            checks: Vec::new(),
            bufs: arrays::Buffers::default(),
        }
    }

    /// Binds the map function's parameters to row `j` of the inputs and
    /// lowers its body (statements that run in every iteration); gives its
    /// results.
    pub(crate) fn map_function(&mut self, j: Var, body: &mut Vec<Stm>) -> Option<Vec<Operand>> {
        self.map_results(j, body)?
            .into_iter()
            .map(|r| match r {
                MapResult::Scalar(x) => Some(x),
                MapResult::Row(_) => None,
            })
            .collect()
    }

    /// The map function's results for row `j`, as [`Self::map_function`],
    /// where a result may also be an array the kernel has a view of (a row
    /// of an input).
    pub(crate) fn map_results(&mut self, j: Var, body: &mut Vec<Stm>) -> Option<Vec<MapResult>> {
        self.bind_rows(j, 0, body)?;
        self.every_iteration = true;
        let s = self.s;
        let lowered = s.map.body.stms.iter().try_for_each(|st| self.stm(st, body));
        self.every_iteration = false;
        lowered?;
        s.map
            .body
            .result
            .iter()
            .map(|r| match r {
                SubExp::Var(v) if self.views.contains_key(v) => Some(MapResult::Row(self.views[v].clone())),
                _ => self.operand(r).map(MapResult::Scalar),
            })
            .collect()
    }

    /// `lam` applied to `args`: its results.
    pub(crate) fn apply_lambda(&mut self, lam: &Lambda, args: &[Operand], out: &mut Vec<Stm>) -> Option<Vec<Operand>> {
        if lam.params.len() != args.len() {
            return None;
        }
        for (p, x) in lam.params.iter().zip(args) {
            self.env.insert(p.name, *x);
        }
        self.body(&lam.body, out)
    }

    /// Binds the map function's parameters from position `first` on to row
    /// `j` of the inputs (one per such parameter).
    pub(crate) fn bind_rows(&mut self, j: Var, first: usize, body: &mut Vec<Stm>) -> Option<()> {
        let s = self.s;
        let params = s.map.params.get(first..)?;
        if s.inputs.len() != params.len() {
            return None;
        }
        for (p, input) in params.iter().zip(s.inputs) {
            match (&p.ty, input) {
                (Type::Prim(t), _) => {
                    let x = self.row(input, j, *t, body)?;
                    self.env.insert(p.name, x);
                }
                (Type::Array { .. }, Input::Array(a)) => {
                    let view = self.view(*a)?;
                    let row = self.subview(&view, &[Operand::Var(j)], body)?;
                    self.views.insert(p.name, row);
                }
                _ => return None,
            }
        }
        Some(())
    }

    /// Lowers `body` as statements that may not run in every iteration.
    fn nested_body(&mut self, body: &Body, out: &mut Vec<Stm>) -> Option<Vec<Operand>> {
        let every = std::mem::replace(&mut self.every_iteration, false);
        let results = self.body(body, out);
        self.every_iteration = every;
        results
    }

    /// A division by variable `d` of the core IR: allowed when it runs in
    /// every iteration and `d` is a scalar parameter, with a check.
    fn check_divisor(&mut self, s: &CStm, d: VName) -> Option<()> {
        let Some(Operand::Var(v)) = self.operand(&SubExp::Var(d)) else { return None };
        let param = self.k.params.iter().position(|p| p.var == v)?;
        if !self.every_iteration || self.bindings[param] != Binding::Scalar(d) {
            return None;
        }
        if !self.checks.iter().any(|c| c.param == param) {
            self.checks.push(Check { param, span: s.span });
        }
        Some(())
    }
    /// A pointer and a stride parameter for each output of the loop.
    pub(crate) fn output_params(&mut self) -> Vec<(Var, Var)> {
        let s = self.s;
        let mut outs = Vec::new();
        for (o, (t, _)) in s.outs.iter().enumerate() {
            let p = self.param("out", Ty::Ptr(*t), ParamKind::Write, Binding::Out(o));
            let st = self.param("out_stride", Ty::Prim(PrimType::I64), ParamKind::Stride, Binding::OutStride(o, 0));
            outs.push((p, st));
        }
        outs
    }

    pub(crate) fn param(&mut self, base: &str, ty: Ty, kind: ParamKind, b: Binding) -> Var {
        if let Some(i) = self.bindings.iter().position(|x| *x == b) {
            return self.k.params[i].var;
        }
        self.bindings.push(b);
        self.k.param(base, ty, kind)
    }

    /// The base name of a core IR variable, as an identifier of the text form.
    pub(crate) fn base(&self, v: VName) -> String {
        let b: String = self.s.names.base(v).chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if b.is_empty() || b.starts_with(|c: char| c.is_ascii_digit()) {
            format!("v{b}")
        } else {
            b
        }
    }

    pub(crate) fn let_(&mut self, base: &str, ty: PrimType, exp: Exp, out: &mut Vec<Stm>) -> Operand {
        let var = self.k.fresh(base);
        out.push(Stm::Let { var, ty, exp });
        Operand::Var(var)
    }

    /// A variable or constant of the core IR; a variable not bound inside
    /// the SOAC is a scalar parameter.
    pub(crate) fn operand(&mut self, se: &SubExp) -> Option<Operand> {
        match se {
            SubExp::Const(c) => Some(Operand::Const(*c)),
            SubExp::Var(v) => {
                if let Some(o) = self.env.get(v) {
                    return Some(*o);
                }
                let Type::Prim(t) = (self.s.ty_of)(*v)? else { return None };
                let base = self.base(*v);
                Some(Operand::Var(self.param(&base, Ty::Prim(t), ParamKind::Value, Binding::Scalar(*v))))
            }
        }
    }

    /// `j * stride`, or the other operand when one is the constant 1.
    pub(crate) fn scaled(&mut self, j: Operand, stride: Operand, out: &mut Vec<Stm>) -> Operand {
        let one = Operand::Const(PrimValue::I64(1));
        if stride == one {
            return j;
        }
        if j == one {
            return stride;
        }
        self.let_("o", PrimType::I64, Exp::Bin(BinOp::Mul, PrimType::I64, j, stride), out)
    }

    /// `a + b` on offsets, or the other operand when one is the constant 0.
    pub(crate) fn offset_add(&mut self, a: Operand, b: Operand, out: &mut Vec<Stm>) -> Operand {
        let zero = Operand::Const(PrimValue::I64(0));
        if a == zero {
            return b;
        }
        if b == zero {
            return a;
        }
        self.let_("o", PrimType::I64, Exp::Bin(BinOp::Add, PrimType::I64, a, b), out)
    }

    /// Stores `value` at element `j` of an output; returns the offset.
    pub(crate) fn store(&mut self, ptr: Var, stride: Var, j: Var, value: Operand, out: &mut Vec<Stm>) -> Operand {
        let index = self.scaled(Operand::Var(j), Operand::Var(stride), out);
        out.push(Stm::Store { ptr, index, value });
        index
    }

    /// The value of an input's row `j`, of type `elem`.
    pub(crate) fn row(&mut self, input: &Input, j: Var, elem: PrimType, out: &mut Vec<Stm>) -> Option<Operand> {
        match input {
            Input::Array(a) => {
                let view = self.view(*a)?;
                let at = self.subview(&view, &[Operand::Var(j)], out)?;
                if !at.strides.is_empty() || at.elem != elem {
                    return None;
                }
                Some(self.let_("x", elem, Exp::Load(at.ptr, at.offset), out))
            }
            Input::Iota { start, step, elem: t } => {
                let mut x = if *t == PrimType::I64 {
                    Operand::Var(j)
                } else {
                    self.let_("x", *t, Exp::Conv(ConvOp::Convert, PrimType::I64, *t, Operand::Var(j)), out)
                };
                let step = self.operand(step)?;
                if step != Operand::Const(PrimValue::from_i64(*t, 1)) {
                    x = self.let_("x", *t, Exp::Bin(BinOp::Mul, *t, x, step), out);
                }
                let start = self.operand(start)?;
                if start != Operand::Const(PrimValue::zero(*t)) {
                    x = self.let_("x", *t, Exp::Bin(BinOp::Add, *t, start, x), out);
                }
                Some(x)
            }
            Input::Replicate(v) => self.operand(v),
        }
    }

    /// Lowers a body's statements into `out` and gives its results.
    pub(crate) fn body(&mut self, body: &Body, out: &mut Vec<Stm>) -> Option<Vec<Operand>> {
        for s in &body.stms {
            self.stm(s, out)?;
        }
        body.result.iter().map(|r| self.operand(r)).collect()
    }

    fn stm(&mut self, s: &CStm, out: &mut Vec<Stm>) -> Option<()> {
        if let Some(done) = self.array_stm(s, out) {
            return done;
        }
        if let CExp::Loop { params, form, body } = &s.exp {
            return self.loop_(s, params, form, body, out);
        }
        if let CExp::Soac(Soac::Screma { w, arrs, scans, reduces, map }) = &s.exp {
            if !scans.is_empty() {
                return None;
            }
            return self.reduction(s, w, arrs, reduces, map, out);
        }
        if let (CExp::Index { array, slice }, [p]) = (&s.exp, s.pat.as_slice()) {
            if matches!(p.ty, Type::Array { .. }) && s.attrs.unsafe_ {
                let idxs = self.fixed(slice)?;
                let view = self.view(*array)?;
                let row = self.subview(&view, &idxs, out)?;
                self.views.insert(p.name, row);
                return Some(());
            }
        }
        if let CExp::If { cond, then_body, else_body } = &s.exp {
            if s.pat.iter().any(|p| is_array(&p.ty)) {
                return None;
            }
            let cond = self.operand(cond)?;
            let vars: Vec<Var> = s
                .pat
                .iter()
                .map(|p| {
                    let base = self.base(p.name);
                    let var = self.k.fresh(&base);
                    let t = p.ty.elem();
                    out.push(Stm::Mut { var, ty: t, init: Operand::Const(PrimValue::zero(t)) });
                    var
                })
                .collect();
            let mut blocks = Vec::new();
            for b in [then_body, else_body] {
                let mut stms = Vec::new();
                let results = self.nested_body(b, &mut stms)?;
                for (v, r) in vars.iter().zip(results) {
                    stms.push(Stm::Set { var: *v, exp: Exp::Operand(r) });
                }
                blocks.push(Block { stms });
            }
            let else_block = blocks.pop()?;
            let then_block = blocks.pop()?;
            out.push(Stm::If { cond, then_block, else_block });
            for (p, v) in s.pat.iter().zip(vars) {
                self.env.insert(p.name, Operand::Var(v));
            }
            return Some(());
        }
        let [p] = s.pat.as_slice() else { return None };
        let t = p.ty.elem();
        let exp = match &s.exp {
            CExp::SubExp(se) => {
                let o = self.operand(se)?;
                self.env.insert(p.name, o);
                return Some(());
            }
            CExp::BinOp(op, t, a, b) => {
                if let Some(d) = variable_divisor(&s.exp) {
                    self.check_divisor(s, d)?;
                } else if !ogham_ir::layout::scalar_cannot_fail(&s.exp) && !constant_divisor(&s.exp) {
                    return None;
                }
                Exp::Bin(*op, *t, self.operand(a)?, self.operand(b)?)
            }
            CExp::CmpOp(op, t, a, b) => Exp::Cmp(*op, *t, self.operand(a)?, self.operand(b)?),
            CExp::UnOp(op, t, a) => Exp::Un(*op, *t, self.operand(a)?),
            CExp::TernOp(op, t, a, b, c) => Exp::Tern(*op, *t, self.operand(a)?, self.operand(b)?, self.operand(c)?),
            CExp::Conv(op, from, to, a) => Exp::Conv(*op, *from, *to, self.operand(a)?),
            CExp::Index { array, slice } if s.attrs.unsafe_ => {
                let idxs = self.fixed(slice)?;
                self.element(*array, &idxs, t, out)?
            }
            _ => return None,
        };
        let base = self.base(p.name);
        let o = self.let_(&base, t, exp, out);
        self.env.insert(p.name, o);
        Some(())
    }

    /// A `for` or `while` loop over scalars: its parameters are `mut`
    /// variables, assigned the body's results at the end of each iteration
    /// (all read before any is assigned), and they are its results.
    fn loop_(
        &mut self,
        s: &CStm,
        params: &[(ogham_ir::Param, SubExp)],
        form: &LoopForm,
        body: &Body,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        // Scalar parameters are `mut` variables; array parameters views
        // of memory the loop updates (see `arrays`).
        let mut vars = Vec::new();
        let mut arrays = Vec::new();
        self.record(&s.pat);
        for (p, init) in params {
            self.record(std::slice::from_ref(p));
            if is_array(&p.ty) {
                let view = self.loop_array_param(p, init, out)?;
                self.views.insert(p.name, view.clone());
                arrays.push((view, p.ty.clone()));
                continue;
            }
            let init = self.operand(init)?;
            let base = self.base(p.name);
            let var = self.k.fresh(&base);
            out.push(Stm::Mut { var, ty: p.ty.elem(), init });
            self.env.insert(p.name, Operand::Var(var));
            vars.push((var, p.ty.elem()));
        }
        let mut stms = Vec::new();
        let index = match form {
            LoopForm::For { i, .. } => {
                let base = self.base(*i);
                let index = self.k.fresh(&base);
                self.env.insert(*i, Operand::Var(index));
                Some(index)
            }
            LoopForm::While { .. } => None,
        };
        let bound = match (form, index) {
            (LoopForm::For { bound, .. }, Some(index)) => Some((index, self.operand(bound)?)),
            _ => None,
        };
        let results = match bound {
            Some((index, n)) => self.with_bound(index, n, |l| l.nested_results(body, &mut stms))?,
            None => self.nested_results(body, &mut stms)?,
        };
        let (scalar_results, array_results): (Vec<_>, Vec<_>) =
            params.iter().zip(results).partition(|((p, _), _)| !is_array(&p.ty));
        let array_results: Vec<MapResult> = array_results.into_iter().map(|(_, r)| r).collect();
        let mut copies = Vec::new();
        for ((_, r), (_, t)) in scalar_results.iter().zip(&vars) {
            let MapResult::Scalar(r) = r else { return None };
            copies.push(self.let_("next", *t, Exp::Operand(*r), &mut stms));
        }
        self.loop_array_results(&arrays, &array_results, &mut stms)?;
        for ((var, _), c) in vars.iter().zip(copies) {
            stms.push(Stm::Set { var: *var, exp: Exp::Operand(c) });
        }
        let body = Block { stms };
        out.push(match (form, index) {
            (LoopForm::For { bound, .. }, Some(index)) => {
                let hi = self.operand(bound)?;
                Stm::For { index, lo: Operand::Const(PrimValue::I64(0)), hi, ivdep: false, body }
            }
            (LoopForm::While { cond }, _) => {
                let Some(Operand::Var(cond)) = self.env.get(cond).copied() else { return None };
                if !vars.iter().any(|(v, _)| *v == cond) {
                    return None;
                }
                Stm::While { cond, body }
            }
            _ => return None,
        });
        let (scalar_pats, array_pats): (Vec<_>, Vec<_>) = s.pat.iter().partition(|p| !is_array(&p.ty));
        for (r, (var, _)) in scalar_pats.into_iter().zip(vars) {
            self.env.insert(r.name, Operand::Var(var));
        }
        for (r, (view, _)) in array_pats.into_iter().zip(arrays) {
            self.views.insert(r.name, view);
        }
        Some(())
    }

    /// The indices of a slice that fixes every dimension it names.
    fn fixed(&mut self, slice: &[DimIndex]) -> Option<Vec<Operand>> {
        slice
            .iter()
            .map(|d| match d {
                DimIndex::Fix(i) => self.operand(i),
                DimIndex::Slice { .. } => None,
            })
            .collect()
    }

    /// Element `idxs` of a free array: a load at `Σ i_d * stride_d` (the
    /// last stride a [`ParamKind::Stride`]), or the element of a virtual one.
    fn element(&mut self, array: VName, idxs: &[Operand], t: PrimType, out: &mut Vec<Stm>) -> Option<Exp> {
        if let Some(v) = self.virtual_input(array) {
            let [i] = idxs else { return None };
            let x = match v {
                Input::Iota { start, step, elem } => {
                    let j = self.k.fresh("i");
                    out.push(Stm::Let { var: j, ty: PrimType::I64, exp: Exp::Operand(*i) });
                    self.row(&Input::Iota { start, step, elem }, j, elem, out)?
                }
                Input::Replicate(value) => self.operand(&value)?,
                Input::Array(_) => return None,
            };
            return Some(Exp::Operand(x));
        }
        let view = self.view(array)?;
        if view.strides.len() != idxs.len() || view.elem != t {
            return None;
        }
        let at = self.subview(&view, idxs, out)?;
        Some(Exp::Load(at.ptr, at.offset))
    }

    /// The view of an array: one bound in the kernel, or a free array (its
    /// data pointer and strides become parameters, the last a
    /// [`ParamKind::Stride`]). A virtual array has none.
    fn view(&mut self, array: VName) -> Option<View> {
        if let Some(v) = self.views.get(&array) {
            return Some(v.clone());
        }
        if self.virtual_input(array).is_some() {
            return None;
        }
        let Type::Array { shape, elem } = (self.s.ty_of)(array)? else { return None };
        let base = self.base(array);
        let ptr = self.param(&base, Ty::Ptr(elem), ParamKind::Read, Binding::Data(array));
        let strides = (0..shape.len())
            .map(|d| {
                let kind = if d + 1 == shape.len() { ParamKind::Stride } else { ParamKind::Value };
                let b = Binding::Stride(array, d);
                Operand::Var(self.param(&format!("{base}_stride"), Ty::Prim(PrimType::I64), kind, b))
            })
            .collect();
        Some(View { ptr, elem, offset: Operand::Const(PrimValue::I64(0)), strides })
    }

    /// The view of `view` with its first dimensions fixed at `idxs` (a
    /// scalar's place when all are).
    fn subview(&mut self, view: &View, idxs: &[Operand], out: &mut Vec<Stm>) -> Option<View> {
        if idxs.len() > view.strides.len() {
            return None;
        }
        let mut offset = view.offset;
        for (i, stride) in idxs.iter().zip(&view.strides) {
            let term = self.scaled(*i, *stride, out);
            offset = self.offset_add(offset, term, out);
        }
        Some(View { ptr: view.ptr, elem: view.elem, offset, strides: view.strides[idxs.len()..].to_vec() })
    }

    /// A reduction inside the kernel (`screma` without scans, every result
    /// of its function reduced): a loop over its width with `mut`
    /// accumulators, whose final values are its results.
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &mut self,
        s: &CStm,
        w: &SubExp,
        arrs: &[VName],
        reduces: &[Operator],
        map: &Lambda,
        out: &mut Vec<Stm>,
    ) -> Option<()> {
        let w = self.operand(w)?;
        let n_red: usize = reduces.iter().map(|op| op.neutral.len()).sum();
        // The mapped results (after the reductions') go to buffers (see `arrays`).
        let bufs = self.mapped_buffers(s.pat.get(n_red..)?, w)?;
        let mut accs: Vec<Vec<Var>> = Vec::new();
        for op in reduces {
            let mut v = Vec::new();
            for (n, t) in op.neutral.iter().zip(&op.lambda.ret) {
                let init = self.operand(n)?;
                let var = self.k.fresh("acc");
                out.push(Stm::Mut { var, ty: t.elem(), init });
                v.push(var);
            }
            accs.push(v);
        }
        let i = self.k.fresh("i");
        let mut body = Vec::new();
        self.rows(&map.params, arrs, i, &mut body)?;
        let all = self.with_bound(i, w, |l| l.nested_results(&map.body, &mut body))?;
        let results: Vec<Operand> = all[..n_red]
            .iter()
            .map(|r| match r {
                MapResult::Scalar(x) => Some(*x),
                MapResult::Row(_) => None,
            })
            .collect::<Option<_>>()?;
        let mut pos = 0;
        for (op, acc) in reduces.iter().zip(&accs) {
            let news = results.get(pos..pos + acc.len())?;
            match componentwise(op) {
                Some(steps) => {
                    for ((a, (bop, t)), new) in acc.iter().zip(steps).zip(news) {
                        body.push(Stm::Accumulate { var: *a, op: bop, ty: t, value: *new, times: None });
                    }
                }
                None => self.apply(op, acc, news, &mut body)?,
            }
            pos += acc.len();
        }
        for ((r, buf), t) in all.get(n_red..)?.iter().zip(&bufs).zip(map.ret.get(n_red..)?) {
            self.store_row(buf, i, r, t, &mut body)?;
        }
        out.push(Stm::For {
            index: i,
            lo: Operand::Const(PrimValue::I64(0)),
            hi: w,
            ivdep: false,
            body: Block { stms: body },
        });
        for (p, a) in s.pat.iter().zip(accs.iter().flatten()) {
            self.env.insert(p.name, Operand::Var(*a));
        }
        for (p, buf) in s.pat[n_red..].iter().zip(bufs) {
            self.views.insert(p.name, buf);
        }
        Some(())
    }

    /// `op(olds, news)`, by the operator's own statements.
    pub(crate) fn apply_values(
        &mut self,
        op: &Operator,
        olds: &[Operand],
        news: &[Operand],
        out: &mut Vec<Stm>,
    ) -> Option<Vec<Operand>> {
        let k = olds.len();
        for (i, p) in op.lambda.params.iter().enumerate() {
            let x = if i < k { olds[i] } else { *news.get(i - k)? };
            self.env.insert(p.name, x);
        }
        self.body(&op.lambda.body, out)
    }

    /// `accs := op(accs, news)` by the operator's own statements.
    pub(crate) fn apply(&mut self, op: &Operator, accs: &[Var], news: &[Operand], out: &mut Vec<Stm>) -> Option<()> {
        let olds: Vec<Operand> = accs.iter().map(|a| Operand::Var(*a)).collect();
        let results = self.apply_values(op, &olds, news, out)?;
        // Every result is read before any accumulator is assigned.
        let mut copies = Vec::new();
        for (r, t) in results.iter().zip(&op.lambda.ret) {
            copies.push(self.let_("new", t.elem(), Exp::Operand(*r), out));
        }
        for (acc, c) in accs.iter().zip(copies) {
            out.push(Stm::Set { var: *acc, exp: Exp::Operand(c) });
        }
        Some(())
    }
}
