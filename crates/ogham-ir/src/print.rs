//! The textual form of the IR.
//!
//! The form is line-oriented and indented; [`crate::parse`] reads it back
//! exactly, so that `print(parse(print(p))) == print(p)`. A sketch:
//!
//! ```text
//! entry main (n_0: i64, xs_1: [n_0]f32) : ([n_0]f32)
//!   inputs ("xs": "[]f32" [1])
//!   outputs ("[]f32" [0]) {
//!   let (ys_5: [n_0]f32) = map(n_0, xs_1, \(x_2: f32) : (f32) {
//!       let (y_3: f32) = mul.f32 x_2 2.0f32
//!       in (y_3)
//!     })
//!   in (ys_5)
//! }
//! ```
//!
//! Expressions (operands are variables `base_N` or constants in Futhark's
//! value syntax):
//! - scalar operations `add.f32 a b`, `lt.i64 a b`, `neg.f32 a`,
//!   `fma.f32 a b c`, `convert.i32.f64 a`, `bitcast.f32.u32 a` (from, then to);
//! - `apply f(a, b)`, `if c then { … } else { … }`,
//!   `loop (p: t = init, …) for i < n { … }` / `loop (…) while c { … }`;
//! - `index xs[i, s:+n*k]` (a fixed index or `start:+len*stride`),
//!   `update xs[i] = v`, `iota.i64(n, start, step)`, `replicate([n], v)`,
//!   `scratch.f32([n, m])`, `reshape([a, b], xs)`, `rearrange([1, 0], xs)`,
//!   `concat(dim, len, xs, ys)`, `copy(xs)`, `array([n]f32, [a, b])`,
//!   `assert(c, "message")`;
//! - SOACs: `map(w, arrs…, λ)`, `screma(w, arrs…, scans [op…], reduces [op…], λ)`,
//!   `hist(w, arrs…, ops [histop([shape], [dests], op)…], λ)`,
//!   `scatter(w, arrs…, dests [d…], λ)`, `withacc(w, arrs…, accs [a…], λ)`
//!   with `updacc(add) a[i] = v` (or `updacc a[i] = v`, overwriting)
//!   inside, where an operator is
//!   `op([neutral…], λ)` or `commop(…)` when commutative and a lambda is
//!   `\(params) : (types) { … }`.
//!
//! A program's constants, when it has any, come first, as the statements
//! of a `consts { … }` block (no `in`: every variable they bind is in scope
//! in every function).
//!
//! Statements may carry attributes (`#[unsafe] #[sequential] #[virtual]
//! #[stripmine(k)] #[interchange] let …`). Spans
//! are printed only by [`program_with_spans`], as a trailing `-- @file:start-end`
//! comment after a statement or a function's opening brace.

use std::fmt::Write;

use crate::{
    AdMode, BinOp, Body, CmpOp, ConvOp, DimIndex, EntryPoint, EntryValue, Exp, FunDef, HistOp, Lambda, LoopForm,
    NameTable, Opaque, Operator, Param, Program, Soac, Span, Stm, SubExp, TernOp, Type, UnOp, VName,
};

/// The printed names of binary operators (shared with `ogham-imp`'s text form,
/// which reads them back with this table).
pub const BIN_OPS: &[(BinOp, &str)] = &[
    (BinOp::Add, "add"),
    (BinOp::Sub, "sub"),
    (BinOp::Mul, "mul"),
    (BinOp::Div, "div"),
    (BinOp::Mod, "mod"),
    (BinOp::Quot, "quot"),
    (BinOp::Rem, "rem"),
    (BinOp::Pow, "pow"),
    (BinOp::And, "and"),
    (BinOp::Or, "or"),
    (BinOp::Xor, "xor"),
    (BinOp::Shl, "shl"),
    (BinOp::Shr, "shr"),
    (BinOp::UShr, "ushr"),
    (BinOp::Min, "min"),
    (BinOp::Max, "max"),
    (BinOp::LogAnd, "logand"),
    (BinOp::LogOr, "logor"),
    (BinOp::Atan2, "atan2"),
    (BinOp::Hypot, "hypot"),
    (BinOp::NextAfter, "nextafter"),
    (BinOp::CopySign, "copysign"),
    (BinOp::Ldexp, "ldexp"),
    (BinOp::MulHi, "mulhi"),
];

