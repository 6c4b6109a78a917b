//! Core IR to C with explicit memory.
//!
//! Every IR variable becomes one C variable `v<N>`: a scalar of its C type,
//! or an `og_arr` view (memory block, offset, shape, strides). Ownership is
//! scope based: a variable bound by an allocating statement (or returned by
//! a call, `if` or loop) owns one reference, released when its block ends;
//! views (`Index` slices, `Rearrange`, `Reshape` of contiguous arrays,
//! `Update` results, plain copies of variables) borrow, since the value they
//! view lives at least as long as they do within the block. A value leaving a
//! block (a body result) takes a reference first. Because the IR guarantees a
//! consumed variable is dead afterwards, `Update`, `Scatter` and `Hist` write
//! into their consumed arrays in place.
//!
//! Every generated function returns 0, or 1 after recording an error with
//! its source location; the caller passes the failure up.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;
use std::fmt::Write;

use ogham_ir::verify::Verified;
use ogham_ir::visit::free_vars_exp;
use ogham_ir::{
    BinOp, Body, DimIndex, Exp, FunDef, HistOp, Lambda, LoopForm, Opaque, Operator, Param, PrimType, Program, Soac,
    Span, Stm, SubExp, Type, VName,
};

use crate::{Backend, Options};

mod accs;
mod entry;
mod hist;
mod screma;
mod simd;

const RTS_CORE: &str = include_str!("../rts/core.h");
const RTS_SCALAR: &str = include_str!("../rts/scalar.h");
const RTS_VALUES: &str = include_str!("../rts/values.h");
const RTS_SCHEDULER: &str = include_str!("../rts/scheduler.h");
const RTS_MAIN: &str = include_str!("../rts/main.h");
const RTS_API: &str = include_str!("../rts/api.h");
const RTS_PROGRAM: &str = include_str!("../rts/program.h");

/// The largest array rank the runtime's views hold.
const MAX_RANK: usize = 16;

use crate::scalar::{binop, cmpop, conv, ctype, literal, ternop, unop, Res};

/// Generates the whole C program, from the verifier's view of it (the type
/// of every variable and the use counts come from there).
pub fn program(verified: &Verified, opts: &Options) -> Res<String> {
    program_and_kernels(verified, opts, false).map(|(parts, _)| parts.whole())
}

/// The imperative kernels the program's loops became, after their passes,
/// in their text form (`ogham dev --kernels`).
pub fn kernels(verified: &Verified, opts: &Options) -> Res<Vec<String>> {
    program_and_kernels(verified, opts, true).map(|(_, k)| k)
}

/// The generated C in its three parts, which [`Parts::whole`] joins into
/// one self-contained file and [`Parts::split`] into two.
pub struct Parts {
    /// The configuration's defines and the runtime the program's code calls
    /// (`core.h`, `scalar.h`, `values.h`, `scheduler.h`): the same text for
    /// every program of one configuration.
    prefix: String,
    /// The program: its functions, constants, entry points and their table.
    program: String,
    /// The boundary the program is called through (`api.h`, and `main.h`
    /// for an executable), which reads only the program's `OG_GLOBAL`
    /// definitions (`rts/program.h`).
    boundary: String,
}

impl Parts {
    /// One self-contained C file, every definition `static`.
    pub fn whole(self) -> String {
        let mut c = self.prefix;
        c.push_str(&self.program);
        c.push_str(&self.boundary);
        c
    }

    /// Two C files to be compiled apart and linked ([`crate::Split`]).
    pub fn split(self) -> crate::Split {
        crate::Split {
            program: format!("#define OG_GLOBAL\n{}{}", self.prefix, self.program),
            boundary: format!("#define OG_GLOBAL extern\n{}{RTS_PROGRAM}\n{}", self.prefix, self.boundary),
        }
    }
}

/// The C program in parts ([`Parts`]), for the program and the boundary to
/// be compiled apart.
pub fn program_parts(verified: &Verified, opts: &Options) -> Res<Parts> {
    program_and_kernels(verified, opts, false).map(|(parts, _)| parts)
}

/// The C program, and the kernels' text when `keep_kernels`.
fn program_and_kernels(verified: &Verified, opts: &Options, keep_kernels: bool) -> Res<(Parts, Vec<String>)> {
    let prog = verified.prog;
    let consts = Body { stms: prog.consts.clone(), result: prog.const_params().map(|p| p.name.into()).collect() };
    // The constants' block returns them all into the context: a use each.
    let mut uses = verified.uses.clone();
    for p in prog.const_params() {
        *uses.entry(p.name).or_default() += 1;
    }
    let mut g = Gen {
        prog,
        opts,
        types: &verified.types,
        uses,
        out: String::new(),
        indent: 1,
        scopes: Vec::new(),
        tasks: Vec::new(),
        counter: 0,
        in_parallel: false,
        virt: HashMap::default(),
        redirect: HashMap::default(),
        frames: Vec::new(),
        saved_frames: Vec::new(),
        tuning: crate::tuning::all(prog),
        atomic_accs: HashSet::default(),
        kernels: keep_kernels.then(Vec::new),
        kernel_defs: Vec::new(),
        launched: Default::default(),
    };
    let mut protos = String::new();
    let mut funs = g.constants(&consts)?;
    let recursive = ogham_ir::visit::recursive_functions(prog);
    for (i, f) in prog.funs.iter().enumerate() {
        let sig = g.fun_signature(i, f)?;
        let _ = writeln!(protos, "static int {sig};");
        g.out.clear();
        g.indent = 1;
        if recursive.contains(&f.name) {
            // A recursion too deep fails rather than overflowing the stack.
            let msg = "Stack exhausted: the recursion is too deep.";
            g.line(&format!(
                "if (__builtin_expect(og_stack_exhausted(), 0)) return og_fail(ctx, {}, \"{msg}\");",
                g.loc(f.span)
            ));
        }
        g.fun_body(f)?;
        let _ = write!(funs, "static int {sig} {{\n{}}}\n\n", g.out);
    }
    let mut entries = String::new();
    let entry_table = g.entry_points(&mut entries)?;

    let mut c = String::new();
    c.push_str(if opts.portable {
        "/* Generated by ogham, for any CPU of its architecture (--portable). */\n"
    } else {
        "/* Generated by ogham for the CPU of the machine that generated it (its vector\n   registers, fused multiply-adds): compile it with -O3 -march=native there, as\n   ogham does, or generate it with --portable for any CPU of the architecture. */\n"
    });
    if opts.server {
        c.push_str("#define OG_SERVER_DEFAULT 1\n");
    }
    c.push_str("#define _POSIX_C_SOURCE 200809L\n");
    let _ = writeln!(c, "#define OG_MULTICORE {}", if opts.backend == Backend::Multicore { 1 } else { 0 });
    let _ = writeln!(c, "#define OG_TUNE_MALLOC {}", if opts.library { 0 } else { 1 });
    let _ = writeln!(c, "#define OG_NUM_TUNING_PARAMS {}", g.tuning.len());
    // Views hold this many dimensions (partial histograms of arrays add one).
    let _ = writeln!(c, "#define OG_MAX_RANK {}", (program_rank(prog) + 1).clamp(2, MAX_RANK));
    // `og_tanh_double`'s constants (`scalar.h`), from the interpreter's `tanh`.
    let _ = writeln!(c, "{}", crate::scalar::tanh_constants());
    for rts in [RTS_CORE, RTS_SCALAR, RTS_VALUES, RTS_SCHEDULER] {
        c.push_str(rts);
        c.push('\n');
    }
    for (float, ints) in
        [("og_f16", ["int16_t", "uint16_t"]), ("float", ["int32_t", "uint32_t"]), ("double", ["int64_t", "uint64_t"])]
    {
        for int in ints {
            let _ = writeln!(c, "OG_BITCAST({float}, {int})\nOG_BITCAST({int}, {float})");
        }
    }
    // Dead IR bindings become unused C variables; they are harmless.
    c.push_str("#if defined(__clang__)\n#pragma clang diagnostic ignored \"-Wunused-variable\"\n#pragma clang diagnostic ignored \"-Wunused-but-set-variable\"\n#pragma clang diagnostic ignored \"-Wunknown-warning-option\"\n#elif defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Wunused-variable\"\n#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n#endif\n");
    let mut program = String::from("\n/* ---- The program ---- */\n\n");
    let names: Vec<String> = g.tuning.iter().map(|n| c_string(n)).chain(["NULL".to_string()]).collect();
    let _ = writeln!(program, "OG_GLOBAL const char *const og_tuning_names[] = {{{}}};\n", names.join(", "));
    program.push_str(&protos);
    program.push('\n');
    for t in &g.tasks {
        program.push_str(t);
        program.push('\n');
    }
    program.push_str(&funs);
    program.push_str(&entries);
    program.push_str(&entry_table);
    // The boundary helpers serve both the server (main.h) and the C API,
    // which `crate::generate` appends in library mode (library.rs).
    let mut boundary = String::from(RTS_API);
    if !opts.library {
        boundary.push_str(RTS_MAIN);
    }
    Ok((Parts { prefix: c, program, boundary }, g.kernels.unwrap_or_default()))
}

/// The runtime's `enum og_prim` constant.
fn prim_enum(t: PrimType) -> String {
    format!("OG_{}", t.name().to_uppercase())
}

/// The C type of a value of type `ty`.
fn cty(ty: &Type) -> &'static str {
    match ty {
        // `og_bool` is `bool`, except in blocks that redefine it as an
        // integer type to let the C compiler vectorise them (`lanes.rs`).
        Type::Prim(PrimType::Bool) => "og_bool",
        Type::Prim(t) => ctype(*t),
        Type::Array { .. } => "og_arr",
    }
}

fn vname(v: VName) -> String {
    format!("v{}", v.0)
}

/// A C string literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '%' => out.push_str("%%"),
            c if (c as u32) < 0x20 || (c as u32) == 0x7f => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Where a body's result goes.
