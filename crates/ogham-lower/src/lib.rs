//! Lowering from the checked AST to the core IR.
//!
//! Strategy: static evaluation. Entry points become IR functions, and so
//! does every instantiation of a top-level function that is called with
//! first-order arguments and returns a first-order result (`call.rs`:
//! memoised, so recursion becomes recursive calls). Every other function —
//! local, lambda, higher-order — is inlined where it is applied, by lowering
//! its body in an environment that binds its parameters to the arguments'
//! static values ([`value`]). Monomorphisation and defunctionalisation fall
//! out of this: type parameters are substituted at each instantiation, and
//! function values exist only during lowering. Records, tuples and sums are
//! flattened into their leaves, arrays of records into records of arrays.
//! The statements of an inlined top-level function (the prelude's `map`,
//! a user's higher-order function) get inlined spans, their place in it
//! and then the call ([`ogham_ir::relocate`]), as the middle end's inliner
//! gives them: run-time errors list the call, and a pass's rejection of
//! prelude code is reported at the user's call.
//!
//! Input: the parsed files in the order given to the checker, and the
//! checker's [`TypeInfo`]. Recursive higher-order functions pass their
//! function arguments unchanged (the checker enforces Futhark's rule), so
//! their instantiations are finite. Output: an [`ogham_ir::Program`] satisfying the IR's
//! invariants, or `not-supported-yet` diagnostics for constructs that cannot
//! be lowered yet.

mod accs;
mod arith;
mod builtin;
mod call;
mod control;
mod entry;
mod expr;
mod intrinsic;
mod pat;
mod types;
pub mod value;

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{Exp, NameTable, Param, SubExp, Type, VName};
use ogham_syntax::ast::{Dec, NodeId, Program, ValueDec};
use ogham_syntax::{Diagnostic, Span};
use ogham_types::{DefId, DefLoc, TypeInfo};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

pub use arith::{const_i64, fold_i64};

/// Lowers a checked program: every entry point in `info.entries` becomes an
/// IR function. `files` are in the order given to the checker.
pub fn lower(files: &[&Program], info: &TypeInfo) -> Result<ogham_ir::Program, Vec<Diagnostic>> {
    let mut lowerer = Lowerer::new(files, info);
    let mut funs = Vec::new();
    let mut errors = Vec::new();
    for &def in &info.entries {
        match lowerer.entry_point(def) {
            Ok(f) => funs.push(f),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        funs.append(&mut lowerer.funs);
        let mut prog =
            ogham_ir::Program { consts: lowerer.consts, funs, names: lowerer.names, inlined: lowerer.inlined };
        copy_constant_results(&mut prog);
        Ok(prog)
    } else {
        Err(errors)
    }
}

/// Makes every function result that may share memory with a constant a
/// copy of it: constants are shared by every call, and a caller may update
/// a result in place (the verifier rejects functions returning constants).
fn copy_constant_results(prog: &mut ogham_ir::Program) {
    use ogham_ir::alias::{const_arrays, fun_base, summaries, Walker};
    let consts = const_arrays(prog);
    if consts.is_empty() {
        return;
    }
    let sums = summaries(prog);
    let const_params: Vec<Param> = prog.const_params().cloned().collect();
    for f in &mut prog.funs {
        let effect = Walker::new(&sums, &fun_base(&consts, f)).body(&f.body);
        for (k, set) in effect.results.iter().enumerate() {
            if set.iter().any(|v| consts.contains_key(v)) {
                let SubExp::Var(v) = f.body.result[k] else { continue };
                // The result's own type: its sizes are in scope where the copy is made.
                let bound = f.params.iter().chain(f.body.stms.iter().flat_map(|s| &s.pat));
                let Some(ty) = bound.chain(&const_params).find(|p| p.name == v).map(|p| p.ty.clone()) else {
                    continue;
                };
                let name = prog.names.fresh("copy");
                f.body.stms.push(ogham_ir::Stm {
                    pat: vec![Param { name, ty }],
                    exp: Exp::Copy(v),
                    attrs: Default::default(),
                    span: f.span,
                });
                f.body.result[k] = SubExp::Var(name);
            }
        }
    }
}

/// The result of lowering one construct; the error is a `not-supported-yet`
/// (or, for inconsistent checker output, `internal-error`) diagnostic.
pub(crate) type LResult<T> = Result<T, Diagnostic>;

/// How deeply calls may be inlined inside each other before lowering gives up.
const MAX_INLINE_DEPTH: usize = 2000;

/// State of one lowering run.
pub(crate) struct Lowerer<'a> {
    files: &'a [&'a Program],
    info: &'a TypeInfo,
    pub names: NameTable,
    /// The IR type of every variable bound so far.
    types: HashMap<VName, Type>,
    /// Arrays that are visible under more than one source value although the
    /// checker considers one of them fresh (`zip` does not copy); they are
    /// copied before being consumed.
    shared: HashSet<VName>,
    /// The binder id of every top-level definition's name.
    def_by_binder: HashMap<NodeId, DefId>,
    /// Current nesting of inlined calls.
    depth: usize,
    /// How the next lambda built for a SOAC treats result sizes computed per
    /// row (see `intrinsic.rs`, irregular `map`).
    irregular: Irregular,
    /// The operator of every variable holding a leaf of an accumulator,
    /// see `accs.rs`.
    acc_ops: HashMap<VName, accs::AccOp<'a>>,
    /// Inline every call (while an accumulator's operator is built, whose
    /// primitive operators `accs.rs` reads from its statements).
    inline_calls: bool,
    /// Functions lowered to IR functions, by instantiation (see `call.rs`).
    outlined: Vec<call::Outlined<'a>>,
    /// The program's table of inlined spans ([`ogham_ir::Program::inlined`]):
    /// the statements of an inlined top-level function (the prelude's `map`
    /// and `scan`, or the user's higher-order functions) stand for their
    /// place in it and then the call, as the middle end's inliner records.
    inlined: Vec<(Span, Span)>,
    memo: HashMap<String, usize>,
    /// The IR functions made for calls, in the order they were finished.
    funs: Vec<ogham_ir::FunDef>,
    /// Skipped numbers when a function name would clash with a definition's.
    fun_name_bump: usize,
    /// The definitions that refer to themselves.
    recursive: HashSet<DefId>,
    /// The program's constants (see `Lowerer::global_constant`).
    consts: Vec<ogham_ir::Stm>,
    /// The value of every top-level constant lowered so far (`None`: it is
    /// a function, inlined at each use).
    constants: HashMap<DefId, Option<value::Val<'a>>>,
}

