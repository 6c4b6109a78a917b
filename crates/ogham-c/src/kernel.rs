//! Imperative kernels (`ogham-imp`) printed as C.
//!
//! A kernel becomes one C function ([`function`]), run where its SOAC
//! runs by a call ([`call`]) that binds each parameter to a C expression
//! of the caller: pointers `restrict`, `const` when only read, the
//! statements one C statement each, and the final values of `inout`
//! parameters written back. A kernel whose loop runs in parallel chunks
//! is started as a job of the runtime ([`launch`]): a struct holds its
//! arguments, and one task per kernel ([`launch_task`]) runs it on each
//! chunk, as its `lo .. hi`. Nothing is decided here: the
//! loop structure, the versioning and the vector lanes are the kernel's,
//! made by `ogham-imp`'s passes; this module only spells them in C, with
//! what the C compiler needs to be told: `ivdep`, OpenMP's `inscan` for
//! the loops `ogham_imp::scan` splits, `OG_SHORT_VECTOR` where GCC
//! would unroll a vector's loop before vectorising it and then vectorise
//! across the wrong dimension (inside a short loop of constant length, or
//! when the loop updates several local arrays, as `jam`'s rows' lanes do),
//! and `OG_UNROLL_FILL` where it would make a fill of a local array of
//! more than 16 elements (a register tile's accumulators) a `memset`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt::Write;

use ogham_imp::scan::ScanLoop;
use ogham_imp::{BinOp, Block, Exp, Kernel, Operand, ParamKind, PrimType, Stm, TernOp, Ty, Var};

use crate::scalar::{binop, cmpop, conv, ctype, literal, ternop, unop, Res};

/// The C type of a kernel's scalar: `og_bool` for booleans, as elsewhere
/// in the generated code.
fn scalar_type(t: PrimType) -> &'static str {
    if t == PrimType::Bool {
        "og_bool"
    } else {
        ctype(t)
    }
}

/// Prints kernel `k` as the C function `fname`, a definition at file
/// scope, its variables named `{fname}_{n}`: the parameters are the
/// function's (pointers `restrict`, `const` when only read; an `inout`
/// scalar a pointer to the caller's value, copied in on entry and out on
/// return), and it returns 1 when an `alloc` finds no memory (after
/// freeing the kernel's own allocations), else 0. [`call`] runs it.
///
/// A kernel is a function of its own, never inlined, so that the C
/// compiler optimises it apart from the function that runs it: compile
/// time grows faster than the size of a function, and GMM's gradient,
/// whose kernels sat in one function, took GCC 20 s (see
/// `benchmarks/README.md`).
pub(crate) fn function(k: &Kernel, fname: &str, out: &mut String) -> Res<()> {
    let mut p = Printer {
        indent: 1,
        out,
        uses: k.body.uses(),
        types: HashMap::default(),
        oom: "return 1;",
        live: Vec::new(),
        in_constant_loop: false,
        kernel: k,
        renamed: HashMap::default(),
        arrays: Default::default(),
        names: (0..k.names.len()).map(|i| format!("{fname}_{i}")).collect(),
    };
    let mut params = Vec::new();
    let mut shared = HashSet::default();
    atomic_targets(&k.body, &mut shared);
    for param in &k.params {
        let name = p.name(param.var);
        params.push(match (param.ty, param.kind) {
            (Ty::Ptr(t), ParamKind::Read) => format!("const {} *restrict {name}", ctype(t)),
            (Ty::Ptr(t), _) if shared.contains(&param.var) => format!("{} *{name}", ctype(t)),
            (Ty::Ptr(t), _) => format!("{} *restrict {name}", ctype(t)),
            // `og_bool` is the kernel's own type (declared in its body).
            (Ty::Prim(t), ParamKind::InOut) => format!("{} *restrict {name}_io", ctype(t)),
            (Ty::Prim(t), _) => format!("{} {name}", ctype(t)),
        });
    }
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let _ = writeln!(p.out, "static OG_NOINLINE OG_KERNEL_ATTRS int {fname}({params}) {{");
    // The vector registers' upper halves cleared on entry and on return
    // (see `OG_CLEAN_UPPER` in the runtime).
    p.line("OG_CLEAN_UPPER();");
    if has_bools(k) {
        p.line("typedef int32_t og_bool;");
    }
    for param in &k.params {
        let name = p.name(param.var).to_string();
        if let Ty::Prim(t) = param.ty {
            p.types.insert(param.var, t);
            if param.kind == ParamKind::InOut {
                p.line(&format!("{} {name} = *{name}_io;", scalar_type(t)));
            }
        }
        if !p.uses.contains_key(&param.var) {
            p.line(&format!("(void){name};"));
        }
    }
    p.block(&k.body)?;
    for param in &k.params {
        if param.kind == ParamKind::InOut {
            let name = p.name(param.var);
            p.line(&format!("*{name}_io = {name};"));
        }
    }
    p.line("OG_CLEAN_UPPER();");
    p.line("return 0;");
    p.out.push_str("}\n");
    Ok(())
}