#[derive(Clone, Debug)]
enum Dest {
    /// A declared, uninitialised variable; arrays take a reference.
    Fresh(String),
    /// An owned array (or scalar) variable that is replaced; the old array is released.
    Replace(String),
    /// A declared variable that borrows the value without a reference: the
    /// value is a row of a SOAC input or a variable from outside the lambda,
    /// so it outlives the iteration whose temporary this is. (Taking and
    /// dropping a reference per iteration costs two atomic operations on a
    /// block that every thread shares in multicore code.)
    Borrow(String),
    /// An element or sub-array of an array: `arr[idxs…]` (scalars are stored, arrays copied).
    At { arr: String, rank: usize, elem: PrimType, idxs: Vec<String> },
}

/// A one-dimensional array that is never materialised because it is only
/// read, element by element, as an input of SOACs: its element `j` is
/// computed where the SOAC binds its parameter. This saves the allocation
/// and the memory traffic of `iota` index spaces and `replicate`d constants
/// (a 10⁸-element histogram would otherwise first write 400 MB of ones).
#[derive(Clone, Debug)]
enum Virtual {
    /// `start + j * step` of integer type `elem`.
    Iota { start: SubExp, step: SubExp, elem: PrimType },
    /// Every element is `value` (a scalar).
    Replicate { value: SubExp },
}

struct Gen<'a> {
    prog: &'a Program,
    opts: &'a Options,
    /// The type of every variable of the program (from the verifier).
    types: &'a HashMap<VName, Type>,
    /// How many times each variable is used (from the verifier; the
    /// constants' results counted).
    uses: HashMap<VName, usize>,
    /// The function being generated.
    out: String,
    indent: usize,
    /// Per open C block: the owned arrays to release when it ends.
    scopes: Vec<Vec<String>>,
    /// Helper functions (parallel tasks), emitted before the program's functions.
    tasks: Vec<String>,
    counter: usize,
    /// Inside a parallel task: nested SOACs run sequentially.
    in_parallel: bool,
    /// Arrays that are computed on demand instead of stored (see [`Virtual`]).
    virt: HashMap<VName, Virtual>,
    /// Array results of SOACs that are written straight into their final
    /// place (a row of the enclosing map's output) instead of a fresh
    /// array that would be copied there; taken by [`Gen::screma_outputs`].
    redirect: HashMap<VName, Dest>,
    /// The repeated region being generated in the current C function, if
    /// any (see [`SiteFrame`]); at most one, the outermost.
    frames: Vec<SiteFrame>,
    /// The enclosing functions' frames while a task function is generated.
    saved_frames: Vec<Vec<SiteFrame>>,
    /// The program's tuning parameters; a parameter's number is its position.
    tuning: Vec<String>,
    /// While the atomic task of a parallel `withacc` is generated: the
    /// variables made of its accumulators that are combined with an
    /// operator, whose `updacc`s must be atomic (see `accs.rs`).
    atomic_accs: HashSet<VName>,
    /// The imperative kernels generated, in their text form, when
    /// [`kernels`] asks for them (`ogham dev --kernels`).
    kernels: Option<Vec<String>>,
    /// The kernels printed so far: each as lowered, the name of its C
    /// function, and the kernel after its passes. A kernel lowered again
    /// with the same parameters and body (the same loop in each of a
    /// program's specialisations, the forward sweep re-executed by reverse
    /// mode) calls that function instead of being passed and printed again:
    /// GMM's 118 kernels were 26 distinct ones, three quarters of its C.
    kernel_defs: Vec<(ogham_imp::Kernel, String, ogham_imp::Kernel)>,
    /// The kernels of `kernel_defs`, by position, whose parallel task
    /// (`crate::kernel::launch_task`) has been defined.
    launched: rustc_hash::FxHashSet<usize>,
}

/// A region of generated code that runs repeatedly (a loop or SOAC
/// statement, or a parallel task): allocations inside it go through
/// allocation sites (`og_site` in the runtime), which reuse the blocks of
/// earlier iterations once nothing references them, so a temporary array
/// in a loop body is allocated once rather than once per iteration. The
/// sites are declared where the region starts and released where it ends.
struct SiteFrame {
    /// Where the region starts in the function's output, and its indentation.
    offset: usize,
    indent: usize,
    /// The C variables of the sites allocated in the region.
    sites: Vec<String>,
    /// The statement's own results, allocated once per execution of the
    /// statement and so not through a site.
    results: Vec<String>,
}

