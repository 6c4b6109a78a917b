//! Automatic differentiation: the `ad` pass replaces every [`Exp::Ad`]
//! by ordinary statements (seed 004, chapter 3).
//!
//! Statements are processed innermost first, so a `jvp` inside the
//! function of another `jvp` (or inside a loop or lambda) is gone before
//! the outer one is differentiated: nesting needs nothing special, and
//! since lambdas exist only inside SOACs and [`Exp::Ad`], there is no
//! perturbation confusion (the inner derivative's free variables are the
//! outer one's ordinary variables, with their own tangents).
//!
//! Forward mode ([`fwd`]) is the dual-number construction: every
//! statement is kept and followed by statements computing the tangent of
//! each value it binds; the tangent of a value with none is zero (and
//! never built unless something needs it as an array).
//! Calls are differentiated by differentiating the called function once
//! (`f_jvp`, memoised, so recursion works). Reverse mode ([`rev`]) is
//! redundant execution: a forward sweep, then a return sweep accumulating
//! adjoints, each nested scope re-executing its own forward statements;
//! calls call the function's reverse derivative (`f_vjp`).

mod fwd;
mod rev;
mod rules;
mod vectorise;
mod withacc;

use ogham_ir::{
    AdMode, Body, Exp, FunDef, LoopForm, NameTable, Param, PrimType, PrimValue, Program, Span, Stm, StmAttrs, SubExp,
    Type, VName,
};
use rustc_hash::FxHashMap as HashMap;

use crate::Rejection;

/// Eliminates every [`Exp::Ad`] of the program.
pub fn ad_program(prog: &mut Program) -> Result<(), Rejection> {
    if !prog.funs.iter().any(|f| has_ad(&f.body)) && !prog.consts.iter().any(|s| has_ad_exp(&s.exp)) {
        return Ok(());
    }
    crate::inline::inline_sized_calls_in_ad(prog);
    let mut types = HashMap::default();
    for f in &prog.funs {
        collect_types_fun(f, &mut types);
    }
    for s in &prog.consts {
        collect_types_stm(s, &mut types);
    }
    let funs = prog.funs.clone();
    let mut cx = Ad {
        names: std::mem::take(&mut prog.names),
        types,
        funs,
        derived: HashMap::default(),
        new_funs: Vec::new(),
        under_vjp: 0,
        rev_maps: HashMap::default(),
        splits: HashMap::default(),
        reexecuting: false,
        undo: Default::default(),
        lengths: HashMap::default(),
    };
    let result = (|| {
        let mut consts = Body { stms: std::mem::take(&mut prog.consts), result: Vec::new() };
        cx.eliminate(&mut consts)?;
        cx.strip_custom(&mut consts);
        prog.consts = consts.stms;
        for f in &mut prog.funs {
            cx.eliminate(&mut f.body)?;
            cx.strip_custom(&mut f.body);
        }
        let mut new_funs = std::mem::take(&mut cx.new_funs);
        for f in &mut new_funs {
            cx.strip_custom(&mut f.body);
        }
        cx.new_funs = new_funs;
        Ok(())
    })();
    // A derivative function may itself contain `jvp`s (of its callee's
    // nested derivatives): they are gone, since the function they were
    // made from had them eliminated when differentiated (see `derived`).
    prog.funs.append(&mut cx.new_funs);
    prog.names = cx.names;
    // A rejection of a statement copied from an inlined function keeps
    // its inlined span: the driver reports it at the innermost of its
    // frames in the user's code.
    result
}

