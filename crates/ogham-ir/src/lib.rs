//! The core IR: typed, monomorphic, first-order, in A-normal form.
//!
//! Invariants (checked by [`verify`]):
//! - Every operand is a [`SubExp`]: a constant or a variable bound earlier in
//!   scope. Every variable is bound exactly once in the whole program.
//! - There are no tuples, records or sum types: they were flattened into
//!   several values by lowering. Arrays are arrays of primitives; an array of
//!   records is several arrays.
//! - Every array type's shape is a list of `i64` [`SubExp`]s in scope where
//!   the type is written. A statement whose results have sizes not known
//!   before it (`if` branches of different sizes, size-variant loops, filter
//!   results) returns those sizes as extra `i64` results, bound in the same
//!   pattern, earlier than the arrays that use them.
//! - The second-order array combinators (SOACs) are IR constructs with their
//!   lambdas inline; there are no function values.
//! - A variable that is consumed (the array of an [`Exp::Update`], the
//!   destinations of a scatter or histogram, a loop's consumed initial
//!   value, a consumed function argument) is not used after, and neither is
//!   any value that may share its memory: backends update consumed arrays
//!   in place (the C backend does), so such a use would see the update,
//!   which the language's value semantics (the interpreter's) does not.
//!
//! Aliasing (see [`alias`] for the exact rules): a *view* shares its
//! source's memory: a slice ([`Exp::Index`] with an array result),
//! [`Exp::Reshape`], [`Exp::Rearrange`], a plain copy `let y = x`, a
//! [`Exp::Certify`] of an array, and the results of `if`s, loops and calls
//! that may be (views of) arrays from outside them. Consuming a view
//! consumes its source, and consuming an array consumes every view of it:
//! once either is consumed, neither may be used (the view of a consumed
//! array shows the update in place in one backend and not in another).
//! The only exception is writing a slice back where it came from: `let v =
//! a[s]`, in-place updates of `v`, then `a with [s] = v'` (how nested
//! updates `a with [i].f[j] = x` are lowered). A loop consumes the initial
//! values of the parameters its body consumes; a loop body or lambda may
//! consume only its own parameters (a map lambda's row parameter: a row of
//! the input) and what it binds; a function consumes the parameters its
//! body consumes (Futhark's `*` parameters), and a call consumes their
//! arguments. [`Exp::Copy`] and every other array-producing expression
//! give fresh arrays.
//!
//! Run-time checks: `Index`/`Update` check bounds (unless the statement's
//! attributes say `unsafe`), integer division checks for zero, and explicit
//! [`Exp::Assert`] statements carry the other checks (size coercions, ranges,
//! user assertions; a user assertion lasts only while the values it
//! certifies are used, see [`Exp::Certify`]). Every statement carries the source span reported when
//! one of its checks fails.

pub mod accs;
pub mod alias;
pub mod builder;
pub mod layout;
pub mod parse;
pub mod print;
pub mod verify;
pub mod visit;

use std::fmt;

pub use ogham_prim::ops::{BinOp, CmpOp, ConvOp, TernOp, UnOp};
pub use ogham_prim::{PrimType, PrimValue};
pub use ogham_syntax::Span;

/// A variable. The number is unique in the program; its base name (for
/// printing) is kept in the program's [`NameTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VName(pub u32);

/// Base names of variables, and the source of fresh ones.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    pub names: Vec<String>,
}

impl NameTable {
    pub fn fresh(&mut self, base: &str) -> VName {
        self.names.push(base.to_string());
        VName(self.names.len() as u32 - 1)
    }

    pub fn base(&self, v: VName) -> &str {
        self.names.get(v.0 as usize).map(|s| s.as_str()).unwrap_or("v")
    }

    /// The printed form of a variable: `base_number`.
    pub fn display(&self, v: VName) -> String {
        format!("{}_{}", self.base(v), v.0)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// An atomic operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SubExp {
    Const(PrimValue),
    Var(VName),
}

impl SubExp {
    pub fn i64(x: i64) -> SubExp {
        SubExp::Const(PrimValue::I64(x))
    }
    pub fn as_var(self) -> Option<VName> {
        match self {
            SubExp::Var(v) => Some(v),
            SubExp::Const(_) => None,
        }
    }
}

impl From<VName> for SubExp {
    fn from(v: VName) -> SubExp {
        SubExp::Var(v)
    }
}

/// The type of a value: a scalar, or a regular array of scalars.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Prim(PrimType),
    /// `shape` is outermost first; each dimension is an `i64` operand.
    Array {
        elem: PrimType,
        shape: Vec<SubExp>,
    },
}