/// What `fix_result_shapes` does with a result dimension computed inside a
/// lambda that the checker's row type does not give.
#[derive(Default)]
pub(crate) enum Irregular {
    /// Report `not-supported-yet` (`IRREGULAR` message).
    #[default]
    Fail,
    /// Collect such dimensions (the first pass over an irregular `map`).
    Probe(Vec<SubExp>),
    /// Use these sizes, in order, checking each row against them.
    Use(std::collections::VecDeque<SubExp>),
}

pub(crate) fn unsupported(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("not-supported-yet", span, message)
}

pub(crate) fn internal(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("internal-error", span, format!("lowering: {}", message.into()))
}

impl<'a> Lowerer<'a> {
    pub fn new(files: &'a [&'a Program], info: &'a TypeInfo) -> Lowerer<'a> {
        let mut lowerer = Lowerer {
            files,
            info,
            names: NameTable::default(),
            types: HashMap::default(),
            shared: HashSet::default(),
            def_by_binder: HashMap::default(),
            depth: 0,
            irregular: Irregular::Fail,
            acc_ops: HashMap::default(),
            inline_calls: false,
            outlined: Vec::new(),
            inlined: Vec::new(),
            memo: HashMap::default(),
            funs: Vec::new(),
            fun_name_bump: 0,
            consts: Vec::new(),
            constants: HashMap::default(),
            recursive: info
                .recursive_uses
                .iter()
                .filter_map(|n| match info.resolutions.get(n) {
                    Some(ogham_types::Resolution::Def(d)) => Some(*d),
                    _ => None,
                })
                .collect(),
        };
        for (i, _) in info.defs.iter().enumerate() {
            if let Some(dec) = lowerer.dec(DefId(i as u32)) {
                lowerer.def_by_binder.insert(dec.name.id, DefId(i as u32));
            }
        }
        lowerer
    }

    /// The declaration of a top-level definition.
    pub fn dec(&self, def: DefId) -> Option<&'a ValueDec> {
        let info = self.info.defs.get(def.0 as usize)?;
        match info.loc {
            DefLoc::File { file_index, dec_index } => {
                let mut dec = self.files.get(file_index)?.decs.get(dec_index)?;
                // `local def f …` at the top of a file.
                while let Dec::Local(inner, _) = dec {
                    dec = inner;
                }
                match dec {
                    Dec::Value(v) => Some(v),
                    _ => None,
                }
            }
            DefLoc::Generated(i) => self.info.generated.get(i),
        }
    }

    /// The IR type of an operand.
    pub fn se_type(&self, se: SubExp) -> Type {
        match se {
            SubExp::Const(v) => Type::Prim(v.prim_type()),
            SubExp::Var(v) => self.types.get(&v).cloned().unwrap_or(Type::Prim(ogham_ir::PrimType::I64)),
        }
    }

    /// A fresh parameter (or pattern element) of the given type.
    pub fn param(&mut self, base: &str, ty: Type) -> Param {
        let name = self.names.fresh(base);
        self.types.insert(name, ty.clone());
        Param { name, ty }
    }

    /// Binds a fresh variable to `exp`.
    pub fn bind(&mut self, b: &mut BodyBuilder, base: &str, ty: Type, exp: Exp) -> VName {
        let p = self.param(base, ty);
        let name = p.name;
        b.push(vec![p], exp);
        name
    }

    /// Binds several fresh variables to `exp`.
    pub fn bind_many(&mut self, b: &mut BodyBuilder, base: &str, tys: Vec<Type>, exp: Exp) -> Vec<VName> {
        let pat: Vec<Param> = tys.into_iter().map(|t| self.param(base, t)).collect();
        let names = pat.iter().map(|p| p.name).collect();
        b.push(pat, exp);
        names
    }

    /// A fresh builder for a nested body, inheriting span and attributes.
    pub fn sub_builder(&self, b: &BodyBuilder) -> BodyBuilder {
        let mut nb = BodyBuilder::new(b.span);
        nb.attrs = b.attrs;
        nb
    }

    /// An array operand that may be consumed: copied first if it is shared.
    pub fn consumable(&mut self, b: &mut BodyBuilder, v: VName) -> VName {
        if self.shared.contains(&v) {
            let ty = self.types[&v].clone();
            self.bind(b, "copy", ty, Exp::Copy(v))
        } else {
            v
        }
    }
}