/// The state of the pass: the program's names and variable types, and
/// the derivative functions made so far.
pub(crate) struct Ad {
    pub(crate) names: NameTable,
    /// The type of every variable (names are unique in the program).
    pub(crate) types: HashMap<VName, Type>,
    /// The program's functions as they were (to differentiate calls).
    funs: Vec<FunDef>,
    /// The forward derivative of each function differentiated so far.
    derived: HashMap<String, String>,
    new_funs: Vec<FunDef>,
    /// How many reverse-mode derivatives enclose what is being
    /// differentiated. Reverse mode differentiates accumulators
    /// ([`ogham_ir::Soac::WithAcc`]) only where every update is at the top
    /// of the `withacc`'s function (as the SOACs they compute:
    /// `withacc.rs`), so a `vjp` that an outer `vjp` will differentiate
    /// again (and the reverse derivatives of the functions it calls)
    /// builds accumulators only of that shape and accumulates into whole
    /// arrays elsewhere.
    under_vjp: usize,
    /// In a return sweep, the `map`s of the statements being reversed, by
    /// the name of each of their results (with its position): the reverse
    /// of a `min` or `max` over a mapped array uses them (`rev/reduce.rs`).
    rev_maps: HashMap<VName, (Stm, usize)>,
    /// The two halves of each function's reverse derivative, or `None`
    /// where a call keeps the single one (`rev/calls.rs`), by function
    /// name and kind.
    splits: HashMap<String, Option<rev::calls::Split>>,
    /// Whether the forward sweep being emitted is a scope's re-execution
    /// in a return sweep (where a `map` and its return sweep sit side by
    /// side, so the map's values need no saving: `rev/tape.rs`).
    reexecuting: bool,
    /// What a loop's forward sweep, its return sweep and the re-execution
    /// of its body pass each other about undo logs (`rev/undo.rs`).
    undo: rev::undo::UndoState,
    /// Loop counts (`max(bound, 0)`) computed before an enclosing loop's
    /// forward sweep for the loops inside it, by bound (`rev/tape.rs`).
    lengths: HashMap<VName, SubExp>,
}

impl Ad {
    /// Eliminates the [`Exp::Ad`]s of a body, innermost first.
    fn eliminate(&mut self, body: &mut Body) -> Result<(), Rejection> {
        let stms = std::mem::take(&mut body.stms);
        for mut stm in stms {
            let reverse = matches!(stm.exp, Exp::Ad { mode: AdMode::Vjp | AdMode::Mjp | AdMode::CustomVjp, .. });
            self.under_vjp += reverse as usize;
            for b in ogham_ir::visit::nested_bodies_mut(&mut stm.exp) {
                self.eliminate(b)?;
            }
            self.under_vjp -= reverse as usize;
            match stm.exp {
                Exp::Ad { mode: AdMode::Jvp, lambda, args, seeds } => {
                    let out = self.jvp(&stm.pat, lambda, args, seeds, stm.span)?;
                    body.stms.extend(out);
                }
                Exp::Ad { mode: AdMode::Vjp, lambda, args, seeds } => {
                    let out = self.vjp(&stm.pat, lambda, args, seeds, stm.span)?;
                    body.stms.extend(out);
                }
                Exp::Ad { mode: AdMode::Mjp, lambda, args, seeds } => {
                    let out = self.mjp(&stm.pat, lambda, args, seeds, stm.span)?;
                    body.stms.extend(out);
                }
                Exp::Ad { mode: AdMode::Jmp, lambda, args, seeds } => {
                    let out = self.jmp(&stm.pat, lambda, args, seeds, stm.span)?;
                    body.stms.extend(out);
                }
                // Kept for an enclosing `vjp`; [`Ad::strip_custom`] removes
                // the others at the end.
                _ => body.stms.push(stm),
            }
        }
        Ok(())
    }