impl Type {
    pub fn elem(&self) -> PrimType {
        match self {
            Type::Prim(t) => *t,
            Type::Array { elem, .. } => *elem,
        }
    }

    pub fn rank(&self) -> usize {
        match self {
            Type::Prim(_) => 0,
            Type::Array { shape, .. } => shape.len(),
        }
    }

    pub fn shape(&self) -> &[SubExp] {
        match self {
            Type::Prim(_) => &[],
            Type::Array { shape, .. } => shape,
        }
    }

    /// The type with `outer` prepended to its shape (the type of an array of these).
    pub fn array_of(&self, outer: SubExp) -> Type {
        let mut shape = vec![outer];
        shape.extend_from_slice(self.shape());
        Type::Array { elem: self.elem(), shape }
    }

    /// The type of one row (the element type after dropping the outer dimension).
    pub fn row(&self) -> Type {
        match self {
            Type::Array { elem, shape } if shape.len() > 1 => Type::Array { elem: *elem, shape: shape[1..].to_vec() },
            other => Type::Prim(other.elem()),
        }
    }
}

/// A name with its type, as bound by patterns, parameters and loop variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: VName,
    pub ty: Type,
}

/// One dimension of an [`Exp::Index`] or [`Exp::Update`].
#[derive(Clone, Debug, PartialEq)]
pub enum DimIndex {
    /// A single index: removes the dimension.
    Fix(SubExp),
    /// `len` elements starting at `start`, `stride` apart (stride may be negative;
    /// `start + (len-1)*stride` must be in bounds when `len > 0`).
    Slice { start: SubExp, len: SubExp, stride: SubExp },
}

/// Attributes of a statement that change how it is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StmAttrs {
    /// `#[unsafe]`: no bounds checks.
    pub unsafe_: bool,
    /// `#[sequential]`: do not run in parallel.
    pub sequential: bool,
    /// `#[virtual]`: an array the backend never builds (see [`layout`]).
    pub virtual_: bool,
    /// `#[interchange]`: a map of a reduction the backend runs with its
    /// loops interchanged (see [`layout`]).
    pub interchange: bool,
    /// `#[stripmine(k)]` on a `for` loop: reverse-mode differentiation
    /// runs it as a nest of `k` loops of about `n^(1/k)` iterations each,
    /// so its checkpoints take memory ∝ `k·n^(1/k)` rather than `n`, for
    /// at most `k + 1` executions of the body (seed 004 §3.4). The outer
    /// loops of that nest are `#[stripmine(1)]`: their return sweeps run
    /// the inner loop's forward sweep again instead of keeping the inner
    /// loop's checkpoints of every outer iteration, which would take the
    /// memory of `n` iterations again.
    pub stripmine: Option<u8>,
}

/// `let pat = exp`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stm {
    pub pat: Vec<Param>,
    pub exp: Exp,
    pub attrs: StmAttrs,
    /// The source position reported if a run-time check in `exp` fails.
    pub span: Span,
}

/// A sequence of statements and the results of the block.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Body {
    pub stms: Vec<Stm>,
    pub result: Vec<SubExp>,
}

/// An anonymous function, as used by the SOACs.
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub body: Body,
    pub ret: Vec<Type>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    /// `for i < bound`; `i` is an `i64` bound by the loop.
    For { i: VName, bound: SubExp },
    /// `while cond`, where `cond` is one of the loop parameters (a bool), tested before each iteration.
    While { cond: VName },
}

/// A reduction or scan operator with its neutral element(s).
#[derive(Clone, Debug, PartialEq)]
pub struct Operator {
    /// Takes `2·k` parameters (k accumulated values, then k new ones), returns k values.
    pub lambda: Lambda,
    pub neutral: Vec<SubExp>,
    /// Whether the operator is known to be commutative (`reduce_comm`), allowing any order.
    pub commutative: bool,
}

/// One histogram computed by [`Soac::Hist`].
#[derive(Clone, Debug, PartialEq)]
pub struct HistOp {
    /// The shape of the destination (one dimension per index).
    pub shape: Vec<SubExp>,
    /// Destination arrays (consumed), one per value component.
    pub dests: Vec<VName>,
    pub op: Operator,
}