/// Prints, as definitions at file scope, what runs kernel `k` (the C
/// function `fname`, [`function`]) as a parallel job of the runtime: the
/// struct `og_args_{fname}` holding the context, the location to fail at
/// when the kernel runs out of memory, and the value of every parameter
/// but the two at positions `lo` and `hi`, and the task
/// `og_launch_{fname}`, which runs the kernel on its chunk `start .. end`
/// (as those two parameters) with the other values from the struct.
/// An `inout` parameter (a reduction's accumulator) starts in every chunk
/// from the struct's value, and its final value goes to element `chunk`
/// of the array the struct points to beside it (`r{i}`): the chunks'
/// partial results. [`launch`] fills the struct and starts the job.
pub(crate) fn launch_task(k: &Kernel, fname: &str, (lo, hi): (usize, usize), out: &mut String) -> Res<()> {
    let _ = writeln!(out, "struct og_args_{fname} {{\n  og_ctx *ctx;\n  const char *loc;");
    let mut args = Vec::new();
    let mut locals = String::new();
    let mut results = String::new();
    for (i, param) in k.params.iter().enumerate() {
        if i == lo || i == hi {
            args.push(if i == lo { "start".to_string() } else { "end".to_string() });
            continue;
        }
        let field = match (param.ty, param.kind) {
            (Ty::Prim(t), ParamKind::InOut) => {
                let t = ctype(t);
                let _ = writeln!(locals, "  {t} v{i} = a->p{i};");
                let _ = writeln!(results, "  a->r{i}[chunk] = v{i};");
                args.push(format!("&v{i}"));
                let _ = writeln!(out, "  {t} p{i};\n  {t} *r{i};");
                continue;
            }
            (Ty::Ptr(t), ParamKind::Read) => format!("const {} *p{i}", ctype(t)),
            (Ty::Ptr(t), _) => format!("{} *p{i}", ctype(t)),
            (Ty::Prim(t), _) => format!("{} p{i}", ctype(t)),
        };
        let _ = writeln!(out, "  {field};");
        args.push(format!("a->p{i}"));
    }
    let _ = writeln!(out, "}};");
    let _ = writeln!(out, "static int og_launch_{fname}(void *closure, int64_t start, int64_t end, int64_t chunk) {{");
    let _ = writeln!(out, "  struct og_args_{fname} *a = closure;\n  (void)chunk;");
    out.push_str(&locals);
    let _ = writeln!(out, "  if ({fname}({})) return og_fail(a->ctx, a->loc, \"Out of memory.\");", args.join(", "));
    out.push_str(&results);
    let _ = writeln!(out, "  return 0;\n}}");
    Ok(())
}