    /// A vector derivative (`jmp`, `mjp`) as a `map` over its directions of
    /// the scalar one (`mode`), after the primal computed once: the
    /// statements binding `pat`.
    pub(crate) fn by_directions(
        &mut self,
        mode: AdMode,
        pat: &[Param],
        lambda: &ogham_ir::Lambda,
        args: &[SubExp],
        seeds: &[SubExp],
        span: Span,
    ) -> Result<Vec<Stm>, Rejection> {
        let k = lambda.ret.len();
        let mut out = Vec::new();
        let primal = crate::inline::fresh_lambda(lambda, &mut self.names);
        collect_types_lambda(&primal, &mut self.types);
        for (p, a) in primal.params.iter().zip(args) {
            out.push(stm(p.clone(), Exp::SubExp(*a), span));
        }
        out.extend(primal.body.stms);
        for (p, r) in pat.iter().zip(&primal.body.result) {
            out.push(stm(p.clone(), Exp::SubExp(*r), span));
        }
        let Some(w) = seeds.first().and_then(|s| self.type_of(s).shape().first().copied()) else {
            return Err(internal(span, "a vector derivative without seeds".into()));
        };
        let rows: Vec<Param> = seeds
            .iter()
            .map(|s| {
                let ty = self.type_of(s).row();
                let name = self.names.fresh("direction");
                self.types.insert(name, ty.clone());
                Param { name, ty }
            })
            .collect();
        let inner = crate::inline::fresh_lambda(lambda, &mut self.names);
        collect_types_lambda(&inner, &mut self.types);
        let derivative_types: Vec<Type> = pat[k..].iter().map(|p| p.ty.row()).collect();
        let mut inner_pat = Vec::new();
        for t in lambda.ret.iter().chain(&derivative_types) {
            let name = self.names.fresh("ad");
            self.types.insert(name, t.clone());
            inner_pat.push(Param { name, ty: t.clone() });
        }
        let seeds_inner: Vec<SubExp> = rows.iter().map(|p| SubExp::Var(p.name)).collect();
        let ad =
            stm_many(inner_pat.clone(), Exp::Ad { mode, lambda: inner, args: args.to_vec(), seeds: seeds_inner }, span);
        let mut body = Body { stms: vec![ad], result: inner_pat[k..].iter().map(|p| SubExp::Var(p.name)).collect() };
        self.eliminate(&mut body)?;
        let map = ogham_ir::Lambda { params: rows, body, ret: derivative_types };
        let arrs: Vec<VName> = seeds.iter().filter_map(|s| s.as_var()).collect();
        if arrs.len() != seeds.len() {
            return Err(internal(span, "a vector derivative's seeds must be arrays".into()));
        }
        let exp = Exp::Soac(ogham_ir::Soac::Screma { w, arrs, scans: vec![], reduces: vec![], map });
        out.push(stm_many(pat[k..].to_vec(), exp, span));
        Ok(out)
    }

    /// Replaces every custom derivative left (not under a `vjp`) by its
    /// function.
    fn strip_custom(&mut self, body: &mut Body) {
        let stms = std::mem::take(&mut body.stms);
        for mut stm in stms {
            for b in ogham_ir::visit::nested_bodies_mut(&mut stm.exp) {
                self.strip_custom(b);
            }
            if matches!(stm.exp, Exp::Ad { mode: AdMode::CustomVjp, .. }) {
                let primal = self.custom_primal(&stm);
                body.stms.extend(primal);
            } else {
                body.stms.push(stm);
            }
        }
    }

    /// The statements of a custom derivative's function: its lambda (a
    /// renamed copy) with zero adjoints, binding the statement's pattern.
    /// What computes the adjoints is dead code.
    pub(crate) fn custom_primal(&mut self, s: &Stm) -> Vec<Stm> {
        let Exp::Ad { lambda, args, .. } = &s.exp else { return vec![s.clone()] };
        let (lam, mut out) = self.custom_copy(lambda, args, None, s.span);
        for (p, r) in s.pat.iter().zip(&lam.body.result) {
            out.push(stm(p.clone(), Exp::SubExp(*r), s.span));
        }
        out
    }

    /// A renamed copy of a custom derivative's lambda with its parameters
    /// bound to `args` and to the results' adjoints `bars` (zero where
    /// `None`), and its statements: the lambda (for its results) and the
    /// statements.
    pub(crate) fn custom_copy(
        &mut self,
        lambda: &ogham_ir::Lambda,
        args: &[SubExp],
        bars: Option<&[Option<SubExp>]>,
        span: Span,
    ) -> (ogham_ir::Lambda, Vec<Stm>) {
        let mut lam = crate::inline::fresh_lambda(lambda, &mut self.names);
        collect_types_lambda(&lam, &mut self.types);
        let mut out = Vec::new();
        let n = args.len();
        for (p, a) in lam.params.iter().zip(args) {
            out.push(stm(p.clone(), Exp::SubExp(*a), span));
        }
        for (j, p) in lam.params[n..].iter().enumerate() {
            let b = bars.and_then(|b| b.get(j).copied().flatten());
            let v = self.or_zero(&mut out, b, &p.ty, span);
            out.push(stm(p.clone(), Exp::SubExp(v), span));
        }
        out.append(&mut lam.body.stms);
        (lam, out)
    }