/// The second-order array combinators.
#[derive(Clone, Debug, PartialEq)]
pub enum Soac {
    /// `screma w arrs (scans) (reduces) map`: applies `map` to each row of the
    /// `arrs` (all of outer size `w`); its results are, in order, the inputs of
    /// every scan, the inputs of every reduce, and further mapped values. The
    /// statement returns the scanned arrays, then the reduced values, then the
    /// mapped arrays. A plain `map` has no scans or reduces.
    Screma { w: SubExp, arrs: Vec<VName>, scans: Vec<Operator>, reduces: Vec<Operator>, map: Lambda },
    /// `hist w arrs ops map`: `map` gives, per row, for each op in turn its
    /// indices (one `i64` per dimension of the op's shape) then its values;
    /// out-of-range indices are ignored. Returns the updated destinations.
    Hist { w: SubExp, arrs: Vec<VName>, ops: Vec<HistOp>, map: Lambda },
    /// `scatter w arrs dests map`: `map` gives, per row, for each destination
    /// its indices then its value: `k` `i64` indices and a value of the
    /// destination's shape without its first `k` dimensions (a whole row
    /// for `k` one less than the rank; see [`scatter_layout`]).
    /// Out-of-range indices are ignored. Returns the updated destinations
    /// (consumed).
    Scatter { w: SubExp, arrs: Vec<VName>, dests: Vec<VName>, map: Lambda },
    /// `withacc w arrs accs map`: seed 004's `withacc` and the `map` that
    /// runs inside it, in one construct. The arrays `accs` (consumed)
    /// become *accumulators*, write-only views that every application of
    /// `map` may update with [`Exp::UpdAcc`] in any order. `map` takes the
    /// accumulators (whole, of the arrays' types), then one row of each
    /// of `arrs` (all of outer size `w`), and returns the accumulators,
    /// then its mapped values. The statement returns the updated arrays,
    /// then the mapped arrays.
    ///
    /// Linear use: inside `map`, an accumulator (a parameter for one, or
    /// what an update, a nested `withacc`, a loop or a branch made of one)
    /// is used exactly once, and only as the accumulator of an
    /// [`Exp::UpdAcc`], an accumulator of a nested `withacc`, a loop's
    /// initial value, or a result of a branch, loop body or `map`. It is
    /// never read, so applications may run in parallel: every update of
    /// one accumulator inside `map` uses the same operator (commutative and
    /// associative, or overwriting as `scatter` does), and backends may
    /// combine them atomically or through per-thread partial arrays.
    WithAcc { w: SubExp, arrs: Vec<VName>, accs: Vec<VName>, map: Lambda },
}

/// A function, or an entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct FunDef {
    pub name: String,
    pub params: Vec<Param>,
    /// Result types. A dimension variable that is not a parameter is existential:
    /// only known when the function returns.
    pub ret: Vec<Type>,
    pub body: Body,
    /// Present when the function is an entry point.
    pub entry: Option<EntryPoint>,
    pub span: Span,
}

/// How an entry point looks from outside: its source-level inputs and
/// outputs, each made of some of the function's flat parameters or results.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    pub inputs: Vec<EntryValue>,
    pub outputs: Vec<EntryValue>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntryValue {
    /// For an input, the name of the source parameter as Futhark's manifest
    /// gives it: the name a parameter pattern binds (seen through a type
    /// ascription or attributes), and `_` for any other pattern (tuples,
    /// records, wildcards). Several inputs may share a name (`_`). Outputs
    /// have no name; an input without one (hand-written IR) counts as `_`.
    pub name: Option<String>,
    /// The source type as Futhark prints it without sizes: `[][]f32`, `i64`,
    /// or an opaque name such as `(f32, f32)` / a type abbreviation's name.
    pub type_name: String,
    /// `*` on an input (consumed) or an output (fresh).
    pub unique: bool,
    /// Indices into the function's `params` (for inputs) or results (for
    /// outputs) that make up this value. A primitive or an array of primitives
    /// is exactly one; records, tuples and sum types are opaque and have several.
    /// Parameters listed in no input are sizes, bound from the shapes of the
    /// array parameters in which they occur.
    pub parts: Vec<usize>,
    /// For opaque values: the structure, so values can be assembled and taken apart.
    pub opaque: Option<Opaque>,
}