impl<'a> Gen<'a> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn fresh(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{base}_{}", self.counter)
    }

    fn ty(&self, v: VName) -> Res<&Type> {
        self.types
            .get(&v)
            .ok_or_else(|| format!("C backend: variable {} has no known type", self.prog.names.display(v)))
    }

    fn rank_of(&self, v: VName) -> Res<usize> {
        Ok(self.ty(v)?.rank())
    }

    fn loc(&self, span: Span) -> String {
        let text = match self.opts.span_text.get(&span) {
            Some(t) => t.clone(),
            None if span.is_dummy() => "<unknown location>".to_string(),
            None => format!("file {}:{}-{}", span.file.0, span.start, span.end),
        };
        c_string(&text)
    }

    fn se(&self, se: &SubExp) -> String {
        match se {
            SubExp::Const(v) => literal(*v),
            SubExp::Var(v) => vname(*v),
        }
    }

    /// An lvalue for element `idxs` (one per dimension) of array `arr`.
    fn elem(arr: &str, elem: PrimType, idxs: &[String]) -> String {
        let mut off = format!("{arr}.offset");
        for (d, i) in idxs.iter().enumerate() {
            let _ = write!(off, " + ({i}) * {arr}.stride[{d}]");
        }
        format!("(({} *)og_mem_data({arr}.mem))[{off}]", ctype(elem))
    }

    /// A view expression of `arr` (rank `rank`) with the first dims fixed at `idxs`.
    fn subview(&mut self, arr: &str, rank: usize, idxs: &[String]) -> String {
        let v = self.fresh("view");
        self.line(&format!("og_arr {v} = {arr};"));
        let mut off = format!("{arr}.offset");
        for (d, i) in idxs.iter().enumerate() {
            let _ = write!(off, " + ({i}) * {arr}.stride[{d}]");
        }
        self.line(&format!("{v}.offset = {off};"));
        let k = idxs.len();
        for d in 0..MAX_RANK {
            if d + k < rank {
                self.line(&format!(
                    "{v}.shape[{d}] = {arr}.shape[{}]; {v}.stride[{d}] = {arr}.stride[{}];",
                    d + k,
                    d + k
                ));
            } else if d < rank {
                self.line(&format!("{v}.shape[{d}] = 0; {v}.stride[{d}] = 0;"));
            }
        }
        v
    }

    fn own(&mut self, c: &str) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(c.to_string());
        }
    }

    /// Removes `c` from the arrays the innermost block releases when it
    /// ends; returns whether it was there (the block owned it).
    fn take_ownership(&mut self, c: &str) -> bool {
        let Some(s) = self.scopes.last_mut() else { return false };
        match s.iter().rposition(|x| x == c) {
            Some(i) => {
                s.remove(i);
                true
            }
            None => false,
        }
    }

    fn open_scope(&mut self) {
        self.line("{");
        self.indent += 1;
        self.scopes.push(Vec::new());
    }

    fn close_scope(&mut self) {
        let owned = self.scopes.pop().unwrap_or_default();
        for c in owned.iter().rev() {
            self.line(&format!("og_unref({c}.mem);"));
        }
        self.indent -= 1;
        self.line("}");
    }

    /// Stores a value (C expression `src` of type `ty`) into a destination.
    fn store(&mut self, dest: &Dest, src: &str, ty: &Type) {
        match (dest, ty) {
            (Dest::Fresh(c), Type::Prim(_)) | (Dest::Replace(c), Type::Prim(_)) | (Dest::Borrow(c), _) => {
                self.line(&format!("{c} = {src};"))
            }
            (Dest::Fresh(c), Type::Array { .. }) => self.line(&format!("og_ref({src}.mem); {c} = {src};")),
            (Dest::Replace(c), Type::Array { .. }) => {
                self.line(&format!("og_ref({src}.mem); og_unref({c}.mem); {c} = {src};"))
            }
            (Dest::At { arr, elem, idxs, .. }, Type::Prim(_)) => {
                let lv = Self::elem(arr, *elem, idxs);
                self.line(&format!("{lv} = {src};"));
            }
            (Dest::At { arr, rank, elem, idxs }, Type::Array { .. }) => {
                let (arr, rank, elem, idxs) = (arr.clone(), *rank, *elem, idxs.clone());
                let v = self.subview(&arr, rank, &idxs);
                let r = rank - idxs.len();
                self.line(&format!("og_copy_into(&{v}, &{src}, {}, {r});", elem.byte_size()));
            }
        }
    }

    fn fun_name(&self, name: &str) -> Res<String> {
        let i = self
            .prog
            .funs
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| format!("C backend: no function `{name}`"))?;
        Ok(Self::c_fun_name(i, name))
    }

    fn c_fun_name(i: usize, name: &str) -> String {
        let clean: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        format!("og_fun{i}_{clean}")
    }

    fn fun_signature(&self, i: usize, f: &FunDef) -> Res<String> {
        let mut args = vec!["og_ctx *ctx".to_string()];
        for (k, t) in f.ret.iter().enumerate() {
            args.push(format!("{} *out{k}", cty(t)));
        }
        for p in &f.params {
            if p.ty.rank() > MAX_RANK {
                return Err(format!("C backend: arrays of rank above {MAX_RANK} are not supported"));
            }
            // Arrays by address: a struct of shape, strides and block each,
            // copied by the callee (`fun_body`), not on every call's stack.
            if p.ty.is_array() {
                args.push(format!("const og_arr *{}_in", vname(p.name)));
            } else {
                args.push(format!("{} {}", cty(&p.ty), vname(p.name)));
            }
        }
        Ok(format!("{}({})", Self::c_fun_name(i, &f.name), args.join(", ")))
    }

    /// The program's constants: the struct the context keeps them in
    /// (`ctx->consts`), the function computing them when the context is
    /// created (a failed check fails the creation), the one releasing them,
    /// and the one putting their reference counts back after a failed call
    /// (which may have taken references it never released).
    fn constants(&mut self, consts: &Body) -> Res<String> {
        let mut out = String::from("typedef struct og_consts {\n  int og_unused;\n");
        let params: Vec<Param> = self.prog.const_params().cloned().collect();
        for p in &params {
            let _ = writeln!(out, "  {} {};", cty(&p.ty), vname(p.name));
            if p.ty.rank() > 0 {
                let _ = writeln!(out, "  int64_t {}_refs;", vname(p.name));
            }
        }
        out.push_str("} og_consts;\n\n");
        self.out.clear();
        self.indent = 1;
        let dests: Vec<Dest> = params.iter().map(|p| Dest::Fresh(format!("og_k->{}", vname(p.name)))).collect();
        self.body(consts, &dests)?;
        let _ = write!(
            out,
            "static int og_consts_compute(og_ctx *ctx, og_consts *og_k) {{\n  (void)ctx;\n  (void)og_k;\n{}  return 0;\n}}\n\n",
            self.out
        );
        let arrays: Vec<String> = params.iter().filter(|p| p.ty.rank() > 0).map(|p| vname(p.name)).collect();
        let each = |f: &dyn Fn(&str) -> String| arrays.iter().map(|a| f(a)).collect::<String>();
        let _ = write!(
            out,
            "OG_GLOBAL int og_consts_init(og_ctx *ctx) {{\n  og_consts *og_k = calloc(1, sizeof *og_k);\n  if (og_k == NULL) return og_fail(ctx, NULL, \"Out of memory: cannot allocate the constants.\");\n  og_call_begin(ctx);\n  int err = og_consts_compute(ctx, og_k);\n  og_call_end(ctx, err != 0);\n  if (err) {{\n    free(og_k);\n    return 1;\n  }}\n{}  ctx->consts = og_k;\n  return 0;\n}}\n\n",
            each(&|a| format!("  if (og_k->{a}.mem != NULL) og_k->{a}_refs = og_k->{a}.mem->refcount;\n"))
        );
        let _ = write!(
            out,
            "OG_GLOBAL void og_consts_free(og_ctx *ctx) {{\n  og_consts *og_k = ctx->consts;\n  if (og_k == NULL) return;\n{}  free(og_k);\n  ctx->consts = NULL;\n}}\n\n",
            each(&|a| format!("  og_unref(og_k->{a}.mem);\n"))
        );
        let _ = write!(
            out,
            "OG_GLOBAL void og_consts_restore(og_ctx *ctx) {{\n  og_consts *og_k = ctx->consts;\n  if (og_k == NULL) return;\n{}}}\n\n",
            each(&|a| format!("  if (og_k->{a}.mem != NULL) og_k->{a}.mem->refcount = og_k->{a}_refs;\n"))
        );
        Ok(out)
    }

    fn fun_body(&mut self, f: &FunDef) -> Res<()> {
        self.line("(void)ctx;");
        for p in &f.params {
            if p.ty.is_array() {
                self.line(&format!("og_arr {v} = *{v}_in;", v = vname(p.name)));
            }
            self.line(&format!("(void){};", vname(p.name)));
        }
        // The constants the function uses, borrowed from the context.
        let mut used = ogham_ir::visit::free_vars_body(&f.body);
        used.extend(f.params.iter().flat_map(|p| ogham_ir::visit::type_vars(&p.ty)));
        used.extend(f.ret.iter().flat_map(ogham_ir::visit::type_vars));
        let consts: Vec<Param> = self.prog.const_params().filter(|p| used.contains(&p.name)).cloned().collect();
        for p in consts {
            let v = vname(p.name);
            self.line(&format!("{} {v} = ((og_consts *)ctx->consts)->{v};", cty(&p.ty)));
            self.line(&format!("(void){v};"));
        }
        let dests: Vec<Dest> = (0..f.ret.len()).map(|k| Dest::Fresh(format!("(*out{k})"))).collect();
        self.body(&f.body, &dests)?;
        self.line("return 0;");
        Ok(())
    }

    /// Emits a body as a C block whose results go to `dests`.
    fn body(&mut self, body: &Body, dests: &[Dest]) -> Res<()> {
        self.open_scope();
        let counts = std::mem::take(&mut self.uses);
        self.find_virtual(body);
        let redirected = self.find_redirects(body, dests, &counts);
        self.uses = counts;
        for stm in &body.stms {
            if let Some(p) = stm.pat.first() {
                if self.virt.contains_key(&p.name) {
                    // Only the iota's size check remains of a virtual array.
                    if let Exp::Iota { n, .. } = &stm.exp {
                        self.check_iota_size(n, stm.span);
                    }
                    continue;
                }
            }
            self.stm(stm)?;
        }
        for (r, d) in body.result.iter().zip(dests) {
            // A redirected result has already been written in place, unless the statement was generated in a way that did not take the redirection.
            if let SubExp::Var(v) = r {
                if redirected.contains(v) && self.redirect.remove(v).is_none() {
                    continue;
                }
            }
            let ty = self.se_type(r)?;
            let src = self.se(r);
            if ty.is_array() && self.take_ownership(&src) {
                // The block's own array leaves it: its reference moves to the
                // destination instead of a new reference taken and the old one
                // dropped (cheaper, and clearer to GCC's use-after-free analysis).
                match d {
                    Dest::Fresh(c) => {
                        self.line(&format!("{c} = {src};"));
                        continue;
                    }
                    Dest::Replace(c) => {
                        self.line(&format!("og_unref({c}.mem); {c} = {src};"));
                        continue;
                    }
                    Dest::At { .. } => self.own(&src),
                    // Never chosen for arrays the body owns (see `borrowed_results`).
                    Dest::Borrow(_) => self.own(&src),
                }
            }
            self.store(d, &src, &ty);
        }
        self.close_scope();
        Ok(())
    }

    /// Notes the arrays of a body that the middle end marked `#[virtual]`
    /// (see `ogham_ir::layout`; the verifier checked the marks).
    fn find_virtual(&mut self, body: &Body) {
        for stm in body.stms.iter().filter(|s| s.attrs.virtual_) {
            let [p] = stm.pat.as_slice() else { continue };
            let virt = match &stm.exp {
                Exp::Iota { start, step, elem, .. } => Virtual::Iota { start: *start, step: *step, elem: *elem },
                Exp::Replicate { value, .. } => Virtual::Replicate { value: *value },
                _ => continue,
            };
            self.virt.insert(p.name, virt);
        }
    }

    /// Chooses the array results of a body that a SOAC of the body can write
    /// straight into their destination (a row of an enclosing array); returns them.
    fn find_redirects(&mut self, body: &Body, dests: &[Dest], counts: &HashMap<VName, usize>) -> BTreeSet<VName> {
        let mut out = BTreeSet::new();
        for (r, d) in body.result.iter().zip(dests) {
            let (SubExp::Var(v), Dest::At { .. }) = (r, d) else { continue };
            // Its only other uses are as the value added into an
            // accumulator (reverse mode's adjoint rows, both kept and
            // summed), which then reads it from its row.
            let added = body
                .stms
                .iter()
                .filter(|s| matches!(&s.exp, Exp::UpdAcc { value: SubExp::Var(x), .. } if x == v))
                .count();
            if counts.get(v).copied().unwrap_or(0) != 1 + added {
                continue;
            }
            let Some(stm) = body.stms.iter().find(|s| s.pat.iter().any(|p| p.name == *v)) else { continue };
            // The results a SOAC does not map (scans', reductions' and
            // accumulators') are not written row by row.
            let unmapped = match &stm.exp {
                Exp::Soac(Soac::Screma { scans, reduces, .. }) => {
                    let n_scan: usize = scans.iter().map(|o| o.neutral.len()).sum();
                    let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
                    n_scan..n_scan + n_red
                }
                Exp::Soac(Soac::WithAcc { accs, .. }) => 0..accs.len(),
                _ => continue,
            };
            let pos = stm.pat.iter().position(|p| p.name == *v).unwrap_or(0);
            if unmapped.contains(&pos) || !stm.pat[pos].ty.is_array() {
                continue;
            }
            self.redirect.insert(*v, d.clone());
            out.insert(*v);
        }
        out
    }

    fn se_type(&self, se: &SubExp) -> Res<Type> {
        Ok(match se {
            SubExp::Const(v) => Type::Prim(v.prim_type()),
            SubExp::Var(v) => self.ty(*v)?.clone(),
        })
    }

    /// Declares the pattern variables of a statement.
    fn declare(&mut self, pat: &[Param]) {
        for p in pat {
            if p.ty.is_array() {
                self.line(&format!("og_arr {} = {{0}};", vname(p.name)));
            } else {
                // Initialised: GCC cannot always see that a called function or both branches set it.
                self.line(&format!("{} {} = 0;", cty(&p.ty), vname(p.name)));
            }
        }
    }

    /// Evaluates a shape to a fresh `int64_t[]` C array; returns its name.
    fn shape_array(&mut self, dims: &[String]) -> String {
        let s = self.fresh("shape");
        let list = if dims.is_empty() { "0".to_string() } else { dims.join(", ") };
        self.line(&format!("int64_t {s}[{}] = {{{list}}};", dims.len().max(1)));
        s
    }

    /// Allocates a fresh array into the (declared) variable `c`, owned by the current scope.
    fn alloc(&mut self, c: &str, elem: PrimType, dims: &[String], span: Span) {
        let s = self.shape_array(dims);
        let loc = self.loc(span);
        let (esize, rank) = (elem.byte_size(), dims.len());
        let in_region = self.frames.last().is_some_and(|f| !f.results.iter().any(|r| r == c));
        if in_region {
            let site = self.fresh("site");
            if let Some(f) = self.frames.last_mut() {
                f.sites.push(site.clone());
            }
            // Inside a task function the block stays with its thread.
            let local = !self.saved_frames.is_empty();
            self.line(&format!(
                "if (og_alloc_arr_at(ctx, &{site}, &{c}, {esize}, {rank}, {s}, {loc}, {local})) return og_propagate();"
            ));
        } else {
            self.line(&format!("if (og_alloc_arr(ctx, &{c}, {esize}, {rank}, {s}, {loc})) return og_propagate();"));
        }
        self.own(c);
    }

    /// Fails when an `iota`'s size is negative; returns the size's C expression.
    fn check_iota_size(&mut self, n: &SubExp, span: Span) -> String {
        let n = self.se(n);
        self.fail(&format!("{n} < 0"), span, "Cannot iota a negative number of elements (%lld).", &[n.clone()]);
        n
    }

    /// Starts a repeated region (see [`SiteFrame`]) unless one is open.
    fn begin_frame(&mut self, results: Vec<String>) -> bool {
        if !self.frames.is_empty() {
            return false;
        }
        self.frames.push(SiteFrame { offset: self.out.len(), indent: self.indent, sites: vec![], results });
        true
    }

    /// Ends the open region: declares its sites where it started and
    /// releases them here.
    fn end_frame(&mut self) {
        let Some(frame) = self.frames.pop() else { return };
        let pad = "  ".repeat(frame.indent);
        let decls: String = frame.sites.iter().map(|site| format!("{pad}og_site {site} = {{0}};\n")).collect();
        self.out.insert_str(frame.offset, &decls);
        for site in &frame.sites {
            self.line(&format!("og_site_release(&{site});"));
        }
    }

    /// The C dimensions of a type (shape operands).
    fn type_dims(&self, ty: &Type) -> Vec<String> {
        ty.shape().iter().map(|d| self.se(d)).collect()
    }

    fn fail(&mut self, cond: &str, span: Span, fmt: &str, args: &[String]) {
        let loc = self.loc(span);
        let mut call = format!("return og_fail(ctx, {loc}, {}", c_string(fmt).replace("%%", "%"));
        for a in args {
            let _ = write!(call, ", (long long)({a})");
        }
        call.push_str(");");
        self.line(&format!("if ({cond}) {call}"));
    }

    fn stm(&mut self, stm: &Stm) -> Res<()> {
        if matches!(stm.exp, Exp::Loop { .. } | Exp::Soac(_)) {
            let results = stm.pat.iter().map(|p| vname(p.name)).collect();
            if self.begin_frame(results) {
                let res = self.stm_inner(stm);
                self.end_frame();
                return res;
            }
        }
        self.stm_inner(stm)
    }

    fn stm_inner(&mut self, stm: &Stm) -> Res<()> {
        for p in &stm.pat {
            if p.ty.rank() > MAX_RANK {
                return Err(format!("C backend: arrays of rank above {MAX_RANK} are not supported"));
            }
        }
        let pat = &stm.pat;
        let one = |i: usize| pat.get(i).map(|p| vname(p.name)).unwrap_or_else(|| "unused".to_string());
        match &stm.exp {
            Exp::SubExp(se) => {
                let ty = &pat[0].ty;
                self.line(&format!("{} {} = {};", cty(ty), one(0), self.se(se)));
            }
            Exp::UpdAcc { acc, slice, value, op } => self.upd_acc(stm, *acc, slice, value, *op)?,
            Exp::BinOp(op, t, a, b) => {
                let (a, b) = (self.se(a), self.se(b));
                if t.is_int() && matches!(op, BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem) {
                    self.fail(&format!("{b} == 0"), stm.span, "division by zero", &[]);
                }
                // Integer `**` with a negative exponent is an error, as in the interpreter (ogham-prim's ops).
                if t.is_signed_int() && *op == BinOp::Pow {
                    self.fail(&format!("{b} < 0"), stm.span, "negative exponent", &[]);
                }
                let e = binop(*op, *t, &a, &b)?;
                self.line(&format!("{} {} = {e};", cty(&pat[0].ty), one(0)));
            }
            Exp::CmpOp(op, t, a, b) => {
                let e = cmpop(*op, *t, &self.se(a), &self.se(b));
                self.line(&format!("og_bool {} = {e};", one(0)));
            }
            Exp::UnOp(op, t, a) => {
                let e = unop(*op, *t, &self.se(a))?;
                self.line(&format!("{} {} = {e};", cty(&pat[0].ty), one(0)));
            }
            Exp::TernOp(op, t, a, b, c) => {
                let e = ternop(*op, *t, &self.se(a), &self.se(b), &self.se(c))?;
                self.line(&format!("{} {} = {e};", cty(&pat[0].ty), one(0)));
            }
            Exp::Conv(op, from, to, a) => {
                let e = conv(*op, *from, *to, &self.se(a))?;
                self.line(&format!("{} {} = {e};", ctype(*to), one(0)));
            }
            Exp::Apply { func, args } => {
                let name = self.fun_name(func)?;
                self.declare(pat);
                let mut call: Vec<String> = vec!["ctx".to_string()];
                call.extend(pat.iter().map(|p| format!("&{}", vname(p.name))));
                for a in args {
                    let arg = self.se(a);
                    call.push(if self.se_type(a)?.is_array() { format!("&{arg}") } else { arg });
                }
                // A failure inside adds this call to the error's backtrace.
                let loc = self.loc(stm.span);
                self.line(&format!("if ({name}({})) return og_trace(ctx, {loc});", call.join(", ")));
                for p in pat {
                    if p.ty.is_array() {
                        self.own(&vname(p.name));
                    }
                }
            }
            Exp::If { cond, then_body, else_body } => {
                self.declare(pat);
                let dests: Vec<Dest> = pat.iter().map(|p| Dest::Fresh(vname(p.name))).collect();
                self.line(&format!("if ({})", self.se(cond)));
                self.body(then_body, &dests)?;
                self.line("else");
                self.body(else_body, &dests)?;
                for p in pat {
                    if p.ty.is_array() {
                        self.own(&vname(p.name));
                    }
                }
            }
            Exp::Loop { params, form, body } => self.loop_(stm, params, form, body)?,
            Exp::Index { array, slice } => self.index(stm, *array, slice)?,
            Exp::Update { array, slice, value } => self.update(stm, *array, slice, value)?,
            Exp::Iota { n, start, step, elem } => {
                let c = one(0);
                self.declare(pat);
                let n = self.check_iota_size(n, stm.span);
                self.alloc(&c, *elem, &[n.clone()], stm.span);
                let t = ctype(*elem);
                let i = self.fresh("i");
                let lv = Self::elem(&c, *elem, &[i.clone()]);
                let (start, step) = (self.se(start), self.se(step));
                self.line(&format!(
                    "for (int64_t {i} = 0; {i} < {n}; {i}++) {lv} = og_add_{t}({start}, og_mul_{t}(({t}){i}, {step}));"
                ));
            }
            Exp::Replicate { shape, value } => {
                let c = one(0);
                let ty = pat[0].ty.clone();
                self.declare(pat);
                let dims = self.type_dims(&ty);
                self.alloc(&c, ty.elem(), &dims, stm.span);
                let outer: Vec<String> = shape.iter().map(|d| self.se(d)).collect();
                let vty = self.se_type(value)?;
                let v = self.se(value);
                let idxs = self.open_loops(&outer);
                let dest = Dest::At { arr: c.clone(), rank: ty.rank(), elem: ty.elem(), idxs };
                self.store(&dest, &v, &vty);
                self.close_loops(outer.len());
            }
            Exp::Scratch { elem, shape } => {
                let c = one(0);
                self.declare(pat);
                let dims: Vec<String> = shape.iter().map(|d| self.se(d)).collect();
                self.alloc(&c, *elem, &dims, stm.span);
            }
            Exp::Reshape { array, shape } => self.reshape(stm, *array, shape)?,
            Exp::Rearrange { array, perm } => {
                let c = one(0);
                let a = vname(*array);
                self.line(&format!("og_arr {c} = {a};"));
                for (d, p) in perm.iter().enumerate() {
                    self.line(&format!("{c}.shape[{d}] = {a}.shape[{p}]; {c}.stride[{d}] = {a}.stride[{p}];"));
                }
            }
            Exp::Concat { dim, arrays, len } => {
                let c = one(0);
                let ty = pat[0].ty.clone();
                let rank = ty.rank();
                self.declare(pat);
                let mut dims = self.type_dims(&ty);
                dims[*dim] = self.se(len);
                // The result's other dimensions come from the first array, whose shape is known at run time.
                if let Some(first) = arrays.first() {
                    for (d, dd) in dims.iter_mut().enumerate() {
                        if d != *dim {
                            *dd = format!("{}.shape[{d}]", vname(*first));
                        }
                    }
                }
                let total: Vec<String> = arrays.iter().map(|a| format!("{}.shape[{dim}]", vname(*a))).collect();
                let total = if total.is_empty() { "0".to_string() } else { total.join(" + ") };
                self.fail(
                    &format!("{total} != {}", dims[*dim]),
                    stm.span,
                    "Concatenation of arrays gives size %lld, not the expected %lld.",
                    &[total.clone(), dims[*dim].clone()],
                );
                for a in arrays {
                    for d in 0..rank {
                        if d != *dim {
                            let a = vname(*a);
                            self.fail(
                                &format!("{a}.shape[{d}] != {}", dims[d]),
                                stm.span,
                                "Cannot concatenate arrays of different shapes.",
                                &[],
                            );
                        }
                    }
                }
                self.alloc(&c, ty.elem(), &dims, stm.span);
                let off = self.fresh("off");
                self.line(&format!("int64_t {off} = 0;"));
                for a in arrays {
                    let a = vname(*a);
                    let v = self.fresh("part");
                    self.line(&format!("og_arr {v} = {c};"));
                    self.line(&format!(
                        "{v}.offset += {off} * {c}.stride[{dim}]; {v}.shape[{dim}] = {a}.shape[{dim}];"
                    ));
                    self.line(&format!("og_copy_into(&{v}, &{a}, {}, {rank});", ty.elem().byte_size()));
                    self.line(&format!("{off} += {a}.shape[{dim}];"));
                }
            }
            Exp::Copy(array) => {
                let c = one(0);
                let ty = pat[0].ty.clone();
                self.declare(pat);
                let (esize, rank) = (ty.elem().byte_size(), ty.rank());
                let a = vname(*array);
                if self.opts.backend == Backend::Multicore && !self.in_parallel {
                    // Outside parallel code, a large copy is shared among
                    // the threads.
                    let loc = self.loc(stm.span);
                    self.line(&format!(
                        "if (og_copy_fresh_par(ctx, &{c}, &{a}, {esize}, {rank}, {loc})) return og_propagate();"
                    ));
                    self.own(&c);
                } else {
                    // Allocated as any other array: in a repeated region (a
                    // loop's body, a lambda, a task) through the region's
                    // allocation site, not from malloc each time (the
                    // D-LSTM's sweeps copy their states once per layer and
                    // step).
                    let dims: Vec<String> = (0..rank).map(|d| format!("{a}.shape[{d}]")).collect();
                    self.alloc(&c, ty.elem(), &dims, stm.span);
                    self.line(&format!("og_copy_into(&{c}, &{a}, {esize}, {rank});"));
                }
            }
            Exp::ArrayLit { elems, elem_ty } => {
                let c = one(0);
                let ty = pat[0].ty.clone();
                self.declare(pat);
                let mut dims = vec![elems.len().to_string()];
                dims.extend(self.type_dims(elem_ty));
                if let (Some(SubExp::Var(first)), true) = (elems.first(), elem_ty.is_array()) {
                    for d in 0..elem_ty.rank() {
                        dims[d + 1] = format!("{}.shape[{d}]", vname(*first));
                    }
                }
                self.alloc(&c, ty.elem(), &dims, stm.span);
                for (k, e) in elems.iter().enumerate() {
                    let ety = self.se_type(e)?;
                    if ety.is_array() {
                        for d in 0..ety.rank() {
                            let e = self.se(e);
                            self.fail(
                                &format!("{e}.shape[{d}] != {}", dims[d + 1]),
                                stm.span,
                                "Array literal has rows of different sizes.",
                                &[],
                            );
                        }
                    }
                    let dest = Dest::At { arr: c.clone(), rank: ty.rank(), elem: ty.elem(), idxs: vec![k.to_string()] };
                    let src = self.se(e);
                    self.store(&dest, &src, &ety);
                }
            }
            Exp::Assert { cond, message, args } => {
                let cond = self.se(cond);
                // `#[unsafe]` removes assertions from compiled code, as in Futhark.
                if stm.attrs.unsafe_ {
                    self.line(&format!("(void)({cond});"));
                } else {
                    self.assert_check(stm, &cond, message, args);
                }
                // A user assertion's certificate.
                if let Some(p) = pat.first() {
                    self.line(&format!("bool {} = 1;", vname(p.name)));
                }
            }
            Exp::Certify { values, .. } => {
                for (p, v) in pat.iter().zip(values) {
                    self.line(&format!("{} {} = {};", cty(&p.ty), vname(p.name), self.se(v)));
                }
            }
            Exp::UserParam { name, default } => {
                let k = self.tuning.iter().position(|n| n == name).ok_or("C backend: unknown tuning parameter")?;
                let d = self.se(default);
                self.line(&format!("int64_t {} = ctx->tuning_set[{k}] ? ctx->tuning[{k}] : {d};", one(0)));
            }
            Exp::Soac(soac) => self.soac(stm, soac)?,
            // The middle end's `ad` pass removes every one.
            Exp::Ad { .. } => return Err("C backend: automatic differentiation left in the IR".to_string()),
        }
        Ok(())
    }

    /// The check of an assertion: fails with its message (its values
    /// printed in place) unless `cond` holds.
    fn assert_check(&mut self, stm: &Stm, cond: &str, message: &str, args: &[(usize, SubExp)]) {
        let loc = self.loc(stm.span);
        if args.is_empty() {
            self.line(&format!(
                "if (!{cond}) return og_fail(ctx, {loc}, \"%s\", {});",
                c_string(message).replace("%%", "%")
            ));
            return;
        }
        // The text as adjacent C literals (`%` doubled by `c_string`) with a
        // `%lld` for each value.
        let mut fmt = String::new();
        let mut values = String::new();
        let mut at = 0;
        for (k, a) in args {
            let k = (*k).clamp(at, message.len());
            fmt.push_str(&c_string(message.get(at..k).unwrap_or_default()));
            fmt.push_str(" \"%lld\" ");
            let _ = write!(values, ", (long long)({})", self.se(a));
            at = k;
        }
        fmt.push_str(&c_string(message.get(at..).unwrap_or_default()));
        self.line(&format!("if (!{cond}) return og_fail(ctx, {loc}, {fmt}{values});"));
    }

    /// Opens nested `for` loops over `dims`; returns the index variables.
    fn open_loops(&mut self, dims: &[String]) -> Vec<String> {
        let mut idxs = Vec::new();
        for d in dims {
            let i = self.fresh("i");
            self.line(&format!("for (int64_t {i} = 0; {i} < {d}; {i}++) {{"));
            self.indent += 1;
            idxs.push(i);
        }
        idxs
    }

    fn close_loops(&mut self, n: usize) {
        for _ in 0..n {
            self.indent -= 1;
            self.line("}");
        }
    }

    fn loop_(&mut self, stm: &Stm, params: &[(Param, SubExp)], form: &LoopForm, body: &Body) -> Res<()> {
        for (p, init) in params {
            let c = vname(p.name);
            let init = self.se(init);
            if p.ty.is_array() {
                self.line(&format!("og_arr {c} = {init}; og_ref({c}.mem);"));
            } else {
                self.line(&format!("{} {c} = {init};", cty(&p.ty)));
            }
        }
        match form {
            LoopForm::For { i, bound } => {
                let (i, bound) = (vname(*i), self.se(bound));
                self.line(&format!("for (int64_t {i} = 0; {i} < {bound}; {i}++) {{"));
            }
            LoopForm::While { cond } => self.line(&format!("while ({}) {{", vname(*cond))),
        }
        self.indent += 1;
        let nexts: Vec<String> = params.iter().map(|(p, _)| format!("{}_next", vname(p.name))).collect();
        for ((p, _), n) in params.iter().zip(&nexts) {
            if p.ty.is_array() {
                self.line(&format!("og_arr {n} = {{0}};"));
            } else {
                self.line(&format!("{} {n};", cty(&p.ty)));
            }
        }
        // A parameter whose memory every iteration keeps is borrowed for the
        // next iteration: taking a reference and dropping the old one would cancel.
        let kept = memory_kept_params(params, body);
        let dests: Vec<Dest> = nexts
            .iter()
            .zip(&kept)
            .map(|(n, &k)| if k { Dest::Borrow(n.clone()) } else { Dest::Fresh(n.clone()) })
            .collect();
        self.body(body, &dests)?;
        for (((p, _), n), &k) in params.iter().zip(&nexts).zip(&kept) {
            let c = vname(p.name);
            if p.ty.is_array() && !k {
                self.line(&format!("og_unref({c}.mem);"));
            }
            self.line(&format!("{c} = {n};"));
        }
        self.indent -= 1;
        self.line("}");
        for (p, (lp, _)) in stm.pat.iter().zip(params) {
            let ty = cty(&p.ty);
            self.line(&format!("{ty} {} = {};", vname(p.name), vname(lp.name)));
            if p.ty.is_array() {
                self.own(&vname(p.name));
            }
        }
        Ok(())
    }

    /// Checks a slice of `arr` against its run-time shape (a failure is a
    /// run-time error), unless the statement is `#[unsafe]`: written so, or
    /// marked by the middle end's `bounds` pass, which proved it in bounds.
    fn check_slice(&mut self, stm: &Stm, arr: &str, slice: &[DimIndex], rank: usize) {
        // Indices proven in bounds were marked by the middle end's `bounds` pass.
        if stm.attrs.unsafe_ {
            return;
        }
        let mut conds = Vec::new();
        let mut fmt = String::from("Index [");
        let mut args = Vec::new();
        for (d, di) in slice.iter().enumerate() {
            if d > 0 {
                fmt.push_str(", ");
            }
            let n = format!("{arr}.shape[{d}]");
            match di {
                DimIndex::Fix(i) => {
                    let i = self.se(i);
                    conds.push(format!("({i} < 0 || {i} >= {n})"));
                    fmt.push_str("%lld");
                    args.push(i);
                }
                DimIndex::Slice { start, len, stride } => {
                    let (s, l, k) = (self.se(start), self.se(len), self.se(stride));
                    conds.push(format!(
                        "({l} < 0 || ({l} > 0 && ({s} < 0 || {s} >= {n} || {s} + ({l} - 1) * {k} < 0 || {s} + ({l} - 1) * {k} >= {n})))"
                    ));
                    fmt.push_str("%lld:+%lld*%lld");
                    args.extend([s, l, k]);
                }
            }
        }
        fmt.push_str("] out of bounds for array of shape ");
        for d in 0..rank {
            fmt.push_str("[%lld]");
            args.push(format!("{arr}.shape[{d}]"));
        }
        fmt.push('.');
        if !conds.is_empty() {
            self.fail(&conds.join(" || "), stm.span, &fmt, &args);
        }
    }

    /// Emits a view of `arr` through a slice with at least one `Slice`; returns its name.
    fn slice_view(&mut self, arr: &str, slice: &[DimIndex], rank: usize) -> String {
        let v = self.fresh("slice");
        self.line(&format!("og_arr {v} = {arr};"));
        let mut off = format!("{arr}.offset");
        let mut out_dim = 0;
        let mut assigns = Vec::new();
        for (d, di) in slice.iter().enumerate() {
            match di {
                DimIndex::Fix(i) => {
                    let _ = write!(off, " + ({}) * {arr}.stride[{d}]", self.se(i));
                }
                DimIndex::Slice { start, len, stride } => {
                    let (s, l, k) = (self.se(start), self.se(len), self.se(stride));
                    let _ = write!(off, " + ({s}) * {arr}.stride[{d}]");
                    assigns.push(format!(
                        "{v}.shape[{out_dim}] = {l}; {v}.stride[{out_dim}] = ({k}) * {arr}.stride[{d}];"
                    ));
                    out_dim += 1;
                }
            }
        }
        for d in slice.len()..rank {
            assigns
                .push(format!("{v}.shape[{out_dim}] = {arr}.shape[{d}]; {v}.stride[{out_dim}] = {arr}.stride[{d}];"));
            out_dim += 1;
        }
        for d in out_dim..rank {
            assigns.push(format!("{v}.shape[{d}] = 0; {v}.stride[{d}] = 0;"));
        }
        self.line(&format!("{v}.offset = {off};"));
        for a in assigns {
            self.line(&a);
        }
        v
    }

    fn index(&mut self, stm: &Stm, array: VName, slice: &[DimIndex]) -> Res<()> {
        let a = vname(array);
        let aty = self.ty(array)?.clone();
        let rank = aty.rank();
        self.check_slice(stm, &a, slice, rank);
        let c = vname(stm.pat[0].name);
        if slice.len() == rank && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
            let idxs: Vec<String> = slice
                .iter()
                .map(|d| match d {
                    DimIndex::Fix(i) => self.se(i),
                    DimIndex::Slice { .. } => unreachable!("checked all Fix"),
                })
                .collect();
            let e = Self::elem(&a, aty.elem(), &idxs);
            self.line(&format!("{} {c} = {e};", ctype(aty.elem())));
        } else {
            let v = self.slice_view(&a, slice, rank);
            self.line(&format!("og_arr {c} = {v};"));
        }
        Ok(())
    }

    fn update(&mut self, stm: &Stm, array: VName, slice: &[DimIndex], value: &SubExp) -> Res<()> {
        let a = vname(array);
        let aty = self.ty(array)?.clone();
        let rank = aty.rank();
        self.check_slice(stm, &a, slice, rank);
        let vty = self.se_type(value)?;
        let v = self.se(value);
        if slice.len() == rank && slice.iter().all(|d| matches!(d, DimIndex::Fix(_))) {
            let idxs: Vec<String> = slice
                .iter()
                .map(|d| match d {
                    DimIndex::Fix(i) => self.se(i),
                    DimIndex::Slice { .. } => unreachable!("checked all Fix"),
                })
                .collect();
            let e = Self::elem(&a, aty.elem(), &idxs);
            self.line(&format!("{e} = {v};"));
        } else {
            let view = self.slice_view(&a, slice, rank);
            let vrank = vty.rank();
            if vty.is_array() {
                for d in 0..vrank {
                    self.fail(
                        &format!("{view}.shape[{d}] != {v}.shape[{d}]"),
                        stm.span,
                        "Value of shape does not match the shape of the slice being updated.",
                        &[],
                    );
                }
                self.line(&format!("og_copy_into(&{view}, &{v}, {}, {vrank});", aty.elem().byte_size()));
            } else {
                self.line(&format!("{} = {v};", Self::elem(&view, aty.elem(), &[])));
            }
        }
        self.line(&format!("og_arr {} = {a};", vname(stm.pat[0].name)));
        Ok(())
    }

    fn reshape(&mut self, stm: &Stm, array: VName, shape: &[SubExp]) -> Res<()> {
        let a = vname(array);
        let aty = self.ty(array)?.clone();
        let c = vname(stm.pat[0].name);
        let dims: Vec<String> = shape.iter().map(|d| self.se(d)).collect();
        // The new element count is computed with overflow checks
        // (`og_shape_elems` gives -1 for a negative or overflowing shape): a
        // product that wraps around to the old count would give a view larger
        // than its data.
        let new_n = if dims.is_empty() {
            "1".to_string()
        } else {
            let shp = self.fresh("shape");
            self.line(&format!("const int64_t {shp}[{}] = {{{}}};", dims.len(), dims.join(", ")));
            format!("og_shape_elems({}, {shp})", dims.len())
        };
        let old_n = self.fresh("n");
        self.line(&format!("int64_t {old_n} = og_shape_elems({}, {a}.shape);", aty.rank()));
        let mut fmt = String::from("Cannot reshape array of shape ");
        let mut args = Vec::new();
        for d in 0..aty.rank() {
            fmt.push_str("[%lld]");
            args.push(format!("{a}.shape[{d}]"));
        }
        fmt.push_str(" to shape ");
        for d in &dims {
            fmt.push_str("[%lld]");
            args.push(d.clone());
        }
        fmt.push('.');
        self.fail(&format!("{old_n} < 0 || {old_n} != {new_n}"), stm.span, &fmt, &args);
        // A contiguous view is re-indexed in place; any other view is copied first.
        let keep = self.fresh("keep");
        let loc = self.loc(stm.span);
        self.line(&format!("og_arr {keep} = {{0}};"));
        self.own(&keep);
        self.line(&format!("og_arr {c} = {a};"));
        self.line(&format!("if (!og_is_contiguous(&{a}, {})) {{", aty.rank()));
        self.line(&format!(
            "  if (og_copy_fresh(ctx, &{keep}, &{a}, {}, {}, {loc})) return og_propagate();",
            aty.elem().byte_size(),
            aty.rank()
        ));
        self.line(&format!("  {c} = {keep};"));
        self.line("}");
        for (d, dim) in dims.iter().enumerate() {
            self.line(&format!("{c}.shape[{d}] = {dim};"));
        }
        self.line(&format!("og_set_row_major(&{c}, {});", dims.len()));
        Ok(())
    }

    // ---- SOACs ----

    fn soac(&mut self, stm: &Stm, soac: &Soac) -> Res<()> {
        let parallel = self.opts.backend == Backend::Multicore && !self.in_parallel && !stm.attrs.sequential;
        match soac {
            Soac::Screma { w, arrs, scans, reduces, map } => {
                if parallel && self.screma_parallelisable(stm, scans, reduces)? {
                    self.screma_par_or_seq(stm, w, arrs, scans, reduces, map)
                } else if let Some(inner) =
                    stm.attrs.interchange.then(|| ogham_ir::layout::interchange_inner(stm)).flatten()
                {
                    self.screma_interchanged(stm, w, arrs, map, inner)
                } else {
                    self.screma_seq(stm, w, arrs, scans, reduces, map)
                }
            }
            Soac::Hist { w, arrs, ops, map } => {
                let merges = if parallel { self.hist_par_merges(ops)? } else { None };
                if let Some(merges) = merges {
                    self.hist_par(stm, (w, arrs), ops, map, merges)
                } else if parallel && self.hist_rows_parallelisable(ops)? {
                    self.hist_par_rows(stm, w, arrs, ops, map)
                } else {
                    self.hist(stm, w, arrs, ops, map)
                }
            }
            Soac::Scatter { w, arrs, dests, map } => self.scatter(stm, w, arrs, dests, map, parallel),
            Soac::WithAcc { w, arrs, accs, map } => self.with_acc(stm, w, arrs, accs, map, parallel),
        }
    }

    /// Binds lambda parameters to row `j` of the input arrays (borrowed views for rows that are arrays).
    fn bind_rows(&mut self, params: &[Param], arrs: &[VName], j: &str) -> Res<()> {
        for (p, a) in params.iter().zip(arrs) {
            if let Some(v) = self.virt.get(a).cloned() {
                let c = vname(p.name);
                let e = match v {
                    Virtual::Iota { start, step, elem } => {
                        let t = ctype(elem);
                        let zero = |s: &SubExp| matches!(s, SubExp::Const(v) if v.as_i64() == 0);
                        let one = |s: &SubExp| matches!(s, SubExp::Const(v) if v.as_i64() == 1);
                        // The common `iota n` is the index itself (cheap even in unoptimised builds).
                        let scaled = if one(&step) {
                            format!("(({t}){j})")
                        } else {
                            binop(BinOp::Mul, elem, &format!("(({t}){j})"), &self.se(&step))?
                        };
                        if zero(&start) {
                            scaled
                        } else {
                            binop(BinOp::Add, elem, &self.se(&start), &scaled)?
                        }
                    }
                    Virtual::Replicate { value } => self.se(&value),
                };
                self.line(&format!("{} {c} = {e};", cty(&p.ty)));
                continue;
            }
            let rank = self.rank_of(*a)?;
            let elem = self.ty(*a)?.elem();
            let c = vname(p.name);
            if p.ty.is_array() {
                self.line(&format!("og_arr {c} = og_row({}, {rank}, {j});", vname(*a)));
            } else {
                let e = Self::elem(&vname(*a), elem, &[j.to_string()]);
                self.line(&format!("{} {c} = {e};", ctype(elem)));
            }
        }
        Ok(())
    }

    /// Applies an operator: `accs := op(accs, news)`. `accs` are owned (arrays replaced).
    fn apply_op(&mut self, op: &Operator, accs: &[String], news: &[String]) -> Res<()> {
        let k = op.neutral.len();
        self.line("{");
        self.indent += 1;
        for (i, p) in op.lambda.params.iter().enumerate() {
            let src = if i < k { &accs[i] } else { &news[i - k] };
            self.line(&format!("{} {} = {src};", cty(&p.ty), vname(p.name)));
        }
        let dests: Vec<Dest> = accs.iter().map(|a| Dest::Replace(a.clone())).collect();
        self.body(&op.lambda.body, &dests)?;
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Declares operator accumulators initialised to the neutral elements.
    fn init_accs(&mut self, op: &Operator) -> Vec<String> {
        let mut accs = Vec::new();
        for (i, n) in op.neutral.iter().enumerate() {
            let acc = self.fresh("acc");
            let ty = op.lambda.ret.get(i).cloned().unwrap_or(Type::Prim(PrimType::I64));
            let n = self.se(n);
            if ty.is_array() {
                self.line(&format!("og_arr {acc} = {n}; og_ref({acc}.mem);"));
            } else {
                self.line(&format!("{} {acc} = {n};", cty(&ty)));
            }
            accs.push(acc);
        }
        accs
    }

    /// The variables a parallel task needs from its surroundings.
    fn task_free_vars(&self, stm: &Stm) -> Vec<VName> {
        let mut fv: BTreeSet<VName> = free_vars_exp(&stm.exp);
        for p in &stm.pat {
            for d in p.ty.shape() {
                if let SubExp::Var(v) = d {
                    fv.insert(*v);
                }
            }
        }
        // A virtual array is recomputed inside the task from its operands.
        for v in fv.clone() {
            if let Some(virt) = self.virt.get(&v) {
                fv.remove(&v);
                let ops = match virt {
                    Virtual::Iota { start, step, .. } => vec![*start, *step],
                    Virtual::Replicate { value } => vec![*value],
                };
                for o in ops {
                    if let SubExp::Var(x) = o {
                        fv.insert(x);
                    }
                }
            }
        }
        let bound: BTreeSet<VName> = stm.pat.iter().map(|p| p.name).collect();
        fv.into_iter().filter(|v| !bound.contains(v) && self.types.contains_key(v)).collect()
    }

    /// Starts a task function: returns (struct name, function name, saved state).
    /// `fields` are extra closure fields (C declarations).
    fn begin_task(&mut self, free: &[VName], fields: &[String]) -> (String, String, (String, usize, Vec<Vec<String>>)) {
        let id = self.fresh("task");
        let sname = format!("og_cl_{id}");
        let fname = format!("og_{id}");
        let mut def = format!("struct {sname} {{\n  og_ctx *ctx;\n");
        for v in free {
            let ty = &self.types[v];
            let _ = writeln!(def, "  {} {};", cty(ty), vname(*v));
        }
        for f in fields {
            let _ = writeln!(def, "  {f};");
        }
        def.push_str("};\n");
        self.tasks.push(def);
        let saved = (std::mem::take(&mut self.out), self.indent, std::mem::take(&mut self.scopes));
        self.indent = 1;
        self.in_parallel = true;
        self.line(&format!("struct {sname} *cl = closure;"));
        self.line("og_ctx *ctx = cl->ctx; (void)ctx;");
        for v in free {
            let ty = &self.types[v];
            self.line(&format!("{} {} = cl->{}; (void){};", cty(ty), vname(*v), vname(*v), vname(*v)));
        }
        // A task runs a chunk of iterations: the whole body is a repeated region.
        let outer = std::mem::take(&mut self.frames);
        self.saved_frames.push(outer);
        self.begin_frame(vec![]);
        (sname, fname, saved)
    }

    fn end_task(&mut self, fname: &str, saved: (String, usize, Vec<Vec<String>>)) {
        self.end_frame();
        self.frames = self.saved_frames.pop().unwrap_or_default();
        self.line("return 0;");
        let body = std::mem::replace(&mut self.out, saved.0);
        self.indent = saved.1;
        self.scopes = saved.2;
        self.in_parallel = false;
        self.tasks.push(format!(
            "static int {fname}(void *closure, int64_t start, int64_t end, int64_t chunk) {{\n  (void)chunk;\n{body}}}\n"
        ));
    }

    /// Emits the closure initialisation for a task in the current function.
    fn closure_init(&mut self, sname: &str, free: &[VName], extra: &[(String, String)]) -> String {
        let cl = self.fresh("cl");
        self.line(&format!("struct {sname} {cl};"));
        self.line(&format!("{cl}.ctx = ctx;"));
        for v in free {
            self.line(&format!("{cl}.{} = {};", vname(*v), vname(*v)));
        }
        for (f, val) in extra {
            self.line(&format!("{cl}.{f} = {val};"));
        }
        cl
    }

    fn scatter(
        &mut self,
        stm: &Stm,
        w: &SubExp,
        arrs: &[VName],
        dests: &[VName],
        map: &Lambda,
        parallel: bool,
    ) -> Res<()> {
        for (p, d) in stm.pat.iter().zip(dests) {
            self.line(&format!("og_arr {} = {};", vname(p.name), vname(*d)));
        }
        // Work out how many indices each destination takes: the value's rank says.
        let ranks = dests.iter().map(|d| self.rank_of(*d)).collect::<Res<Vec<usize>>>()?;
        let counts = ogham_ir::scatter_layout(&map.ret, ranks).ok_or("C backend: malformed scatter lambda")?;
        let w = self.se(w);
        let lowered = self.scatter_lowered(arrs, map, (dests, &counts));
        if !parallel {
            match lowered {
                Some(k) => self.run_kernel(k, ("0", &w), stm.span, |g, b| simd::scatter_binding(g, b, dests))?,
                None => self.scatter_iterations(("0".to_string(), w), arrs, map, dests, &counts)?,
            }
            return Ok(());
        }
        let chunks = format!("og_num_chunks(ctx, {w}, {})", grain(map));
        if let Some(k) = lowered {
            // A kernel, as a parallel job.
            let job = self.launch_kernel(k, (&w, &chunks), stm.span, |g, b| simd::scatter_binding(g, b, dests))?;
            self.line(&format!("if ({job}) return og_propagate();"));
            return Ok(());
        }
        let free = self.task_free_vars(stm);
        let (sname, fname, saved) = self.begin_task(&free, &[]);
        for (p, d) in stm.pat.iter().zip(dests) {
            self.line(&format!("og_arr {} = {};", vname(p.name), vname(*d)));
        }
        self.scatter_iterations(("start".to_string(), "end".to_string()), arrs, map, dests, &counts)?;
        self.end_task(&fname, saved);
        let cl = self.closure_init(&sname, &free, &[]);
        self.line(&format!("if (og_parallel(ctx, {fname}, &{cl}, {w}, {chunks})) return og_propagate();"));
        Ok(())
    }

    /// The loop of a `scatter` over iterations `lo .. hi`, statement by
    /// statement: the map function, then per destination its store where
    /// its indices (`counts` of them, then the value, in the function's
    /// results) are in range.
    fn scatter_iterations(
        &mut self,
        (lo, hi): (String, String),
        arrs: &[VName],
        map: &Lambda,
        dests: &[VName],
        counts: &[usize],
    ) -> Res<()> {
        let mut layout = Vec::with_capacity(counts.len());
        let mut pos = 0;
        for &n in counts {
            layout.push((pos, n));
            pos += n + 1;
        }
        self.line(&format!("for (int64_t j = {lo}; j < {hi}; j++) {{"));
        self.indent += 1;
        let temps = self.hist_map_body(arrs, map, "j")?;
        for (d, (p, n)) in dests.iter().zip(&layout) {
            let dty = self.ty(*d)?.clone();
            let dc = vname(*d);
            let idxs: Vec<String> = temps[*p..p + n].iter().map(|(t, _)| t.clone()).collect();
            let conds: Vec<String> =
                idxs.iter().enumerate().map(|(k, i)| format!("{i} >= 0 && {i} < {dc}.shape[{k}]")).collect();
            let (val, vty) = temps[p + n].clone();
            let mut cond = if conds.is_empty() { "true".to_string() } else { conds.join(" && ") };
            if vty.is_array() {
                for k in 0..vty.rank() {
                    let _ = write!(cond, " && {val}.shape[{k}] == {dc}.shape[{}]", n + k);
                }
            }
            self.line(&format!("if ({cond}) {{"));
            self.indent += 1;
            let dest = Dest::At { arr: dc, rank: dty.rank(), elem: dty.elem(), idxs };
            self.store(&dest, &val, &vty);
            self.indent -= 1;
            self.line("}");
        }
        self.release_temps(map, &temps);
        self.indent -= 1;
        self.line("}");
        Ok(())
    }
}