    /// The name of the reverse derivative of function `name`: its
    /// parameters, then the adjoints of its results; its results, then the
    /// adjoints of its parameters.
    pub(crate) fn reverse_derivative(&mut self, name: &str, span: Span) -> Result<String, Rejection> {
        // Under no other `vjp`, the derivative may accumulate into
        // accumulators; under one, it keeps whole-array adjoints (a
        // separate function), since it may be differentiated again.
        let accumulating = self.under_vjp == 0;
        let suffix = if accumulating { "vjp" } else { "vjp_whole" };
        let key = format!("{name} {suffix}");
        if let Some(d) = self.derived.get(&key) {
            return Ok(d.clone());
        }
        let copy = self.fresh_function(name, span)?;
        let dname = format!("{name}_{suffix}");
        self.derived.insert(key, dname.clone());
        let mut body = copy.body;
        // Derivatives inside the function are differentiated again here.
        self.under_vjp += 1;
        self.eliminate(&mut body)?;
        if accumulating {
            self.under_vjp -= 1;
        }
        let result = self.reverse_function(&copy.params, &copy.ret, body, copy.span);
        if !accumulating {
            self.under_vjp -= 1;
        }
        let (params, ret, body) = result?;
        self.new_funs.push(FunDef { name: dname.clone(), params, ret, body, entry: None, span: copy.span });
        Ok(dname)
    }

    /// A renamed copy of function `name`, which must not return sizes
    /// known only when it returns.
    fn fresh_function(&mut self, name: &str, span: Span) -> Result<FunDef, Rejection> {
        // A derivative made by this pass may be differentiated again (the
        // jvp of a function that calls `f_jvp`).
        let Some(f) = self.funs.iter().chain(&self.new_funs).find(|f| f.name == name) else {
            return Err(internal(span, format!("no function `{name}` to differentiate")));
        };
        if crate::inline::returns_sizes(f) {
            return Err(Rejection {
                name: "not-supported-yet",
                span,
                message: format!(
                    "differentiating a call of `{name}`, whose result size is known only when it returns, is not supported yet."
                ),
            });
        }
        let copy = crate::inline::fresh_copy(f, &mut self.names);
        collect_types_fun(&copy, &mut self.types);
        Ok(copy)
    }

    /// The name of the forward derivative of function `name`: its
    /// parameters, then the tangents of its floating-point parameters; its
    /// results, then the tangents of its floating-point results.
    /// Under a `vjp`, the reverse derivatives inside it keep whole-array
    /// adjoints (see `under_vjp`), so that the enclosing `vjp` can
    /// differentiate it: a separate function from the one made elsewhere.
    pub(crate) fn derivative(&mut self, name: &str, span: Span) -> Result<String, Rejection> {
        let suffix = if self.under_vjp == 0 { "jvp" } else { "jvp_whole" };
        let key = format!("{name} {suffix}");
        if let Some(d) = self.derived.get(&key) {
            return Ok(d.clone());
        }
        let mut copy = self.fresh_function(name, span)?;
        let dname = format!("{name}_{suffix}");
        self.derived.insert(key, dname.clone());
        self.eliminate(&mut copy.body)?;
        let (params, ret, body) = fwd::function(self, &copy.params, &copy.ret, copy.body, copy.span)?;
        self.new_funs.push(FunDef { name: dname.clone(), params, ret, body, entry: None, span: copy.span });
        Ok(dname)
    }
}

impl Ad {
    pub(crate) fn bind(&mut self, out: &mut Vec<Stm>, base: &str, ty: Type, exp: Exp, span: Span) -> VName {
        let v = self.names.fresh(base);
        self.types.insert(v, ty.clone());
        out.push(stm(Param { name: v, ty }, exp, span));
        v
    }

    pub(crate) fn fresh_param(&mut self, like: &Param) -> Param {
        let name = crate::inline::fresh_like(&mut self.names, like.name);
        self.types.insert(name, like.ty.clone());
        Param { name, ty: like.ty.clone() }
    }

    pub(crate) fn type_of(&self, se: &SubExp) -> Type {
        match se {
            SubExp::Const(c) => Type::Prim(c.prim_type()),
            SubExp::Var(v) => self.types.get(v).cloned().unwrap_or(Type::Prim(PrimType::Bool)),
        }
    }