/// The structure of an opaque (non-primitive, non-array-of-primitive) entry value.
#[derive(Clone, Debug, PartialEq)]
pub enum Opaque {
    /// A record or tuple: fields in order, each with its type name and the number of parts it spans.
    Record { fields: Vec<(String, String, usize)> },
    /// A sum type: constructors in tag order, each with its payload (every
    /// item's type name and the number of parts it spans). The first part is
    /// the `i8` tag, then every constructor's payload in that order.
    Sum { variants: Vec<(String, Vec<(String, usize)>)> },
    /// An array of records.
    RecordArray { rank: usize, fields: Vec<(String, String, usize)> },
    /// An array of a sum type: the element type's constructors as in `Sum`;
    /// the parts are the array of tags, then the payloads' arrays.
    SumArray { rank: usize, variants: Vec<(String, Vec<(String, usize)>)> },
}

/// Expressions: the right-hand sides of statements.
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    SubExp(SubExp),
    /// Operands and result of the given type (for `Shl`/`Shr`/`UShr` both operands have it).
    BinOp(BinOp, PrimType, SubExp, SubExp),
    /// Operands of the given type; result `bool`.
    CmpOp(CmpOp, PrimType, SubExp, SubExp),
    UnOp(UnOp, PrimType, SubExp),
    TernOp(TernOp, PrimType, SubExp, SubExp, SubExp),
    /// Convert from the first type to the second.
    Conv(ConvOp, PrimType, PrimType, SubExp),
    /// Call a function of the program by name. The pattern has one element
    /// per result of the callee: a callee returning arrays whose sizes its
    /// parameters do not determine returns those sizes as leading `i64`
    /// results (its return types name them by variables bound nowhere), and
    /// the pattern binds them before the arrays that use them, as for `If`.
    Apply {
        func: String,
        args: Vec<SubExp>,
    },
    /// Both branches return values of the pattern's types.
    If {
        cond: SubExp,
        then_body: Body,
        else_body: Body,
    },
    /// Loop parameters with their initial values; the body returns the next values.
    /// The statement's pattern binds the final values.
    Loop {
        params: Vec<(Param, SubExp)>,
        form: LoopForm,
        body: Body,
    },
    /// Index and/or slice an array. All `Fix` gives a scalar; otherwise an
    /// array view with one dimension per `Slice`, then the array's remaining
    /// dimensions (the slice may list fewer dimensions than the rank).
    Index {
        array: VName,
        slice: Vec<DimIndex>,
    },
    /// Write `value` (a scalar, or an array of the slice's shape) into the
    /// slice of `array` in place, consuming `array`; the result is the updated array.
    Update {
        array: VName,
        slice: Vec<DimIndex>,
        value: SubExp,
    },
    /// `acc[slice] ⊕= value` in place, consuming `acc`, with `op` as ⊕
    /// (elementwise for a slice or row; `None` overwrites, as `update`
    /// does); the result is the updated array. Unlike [`Exp::Update`], a
    /// slice out of bounds is no error: nothing is written, as in
    /// `scatter`. Inside a [`Soac::WithAcc`] this is seed 004's `upd` on
    /// an accumulator; elsewhere it is an update of an array.
    UpdAcc {
        acc: VName,
        slice: Vec<DimIndex>,
        value: SubExp,
        op: Option<BinOp>,
    },
    /// `[start, start+step, …]`, `n` elements of integer type `elem`.
    Iota {
        n: SubExp,
        start: SubExp,
        step: SubExp,
        elem: PrimType,
    },
    /// An array of the given shape with every element (or row) equal to `value`.
    Replicate {
        shape: Vec<SubExp>,
        value: SubExp,
    },
    /// An array with unspecified contents, to be overwritten.
    Scratch {
        elem: PrimType,
        shape: Vec<SubExp>,
    },
    /// The same elements in row-major order, in a new shape (same element count; checked).
    Reshape {
        array: VName,
        shape: Vec<SubExp>,
    },
    /// Permute the dimensions (`transpose` is `[1, 0]`).
    Rearrange {
        array: VName,
        perm: Vec<usize>,
    },
    /// Concatenate along dimension `dim`; `len` is the result's size in that dimension.
    Concat {
        dim: usize,
        arrays: Vec<VName>,
        len: SubExp,
    },
    /// A fresh copy (the result aliases nothing).
    Copy(VName),
    /// `[a, b, …]` of elements (scalars or arrays) of type `elem_ty`.
    ArrayLit {
        elems: Vec<SubExp>,
        elem_ty: Type,
    },
    /// Fails at run time with `message` at the statement's span unless `cond` holds.
    /// Each of `args` (an `i64` operand) is printed in decimal at its byte
    /// offset in `message` (offsets in order, on character boundaries), so a
    /// message can show the values that failed (`Range 5...1 is invalid.`);
    /// see [`format_message`].
    ///
    /// A check the program always makes binds nothing (empty pattern). A
    /// user's `assert c e` binds one `bool`, its *certificate* (`true` once
    /// the check has passed), which an [`Exp::Certify`] of `e`'s values
    /// uses: the assertion then stands exactly as long as something uses
    /// the values it certifies, as in Futhark, where an assertion whose
    /// result is unused (`let _ = assert c ()`) is removed with it.
    Assert {
        cond: SubExp,
        message: String,
        args: Vec<(usize, SubExp)>,
    },
    /// The `values`, rebound (arrays alias their source), once the
    /// assertion that bound the certificate `cert` has passed. Binds one
    /// variable per value, of its type.
    Certify {
        cert: VName,
        values: Vec<SubExp>,
    },
    /// `#[param(name)] default`: the `i64` tuning parameter `name`'s value
    /// where the run sets it (a compiled program's `--param name=N` or
    /// `--tuning FILE`, the server's `set_tuning_param`), else `default`.
    UserParam {
        name: String,
        default: SubExp,
    },
    Soac(Soac),
    /// Automatic differentiation of `lambda` at `args` (one per parameter),
    /// with `seeds` as the direction (see [`AdMode`]). Free variables of
    /// the lambda are constants of the differentiation. The middle end's
    /// `ad` pass replaces every one by ordinary statements, early in every
    /// pipeline: the backends never see it.
    Ad {
        mode: AdMode,
        lambda: Lambda,
        args: Vec<SubExp>,
        seeds: Vec<SubExp>,
    },
}

