//! The IR verifier: checks the invariants listed in the crate documentation.
//!
//! Checked: every variable is bound once in the program and before use
//! (lambda and loop parameters and the loop index scope over their bodies;
//! a pattern's sizes may be used by later names of the same pattern);
//! operand types of every operation; shapes are `i64` operands in scope;
//! results match patterns and return types in count, element type and rank;
//! SOAC operands and lambdas agree with each other; entry point parts are
//! in range, only inputs have names, and names are not empty.
//!
//! Consumption and aliasing (rules in [`crate::alias`]): no variable is used
//! (in a later statement, a nested body or lambda, or as a result) after it,
//! or a variable that may share its memory, is consumed — in the same body,
//! in an enclosing one, or by an enclosing statement (an `if` consumes what
//! either branch consumes; the other branch does not see it). No statement
//! consumes an array and also uses one that may share its memory (an
//! update's value, a SOAC's other inputs, neutral elements and the arrays
//! its lambdas read, another argument of a call, another loop initial
//! value); the one exception is a slice written back where it came from
//! (`Verifier::write_back`). A loop body or lambda consumes only its own
//! parameters and what it binds; a loop body does not read arrays sharing
//! memory with the initial values the loop consumes, and gives a parameter
//! it consumes only fresh arrays or other parameters; an operator consumes
//! nothing. Messages name the variable used and the one consumed.
//!
//! An entry point consumes only the inputs it declares unique (`*`).
//!
//! The program's constants are checked first, as one body whose bindings
//! stay in scope for every function; a function may neither consume a
//! constant nor return one or a view of one.
//!
//! Dimensions are compared leniently: two constants must be equal, anything
//! else is accepted, because sizes may be existential or merely equal at run
//! time. Dimension variables of function and lambda return types that are not
//! in scope are existential and accepted.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;
use std::fmt;

use crate::alias::{const_arrays, fun_base, summaries, FunSummary, Names, NestedEffects, Problem, Walker};
use crate::visit::{for_each_operand, type_vars};
use crate::{
    AdMode, BinOp, Body, ConvOp, DimIndex, EntryValue, Exp, FunDef, Lambda, LoopForm, Opaque, Operator, Param,
    PrimType, Program, Soac, Stm, SubExp, Type, UnOp, VName,
};

/// One broken invariant, in the named function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub fun: String,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in function `{}`: {}", self.fun, self.message)
    }
}

/// A program that passed the verifier, with what the verifier computed
/// about it. Backends take this rather than a bare [`Program`], so
/// unverified IR cannot reach code generation.
#[derive(Debug)]
pub struct Verified<'p> {
    pub prog: &'p Program,
    /// The type of every variable bound in the program (constants, function
    /// and lambda parameters, patterns, loop parameters and indices).
    pub types: HashMap<VName, Type>,
    /// How many times each variable is used as an operand or a result
    /// (uses in types are not counted; unused variables have no entry).
    /// Every use of a variable is inside the body that binds it, so this
    /// is also its count within that body.
    pub uses: HashMap<VName, usize>,
}

/// Checks the whole program, returning what it computed, or every problem found.
pub fn verify(prog: &Program) -> Result<Verified<'_>, Vec<VerifyError>> {
    let types = check_types(prog)?;
    let mut uses = HashMap::default();
    for stm in &prog.consts {
        crate::visit::count_uses_exp(&stm.exp, &mut uses);
    }
    for f in &prog.funs {
        crate::visit::count_uses(&f.body, &mut uses);
    }
    Ok(Verified { prog, types, uses })
}

/// [`verify`] for a pass that only needs to know whether the program is
/// well formed (CSE checks what sharing an array did): the same checks,
/// without counting uses afterwards.
pub fn check(prog: &Program) -> Result<(), Vec<VerifyError>> {
    check_types(prog).map(|_| ())
}

/// The checks of [`verify`]; the types of the program's variables.
fn check_types(prog: &Program) -> Result<HashMap<VName, Type>, Vec<VerifyError>> {
    let mut v = Verifier {
        types: HashMap::default(),
        prog,
        fun: String::new(),
        errors: Vec::new(),
        bound: HashSet::default(),
        scope: HashMap::default(),
        scope_log: Vec::new(),
        sums: summaries(prog),
        aliases: HashMap::default(),
        pending: HashMap::default(),
        consumed: HashMap::default(),
        views: HashMap::default(),
        updated_from: HashMap::default(),
        nested_effects: NestedEffects::default(),
    };
    // The constants' bindings stay in scope for every function.
    v.fun = "the constants".to_string();
    for stm in &prog.consts {
        v.stm(stm);
    }
    let mut seen_funs = HashSet::default();
    for f in &prog.funs {
        v.fun = f.name.clone();
        if !seen_funs.insert(f.name.as_str()) {
            v.err("the function is defined more than once".to_string());
        }
        v.fun_def(f);
    }
    if !v.errors.is_empty() {
        return Err(v.errors);
    }
    Ok(v.types)
}

/// Runs [`verify`] and formats its errors for a compiler diagnostic naming `pass`.
pub fn verify_after(pass: &str, prog: &Program) -> Result<(), String> {
    verify(prog).map(|_| ()).map_err(|errors| {
        let mut msg = format!("IR verifier failed after pass `{pass}`:");
        for e in errors.iter().take(20) {
            msg.push_str("\n  ");
            msg.push_str(&e.to_string());
        }
        if errors.len() > 20 {
            msg.push_str(&format!("\n  … and {} more", errors.len() - 20));
        }
        msg
    })
}