    /// Zero of a type: a constant, or a new array of zeros.
    pub(crate) fn zero(&mut self, out: &mut Vec<Stm>, ty: &Type, span: Span) -> SubExp {
        match ty {
            Type::Prim(t) => SubExp::Const(PrimValue::zero(*t)),
            Type::Array { elem, shape } => {
                let exp = Exp::Replicate { shape: shape.clone(), value: SubExp::Const(PrimValue::zero(*elem)) };
                SubExp::Var(self.bind(out, "zero", ty.clone(), exp, span))
            }
        }
    }

    /// `x`, or zero of type `ty` where it is `None` (a missing tangent or
    /// adjoint).
    pub(crate) fn or_zero(&mut self, out: &mut Vec<Stm>, x: Option<SubExp>, ty: &Type, span: Span) -> SubExp {
        match x {
            Some(x) => x,
            None => self.zero(out, ty, span),
        }
    }

    /// The parameters of function `name`.
    pub(crate) fn params_of(&self, name: &str) -> Vec<Param> {
        self.funs.iter().chain(&self.new_funs).find(|f| f.name == name).map(|f| f.params.clone()).unwrap_or_default()
    }

    /// The parameter types of function `name`.
    pub(crate) fn param_types(&self, name: &str) -> Vec<Type> {
        self.funs
            .iter()
            .chain(&self.new_funs)
            .find(|f| f.name == name)
            .map(|f| f.params.iter().map(|p| p.ty.clone()).collect())
            .unwrap_or_default()
    }
}

/// `let p = exp`.
pub(crate) fn stm_many(pat: Vec<Param>, exp: Exp, span: Span) -> Stm {
    Stm { pat, exp, attrs: StmAttrs::default(), span }
}

pub(crate) fn stm(p: Param, exp: Exp, span: Span) -> Stm {
    Stm { pat: vec![p], exp, attrs: StmAttrs::default(), span }
}

pub(crate) fn internal(span: Span, message: String) -> Rejection {
    Rejection { name: "internal-compiler-error", span, message: format!("automatic differentiation: {message}") }
}

fn has_ad(body: &Body) -> bool {
    body.stms.iter().any(|s| has_ad_exp(&s.exp))
}

fn has_ad_exp(exp: &Exp) -> bool {
    matches!(exp, Exp::Ad { .. })
        || ogham_ir::visit::bodies(exp).into_iter().any(has_ad)
        || ogham_ir::visit::lambdas(exp).into_iter().any(|l| has_ad(&l.body))
}

fn collect_types_fun(f: &FunDef, types: &mut HashMap<VName, Type>) {
    for p in &f.params {
        types.insert(p.name, p.ty.clone());
    }
    for s in &f.body.stms {
        collect_types_stm(s, types);
    }
}

pub(crate) fn collect_types_body(body: &Body, types: &mut HashMap<VName, Type>) {
    for s in &body.stms {
        collect_types_stm(s, types);
    }
}

pub(crate) fn collect_types_lambda(lam: &ogham_ir::Lambda, types: &mut HashMap<VName, Type>) {
    for p in &lam.params {
        types.insert(p.name, p.ty.clone());
    }
    collect_types_body(&lam.body, types);
}

pub(crate) fn collect_types_stm(stm: &ogham_ir::Stm, types: &mut HashMap<VName, Type>) {
    for p in &stm.pat {
        types.insert(p.name, p.ty.clone());
    }
    if let Exp::Loop { params, form, .. } = &stm.exp {
        for (p, _) in params {
            types.insert(p.name, p.ty.clone());
        }
        if let LoopForm::For { i, .. } = form {
            types.insert(*i, Type::Prim(ogham_ir::PrimType::I64));
        }
    }
    for l in ogham_ir::visit::lambdas(&stm.exp) {
        for p in &l.params {
            types.insert(p.name, p.ty.clone());
        }
        for s in &l.body.stms {
            collect_types_stm(s, types);
        }
    }
    for b in ogham_ir::visit::bodies(&stm.exp) {
        for s in &b.stms {
            collect_types_stm(s, types);
        }
    }
}