/// The two modes of [`Exp::Ad`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdMode {
    /// Forward mode, `jvp2`: `seeds` are the tangents of the arguments (of
    /// the parameters' types); the results are the lambda's results, then
    /// their tangents (of the same types).
    Jvp,
    /// Reverse mode, `vjp2`: `seeds` are the adjoints of the lambda's
    /// results (of its result types); the results are the lambda's
    /// results, then the adjoints of the arguments (of the parameters'
    /// types).
    Vjp,
    /// A function with its own reverse derivative, `with_vjp f f' x`: the
    /// lambda takes the `n` arguments, then adjoints for the function's
    /// `k` results, and returns the `k` results (`f x`), then the
    /// arguments' adjoints (`f' (f x) ȳ`). `seeds` is empty; the statement
    /// binds the `k` results, those of the lambda with zero adjoints.
    /// Under `vjp`, the return sweep runs the lambda with the results'
    /// adjoints; under `jvp` and elsewhere, only its first part counts.
    CustomVjp,
    /// Forward mode in `k` directions at once, `jmp2`: `seeds` are arrays
    /// of `k` tangents of the arguments (`[k]` then the parameters'
    /// types); the results are the lambda's results, then `k`-arrays of
    /// their tangents. There is at least one seed.
    Jmp,
    /// Reverse mode for `k` adjoints at once, `mjp2`: `seeds` are arrays
    /// of `k` adjoints of the lambda's results; the results are the
    /// lambda's results, then `k`-arrays of the arguments' adjoints.
    /// There is at least one seed.
    Mjp,
}

impl AdMode {
    /// The number of results of a `CustomVjp` lambda that are the
    /// function's own (the lambda's parameters beyond the `n` arguments).
    pub fn custom_results(lambda: &Lambda, n: usize) -> usize {
        lambda.params.len().saturating_sub(n)
    }
}

/// How a scatter's lambda results divide among destinations of the given
/// ranks: for each, the number `k` of `i64` indices before its value, the
/// one for which the value's rank is the destination's rank minus `k`
/// (there is at most one). `None` when the results do not fit.
pub fn scatter_layout(ret: &[Type], dest_ranks: impl IntoIterator<Item = usize>) -> Option<Vec<usize>> {
    let mut pos = 0;
    let mut out = Vec::new();
    for rank in dest_ranks {
        let fits = |k: usize| {
            ret.get(pos..pos + k).is_some_and(|ts| ts.iter().all(|t| *t == Type::Prim(PrimType::I64)))
                && ret.get(pos + k).is_some_and(|t| t.rank() == rank - k)
        };
        let k = (0..=rank).find(|&k| fits(k))?;
        out.push(k);
        pos += k + 1;
    }
    (pos == ret.len()).then_some(out)
}