trait IsArray {
    fn is_array(&self) -> bool;
}

impl IsArray for Type {
    fn is_array(&self) -> bool {
        matches!(self, Type::Array { .. })
    }
}

/// Which of a loop's parameters are arrays whose memory every iteration
/// keeps: the body returns, in the parameter's place, the parameter itself
/// or what in-place updates, accumulator updates, `withacc`s and inner
/// loops of this kind made of it, all of which view the same block. The
/// loop's own reference to the block then lasts from its first iteration
/// to its result, and the reference the next iteration's binding would
/// take cancels the one dropped from this one's, so neither is made (the
/// D-LSTM gradient's saved values, carried as accumulators through its
/// loops over time and layers: two calls per parameter and iteration).
fn memory_kept_params(params: &[(Param, SubExp)], body: &Body) -> Vec<bool> {
    // The parameter (its position) whose block each variable views.
    let mut root: HashMap<VName, usize> =
        params.iter().enumerate().filter(|(_, (p, _))| p.ty.is_array()).map(|(k, (p, _))| (p.name, k)).collect();
    for stm in &body.stms {
        match &stm.exp {
            Exp::Update { array: a, .. } | Exp::UpdAcc { acc: a, .. } | Exp::SubExp(SubExp::Var(a)) => {
                if let Some(&k) = root.get(a) {
                    root.insert(stm.pat[0].name, k);
                }
            }
            Exp::Soac(Soac::WithAcc { accs, .. }) => {
                for (p, a) in stm.pat.iter().zip(accs) {
                    if let Some(&k) = root.get(a) {
                        root.insert(p.name, k);
                    }
                }
            }
            Exp::Loop { params: inner, body: inner_body, .. } => {
                let kept = memory_kept_params(inner, inner_body);
                for ((p, (_, init)), kept) in stm.pat.iter().zip(inner).zip(kept) {
                    if let Some(&k) = init.as_var().and_then(|x| root.get(&x)).filter(|_| kept) {
                        root.insert(p.name, k);
                    }
                }
            }
            _ => {}
        }
    }
    body.result.iter().enumerate().map(|(k, r)| r.as_var().and_then(|v| root.get(&v)) == Some(&k)).collect()
}