/// Prints, at `indent`, the start of a parallel job running kernel `k`
/// (the C function `fname`, its task made by [`launch_task`]) over
/// iterations `0 .. n` in `nchunks` chunks: the struct of its arguments
/// (`args[i]` the C expression of parameter `i`, for an `inout` one its
/// initial value in every chunk, with `results[i]` the array of the
/// chunks' final values; those of the chunk's bounds are not used), a
/// local variable named `cl`, and `loc`, the location of the SOAC as a C
/// string. Returns the C expression that runs the job, non-zero when it
/// failed.
pub(crate) fn launch(
    k: &Kernel,
    fname: &str,
    (args, results, loc, cl): (&[String], &[Option<String>], &str, &str),
    (n, nchunks): (&str, &str),
    (lo, hi, indent): (usize, usize, usize),
    out: &mut String,
) -> Res<String> {
    if args.len() != k.params.len() || results.len() != k.params.len() {
        return Err(format!("C backend: kernel {} has {} parameters, given {}", k.name, k.params.len(), args.len()));
    }
    let pad = "  ".repeat(indent);
    let _ = writeln!(out, "{pad}struct og_args_{fname} {cl};");
    let _ = writeln!(out, "{pad}{cl}.ctx = ctx;");
    let _ = writeln!(out, "{pad}{cl}.loc = {loc};");
    for (i, (arg, param)) in args.iter().zip(&k.params).enumerate() {
        if i != lo && i != hi {
            let _ = writeln!(out, "{pad}{cl}.p{i} = {arg};");
        }
        if param.kind == ParamKind::InOut {
            let r = results[i].as_ref().ok_or_else(|| format!("C backend: kernel {}: no partial results", k.name))?;
            let _ = writeln!(out, "{pad}{cl}.r{i} = {r};");
        }
    }
    Ok(format!("og_parallel(ctx, og_launch_{fname}, &{cl}, {n}, {nchunks})"))
}

/// Prints, at `indent`, a call of kernel `k` as the C function `fname`
/// ([`function`]), parameter `i` bound to the C expression `args[i]` (an
/// lvalue for `inout` parameters, passed through a local copy of the
/// kernel's type); `oom` is the C statement that fails the enclosing
/// function when the kernel runs out of memory.
pub(crate) fn call(
    k: &Kernel,
    fname: &str,
    args: &[String],
    (indent, oom): (usize, &str),
    out: &mut String,
) -> Res<()> {
    if args.len() != k.params.len() {
        return Err(format!("C backend: kernel {} has {} parameters, given {}", k.name, k.params.len(), args.len()));
    }
    let pad = "  ".repeat(indent);
    let _ = writeln!(out, "{pad}{{");
    let mut passed = Vec::new();
    let mut copies = Vec::new();
    for (i, (param, arg)) in k.params.iter().zip(args).enumerate() {
        match (param.ty, param.kind) {
            (Ty::Prim(t), ParamKind::InOut) => {
                let _ = writeln!(out, "{pad}  {} {fname}_a{i} = {arg};", ctype(t));
                passed.push(format!("&{fname}_a{i}"));
                copies.push(format!("{pad}  {arg} = {fname}_a{i};"));
            }
            _ => passed.push(arg.clone()),
        }
    }
    let _ = writeln!(out, "{pad}  if ({fname}({})) {oom}", passed.join(", "));
    for c in copies {
        let _ = writeln!(out, "{c}");
    }
    let _ = writeln!(out, "{pad}}}");
    Ok(())
}

/// Whether a kernel has a boolean scalar (and so uses `og_bool`).
fn has_bools(k: &Kernel) -> bool {
    fn block(b: &Block) -> bool {
        b.stms.iter().any(|s| match s {
            Stm::Let { ty, .. } | Stm::Mut { ty, .. } => *ty == PrimType::Bool,
            Stm::Array { elem, .. } => *elem == PrimType::Bool,
            Stm::For { body, .. } | Stm::While { body, .. } | Stm::Atomic { body, .. } => block(body),
            Stm::If { then_block, else_block, .. } => block(then_block) || block(else_block),
            _ => false,
        })
    }
    k.params.iter().any(|p| p.ty == Ty::Prim(PrimType::Bool)) || block(&k.body)
}