/// The printed names of comparisons (shared with `ogham-imp`'s text form,
/// which reads them back with this table).
pub const CMP_OPS: &[(CmpOp, &str)] =
    &[(CmpOp::Eq, "eq"), (CmpOp::Ne, "ne"), (CmpOp::Lt, "lt"), (CmpOp::Le, "le"), (CmpOp::Gt, "gt"), (CmpOp::Ge, "ge")];

/// The printed names of unary operators (shared with `ogham-imp`'s text form,
/// which reads them back with this table).
pub const UN_OPS: &[(UnOp, &str)] = &[
    (UnOp::Neg, "neg"),
    (UnOp::Not, "not"),
    (UnOp::Abs, "abs"),
    (UnOp::Sgn, "sgn"),
    (UnOp::Sqrt, "sqrt"),
    (UnOp::Rsqrt, "rsqrt"),
    (UnOp::Cbrt, "cbrt"),
    (UnOp::Exp, "exp"),
    (UnOp::Log, "log"),
    (UnOp::Log2, "log2"),
    (UnOp::Log10, "log10"),
    (UnOp::Log1p, "log1p"),
    (UnOp::Sin, "sin"),
    (UnOp::Cos, "cos"),
    (UnOp::Tan, "tan"),
    (UnOp::Asin, "asin"),
    (UnOp::Acos, "acos"),
    (UnOp::Atan, "atan"),
    (UnOp::Sinh, "sinh"),
    (UnOp::Cosh, "cosh"),
    (UnOp::Tanh, "tanh"),
    (UnOp::Asinh, "asinh"),
    (UnOp::Acosh, "acosh"),
    (UnOp::Atanh, "atanh"),
    (UnOp::SinPi, "sinpi"),
    (UnOp::CosPi, "cospi"),
    (UnOp::TanPi, "tanpi"),
    (UnOp::AsinPi, "asinpi"),
    (UnOp::AcosPi, "acospi"),
    (UnOp::AtanPi, "atanpi"),
    (UnOp::Gamma, "gamma"),
    (UnOp::Lgamma, "lgamma"),
    (UnOp::Erf, "erf"),
    (UnOp::Erfc, "erfc"),
    (UnOp::Ceil, "ceil"),
    (UnOp::Floor, "floor"),
    (UnOp::Trunc, "trunc"),
    (UnOp::Round, "round"),
    (UnOp::Recip, "recip"),
    (UnOp::IsNan, "isnan"),
    (UnOp::IsInf, "isinf"),
    (UnOp::Popc, "popc"),
    (UnOp::Clz, "clz"),
    (UnOp::Ctz, "ctz"),
];

/// The printed names of ternary operators (shared with `ogham-imp`'s text form,
/// which reads them back with this table).
pub const TERN_OPS: &[(TernOp, &str)] = &[(TernOp::Fma, "fma"), (TernOp::Lerp, "lerp"), (TernOp::MadHi, "madhi")];

/// The printed names of conversions (shared with `ogham-imp`'s text form,
/// which reads them back with this table).
pub const CONV_OPS: &[(ConvOp, &str)] = &[(ConvOp::Convert, "convert"), (ConvOp::Bitcast, "bitcast")];

fn op_name<T: PartialEq>(table: &[(T, &'static str)], op: &T) -> &'static str {
    table.iter().find(|(o, _)| o == op).map(|(_, n)| *n).unwrap_or("?")
}

pub fn binop_name(op: BinOp) -> &'static str {
    op_name(BIN_OPS, &op)
}
pub fn cmpop_name(op: CmpOp) -> &'static str {
    op_name(CMP_OPS, &op)
}
pub fn unop_name(op: UnOp) -> &'static str {
    op_name(UN_OPS, &op)
}
pub fn ternop_name(op: TernOp) -> &'static str {
    op_name(TERN_OPS, &op)
}
pub fn convop_name(op: ConvOp) -> &'static str {
    op_name(CONV_OPS, &op)
}

/// Prints a whole program (without spans).
pub fn program(prog: &Program) -> String {
    let mut p = Printer { out: String::new(), names: &prog.names, spans: false };
    p.program(prog);
    p.out
}

/// Prints a whole program with every non-dummy span as a `-- @file:start-end` comment.
pub fn program_with_spans(prog: &Program) -> String {
    let mut p = Printer { out: String::new(), names: &prog.names, spans: true };
    p.program(prog);
    p.out
}

/// Prints one function.
pub fn fun_def(fun: &FunDef, names: &NameTable) -> String {
    let mut p = Printer { out: String::new(), names, spans: false };
    p.fun_def(fun);
    p.out
}