/// The C suffix of a type's runtime helpers (`og_add_int32_t`).
/// Per result of a lambda: whether it is a variable the body does not bind
/// (a parameter, so a row of a SOAC input, or a variable from outside),
/// which outlives any one iteration and so can be borrowed.
fn borrowed_results(lam: &Lambda) -> Vec<bool> {
    let bound: BTreeSet<VName> = lam.body.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).collect();
    lam.body.result.iter().map(|r| matches!(r, SubExp::Var(v) if !bound.contains(v))).collect()
}

/// Whether an operator is `\\x y -> x + y` (either operand order).
fn is_integer_add(lam: &Lambda) -> bool {
    let ([a, b], [stm], [SubExp::Var(r)]) =
        (lam.params.as_slice(), lam.body.stms.as_slice(), lam.body.result.as_slice())
    else {
        return false;
    };
    let Exp::BinOp(BinOp::Add, _, SubExp::Var(x), SubExp::Var(y)) = &stm.exp else { return false };
    stm.pat.len() == 1 && stm.pat[0].name == *r && ((*x, *y) == (a.name, b.name) || (*x, *y) == (b.name, a.name))
}

/// What an elementary function (`exp`, `log`, `tanh`, `pow`, …) counts
/// for in [`work`], against one for other statements: a libm call of
/// 15-25 ns. Counted as one, the maps of GMM's gradient over a chunk's 327
/// points of 25 `exp`s each ran on the calling thread while the other
/// waited (in a profile of two threads, `exp` took 1.19% of the samples on
/// the caller and 0.54% on the worker, which spun 4.47% of them; now 0.60,
/// 0.92 and 3.89%).
const ELEMENTARY_COST: usize = 16;