/// Whether two types agree: same element type and rank, and no two constant dimensions differ.
pub fn types_agree(a: &Type, b: &Type) -> bool {
    a.elem() == b.elem()
        && a.rank() == b.rank()
        && a.shape().iter().zip(b.shape()).all(|(x, y)| match (x, y) {
            (SubExp::Const(x), SubExp::Const(y)) => x == y,
            _ => true,
        })
}

struct Verifier<'a> {
    prog: &'a Program,
    /// The type of every variable bound so far (they never leave it).
    types: HashMap<VName, Type>,
    /// The function being checked.
    fun: String,
    errors: Vec<VerifyError>,
    /// Every variable bound so far in the program.
    bound: HashSet<VName>,
    /// The variables in scope and their types.
    scope: HashMap<VName, Type>,
    /// Variables in the order they entered scope, so a body can drop its own at its end.
    scope_log: Vec<VName>,
    /// What every function consumes and returns (see [`crate::alias`]).
    sums: HashMap<String, FunSummary>,
    /// Every array in scope, with the variables whose memory it may share.
    aliases: HashMap<VName, Names>,
    /// The aliases of variables about to be bound (patterns, loop and lambda parameters).
    pending: HashMap<VName, Names>,
    /// The variables in scope that are consumed: each with how.
    consumed: HashMap<VName, Consumed>,
    /// The slices in scope (`let v = a[s]`, an array): `v` to `(a, s)`.
    views: HashMap<VName, (VName, Vec<DimIndex>)>,
    /// The results of updates in scope (`let u = x with [...] = …`): `u` to `x`.
    updated_from: HashMap<VName, VName>,
    /// The effects of the statements nested in the top-level statement
    /// being checked, from its walk ([`Walker::stm_and_nested`]), each
    /// taken when its statement is checked.
    nested_effects: NestedEffects,
}

/// How a variable was consumed: `var` (the variable itself, or one whose
/// memory it may share) was consumed by `by` (a statement's description).
#[derive(Clone)]
struct Consumed {
    var: VName,
    by: String,
}