/// The pointers a kernel updates with `atomic`: not `restrict`, since
/// other threads update their elements at the same time.
fn atomic_targets(b: &Block, out: &mut HashSet<Var>) {
    for s in &b.stms {
        match s {
            Stm::Atomic { ptr, .. } => {
                out.insert(*ptr);
            }
            Stm::For { body, .. } | Stm::While { body, .. } => atomic_targets(body, out),
            Stm::If { then_block, else_block, .. } => {
                atomic_targets(then_block, out);
                atomic_targets(else_block, out);
            }
            _ => {}
        }
    }
}

struct Printer<'a> {
    indent: usize,
    out: &'a mut String,
    uses: HashMap<Var, usize>,
    /// The type of each scalar declared so far.
    types: HashMap<Var, PrimType>,
    oom: &'a str,
    /// The `alloc`s not freed yet, in order.
    live: Vec<Var>,
    /// Printing the body of a loop whose bounds are constants.
    in_constant_loop: bool,
    kernel: &'a Kernel,
    /// C expressions that stand for variables (a scan's accumulators, in
    /// its loop's scan phase).
    renamed: HashMap<Var, String>,
    /// The local arrays declared so far (vector lanes, register tiles).
    arrays: HashSet<Var>,
    /// The C name of every variable, by number (`PREFIX_N`), made once:
    /// printing a kernel names each variable several times.
    names: Vec<String>,
}