/// How [`Gen::screma_seq_into`] runs a screma's loop on the calling thread.
#[derive(Clone, Copy)]
struct SeqForm {
    /// Declare the reductions' result variables (else they were declared
    /// before).
    declare: bool,
    /// Run the map function statement by statement, so that the SOACs in
    /// it may run in parallel, instead of in the fastest form for one
    /// thread (a kernel, which runs them inside it).
    nested: bool,
}

/// Whether `body` runs a SOAC or a call of its own (in a loop or a branch
/// too), which the multicore backend may run in parallel when the
/// enclosing SOAC has too few iterations to share among the threads.
fn has_inner_soac(body: &Body) -> bool {
    body.stms.iter().any(|stm| match &stm.exp {
        Exp::Soac(_) => !stm.attrs.sequential,
        Exp::Apply { .. } => true,
        Exp::Loop { body, .. } => has_inner_soac(body),
        Exp::If { then_body, else_body, .. } => has_inner_soac(then_body) || has_inner_soac(else_body),
        _ => false,
    })
}

/// The fewest iterations of `lam` worth a parallel chunk, as a C
/// expression: enough iterations for [`work`]'s estimate of their
/// operations to outweigh handing a chunk to a thread (`og_grain` in
/// `rts/scheduler.h`), so a map of a few short rows inside a sequential
/// loop (an LSTM cell) runs on the calling thread; one when the estimate
/// cannot be made before the SOAC runs (a `while` loop, a call, a size
/// computed inside).
fn grain(lam: &Lambda) -> String {
    match work(&lam.body, &ogham_ir::visit::free_vars_lambda(lam)) {
        Some(cost) => format!("og_grain({cost})"),
        None => "1".to_string(),
    }
}