/// Prints a body as a braced block at indentation level 0.
pub fn body(body: &Body, names: &NameTable) -> String {
    let mut p = Printer { out: String::new(), names, spans: false };
    p.body(body, 0);
    p.out
}

/// Prints one statement (without a trailing newline).
pub fn stm(stm: &Stm, names: &NameTable) -> String {
    let mut p = Printer { out: String::new(), names, spans: false };
    p.stm(stm, 0);
    p.out
}

/// Prints an expression (nested bodies span several lines).
pub fn exp(exp: &Exp, names: &NameTable) -> String {
    let mut p = Printer { out: String::new(), names, spans: false };
    p.exp(exp, 0);
    p.out
}

/// Prints a type: `f32`, `[n_0][3i64]f32`.
pub fn type_(ty: &Type, names: &NameTable) -> String {
    let mut p = Printer { out: String::new(), names, spans: false };
    p.type_(ty);
    p.out
}

/// Prints an operand.
pub fn subexp(se: &SubExp, names: &NameTable) -> String {
    match se {
        SubExp::Const(v) => v.to_string(),
        SubExp::Var(v) => var(*v, names),
    }
}

/// Prints a variable as `base_N`. A base that would not read back as one
/// identifier (characters other than letters, digits, `_` and `'`, or a
/// leading digit) has the offending characters replaced by `_`.
pub fn var(v: VName, names: &NameTable) -> String {
    let base = names.base(v);
    if is_plain_ident(base) || base.is_empty() {
        names.display(v)
    } else {
        let mut clean: String =
            base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '\'' { c } else { '_' }).collect();
        if !clean.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            clean.insert(0, '_');
        }
        format!("{clean}_{}", v.0)
    }
}

/// Whether `s` reads back as a single identifier token.
pub(crate) fn is_plain_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
}

/// A string literal with `\\`, `\"`, `\n`, `\t`, `\r` and `\u{…}` escapes.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A function name: bare when it is an identifier, quoted otherwise.
fn fun_name(name: &str) -> String {
    if is_plain_ident(name) {
        name.to_string()
    } else {
        string_literal(name)
    }
}

struct Printer<'a> {
    out: String,
    names: &'a NameTable,
    spans: bool,
}