impl Printer<'_> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn name(&self, v: Var) -> &str {
        match self.renamed.get(&v) {
            Some(e) => e,
            None => &self.names[v.0 as usize],
        }
    }

    fn operand(&self, o: &Operand) -> String {
        match o {
            Operand::Var(v) => self.name(*v).to_string(),
            Operand::Const(c) => literal(*c),
        }
    }

    fn operand_type(&self, o: &Operand) -> Option<PrimType> {
        match o {
            Operand::Const(c) => Some(c.prim_type()),
            Operand::Var(v) => self.types.get(v).copied(),
        }
    }

    fn exp(&self, e: &Exp) -> Res<String> {
        let o = |x: &Operand| self.operand(x);
        Ok(match e {
            Exp::Operand(a) => o(a),
            // A quotient by a positive constant is C's `/` (the lanes' block
            // counts): no division by zero or overflow to guard against.
            Exp::Bin(BinOp::Quot, t, a, b @ Operand::Const(c)) if t.is_int() && c.as_i64() > 0 => {
                format!("(({}) / {})", o(a), o(b))
            }
            Exp::Bin(op, t, a, b) => binop(*op, *t, &o(a), &o(b))?,
            Exp::Cmp(op, t, a, b) => cmpop(*op, *t, &o(a), &o(b)),
            Exp::Un(op, t, a) => unop(*op, *t, &o(a))?,
            Exp::Tern(op, t, a, b, c) => ternop(*op, *t, &o(a), &o(b), &o(c))?,
            Exp::Conv(op, from, to, a) => conv(*op, *from, *to, &o(a))?,
            // Between booleans (0 or 1), bitwise: GCC turns a conditional
            // between truth values into branches.
            Exp::Select(c, a, b) if self.operand_type(a) == Some(PrimType::Bool) => {
                format!("((({c}) & ({a})) | ((({c}) ^ 1) & ({b})))", c = o(c), a = o(a), b = o(b))
            }
            Exp::Select(c, a, b) => format!("({} ? {} : {})", o(c), o(a), o(b)),
            Exp::Load(p, i) => format!("{}[{}]", self.name(*p), o(i)),
        })
    }

    /// A loop that builds scans ([`ogham_imp::scan`]), as OpenMP's
    /// `simd` with `inscan` reductions: each accumulator through an
    /// unsigned copy (the compiler combines lanes with C's operators, which
    /// must not overflow a signed type), the input phase and the scan phase
    /// in blocks of their own, separated by `scan inclusive`. Without
    /// `-fopenmp-simd` (OG_OMP empty), the same loop runs in order.
    /// Whether a loop's body only stores one value, the same in every
    /// iteration, into a local array at the loop's index (a fill).
    fn fills_local(&self, index: Var, body: &Block) -> bool {
        match body.stms.as_slice() {
            [Stm::Store { ptr, index: Operand::Var(at), value }] => {
                self.arrays.contains(ptr) && *at == index && *value != Operand::Var(index)
            }
            _ => false,
        }
    }

    fn scan_loop(&mut self, index: Var, (lo, hi): (&Operand, &Operand), scan: &ScanLoop) -> Res<()> {
        /// An accumulator and the unsigned copy the loop updates.
        struct Copy {
            acc: Var,
            op: &'static str,
            unsigned: &'static str,
            name: String,
            ty: &'static str,
            copy: String,
        }
        self.line("{");
        self.indent += 1;
        let mut copies = Vec::new();
        for (acc, op, ty) in &scan.accs {
            let op = match op {
                BinOp::Add => "+",
                BinOp::Mul => "*",
                BinOp::And => "&",
                BinOp::Or => "|",
                BinOp::Xor => "^",
                _ => return Err(format!("C backend: no OpenMP scan for {op:?}")),
            };
            let unsigned = if ty.byte_size() == 8 { "uint64_t" } else { "uint32_t" };
            let name = self.name(*acc).to_string();
            let copy = format!("{name}_u");
            self.line(&format!("{unsigned} {copy} = ({unsigned}){name};"));
            copies.push(Copy { acc: *acc, op, unsigned, name, ty: ctype(*ty), copy });
        }
        // One clause per operator, naming its accumulators in order.
        let mut ops: Vec<&str> = Vec::new();
        for c in &copies {
            if !ops.contains(&c.op) {
                ops.push(c.op);
            }
        }
        let reductions: Vec<String> = ops
            .iter()
            .map(|o| {
                let vars: Vec<&str> = copies.iter().filter(|c| c.op == *o).map(|c| c.copy.as_str()).collect();
                format!("reduction(inscan, {o} : {})", vars.join(", "))
            })
            .collect();
        self.line(&format!("OG_OMP(omp simd {})", reductions.join(" ")));
        let i = self.name(index);
        self.line(&format!("for (int64_t {i} = {}; {i} < {}; {i}++) {{", self.operand(lo), self.operand(hi)));
        self.indent += 1;
        self.line("{");
        self.indent += 1;
        for s in scan.input {
            match s {
                Stm::Accumulate { var, value, times: None, .. } => {
                    let c = copies.iter().find(|c| c.acc == *var).ok_or("scan accumulator")?;
                    let line = format!("{0} = {0} {1} ({2})({3});", c.copy, c.op, c.unsigned, self.operand(value));
                    self.line(&line);
                }
                s => self.stm(s)?,
            }
        }
        self.indent -= 1;
        self.line("}");
        let all: Vec<&str> = copies.iter().map(|c| c.copy.as_str()).collect();
        self.line(&format!("OG_OMP(omp scan inclusive({}))", all.join(", ")));
        self.line("{");
        self.indent += 1;
        for c in &copies {
            self.renamed.insert(c.acc, format!("(({}){})", c.ty, c.copy));
        }
        let printed = scan.scan.iter().try_for_each(|s| self.stm(s));
        for c in &copies {
            self.renamed.remove(&c.acc);
        }
        printed?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        for c in &copies {
            self.line(&format!("{} = ({}){};", c.name, c.ty, c.copy));
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// An atomic update of `p[index]` (see [`Stm::Atomic`]): one
    /// `__atomic_fetch_*` when the body is one operation that has one (an
    /// integer `add`, bitwise and logical operators), else a
    /// compare-and-swap loop on the element's bits, the body run again
    /// when another thread changed the element in between.
    fn atomic(&mut self, ptr: Var, index: &Operand, old: Var, body: &Block, new: &Operand) -> Res<()> {
        let elem = match self.kernel.params.iter().find(|q| q.var == ptr).map(|q| q.ty) {
            Some(Ty::Ptr(t)) => t,
            _ => return Err(format!("C backend: atomic update of {}, not a pointer parameter", self.name(ptr))),
        };
        let (p, i) = (self.name(ptr).to_string(), self.operand(index));
        let bits = format!("uint{}_t", elem.byte_size() * 8);
        let o = self.name(old).to_string();
        if let ([Stm::Let { var, exp: Exp::Bin(op, t, a, b), .. }], Operand::Var(n)) = (body.stms.as_slice(), new) {
            let other = match (a, b) {
                (Operand::Var(v), x) | (x, Operand::Var(v)) if *v == old && *x != Operand::Var(old) => Some(*x),
                _ => None,
            };
            if let (true, Some(x), Some(f)) = (var == n && *t == elem, other, crate::scalar::atomic_fetch(*op, elem)) {
                let x = self.operand(&x);
                self.line(&format!("{f}(({bits} *)&{p}[{i}], ({bits})({x}), __ATOMIC_RELAXED);"));
                return Ok(());
            }
        }
        self.types.insert(old, elem);
        let t = ctype(elem);
        self.line("{");
        self.indent += 1;
        self.line(&format!("{bits} *{o}_at = ({bits} *)&{p}[{i}];"));
        self.line(&format!("{bits} {o}_seen = __atomic_load_n({o}_at, __ATOMIC_RELAXED);"));
        self.line("for (;;) {");
        self.indent += 1;
        self.line(&format!("{t} {o}_mem; memcpy(&{o}_mem, &{o}_seen, sizeof {o}_mem);"));
        self.line(&format!("{} {o} = {o}_mem;", scalar_type(elem)));
        self.block(body)?;
        let n = self.operand(new);
        self.line(&format!("{t} {o}_next = {n}; {bits} {o}_want; memcpy(&{o}_want, &{o}_next, sizeof {o}_want);"));
        self.line(&format!(
            "if (__atomic_compare_exchange_n({o}_at, &{o}_seen, {o}_want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;"
        ));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    fn block(&mut self, b: &Block) -> Res<()> {
        for s in &b.stms {
            self.stm(s)?;
        }
        Ok(())
    }

    fn stm(&mut self, s: &Stm) -> Res<()> {
        match s {
            Stm::Let { var, ty, exp } => {
                self.types.insert(*var, *ty);
                let e = self.exp(exp)?;
                self.line(&format!("{} {} = {e};", scalar_type(*ty), self.name(*var)));
            }
            Stm::Mut { var, ty, init } => {
                self.types.insert(*var, *ty);
                self.line(&format!("{} {} = {};", scalar_type(*ty), self.name(*var), self.operand(init)));
            }
            Stm::Set { var, exp } => {
                let e = self.exp(exp)?;
                self.line(&format!("{} = {e};", self.name(*var)));
            }
            Stm::Accumulate { var, op, ty, value, times } => {
                let x = self.name(*var);
                let e = match times {
                    Some(t) => ternop(TernOp::Fma, *ty, &self.operand(value), &self.operand(t), &x)?,
                    None => binop(*op, *ty, &x, &self.operand(value))?,
                };
                self.line(&format!("{x} = {e};"));
            }
            Stm::Store { ptr, index, value } => {
                let line = format!("{}[{}] = {};", self.name(*ptr), self.operand(index), self.operand(value));
                self.line(&line);
            }
            Stm::Array { var, elem, len } => {
                self.arrays.insert(*var);
                // Aligned to a vector register: lanes are loaded and stored
                // whole, and a vector that straddles two cache lines is
                // slower to store and load back (the GMM objective on
                // 10 000 points: 169 ms unaligned, 160 ms aligned).
                self.line(&format!("{} {}[{len}] OG_ALIGNED;", scalar_type(*elem), self.name(*var)));
            }
            Stm::Alloc { var, elem, len } => {
                let (t, p, n) = (ctype(*elem), self.name(*var).to_string(), self.operand(len));
                self.line(&format!("{t} *restrict {p} = malloc(sizeof({t}) * (size_t)({n} > 0 ? {n} : 1));"));
                let mut fail: Vec<String> = self.live.iter().map(|v| format!("free({});", self.name(*v))).collect();
                fail.push(self.oom.to_string());
                self.line(&format!("if ({p} == NULL) {{ {} }}", fail.join(" ")));
                self.live.push(*var);
            }
            Stm::Atomic { ptr, index, old, body, new } => self.atomic(*ptr, index, *old, body, new)?,
            // Through an integer, so that an address past the array's end
            // is never formed as a pointer.
            Stm::Prefetch { ptr, index } => {
                let p = self.name(*ptr);
                let i = self.operand(index);
                self.line(&format!("OG_PREFETCH((const void *)((uintptr_t){p} + (uintptr_t)({i}) * sizeof(*{p})));"));
            }
            Stm::Free { var } => {
                self.live.retain(|v| v != var);
                self.line(&format!("free({});", self.name(*var)));
            }
            Stm::For { index, lo, hi, ivdep, body } => {
                if let Some(scan) = ogham_imp::scan::scan_loop(self.kernel, body) {
                    return self.scan_loop(*index, (lo, hi), &scan);
                }
                let trips = match (lo, hi) {
                    (Operand::Const(lo), Operand::Const(hi)) => Some(hi.as_i64() - lo.as_i64()),
                    _ => None,
                };
                if *ivdep {
                    self.line("OG_IVDEP");
                    // GCC unrolls a loop of at most 16 iterations before it
                    // vectorises, and then vectorises the loop around it if
                    // it can, or puts the unrolled statements back together
                    // into vectors (SLP). Across the wrong dimension when the
                    // loop around is short too (a narrow tile's vector of
                    // columns, inside its rows' loop, became gathers of the
                    // rows), or when the body does the work of several rows
                    // (`jam`'s rows, each with its own local array of lanes: vectors across
                    // the rows, folded element by element; the GMM objective
                    // took 50 ms instead of 13). Kept as a loop, it becomes
                    // vector operations on each row. (A single reduction's
                    // lanes are left to GCC, which does well with them.)
                    let stored: HashSet<Var> = body
                        .stms
                        .iter()
                        .filter_map(|s| match s {
                            Stm::Store { ptr, .. } if self.arrays.contains(ptr) => Some(*ptr),
                            _ => None,
                        })
                        .collect();
                    let several_rows = stored.len() > 1;
                    if self.fills_local(*index, body) && trips.is_some_and(|n| (17..=256).contains(&n)) {
                        self.line("OG_UNROLL_FILL");
                    } else if (self.in_constant_loop || several_rows) && trips.is_some_and(|n| (2..=16).contains(&n)) {
                        self.line("OG_SHORT_VECTOR");
                    }
                }
                let i = self.name(*index);
                self.line(&format!("for (int64_t {i} = {}; {i} < {}; {i}++) {{", self.operand(lo), self.operand(hi)));
                self.indent += 1;
                let outer = std::mem::replace(&mut self.in_constant_loop, trips.is_some());
                self.block(body)?;
                self.in_constant_loop = outer;
                self.indent -= 1;
                self.line("}");
            }
            Stm::While { cond, body } => {
                self.line(&format!("while ({}) {{", self.name(*cond)));
                self.indent += 1;
                self.block(body)?;
                self.indent -= 1;
                self.line("}");
            }
            Stm::If { cond, then_block, else_block } => {
                self.line(&format!("if ({}) {{", self.operand(cond)));
                self.indent += 1;
                self.block(then_block)?;
                self.indent -= 1;
                if !else_block.stms.is_empty() {
                    self.line("} else {");
                    self.indent += 1;
                    self.block(else_block)?;
                    self.indent -= 1;
                }
                self.line("}");
            }
        }
        Ok(())
    }
}