/// An estimate of the operations one run of `body` does, as a C `double`
/// expression in variables known before it runs (`outside`): one per
/// statement ([`ELEMENTARY_COST`] for an elementary function), times the
/// width of each SOAC and the trip count of each `for` loop; `None` when a
/// width or count is only known inside, or the body has a `while` loop or
/// a call.
fn work(body: &Body, outside: &BTreeSet<VName>) -> Option<String> {
    let size = |se: &SubExp| match se {
        SubExp::Const(v) => Some(format!("{}.0", v.as_i64())),
        SubExp::Var(v) if outside.contains(v) => Some(format!("(double){}", vname(*v))),
        SubExp::Var(_) => None,
    };
    let elementary = body
        .stms
        .iter()
        .filter(|s| match &s.exp {
            Exp::UnOp(op, ..) => op.is_elementary_function(),
            Exp::BinOp(op, ..) => op.is_elementary_function(),
            _ => false,
        })
        .count();
    let own = body.stms.len().max(1) + elementary * (ELEMENTARY_COST - 1);
    let mut terms = vec![own.to_string() + ".0"];
    for stm in &body.stms {
        match &stm.exp {
            Exp::Apply { .. } | Exp::Loop { form: LoopForm::While { .. }, .. } => return None,
            Exp::Loop { form: LoopForm::For { bound: n, .. }, body, .. } => {
                terms.push(format!("{} * {}", size(n)?, work(body, outside)?));
            }
            Exp::Soac(soac) => {
                let w = match soac {
                    Soac::Screma { w, .. }
                    | Soac::Hist { w, .. }
                    | Soac::Scatter { w, .. }
                    | Soac::WithAcc { w, .. } => w,
                };
                let inner: Vec<String> = ogham_ir::visit::lambdas(&stm.exp)
                    .into_iter()
                    .map(|l| work(&l.body, outside))
                    .collect::<Option<_>>()?;
                terms.push(format!("{} * ({})", size(w)?, inner.join(" + ")));
            }
            exp => {
                for b in ogham_ir::visit::bodies(exp) {
                    terms.push(work(b, outside)?);
                }
            }
        }
    }
    Some(format!("({})", terms.join(" + ")))
}