/// The text of an assertion's message with its arguments' values (as
/// `value` renders each operand) inserted at their offsets. An offset past
/// the end or inside a character is taken as the end or the character's start.
pub fn format_message(message: &str, args: &[(usize, SubExp)], mut value: impl FnMut(SubExp) -> String) -> String {
    let mut out = String::with_capacity(message.len() + 8 * args.len());
    let mut at = 0;
    for (k, se) in args {
        let mut k = (*k).clamp(at, message.len());
        while !message.is_char_boundary(k) {
            k -= 1;
        }
        out.push_str(&message[at..k]);
        out.push_str(&value(*se));
        at = k;
    }
    out.push_str(&message[at..]);
    out
}

/// A whole program: its constants, functions (entry points among them)
/// and the names they use.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The top-level constants: statements run once, before any entry
    /// point, when the program starts (a compiled program's context is
    /// created); a check that fails here fails the start. The variables
    /// their patterns bind (at the top level of this list, not inside
    /// nested bodies) are in scope in every function, which may read them
    /// but not consume them (they are shared by every call).
    pub consts: Vec<Stm>,
    pub funs: Vec<FunDef>,
    pub names: NameTable,
    /// What the inlined spans ([`Span::inlined`]) of statements stand for:
    /// entry `k` is the span of the statement in the inlined function and
    /// the span of the call it was copied to, so that a failure in inlined
    /// code still reports every call on the way out ([`Program::frames`]).
    /// Not part of the text form: a parsed program has no inlined spans.
    pub inlined: Vec<(Span, Span)>,
}

impl Program {
    pub fn fun(&self, name: &str) -> Option<&FunDef> {
        self.funs.iter().find(|f| f.name == name)
    }

    pub fn entry_points(&self) -> impl Iterator<Item = &FunDef> {
        self.funs.iter().filter(|f| f.entry.is_some())
    }

    /// The source positions a statement's span stands for, innermost
    /// first: the span itself, or for an inlined span, the statement's
    /// position in the inlined function followed by the call's (each
    /// resolved in turn). Dummy spans are left out.
    pub fn frames(&self, span: Span) -> Vec<Span> {
        let mut out = Vec::new();
        self.push_frames(span, &mut out, 0);
        out
    }

    fn push_frames(&self, span: Span, out: &mut Vec<Span>, depth: usize) {
        match span.inlined_index() {
            // Inlining records an entry after those its spans refer to; the
            // bound guards against a malformed table (an unknown entry, as
            // in a parsed program, stands for nothing).
            Some(k) => {
                if let Some(&(inner, call)) = self.inlined.get(k).filter(|_| depth < 10_000) {
                    self.push_frames(inner, out, depth + 1);
                    self.push_frames(call, out, depth + 1);
                }
            }
            None if !span.is_dummy() => out.push(span),
            None => {}
        }
    }

    /// The variables the constants bind, with their types, in order.
    pub fn const_params(&self) -> impl Iterator<Item = &Param> {
        self.consts.iter().flat_map(|s| &s.pat)
    }
}

/// Gives every statement of `stms` (at any depth), copied from a function
/// into a call at `call`, the inlined span that stands for its own position
/// followed by the call's, recorded in `table` (a [`Program::inlined`]), so
/// that a failure there reports the call as the function would have;
/// statements without a position take the call's. With `callee` (the
/// function's text), only the statements from it: not those of a lambda
/// passed to it, already where the user wrote them. `memo` makes the
/// statements of one position share one entry.
pub fn relocate(
    stms: &mut [Stm],
    call: Span,
    callee: Option<Span>,
    table: &mut Vec<(Span, Span)>,
    memo: &mut rustc_hash::FxHashMap<Span, Span>,
) {
    for s in stms {
        s.span = match (s.span.is_dummy(), call.is_dummy()) {
            (true, _) => call,
            (false, true) => s.span,
            (false, false) if callee.is_some_and(|c| !within(s.span, c, table)) => s.span,
            (false, false) => *memo.entry(s.span).or_insert_with(|| {
                table.push((s.span, call));
                Span::inlined(table.len() - 1)
            }),
        };
        for b in visit::nested_bodies_mut(&mut s.exp) {
            relocate(&mut b.stms, call, callee, table, memo);
        }
    }
}

/// Whether `span` is in the text `outer`, or (an inlined span) its call is.
fn within(span: Span, outer: Span, table: &[(Span, Span)]) -> bool {
    let mut span = span;
    for _ in 0..table.len() + 1 {
        match span.inlined_index() {
            Some(k) => match table.get(k) {
                Some(&(_, call)) => span = call,
                None => return false,
            },
            None => return span.file == outer.file && outer.start <= span.start && span.end <= outer.end,
        }
    }
    false
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print::program(self))
    }
}