impl Verifier<'_> {
    fn err(&mut self, message: String) {
        self.errors.push(VerifyError { fun: self.fun.clone(), message });
    }

    fn name(&self, v: VName) -> String {
        format!("`{}`", crate::print::var(v, &self.prog.names))
    }

    fn ty(&self, t: &Type) -> String {
        format!("`{}`", crate::print::type_(t, &self.prog.names))
    }

    fn se(&self, se: &SubExp) -> String {
        format!("`{}`", crate::print::subexp(se, &self.prog.names))
    }

    fn mark(&self) -> usize {
        self.scope_log.len()
    }

    fn restore(&mut self, mark: usize) {
        for v in self.scope_log.drain(mark..) {
            self.scope.remove(&v);
            self.aliases.remove(&v);
            self.consumed.remove(&v);
            self.views.remove(&v);
            self.updated_from.remove(&v);
        }
    }

    /// Brings a parameter into scope after checking its type's shape.
    fn bind(&mut self, p: &Param, what: &str) {
        self.check_shape_in_scope(&p.ty, what);
        if !self.bound.insert(p.name) {
            self.err(format!("{} ({what}) is bound more than once in the program", self.name(p.name)));
        }
        if p.name.0 as usize >= self.prog.names.len() {
            self.err(format!("{} ({what}) has no entry in the name table", self.name(p.name)));
        }
        self.scope.insert(p.name, p.ty.clone());
        self.types.insert(p.name, p.ty.clone());
        self.scope_log.push(p.name);
        let aliases = self.pending.remove(&p.name).unwrap_or_default();
        if p.ty.rank() > 0 {
            self.aliases.insert(p.name, aliases);
        }
    }

    fn bind_index(&mut self, i: VName) {
        self.bind(&Param { name: i, ty: Type::Prim(PrimType::I64) }, "loop index");
    }

    /// Every dimension must be an `i64` constant or an `i64` variable in scope.
    fn check_shape_in_scope(&mut self, ty: &Type, what: &str) {
        for d in ty.shape() {
            self.check_dim(d, what, false);
        }
    }

    /// Like [`Self::check_shape_in_scope`], but variables not in scope are existential sizes.
    fn check_ret_shape(&mut self, ty: &Type, what: &str) {
        for d in ty.shape() {
            self.check_dim(d, what, true);
        }
    }

    fn check_dim(&mut self, d: &SubExp, what: &str, existential_ok: bool) {
        match d {
            SubExp::Const(c) if c.prim_type() != PrimType::I64 => {
                self.err(format!("dimension {} in {what} is not an i64", self.se(d)));
            }
            SubExp::Const(_) => {}
            SubExp::Var(v) => match self.scope.get(v) {
                Some(Type::Prim(PrimType::I64)) => {}
                Some(t) => {
                    let t = t.clone();
                    self.err(format!("dimension {} in {what} has type {}, not i64", self.name(*v), self.ty(&t)));
                }
                None if existential_ok => {}
                None => self.err(format!("dimension {} in {what} is not in scope", self.name(*v))),
            },
        }
    }

    /// The type of an operand; reports an error (and gives `None`) for a variable not in scope.
    fn type_of(&mut self, se: &SubExp, what: &str) -> Option<Type> {
        match se {
            SubExp::Const(c) => Some(Type::Prim(c.prim_type())),
            SubExp::Var(v) => match self.scope.get(v) {
                Some(t) => Some(t.clone()),
                None => {
                    self.err(format!("{} is used in {what} but not in scope", self.name(*v)));
                    None
                }
            },
        }
    }

    /// Checks that an operand is a scalar of type `t`.
    fn expect_prim(&mut self, se: &SubExp, t: PrimType, what: &str) {
        if let Some(actual) = self.type_of(se, what) {
            if actual != Type::Prim(t) {
                self.err(format!("{} in {what} has type {}, expected {t}", self.se(se), self.ty(&actual)));
            }
        }
    }

    /// Checks that an operand has a type agreeing with `t`.
    fn expect_type(&mut self, se: &SubExp, t: &Type, what: &str) {
        if let Some(actual) = self.type_of(se, what) {
            if !types_agree(&actual, t) {
                self.err(format!("{} in {what} has type {}, expected {}", self.se(se), self.ty(&actual), self.ty(t)));
            }
        }
    }

    /// The type of a variable that must be an array.
    fn array_type(&mut self, v: VName, what: &str) -> Option<Type> {
        let t = self.type_of(&SubExp::Var(v), what)?;
        if t.rank() == 0 {
            self.err(format!("{} in {what} is not an array (type {})", self.name(v), self.ty(&t)));
            return None;
        }
        Some(t)
    }

    /// Compares a list of types with what was expected, in count and pairwise.
    fn expect_types(&mut self, actual: &[Type], expected: &[Type], what: &str) {
        if actual.len() != expected.len() {
            self.err(format!("{what}: {} values where {} are expected", actual.len(), expected.len()));
            return;
        }
        for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
            if !types_agree(a, e) {
                self.err(format!("{what}: value {i} has type {}, expected {}", self.ty(a), self.ty(e)));
            }
        }
    }

    fn fun_def(&mut self, f: &FunDef) {
        self.constants_kept(f);
        let mark = self.mark();
        for p in &f.params {
            self.bind(p, "function parameter");
        }
        for t in &f.ret {
            self.check_ret_shape(t, "the return type");
        }
        self.body(&f.body, &f.ret, "the function body");
        // The parameters the body consumes (itself or through a view): still
        // in scope, and the consumptions of its statements recorded.
        let consumes: Vec<bool> = f.params.iter().map(|p| self.consumed.contains_key(&p.name)).collect();
        self.restore(mark);
        if let Some(entry) = &f.entry {
            for input in &entry.inputs {
                self.entry_value(input, f.params.len(), "input", "parameters");
            }
            for output in &entry.outputs {
                self.entry_value(output, f.ret.len(), "output", "results");
            }
            // The caller keeps an input not declared unique: it may not be updated in place.
            for input in entry.inputs.iter().filter(|i| !i.unique) {
                for &k in &input.parts {
                    if let (Some(true), Some(p)) = (consumes.get(k), f.params.get(k)) {
                        let name = input.name.as_deref().unwrap_or("_");
                        self.err(format!(
                            "the entry point consumes its input `{name}` (parameter {}), which is not declared unique (`*`)",
                            self.name(p.name)
                        ));
                    }
                }
            }
        }
    }

    /// A function neither consumes a constant nor returns one (or a view
    /// of one): every call shares them, and a caller may update a result
    /// in place.
    fn constants_kept(&mut self, f: &FunDef) {
        if self.prog.consts.is_empty() {
            return;
        }
        let consts = const_arrays(self.prog);
        let base = fun_base(&consts, f);
        let be = Walker::new(&self.sums, &base).body(&f.body);
        let mut problems = BTreeSet::new();
        for (_, set) in &be.consumed {
            problems.extend(set.iter().filter(|c| consts.contains_key(c)).map(|&c| (c, "consumes")));
        }
        for set in &be.results {
            problems.extend(set.iter().filter(|c| consts.contains_key(c)).map(|&c| (c, "returns (a view of)")));
        }
        for (c, what) in problems {
            self.err(format!("the function {what} the constant {}", self.name(c)));
        }
    }

    fn entry_value(&mut self, v: &EntryValue, available: usize, kind: &str, of: &str) {
        // Only an opaque value (a unit `()`, an array of units) may have no parts.
        if v.parts.is_empty() && v.opaque.is_none() {
            self.err(format!("entry {kind} `{}` has no parts", v.type_name));
        }
        match &v.name {
            Some(name) if kind != "input" => self.err(format!("entry {kind} `{}` has a name (`{name}`)", v.type_name)),
            Some(name) if name.is_empty() => self.err(format!("entry {kind} `{}` has an empty name", v.type_name)),
            _ => {}
        }
        for &p in &v.parts {
            if p >= available {
                self.err(format!(
                    "entry {kind} `{}` refers to part {p}, but there are only {available} {of}",
                    v.type_name
                ));
            }
        }
        let fields_parts = |fields: &[(String, String, usize)]| fields.iter().map(|f| f.2).sum::<usize>();
        let sum_parts = |variants: &[(String, Vec<(String, usize)>)]| {
            1 + variants.iter().flat_map(|(_, payload)| payload).map(|item| item.1).sum::<usize>()
        };
        match &v.opaque {
            None if v.parts.len() != 1 => {
                self.err(format!("entry {kind} `{}` is not opaque but has {} parts", v.type_name, v.parts.len()))
            }
            Some(Opaque::Record { fields }) | Some(Opaque::RecordArray { fields, .. })
                if fields_parts(fields) != v.parts.len() =>
            {
                self.err(format!(
                    "entry {kind} `{}`: its fields span {} parts, but it has {}",
                    v.type_name,
                    fields_parts(fields),
                    v.parts.len()
                ))
            }
            Some(Opaque::Sum { variants }) | Some(Opaque::SumArray { variants, .. })
                if sum_parts(variants) != v.parts.len() =>
            {
                self.err(format!(
                    "entry {kind} `{}`: its tag and payloads span {} parts, but it has {}",
                    v.type_name,
                    sum_parts(variants),
                    v.parts.len()
                ))
            }
            _ => {}
        }
    }

    /// Checks a body whose results must agree with `expected`; its bindings leave scope at its end.
    fn body(&mut self, body: &Body, expected: &[Type], what: &str) {
        let mark = self.mark();
        self.check_virtual(body);
        for stm in &body.stms {
            self.stm(stm);
        }
        let mut result_types = Vec::new();
        for r in &body.result {
            if let Some(v) = r.as_var() {
                self.check_not_consumed(v, "is returned");
            }
            match self.type_of(r, &format!("the result of {what}")) {
                Some(t) => result_types.push(t),
                None => {
                    self.restore(mark);
                    return;
                }
            }
        }
        self.expect_types(&result_types, expected, &format!("the result of {what}"));
        self.restore(mark);
    }

    /// Reports a use (`how`: "is used in …") of `v` if it is consumed.
    fn check_not_consumed(&mut self, v: VName, how: &str) {
        let Some(c) = self.consumed.get(&v) else { return };
        let message = if c.var == v {
            format!("{} {how} after being consumed by {}", self.name(v), c.by)
        } else {
            format!(
                "{} {how} after being consumed: it may share memory with {}, which {} consumes",
                self.name(v),
                self.name(c.var),
                c.by
            )
        };
        self.err(message);
    }

    /// How messages refer to a statement: by the first name it binds.
    fn stm_description(&self, stm: &Stm) -> String {
        match stm.pat.first() {
            Some(p) => format!("the definition of {}", self.name(p.name)),
            None => "a statement with an empty pattern".to_string(),
        }
    }

    /// Checks the `#[virtual]` statements of `body` (see [`crate::layout`]).
    fn check_virtual(&mut self, body: &Body) {
        if !body.stms.iter().any(|s| s.attrs.virtual_) {
            return;
        }
        let allowed = crate::layout::virtual_candidates(body);
        for s in body.stms.iter().filter(|s| s.attrs.virtual_) {
            if !s.pat.first().is_some_and(|p| allowed.contains(&p.name)) {
                let what = self.stm_description(s);
                self.err(format!(
                    "{what} is #[virtual], but it is not a one-dimensional iota or replicate used only as an input of the SOACs of its body"
                ));
            }
        }
    }

    fn stm(&mut self, stm: &Stm) {
        let what = self.stm_description(stm);
        if stm.attrs.interchange && crate::layout::interchange_inner(stm).is_none() {
            self.err(format!(
                "{what} is #[interchange], but it is not a map of one reduction whose loops may be interchanged"
            ));
        }
        let eff = match self.nested_effects.remove(&(stm as *const Stm)) {
            Some(eff) => eff,
            None => {
                let (eff, nested) = Walker::new(&self.sums, &self.aliases).stm_and_nested(stm);
                self.nested_effects.extend(nested);
                eff
            }
        };
        // The operands written in the statement; those of nested statements
        // are checked there.
        let write_back = self.write_back(&stm.exp);
        let mut uses = Vec::new();
        for_each_operand(&stm.exp, &mut |se| uses.extend(se.as_var()));
        uses.extend(stm.pat.iter().flat_map(|p| type_vars(&p.ty)));
        if let (true, Exp::Update { array, .. }) = (write_back, &stm.exp) {
            uses.retain(|v| v != array);
        }
        for v in uses {
            // The message is made only for a use it reports.
            if self.consumed.contains_key(&v) {
                self.check_not_consumed(v, &format!("is used in {what}"));
            }
        }
        // Nested bodies see the consumptions before the statement and their
        // own; the statement's effect on what is outside it is applied below.
        let nested = !crate::visit::bodies(&stm.exp).is_empty() || matches!(stm.exp, Exp::Soac(_));
        let saved = if nested { Some(self.consumed.clone()) } else { None };
        self.pending.extend(eff.params);
        let pat_types: Vec<Type> = stm.pat.iter().map(|p| p.ty.clone()).collect();
        if let Some(types) = self.exp(&stm.exp, &pat_types, &what) {
            self.expect_types(&pat_types, &types, &format!("the pattern of {what}"));
        }
        if let Some(saved) = saved {
            self.consumed = saved;
        }
        for problem in eff.problems {
            let message = match problem {
                Problem::Overlap { .. } if write_back => continue,
                Problem::Overlap { consumed, used } if consumed == used => {
                    format!("{what} consumes {} and also uses it", self.name(consumed))
                }
                Problem::Overlap { consumed, used } => format!(
                    "{what} consumes {} and also uses {}, which may share memory with it",
                    self.name(consumed),
                    self.name(used)
                ),
                Problem::LoopUses { consumed, used } => format!(
                    "the loop of {what} consumes {} (a parameter's initial value), but its body uses {}, which may share memory with it",
                    self.name(consumed),
                    self.name(used)
                ),
                Problem::FreeConsumed { var, inside } => format!(
                    "a {inside} in {what} consumes {}, which is bound outside it (the next iteration would use it consumed)",
                    self.name(var)
                ),
                Problem::ConsumedParamGets { param, var } => format!(
                    "the loop body of {what} consumes its parameter {}, but gives it the value of {}, bound outside the loop, for the next iteration",
                    self.name(param),
                    self.name(var)
                ),
                Problem::OperatorConsumes { param } => {
                    format!("an operator in {what} consumes its parameter {}", self.name(param))
                }
            };
            self.err(message);
        }
        for (var, set) in eff.consumed {
            self.consume(var, &set, &what);
        }
        for (p, aliases) in stm.pat.iter().zip(eff.results) {
            self.pending.insert(p.name, aliases);
        }
        match (&stm.exp, stm.pat.first()) {
            (Exp::Index { array, slice }, Some(p)) if p.ty.rank() > 0 => {
                self.views.insert(p.name, (*array, slice.clone()));
            }
            (Exp::Update { array, .. }, Some(p)) => {
                self.updated_from.insert(p.name, *array);
            }
            _ => {}
        }
        for p in &stm.pat {
            self.bind(p, "pattern");
        }
    }

    /// Whether `exp` writes a slice of an array back where it came from:
    /// `a with [s] = u`, where `u` is the slice `v = a[s]` itself or the
    /// result of in-place updates of it. This is how a nested update
    /// `a with [i].f[j] = x` is lowered: the slice is updated in place,
    /// which consumes `a` (the slice's memory is `a`'s), and then written
    /// back, which copies it onto itself. Such an update may use `a` when
    /// the only consumption of `a` was through `v` (or a slice of `v`),
    /// and its value may share memory with `a`.
    fn write_back(&self, exp: &Exp) -> bool {
        let Exp::Update { array, slice, value: SubExp::Var(u) } = exp else { return false };
        let mut root = *u;
        while let Some(&x) = self.updated_from.get(&root) {
            root = x;
        }
        if self.views.get(&root) != Some(&(*array, slice.clone())) {
            return false;
        }
        let Some(c) = self.consumed.get(array) else { return true };
        // `c.var` must be `root` or a slice of it (at any depth).
        let mut at = c.var;
        loop {
            if at == root {
                return true;
            }
            match self.views.get(&at) {
                Some((parent, _)) => at = *parent,
                None => return false,
            }
        }
    }

    /// Marks `var` consumed by the statement `by`, and with it every array
    /// in scope that may share its memory (`set`: `var` and its aliases).
    fn consume(&mut self, var: VName, set: &Names, by: &str) {
        let hit: Vec<VName> =
            self.aliases.iter().filter(|(u, a)| set.contains(u) || !a.is_disjoint(set)).map(|(u, _)| *u).collect();
        for u in hit {
            self.consumed.entry(u).or_insert_with(|| Consumed { var, by: by.to_string() });
        }
    }

    fn slice(&mut self, array_ty: &Type, slice: &[DimIndex], what: &str) -> Option<Type> {
        if slice.len() > array_ty.rank() {
            self.err(format!("{what}: a slice of {} dimensions on an array of rank {}", slice.len(), array_ty.rank()));
            return None;
        }
        let mut shape = Vec::new();
        for d in slice {
            match d {
                DimIndex::Fix(i) => self.expect_prim(i, PrimType::I64, what),
                DimIndex::Slice { start, len, stride } => {
                    self.expect_prim(start, PrimType::I64, what);
                    self.expect_prim(len, PrimType::I64, what);
                    self.expect_prim(stride, PrimType::I64, what);
                    shape.push(*len);
                }
            }
        }
        shape.extend_from_slice(&array_ty.shape()[slice.len()..]);
        Some(if shape.is_empty() { Type::Prim(array_ty.elem()) } else { Type::Array { elem: array_ty.elem(), shape } })
    }

    /// Checks an expression and gives the types of its results (`None` when
    /// they cannot be determined because of an error already reported).
    fn exp(&mut self, exp: &Exp, pat_types: &[Type], what: &str) -> Option<Vec<Type>> {
        let prim = |t: PrimType| Some(vec![Type::Prim(t)]);
        match exp {
            Exp::SubExp(se) => Some(vec![self.type_of(se, what)?]),
            Exp::BinOp(op, t, a, b) => {
                self.expect_prim(a, *t, what);
                let second = if *op == BinOp::Ldexp { PrimType::I32 } else { *t };
                self.expect_prim(b, second, what);
                prim(*t)
            }
            Exp::CmpOp(_, t, a, b) => {
                self.expect_prim(a, *t, what);
                self.expect_prim(b, *t, what);
                prim(PrimType::Bool)
            }
            Exp::UnOp(op, t, a) => {
                self.expect_prim(a, *t, what);
                match op {
                    UnOp::IsNan | UnOp::IsInf => prim(PrimType::Bool),
                    UnOp::Popc | UnOp::Clz | UnOp::Ctz => prim(PrimType::I32),
                    _ => prim(*t),
                }
            }
            Exp::TernOp(_, t, a, b, c) => {
                for x in [a, b, c] {
                    self.expect_prim(x, *t, what);
                }
                prim(*t)
            }
            Exp::Conv(op, from, to, a) => {
                self.expect_prim(a, *from, what);
                if *op == ConvOp::Bitcast && from.bits() != to.bits() {
                    self.err(format!("{what}: bitcast between {from} and {to}, of different widths"));
                }
                prim(*to)
            }
            Exp::Apply { func, args } => {
                let Some(callee) = self.prog.fun(func) else {
                    self.err(format!("{what}: call of unknown function `{func}`"));
                    return None;
                };
                if callee.params.len() != args.len() {
                    self.err(format!("{what}: `{func}` takes {} arguments, given {}", callee.params.len(), args.len()));
                    return None;
                }
                for (a, p) in args.iter().zip(&callee.params) {
                    self.expect_type(a, &p.ty, &format!("an argument of `{func}` in {what}"));
                }
                Some(callee.ret.clone())
            }
            Exp::If { cond, then_body, else_body } => {
                self.expect_prim(cond, PrimType::Bool, &format!("the condition of {what}"));
                // Only one branch runs: the other does not see its consumptions.
                let saved = self.consumed.clone();
                self.body(then_body, pat_types, &format!("the `then` branch of {what}"));
                self.consumed = saved;
                self.body(else_body, pat_types, &format!("the `else` branch of {what}"));
                Some(pat_types.to_vec())
            }
            Exp::Loop { params, form, body } => {
                for (p, init) in params {
                    self.expect_type(
                        init,
                        &p.ty,
                        &format!("the initial value of loop parameter {}", self.name(p.name)),
                    );
                }
                if let LoopForm::For { bound, .. } = form {
                    self.expect_prim(bound, PrimType::I64, &format!("the loop bound of {what}"));
                }
                let mark = self.mark();
                for (p, _) in params {
                    self.bind(p, "loop parameter");
                }
                match form {
                    LoopForm::For { i, .. } => self.bind_index(*i),
                    LoopForm::While { cond } => match params.iter().find(|(p, _)| p.name == *cond) {
                        Some((p, _)) if p.ty == Type::Prim(PrimType::Bool) => {}
                        Some(_) => self.err(format!("{what}: the while condition {} is not a bool", self.name(*cond))),
                        None => self
                            .err(format!("{what}: the while condition {} is not a loop parameter", self.name(*cond))),
                    },
                }
                let param_types: Vec<Type> = params.iter().map(|(p, _)| p.ty.clone()).collect();
                self.body(body, &param_types, &format!("the loop body of {what}"));
                self.restore(mark);
                Some(param_types)
            }
            Exp::Index { array, slice } => {
                let t = self.array_type(*array, what)?;
                Some(vec![self.slice(&t, slice, what)?])
            }
            Exp::Update { array, slice, value } => {
                let t = self.array_type(*array, what)?;
                let target = self.slice(&t, slice, what)?;
                self.expect_type(value, &target, &format!("the value written in {what}"));
                Some(vec![t])
            }
            Exp::UpdAcc { acc, slice, value, op } => {
                let t = self.array_type(*acc, what)?;
                let target = self.slice(&t, slice, what)?;
                self.expect_type(value, &target, &format!("the value accumulated in {what}"));
                if let Some(op) = op {
                    if !crate::accs::is_acc_op(*op, t.elem()) {
                        self.err(format!(
                            "{what}: `{}` on {} is not an operator accumulators combine with",
                            crate::print::binop_name(*op),
                            t.elem()
                        ));
                    }
                }
                Some(vec![t])
            }
            Exp::Iota { n, start, step, elem } => {
                if !elem.is_int() {
                    self.err(format!("{what}: iota of non-integer type {elem}"));
                }
                self.expect_prim(n, PrimType::I64, what);
                self.expect_prim(start, *elem, what);
                self.expect_prim(step, *elem, what);
                Some(vec![Type::Array { elem: *elem, shape: vec![*n] }])
            }
            Exp::Replicate { shape, value } => {
                shape.iter().for_each(|d| self.expect_prim(d, PrimType::I64, what));
                let t = self.type_of(value, what)?;
                let mut full = shape.clone();
                full.extend_from_slice(t.shape());
                Some(vec![array_or_prim(t.elem(), full)])
            }
            Exp::Scratch { elem, shape } => {
                shape.iter().for_each(|d| self.expect_prim(d, PrimType::I64, what));
                Some(vec![array_or_prim(*elem, shape.clone())])
            }
            Exp::Reshape { array, shape } => {
                let t = self.array_type(*array, what)?;
                shape.iter().for_each(|d| self.expect_prim(d, PrimType::I64, what));
                if shape.is_empty() {
                    self.err(format!("{what}: reshape to an empty shape"));
                }
                Some(vec![array_or_prim(t.elem(), shape.clone())])
            }
            Exp::Rearrange { array, perm } => {
                let t = self.array_type(*array, what)?;
                let mut sorted = perm.clone();
                sorted.sort_unstable();
                if sorted != (0..t.rank()).collect::<Vec<_>>() {
                    self.err(format!("{what}: {perm:?} is not a permutation of the {} dimensions", t.rank()));
                    return None;
                }
                let shape = perm.iter().map(|&d| t.shape()[d]).collect();
                Some(vec![Type::Array { elem: t.elem(), shape }])
            }
            Exp::Concat { dim, arrays, len } => {
                self.expect_prim(len, PrimType::I64, what);
                let Some(&first) = arrays.first() else {
                    self.err(format!("{what}: concatenation of no arrays"));
                    return None;
                };
                let t = self.array_type(first, what)?;
                if *dim >= t.rank() {
                    self.err(format!("{what}: concatenation along dimension {dim} of an array of rank {}", t.rank()));
                    return None;
                }
                for &a in &arrays[1..] {
                    if let Some(other) = self.array_type(a, what) {
                        if other.elem() != t.elem() || other.rank() != t.rank() {
                            self.err(format!(
                                "{what}: concatenated arrays {} and {} have types {} and {}",
                                self.name(first),
                                self.name(a),
                                self.ty(&t),
                                self.ty(&other)
                            ));
                        }
                    }
                }
                let mut shape = t.shape().to_vec();
                shape[*dim] = *len;
                Some(vec![Type::Array { elem: t.elem(), shape }])
            }
            Exp::Copy(v) => Some(vec![self.type_of(&SubExp::Var(*v), what)?]),
            Exp::ArrayLit { elems, elem_ty } => {
                self.check_shape_in_scope(elem_ty, what);
                for e in elems {
                    self.expect_type(e, elem_ty, &format!("an element of {what}"));
                }
                Some(vec![elem_ty.array_of(SubExp::i64(elems.len() as i64))])
            }
            Exp::Assert { cond, message, args } => {
                self.expect_prim(cond, PrimType::Bool, &format!("the condition of the assertion in {what}"));
                let mut at = 0;
                for (k, a) in args {
                    self.expect_prim(a, PrimType::I64, &format!("a value in the message of the assertion in {what}"));
                    if *k < at || *k > message.len() || !message.is_char_boundary(*k) {
                        self.err(format!("a value's offset {k} in the message of the assertion in {what} is out of order or not on a character boundary"));
                    }
                    at = *k;
                }
                // A check binds nothing; a user assertion, its certificate.
                Some(if pat_types.is_empty() { Vec::new() } else { vec![Type::Prim(PrimType::Bool)] })
            }
            Exp::Certify { cert, values } => {
                self.expect_prim(&SubExp::Var(*cert), PrimType::Bool, &format!("the certificate in {what}"));
                values.iter().map(|v| self.type_of(v, what)).collect()
            }
            Exp::UserParam { default, .. } => {
                self.expect_prim(default, PrimType::I64, &format!("the default of the tuning parameter in {what}"));
                prim(PrimType::I64)
            }
            Exp::Soac(soac) => self.soac(soac, what),
            Exp::Ad { mode, lambda, args, seeds } => {
                let params: Vec<Type> = lambda.params.iter().map(|p| p.ty.clone()).collect();
                if *mode == AdMode::CustomVjp {
                    let k = AdMode::custom_results(lambda, args.len());
                    let ret = &lambda.ret;
                    if !seeds.is_empty()
                        || ret.len() != k + args.len()
                        || ret[k..] != params[..args.len()]
                        || params[args.len()..] != ret[..k]
                    {
                        self.err(format!(
                            "{what}: a custom derivative's lambda must take the arguments and the results' adjoints, \
                             and return the results and the arguments' adjoints"
                        ));
                    }
                    for (a, t) in args.iter().zip(&params) {
                        self.expect_type(a, t, &format!("an argument of {what}"));
                    }
                    self.lambda(lambda, None, what);
                    return Some(ret[..k.min(ret.len())].to_vec());
                }
                if args.len() != params.len() {
                    self.err(format!("{what}: {} arguments for {} parameters", args.len(), params.len()));
                }
                for (a, t) in args.iter().zip(&params) {
                    self.expect_type(a, t, &format!("an argument of {what}"));
                }
                let seed_types = match mode {
                    AdMode::Jvp | AdMode::Jmp => &params,
                    AdMode::Vjp | AdMode::Mjp | AdMode::CustomVjp => &lambda.ret,
                };
                if seeds.len() != seed_types.len() {
                    self.err(format!("{what}: {} seeds for {} values", seeds.len(), seed_types.len()));
                }
                // The vector forms' seeds are arrays of `k` seeds.
                let vector = matches!(mode, AdMode::Jmp | AdMode::Mjp);
                let k = match (vector, seeds.first()) {
                    (false, _) => None,
                    (true, Some(s)) => self.type_of(s, what).and_then(|t| t.shape().first().copied()),
                    (true, None) => {
                        self.err(format!("{what}: a vector derivative without seeds"));
                        return None;
                    }
                };
                for (a, t) in seeds.iter().zip(seed_types) {
                    let t = match k {
                        Some(k) => t.array_of(k),
                        None => t.clone(),
                    };
                    self.expect_type(a, &t, &format!("a seed of {what}"));
                }
                self.lambda(lambda, None, what);
                let mut out = lambda.ret.clone();
                let derivatives = match mode {
                    AdMode::Jvp | AdMode::Jmp => lambda.ret.clone(),
                    AdMode::Vjp | AdMode::Mjp | AdMode::CustomVjp => params,
                };
                out.extend(derivatives.iter().map(|t| match k {
                    Some(k) => t.array_of(k),
                    None => t.clone(),
                }));
                Some(out)
            }
        }
    }

    /// Checks the arrays of a SOAC against its width; gives their row types.
    fn soac_inputs(&mut self, w: &SubExp, arrs: &[VName], what: &str) -> Vec<Type> {
        self.expect_prim(w, PrimType::I64, &format!("the width of {what}"));
        let mut rows = Vec::new();
        for &a in arrs {
            let Some(t) = self.array_type(a, what) else {
                continue;
            };
            if let (SubExp::Const(outer), SubExp::Const(width)) = (t.shape()[0], w) {
                if outer != *width {
                    self.err(format!(
                        "{what}: array {} has outer size {outer}, but the width is {width}",
                        self.name(a)
                    ));
                }
            }
            rows.push(t.row());
        }
        rows
    }

    /// Checks a lambda whose parameters should agree with `param_types` (when known).
    fn lambda(&mut self, lam: &Lambda, param_types: Option<&[Type]>, what: &str) {
        if let Some(expected) = param_types {
            let actual: Vec<Type> = lam.params.iter().map(|p| p.ty.clone()).collect();
            self.expect_types(&actual, expected, &format!("the parameters of the lambda of {what}"));
        }
        let mark = self.mark();
        for p in &lam.params {
            self.bind(p, "lambda parameter");
        }
        for t in &lam.ret {
            self.check_ret_shape(t, &format!("the return type of the lambda of {what}"));
        }
        self.body(&lam.body, &lam.ret, &format!("the lambda of {what}"));
        self.restore(mark);
    }

    /// Checks an operator; gives the types it combines.
    fn operator(&mut self, op: &Operator, what: &str) -> Vec<Type> {
        let k = op.lambda.ret.len();
        let what = format!("an operator of {what}");
        if op.lambda.params.len() != 2 * k {
            self.err(format!(
                "{what}: the operator returns {k} values but takes {} parameters",
                op.lambda.params.len()
            ));
        }
        if op.neutral.len() != k {
            self.err(format!("{what}: {} neutral elements for {k} values", op.neutral.len()));
        }
        for (n, t) in op.neutral.iter().zip(&op.lambda.ret) {
            self.expect_type(n, t, &format!("the neutral element of {what}"));
        }
        let doubled: Vec<Type> = op.lambda.ret.iter().chain(&op.lambda.ret).cloned().collect();
        self.lambda(&op.lambda, Some(&doubled), &what);
        op.lambda.ret.clone()
    }

    fn soac(&mut self, soac: &Soac, what: &str) -> Option<Vec<Type>> {
        match soac {
            Soac::Screma { w, arrs, scans, reduces, map } => {
                let rows = self.soac_inputs(w, arrs, what);
                let rows_known = rows.len() == arrs.len();
                let scan_ts: Vec<Type> = scans.iter().flat_map(|op| self.operator(op, what)).collect();
                let red_ts: Vec<Type> = reduces.iter().flat_map(|op| self.operator(op, what)).collect();
                self.lambda(map, rows_known.then_some(&rows[..]), what);
                let ops_len = scan_ts.len() + red_ts.len();
                if map.ret.len() < ops_len {
                    self.err(format!(
                        "{what}: the map function returns {} values, but the operators take {ops_len}",
                        map.ret.len()
                    ));
                    return None;
                }
                let op_ts: Vec<Type> = scan_ts.iter().chain(&red_ts).cloned().collect();
                self.expect_types(&map.ret[..ops_len], &op_ts, &format!("the operator inputs of {what}"));
                let mut results: Vec<Type> = scan_ts.iter().map(|t| t.array_of(*w)).collect();
                results.extend(red_ts);
                results.extend(map.ret[ops_len..].iter().map(|t| t.array_of(*w)));
                Some(results)
            }
            Soac::Hist { w, arrs, ops, map } => {
                let rows = self.soac_inputs(w, arrs, what);
                let rows_known = rows.len() == arrs.len();
                self.lambda(map, rows_known.then_some(&rows[..]), what);
                let mut expected_ret = Vec::new();
                let mut results = Vec::new();
                for op in ops {
                    op.shape.iter().for_each(|d| self.expect_prim(d, PrimType::I64, what));
                    let value_ts = self.operator(&op.op, what);
                    if op.dests.len() != value_ts.len() {
                        self.err(format!(
                            "{what}: a histogram has {} destinations for {} values",
                            op.dests.len(),
                            value_ts.len()
                        ));
                    }
                    for (&d, vt) in op.dests.iter().zip(&value_ts) {
                        let mut shape = op.shape.clone();
                        shape.extend_from_slice(vt.shape());
                        self.expect_type(&SubExp::Var(d), &array_or_prim(vt.elem(), shape), what);
                    }
                    for &d in &op.dests {
                        results.push(self.type_of(&SubExp::Var(d), what)?);
                    }
                    expected_ret.extend(op.shape.iter().map(|_| Type::Prim(PrimType::I64)));
                    expected_ret.extend(value_ts);
                }
                self.expect_types(&map.ret, &expected_ret, &format!("the map function of {what}"));
                Some(results)
            }
            Soac::WithAcc { w, arrs, accs, map } => {
                let rows = self.soac_inputs(w, arrs, what);
                let mut params = Vec::new();
                for &a in accs {
                    params.push(self.array_type(a, what)?);
                }
                let n = params.len();
                let rows_known = rows.len() == arrs.len();
                params.extend(rows);
                self.lambda(map, rows_known.then_some(&params[..]), what);
                if map.ret.len() < n {
                    self.err(format!("{what}: the map function returns fewer values than the {n} accumulators"));
                    return None;
                }
                self.expect_types(&map.ret[..n], &params[..n], &format!("the accumulators {what} returns"));
                for problem in crate::accs::check(map, n) {
                    self.err(format!("{what}: {}", problem.render(&self.prog.names)));
                }
                let mut results = params[..n].to_vec();
                results.extend(map.ret[n..].iter().map(|t| t.array_of(*w)));
                Some(results)
            }
            Soac::Scatter { w, arrs, dests, map } => {
                let rows = self.soac_inputs(w, arrs, what);
                let rows_known = rows.len() == arrs.len();
                self.lambda(map, rows_known.then_some(&rows[..]), what);
                let mut results = Vec::new();
                for &d in dests {
                    results.push(self.array_type(d, what)?);
                }
                let Some(layout) = crate::scatter_layout(&map.ret, results.iter().map(Type::rank)) else {
                    self.err(format!(
                        "{what}: the map function's results are not indices and values for destinations of ranks {:?}",
                        results.iter().map(Type::rank).collect::<Vec<_>>()
                    ));
                    return Some(results);
                };
                let mut expected_ret = Vec::new();
                for (t, k) in results.iter().zip(layout) {
                    expected_ret.extend((0..k).map(|_| Type::Prim(PrimType::I64)));
                    expected_ret.push(array_or_prim(t.elem(), t.shape()[k..].to_vec()));
                }
                self.expect_types(&map.ret, &expected_ret, &format!("the map function of {what}"));
                Some(results)
            }
        }
    }
}

fn array_or_prim(elem: PrimType, shape: Vec<SubExp>) -> Type {
    if shape.is_empty() {
        Type::Prim(elem)
    } else {
        Type::Array { elem, shape }
    }
}