impl Printer<'_> {
    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("  ");
        }
    }

    fn span(&mut self, span: Span) {
        if self.spans && !span.is_dummy() {
            let _ = write!(self.out, " -- @{}:{}-{}", span.file.0, span.start, span.end);
        }
    }

    fn var(&mut self, v: VName) {
        let s = var(v, self.names);
        self.out.push_str(&s);
    }

    fn subexp(&mut self, se: &SubExp) {
        let s = subexp(se, self.names);
        self.out.push_str(&s);
    }

    fn subexps(&mut self, ses: &[SubExp]) {
        for (i, se) in ses.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.subexp(se);
        }
    }

    fn vars(&mut self, vs: &[VName]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.var(*v);
        }
    }

    fn type_(&mut self, ty: &Type) {
        for d in ty.shape() {
            self.out.push('[');
            self.subexp(d);
            self.out.push(']');
        }
        self.out.push_str(ty.elem().name());
    }

    fn types(&mut self, tys: &[Type]) {
        self.out.push('(');
        for (i, t) in tys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.type_(t);
        }
        self.out.push(')');
    }

    fn param(&mut self, p: &Param) {
        self.var(p.name);
        self.out.push_str(": ");
        self.type_(&p.ty);
    }

    fn params(&mut self, ps: &[Param]) {
        self.out.push('(');
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.param(p);
        }
        self.out.push(')');
    }

    fn program(&mut self, prog: &Program) {
        if !prog.consts.is_empty() {
            self.out.push_str("consts {\n");
            for s in &prog.consts {
                self.stm(s, 1);
                self.out.push('\n');
            }
            self.out.push_str("}\n");
        }
        for (i, f) in prog.funs.iter().enumerate() {
            if i > 0 || !prog.consts.is_empty() {
                self.out.push('\n');
            }
            self.fun_def(f);
        }
    }

    fn fun_def(&mut self, f: &FunDef) {
        self.out.push_str(if f.entry.is_some() { "entry " } else { "fun " });
        self.out.push_str(&fun_name(&f.name));
        self.out.push(' ');
        self.params(&f.params);
        self.out.push_str(" : ");
        self.types(&f.ret);
        if let Some(entry) = &f.entry {
            self.entry_point(entry);
        }
        self.out.push_str(" {");
        self.span(f.span);
        self.out.push('\n');
        self.body_contents(&f.body, 1);
        self.out.push_str("}\n");
    }

    fn entry_point(&mut self, entry: &EntryPoint) {
        for (keyword, values) in [("inputs", &entry.inputs), ("outputs", &entry.outputs)] {
            self.out.push_str("\n  ");
            self.out.push_str(keyword);
            self.out.push_str(" (");
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.entry_value(v);
            }
            self.out.push(')');
        }
    }

    fn entry_value(&mut self, v: &EntryValue) {
        if let Some(name) = &v.name {
            self.out.push_str(&string_literal(name));
            self.out.push_str(": ");
        }
        if v.unique {
            self.out.push('*');
        }
        self.out.push_str(&string_literal(&v.type_name));
        self.out.push_str(" [");
        let parts: Vec<String> = v.parts.iter().map(|p| p.to_string()).collect();
        self.out.push_str(&parts.join(", "));
        self.out.push(']');
        match &v.opaque {
            None => {}
            Some(Opaque::Record { fields }) => {
                self.out.push_str(" record ");
                self.fields(fields);
            }
            Some(Opaque::RecordArray { rank, fields }) => {
                let _ = write!(self.out, " record_array {rank} ");
                self.fields(fields);
            }
            Some(Opaque::Sum { variants }) => {
                self.out.push_str(" sum ");
                self.variants(variants);
            }
            Some(Opaque::SumArray { rank, variants }) => {
                let _ = write!(self.out, " sum_array {rank} ");
                self.variants(variants);
            }
        }
    }

    /// `{"a": ["i64" 1, "[]f32" 1], "b": []}`
    fn variants(&mut self, variants: &[(String, Vec<(String, usize)>)]) {
        self.out.push('{');
        for (i, (name, payload)) in variants.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let items: Vec<String> = payload.iter().map(|(t, n)| format!("{} {n}", string_literal(t))).collect();
            let _ = write!(self.out, "{}: [{}]", string_literal(name), items.join(", "));
        }
        self.out.push('}');
    }

    fn fields(&mut self, fields: &[(String, String, usize)]) {
        self.out.push('{');
        for (i, (name, ty, parts)) in fields.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}: {} {parts}", string_literal(name), string_literal(ty));
        }
        self.out.push('}');
    }

    /// The statements and `in (…)` of a body, each line at `level`.
    fn body_contents(&mut self, body: &Body, level: usize) {
        for s in &body.stms {
            self.stm(s, level);
            self.out.push('\n');
        }
        self.indent(level);
        self.out.push_str("in (");
        self.subexps(&body.result);
        self.out.push_str(")\n");
    }

    /// A braced body belonging to a construct on a line at `level`: its
    /// contents two levels deeper, the closing brace one level deeper.
    fn body(&mut self, body: &Body, level: usize) {
        self.out.push_str("{\n");
        self.body_contents(body, level + 2);
        self.indent(level + 1);
        self.out.push('}');
    }

    fn stm(&mut self, s: &Stm, level: usize) {
        self.indent(level);
        if s.attrs.unsafe_ {
            self.out.push_str("#[unsafe] ");
        }
        if s.attrs.sequential {
            self.out.push_str("#[sequential] ");
        }
        if s.attrs.virtual_ {
            self.out.push_str("#[virtual] ");
        }
        if let Some(k) = s.attrs.stripmine {
            let _ = write!(self.out, "#[stripmine({k})] ");
        }
        if s.attrs.interchange {
            self.out.push_str("#[interchange] ");
        }
        self.out.push_str("let ");
        self.params(&s.pat);
        self.out.push_str(" = ");
        self.exp(&s.exp, level);
        self.span(s.span);
    }

    fn slice(&mut self, slice: &[DimIndex]) {
        self.out.push('[');
        for (i, d) in slice.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match d {
                DimIndex::Fix(se) => self.subexp(se),
                DimIndex::Slice { start, len, stride } => {
                    self.subexp(start);
                    self.out.push_str(":+");
                    self.subexp(len);
                    self.out.push('*');
                    self.subexp(stride);
                }
            }
        }
        self.out.push(']');
    }

    fn shape(&mut self, shape: &[SubExp]) {
        self.out.push('[');
        self.subexps(shape);
        self.out.push(']');
    }

    fn exp(&mut self, e: &Exp, level: usize) {
        match e {
            Exp::SubExp(se) => self.subexp(se),
            Exp::BinOp(op, t, a, b) => {
                let _ = write!(self.out, "{}.{} ", binop_name(*op), t);
                self.subexp(a);
                self.out.push(' ');
                self.subexp(b);
            }
            Exp::CmpOp(op, t, a, b) => {
                let _ = write!(self.out, "{}.{} ", cmpop_name(*op), t);
                self.subexp(a);
                self.out.push(' ');
                self.subexp(b);
            }
            Exp::UnOp(op, t, a) => {
                let _ = write!(self.out, "{}.{} ", unop_name(*op), t);
                self.subexp(a);
            }
            Exp::TernOp(op, t, a, b, c) => {
                let _ = write!(self.out, "{}.{} ", ternop_name(*op), t);
                self.subexp(a);
                self.out.push(' ');
                self.subexp(b);
                self.out.push(' ');
                self.subexp(c);
            }
            Exp::Conv(op, from, to, a) => {
                let _ = write!(self.out, "{}.{}.{} ", convop_name(*op), from, to);
                self.subexp(a);
            }
            Exp::Apply { func, args } => {
                self.out.push_str("apply ");
                self.out.push_str(&fun_name(func));
                self.out.push('(');
                self.subexps(args);
                self.out.push(')');
            }
            Exp::If { cond, then_body, else_body } => {
                self.out.push_str("if ");
                self.subexp(cond);
                self.out.push_str(" then ");
                self.body(then_body, level);
                self.out.push_str(" else ");
                self.body(else_body, level);
            }
            Exp::Loop { params, form, body } => {
                self.out.push_str("loop (");
                for (i, (p, init)) in params.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.param(p);
                    self.out.push_str(" = ");
                    self.subexp(init);
                }
                self.out.push_str(") ");
                match form {
                    LoopForm::For { i, bound } => {
                        self.out.push_str("for ");
                        self.var(*i);
                        self.out.push_str(" < ");
                        self.subexp(bound);
                    }
                    LoopForm::While { cond } => {
                        self.out.push_str("while ");
                        self.var(*cond);
                    }
                }
                self.out.push(' ');
                self.body(body, level);
            }
            Exp::Index { array, slice } => {
                self.out.push_str("index ");
                self.var(*array);
                self.slice(slice);
            }
            Exp::UpdAcc { acc, slice, value, op } => {
                self.out.push_str("updacc");
                if let Some(op) = op {
                    let _ = write!(self.out, "({})", binop_name(*op));
                }
                self.out.push(' ');
                self.var(*acc);
                self.slice(slice);
                self.out.push_str(" = ");
                self.subexp(value);
            }
            Exp::Update { array, slice, value } => {
                self.out.push_str("update ");
                self.var(*array);
                self.slice(slice);
                self.out.push_str(" = ");
                self.subexp(value);
            }
            Exp::Iota { n, start, step, elem } => {
                let _ = write!(self.out, "iota.{elem}(");
                self.subexps(&[*n, *start, *step]);
                self.out.push(')');
            }
            Exp::Replicate { shape, value } => {
                self.out.push_str("replicate(");
                self.shape(shape);
                self.out.push_str(", ");
                self.subexp(value);
                self.out.push(')');
            }
            Exp::Scratch { elem, shape } => {
                let _ = write!(self.out, "scratch.{elem}(");
                self.shape(shape);
                self.out.push(')');
            }
            Exp::Reshape { array, shape } => {
                self.out.push_str("reshape(");
                self.shape(shape);
                self.out.push_str(", ");
                self.var(*array);
                self.out.push(')');
            }
            Exp::Rearrange { array, perm } => {
                let perm: Vec<String> = perm.iter().map(|d| d.to_string()).collect();
                let _ = write!(self.out, "rearrange([{}], ", perm.join(", "));
                self.var(*array);
                self.out.push(')');
            }
            Exp::Concat { dim, arrays, len } => {
                let _ = write!(self.out, "concat({dim}, ");
                self.subexp(len);
                for a in arrays {
                    self.out.push_str(", ");
                    self.var(*a);
                }
                self.out.push(')');
            }
            Exp::Copy(v) => {
                self.out.push_str("copy(");
                self.var(*v);
                self.out.push(')');
            }
            Exp::ArrayLit { elems, elem_ty } => {
                self.out.push_str("array(");
                self.type_(elem_ty);
                self.out.push_str(", [");
                self.subexps(elems);
                self.out.push_str("])");
            }
            Exp::Assert { cond, message, args } => {
                // The message as alternating text and operands:
                // `assert(c, "Range ", x, "...", y, " is invalid.")`.
                self.out.push_str("assert(");
                self.subexp(cond);
                let mut at = 0;
                for (k, se) in args {
                    let k = (*k).clamp(at, message.len());
                    let text = message.get(at..k).unwrap_or_default();
                    self.out.push_str(", ");
                    self.out.push_str(&string_literal(text));
                    self.out.push_str(", ");
                    self.subexp(se);
                    at = k;
                }
                self.out.push_str(", ");
                self.out.push_str(&string_literal(message.get(at..).unwrap_or_default()));
                self.out.push(')');
            }
            Exp::Certify { cert, values } => {
                self.out.push_str("certify(");
                self.var(*cert);
                for v in values {
                    self.out.push_str(", ");
                    self.subexp(v);
                }
                self.out.push(')');
            }
            Exp::UserParam { name, default } => {
                self.out.push_str("user_param(");
                self.out.push_str(&string_literal(name));
                self.out.push_str(", ");
                self.subexp(default);
                self.out.push(')');
            }
            Exp::Soac(soac) => self.soac(soac, level),
            Exp::Ad { mode, lambda, args, seeds } => {
                self.out.push_str(match mode {
                    AdMode::Jvp => "jvp([",
                    AdMode::Vjp => "vjp([",
                    AdMode::CustomVjp => "custom_vjp([",
                    AdMode::Jmp => "jmp([",
                    AdMode::Mjp => "mjp([",
                });
                self.subexps(args);
                self.out.push_str("], [");
                self.subexps(seeds);
                self.out.push_str("], ");
                self.lambda(lambda, level);
                self.out.push(')');
            }
        }
    }

    fn soac_head(&mut self, name: &str, w: &SubExp, arrs: &[VName]) {
        self.out.push_str(name);
        self.out.push('(');
        self.subexp(w);
        for a in arrs {
            self.out.push_str(", ");
            self.var(*a);
        }
    }

    fn soac(&mut self, soac: &Soac, level: usize) {
        match soac {
            Soac::Screma { w, arrs, scans, reduces, map } => {
                if scans.is_empty() && reduces.is_empty() {
                    self.soac_head("map", w, arrs);
                } else {
                    self.soac_head("screma", w, arrs);
                    for (keyword, ops) in [("scans", scans), ("reduces", reduces)] {
                        let _ = write!(self.out, ", {keyword} [");
                        for (i, op) in ops.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.operator(op, level);
                        }
                        self.out.push(']');
                    }
                }
                self.out.push_str(", ");
                self.lambda(map, level);
                self.out.push(')');
            }
            Soac::Hist { w, arrs, ops, map } => {
                self.soac_head("hist", w, arrs);
                self.out.push_str(", ops [");
                for (i, op) in ops.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.hist_op(op, level);
                }
                self.out.push_str("], ");
                self.lambda(map, level);
                self.out.push(')');
            }
            Soac::WithAcc { w, arrs, accs, map } => {
                self.soac_head("withacc", w, arrs);
                self.out.push_str(", accs [");
                self.vars(accs);
                self.out.push_str("], ");
                self.lambda(map, level);
                self.out.push(')');
            }
            Soac::Scatter { w, arrs, dests, map } => {
                self.soac_head("scatter", w, arrs);
                self.out.push_str(", dests [");
                self.vars(dests);
                self.out.push_str("], ");
                self.lambda(map, level);
                self.out.push(')');
            }
        }
    }

    fn hist_op(&mut self, op: &HistOp, level: usize) {
        self.out.push_str("histop(");
        self.shape(&op.shape);
        self.out.push_str(", [");
        self.vars(&op.dests);
        self.out.push_str("], ");
        self.operator(&op.op, level);
        self.out.push(')');
    }

    fn operator(&mut self, op: &Operator, level: usize) {
        self.out.push_str(if op.commutative { "commop([" } else { "op([" });
        self.subexps(&op.neutral);
        self.out.push_str("], ");
        self.lambda(&op.lambda, level);
        self.out.push(')');
    }

    fn lambda(&mut self, lam: &Lambda, level: usize) {
        self.out.push('\\');
        self.params(&lam.params);
        self.out.push_str(" : ");
        self.types(&lam.ret);
        self.out.push(' ');
        self.body(&lam.body, level);
    }
}