/// The highest rank of an array in the program: of a function's parameters
/// and results, of a constant, or of a variable bound anywhere inside.
fn program_rank(prog: &Program) -> usize {
    fn body(b: &Body) -> usize {
        b.stms.iter().map(stm).max().unwrap_or(0)
    }
    fn lambda(l: &Lambda) -> usize {
        let params = l.params.iter().map(|p| p.ty.rank());
        params.chain(l.ret.iter().map(Type::rank)).chain([body(&l.body)]).max().unwrap_or(0)
    }
    fn stm(s: &Stm) -> usize {
        let pat = s.pat.iter().map(|p| p.ty.rank());
        let binders = ogham_ir::visit::exp_binders(&s.exp).into_iter().map(|p| p.ty.rank());
        let bodies = ogham_ir::visit::bodies(&s.exp).into_iter().map(body);
        let lambdas = ogham_ir::visit::lambdas(&s.exp).into_iter().map(lambda);
        pat.chain(binders).chain(bodies).chain(lambdas).max().unwrap_or(0)
    }
    let consts = prog.consts.iter().map(stm);
    let funs = prog.funs.iter().map(|f| {
        let sig = f.params.iter().map(|p| p.ty.rank()).chain(f.ret.iter().map(Type::rank));
        sig.chain([body(&f.body)]).max().unwrap_or(0)
    });
    consts.chain(funs).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop's parameters updated in place, through an accumulator, or by
    /// an inner loop that keeps its own parameter's memory keep theirs;
    /// one replaced by a copy, or by an inner loop's copy, does not.
    #[test]
    fn loop_parameters_that_keep_their_memory() {
        let text = "\
entry main (n_0: i64, xs_1: [n_0]f64) : ([n_0]f64, [n_0]f64, [n_0]f64, [n_0]f64, [n_0]f64)
  inputs (\"n\": \"i64\" [0], \"xs\": \"[]f64\" [1])
  outputs (\"[]f64\" [0], \"[]f64\" [1], \"[]f64\" [2], \"[]f64\" [3], \"[]f64\" [4]) {
  let (a_2: [n_0]f64) = copy(xs_1)
  let (b_3: [n_0]f64) = copy(xs_1)
  let (c_4: [n_0]f64) = copy(xs_1)
  let (d_5: [n_0]f64) = copy(xs_1)
  let (e_6: [n_0]f64) = copy(xs_1)
  let (ra_7: [n_0]f64, rb_8: [n_0]f64, rc_9: [n_0]f64, rd_10: [n_0]f64, re_11: [n_0]f64) = loop (pa_12: [n_0]f64 = a_2, pb_13: [n_0]f64 = b_3, pc_14: [n_0]f64 = c_4, pd_15: [n_0]f64 = d_5, pe_16: [n_0]f64 = e_6) for i_17 < n_0 {
      let (x_18: f64) = index xs_1[i_17]
      let (ua_19: [n_0]f64) = update pa_12[i_17] = x_18
      let (ub_20: [n_0]f64) = updacc(add) pb_13[i_17] = x_18
      let (uc_21: [n_0]f64) = copy(pc_14)
      let (ud_22: [n_0]f64) = loop (q_23: [n_0]f64 = pd_15) for j_24 < n_0 {
          let (uq_25: [n_0]f64) = update q_23[j_24] = x_18
          in (uq_25)
        }
      let (ue_26: [n_0]f64) = loop (s_27: [n_0]f64 = pe_16) for j_28 < n_0 {
          let (us_29: [n_0]f64) = copy(s_27)
          in (us_29)
        }
      in (ua_19, ub_20, uc_21, ud_22, ue_26)
    }
  in (ra_7, rb_8, rc_9, rd_10, re_11)
}
";
        let prog = ogham_ir::parse::parse_program(text).unwrap_or_else(|e| panic!("{e}"));
        let stm = prog.funs[0].body.stms.iter().find(|s| matches!(s.exp, Exp::Loop { .. })).unwrap();
        let Exp::Loop { params, body, .. } = &stm.exp else { unreachable!() };
        assert_eq!(memory_kept_params(params, body), [true, true, false, true, false]);
    }
}
