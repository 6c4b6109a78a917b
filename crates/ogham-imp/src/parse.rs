//! Reading the text form of kernels (see [`crate::print`]) back.
//!
//! [`parse_kernel`] reads what [`crate::print::kernel`] writes and gives an
//! equal kernel; [`parse_kernels`] reads what [`crate::print::kernels`]
//! writes (zero or more kernels, one after another). Layout does not
//! matter: tokens may be separated by any whitespace, and `--` starts a
//! comment that runs to the end of its line.
//!
//! Variable numbers in the text are kept: `xs_1` is `Var(1)` with base
//! `xs` (a base may itself contain underscores; the number is what follows
//! the last one), and the kernel's names are filled so that every number
//! used has an entry; numbers never mentioned get the base `v`, as
//! [`Kernel::name`] prints them. A number written with two different bases
//! in one kernel is an error, and so is one above [`MAX_VAR`] (the names
//! table is dense).
//!
//! Scalar operations and constants are read as the core IR's text form
//! writes them, with its tables of operation names
//! ([`ogham_ir::print::BIN_OPS`] …) and its reader of constants
//! ([`ogham_ir::parse::parse_constant`]), so every constant the printer
//! writes reads back to the identical value: `-0.0f32`, `-128i8`,
//! `18446744073709551615u64`, `f32.inf`, `-f64.inf`, `f16.nan` (a NaN reads
//! back as the canonical NaN of its type).
//!
//! Errors carry the line and column (both from 1, the column counting
//! characters) of the token at fault; no input makes the parser panic
//! (nesting deeper than [`MAX_DEPTH`] blocks is refused rather than
//! overflowing the stack).

use std::collections::BTreeMap;
use std::fmt;

use ogham_ir::parse::parse_constant;
use ogham_ir::print::{BIN_OPS, CMP_OPS, CONV_OPS, TERN_OPS, UN_OPS};

use crate::{Block, Exp, Kernel, Operand, Param, ParamKind, PrimType, Stm, Ty, Var};

/// The largest variable number accepted.
pub const MAX_VAR: u32 = 1 << 20;

/// The deepest nesting of blocks accepted (a kernel's body is depth 1).
pub const MAX_DEPTH: usize = 256;

/// A syntax error, with its 1-based line and column: the core IR's.
pub use ogham_ir::parse::ParseError;

type PResult<T> = Result<T, ParseError>;

/// Parses one kernel (and nothing else but whitespace and comments).
pub fn parse_kernel(text: &str) -> PResult<Kernel> {
    let mut p = Parser::new(text)?;
    let k = p.kernel()?;
    p.expect_eof()?;
    Ok(k)
}

/// Parses zero or more kernels, one after another.
pub fn parse_kernels(text: &str) -> PResult<Vec<Kernel>> {
    let mut p = Parser::new(text)?;
    let mut ks = Vec::new();
    while p.peek() != &Tok::Eof {
        ks.push(p.kernel()?);
    }
    Ok(ks)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A name, possibly with dots (`add.f32`, `f32.inf`, `acc_4`), or a
    /// negated special float (`-f32.inf`).
    Word(String),
    /// A number as written, with its sign and suffix (`-3i64`, `2.5f32`, `16`).
    Num(String),
    Sym(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(s) | Tok::Num(s) => write!(f, "`{s}`"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => write!(f, "the end of input"),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug)]
struct Lexed {
    tok: Tok,
    line: usize,
    col: usize,
}

/// Punctuation, longest first where one is a prefix of another.
const SYMS: &[&str] = &["..", "#[", "(", ")", "{", "}", "[", "]", ":", ",", "=", "*"];

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '\''
}

fn lex(text: &str) -> PResult<Vec<Lexed>> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let digit_at = |j: usize| chars.get(j).is_some_and(|c| c.is_ascii_digit());
    let alpha_at = |j: usize| chars.get(j).is_some_and(|c| c.is_ascii_alphabetic());
    // A run of word characters from `j`, stopping before `..` (so that
    // `0i64..n_1` is three tokens); in a number, a sign right after an
    // exponent's `e` belongs to it (`1e-7f32`).
    let word_end = |mut j: usize, number: bool| {
        while j < chars.len() {
            let c = chars[j];
            if c == '.' && chars.get(j + 1) == Some(&'.') {
                break;
            }
            let exponent_sign =
                number && (c == '-' || c == '+') && matches!(chars[j - 1], 'e' | 'E') && digit_at(j + 1);
            if !(word_char(c) || exponent_sign) {
                break;
            }
            j += 1;
        }
        j
    };
    while i < chars.len() {
        let c = chars[i];
        let col = i - line_start + 1;
        if c == '\n' {
            i += 1;
            line += 1;
            line_start = i;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '-' && chars.get(i + 1) == Some(&'-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_digit() || (c == '-' && digit_at(i + 1)) {
            i = word_end(i + 1, true);
            Tok::Num(chars[start..i].iter().collect())
        } else if c.is_ascii_alphabetic() || c == '_' || (c == '-' && alpha_at(i + 1)) {
            // `-` and a letter: a negative special float such as `-f32.inf`.
            i = word_end(i + 1, false);
            Tok::Word(chars[start..i].iter().collect())
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            match SYMS.iter().find(|s| rest.starts_with(**s)) {
                Some(s) => {
                    i += s.len();
                    Tok::Sym(s)
                }
                None => {
                    return Err(ParseError {
                        line,
                        col,
                        message: format!("unexpected character `{}`", c.escape_debug()),
                    })
                }
            }
        };
        toks.push(Lexed { tok, line, col });
    }
    toks.push(Lexed { tok: Tok::Eof, line, col: i - line_start + 1 });
    Ok(toks)
}

/// The words that start a statement.
const STATEMENTS: &[&str] =
    &["let", "mut", "set", "accumulate", "store", "atomic", "array", "alloc", "free", "prefetch", "for", "while", "if"];

/// Splits `base_N` at its last underscore, when only digits follow it.
fn split_var(w: &str) -> Option<(&str, &str)> {
    let (base, num) = w.rsplit_once('_')?;
    (!base.starts_with('-') && !num.is_empty() && num.bytes().all(|c| c.is_ascii_digit())).then_some((base, num))
}

/// The operation named `name` in a table of printed names.
fn by_name<T: Copy>(name: &str, table: &[(T, &'static str)]) -> Option<T> {
    table.iter().find(|(_, n)| *n == name).map(|(op, _)| *op)
}

/// Whether `name` is an operation that takes one type suffix (`add.f32`).
fn is_typed_op(name: &str) -> bool {
    by_name(name, BIN_OPS).is_some()
        || by_name(name, CMP_OPS).is_some()
        || by_name(name, UN_OPS).is_some()
        || by_name(name, TERN_OPS).is_some()
}

struct Parser {
    toks: Vec<Lexed>,
    pos: usize,
    /// The base of every variable number seen in the current kernel.
    names: BTreeMap<u32, String>,
    /// How many blocks enclose the current position.
    depth: usize,
}

impl Parser {
    fn new(text: &str) -> PResult<Parser> {
        Ok(Parser { toks: lex(text)?, pos: 0, names: BTreeMap::new(), depth: 0 })
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    /// Moves past the current token (never past the end of input).
    fn advance(&mut self) {
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
    }

    /// An error at token number `at`.
    fn error_at<T>(&self, at: usize, message: String) -> PResult<T> {
        let Lexed { line, col, .. } = self.toks[at];
        Err(ParseError { line, col, message })
    }

    /// An error at the current token.
    fn error<T>(&self, message: String) -> PResult<T> {
        self.error_at(self.pos, message)
    }

    fn unexpected<T>(&self, what: &str) -> PResult<T> {
        self.error(format!("expected {what}, found {}", self.peek()))
    }

    fn sym(&mut self, s: &'static str) -> PResult<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            self.unexpected(&format!("`{s}`"))
        }
    }

    fn eat_sym(&mut self, s: &'static str) -> bool {
        let yes = self.peek() == &Tok::Sym(s);
        if yes {
            self.advance();
        }
        yes
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Word(w) if w == k)
    }

    fn keyword(&mut self, k: &str) -> PResult<()> {
        if self.is_keyword(k) {
            self.advance();
            Ok(())
        } else {
            self.unexpected(&format!("`{k}`"))
        }
    }

    fn expect_eof(&self) -> PResult<()> {
        match self.peek() {
            Tok::Eof => Ok(()),
            _ => self.unexpected("the end of input"),
        }
    }

    /// The current token if it is a word (without moving past it).
    fn peek_word(&self) -> Option<String> {
        match self.peek() {
            Tok::Word(w) => Some(w.clone()),
            _ => None,
        }
    }

    fn var(&mut self) -> PResult<Var> {
        let Some(w) = self.peek_word() else { return self.unexpected("a variable") };
        let Some((base, num)) = split_var(&w) else {
            return self.error(format!("expected a variable (written `base_N`), found `{w}`"));
        };
        let n = match num.parse::<u32>() {
            Ok(n) if n <= MAX_VAR => n,
            _ => return self.error(format!("variable number {num} is too large (at most {MAX_VAR})")),
        };
        if let Some(old) = self.names.get(&n) {
            if old != base {
                return self.error(format!("variable number {n} is written with two bases, `{old}_{n}` and `{w}`"));
            }
        } else {
            self.names.insert(n, base.to_string());
        }
        self.advance();
        Ok(Var(n))
    }

    fn prim_type(&mut self) -> PResult<PrimType> {
        match self.peek_word().and_then(|w| PrimType::from_name(&w)) {
            Some(t) => {
                self.advance();
                Ok(t)
            }
            None => self.unexpected("a primitive type"),
        }
    }

    fn ty(&mut self) -> PResult<Ty> {
        let t = self.prim_type()?;
        Ok(if self.eat_sym("*") { Ty::Ptr(t) } else { Ty::Prim(t) })
    }

    fn operand(&mut self) -> PResult<Operand> {
        match self.peek() {
            Tok::Num(s) => match parse_constant(s) {
                Some(c) => {
                    self.advance();
                    Ok(Operand::Const(c))
                }
                None => self.error(format!(
                    "`{s}` is not a constant (a constant carries its type, as in `3i64` or `2.5f32`, and fits it)"
                )),
            },
            Tok::Word(w) => match parse_constant(w) {
                Some(c) => {
                    self.advance();
                    Ok(Operand::Const(c))
                }
                None if split_var(w).is_some() => Ok(Operand::Var(self.var()?)),
                None => self.unexpected("a constant or a variable"),
            },
            _ => self.unexpected("a constant or a variable"),
        }
    }

    fn kernel(&mut self) -> PResult<Kernel> {
        self.names.clear();
        self.keyword("kernel")?;
        let name = match self.peek_word() {
            Some(w) if !w.starts_with('-') => w,
            _ => return self.unexpected("the kernel's name"),
        };
        self.advance();
        self.sym("(")?;
        let mut params = Vec::new();
        if !self.eat_sym(")") {
            loop {
                let var = self.var()?;
                self.sym(":")?;
                let kind = match self.peek_word().as_deref() {
                    Some("stride") => ParamKind::Stride,
                    Some("inout") => ParamKind::InOut,
                    Some("read") => ParamKind::Read,
                    Some("write") => ParamKind::Write,
                    _ => ParamKind::Value,
                };
                if kind != ParamKind::Value {
                    self.advance();
                }
                let ty = self.ty()?;
                params.push(Param { var, ty, kind });
                if self.eat_sym(")") {
                    break;
                }
                if !self.eat_sym(",") {
                    return self.unexpected("`,` or `)` in the parameter list");
                }
            }
        }
        let body = self.block()?;
        let len = self.names.keys().next_back().map_or(0, |&n| n as usize + 1);
        let mut names = vec!["v".to_string(); len];
        for (&n, base) in &self.names {
            names[n as usize] = base.clone();
        }
        Ok(Kernel { name, names, params, body })
    }

    fn block(&mut self) -> PResult<Block> {
        let open = self.pos;
        self.sym("{")?;
        if self.depth >= MAX_DEPTH {
            return self.error_at(open, format!("blocks nested more than {MAX_DEPTH} deep"));
        }
        self.depth += 1;
        let mut stms = Vec::new();
        while !self.eat_sym("}") {
            if self.peek() == &Tok::Eof {
                let Lexed { line, col, .. } = self.toks[open];
                return self.error(format!("unterminated block: expected `}}` to close the `{{` at {line}:{col}"));
            }
            stms.push(self.stm()?);
        }
        self.depth -= 1;
        Ok(Block { stms })
    }

    /// The current word as an operation with its types (`add.f32`,
    /// `convert.i32.f64`): the name, checked by `known` (else the error
    /// `unknown(name)`), and the types.
    fn op_word(
        &self,
        what: &str,
        known: impl Fn(&str) -> bool,
        unknown: impl FnOnce(&str) -> String,
    ) -> PResult<(String, Vec<PrimType>)> {
        let Some(w) = self.peek_word() else { return self.unexpected(what) };
        let mut parts = w.split('.');
        let name = parts.next().unwrap_or_default().to_string();
        if !known(&name) {
            return self.error(unknown(&name));
        }
        let mut types = Vec::new();
        for t in parts {
            match PrimType::from_name(t) {
                Some(t) => types.push(t),
                None => return self.error(format!("unknown type `{t}` in `{w}`")),
            }
        }
        Ok((name, types))
    }

    fn stm(&mut self) -> PResult<Stm> {
        let mut ivdep = false;
        if self.eat_sym("#[") {
            self.keyword("ivdep")?;
            self.sym("]")?;
            ivdep = true;
            if !self.is_keyword("for") {
                return self.unexpected("`for` after `#[ivdep]`");
            }
        }
        let Some(w) = self.peek_word().filter(|w| STATEMENTS.contains(&w.as_str())) else {
            return self.unexpected("a statement");
        };
        let at = self.pos;
        self.advance();
        match w.as_str() {
            "let" => {
                let var = self.var()?;
                self.sym(":")?;
                let ty = self.prim_type()?;
                self.sym("=")?;
                Ok(Stm::Let { var, ty, exp: self.exp()? })
            }
            "mut" => {
                let var = self.var()?;
                self.sym(":")?;
                let ty = self.prim_type()?;
                self.sym("=")?;
                Ok(Stm::Mut { var, ty, init: self.operand()? })
            }
            "set" => {
                let var = self.var()?;
                self.sym("=")?;
                Ok(Stm::Set { var, exp: self.exp()? })
            }
            "accumulate" => {
                let (name, types) = self.op_word(
                    "an operation such as `add.f32`",
                    |n| by_name(n, BIN_OPS).is_some(),
                    |n| format!("`{n}` is not a binary operation"),
                )?;
                let (Some(op), &[ty]) = (by_name(&name, BIN_OPS), &types[..]) else {
                    return self.error(format!("`{name}` takes one type, as in `{name}.f32`"));
                };
                self.advance();
                let var = self.var()?;
                let value = self.operand()?;
                let times = if self.eat_sym("*") { Some(self.operand()?) } else { None };
                Ok(Stm::Accumulate { var, op, ty, value, times })
            }
            "store" => {
                let ptr = self.var()?;
                self.sym("[")?;
                let index = self.operand()?;
                self.sym("]")?;
                self.sym("=")?;
                Ok(Stm::Store { ptr, index, value: self.operand()? })
            }
            "atomic" => {
                let ptr = self.var()?;
                self.sym("[")?;
                let index = self.operand()?;
                self.sym("]")?;
                self.sym("(")?;
                let old = self.var()?;
                self.sym(")")?;
                let body = self.block()?;
                self.sym("=")?;
                Ok(Stm::Atomic { ptr, index, old, body, new: self.operand()? })
            }
            "prefetch" => {
                let ptr = self.var()?;
                self.sym("[")?;
                let index = self.operand()?;
                self.sym("]")?;
                Ok(Stm::Prefetch { ptr, index })
            }
            "array" => {
                let var = self.var()?;
                self.sym(":")?;
                self.sym("[")?;
                let len = match self.peek() {
                    Tok::Num(n) => match n.parse::<u32>() {
                        Ok(n) => n,
                        Err(_) => {
                            return self.error(format!("`{n}` is not an array length (a plain number, as in `16`)"))
                        }
                    },
                    _ => return self.unexpected("an array length"),
                };
                self.advance();
                self.sym("]")?;
                Ok(Stm::Array { var, elem: self.prim_type()?, len })
            }
            "alloc" => {
                let var = self.var()?;
                self.sym(":")?;
                self.sym("[")?;
                let len = self.operand()?;
                self.sym("]")?;
                Ok(Stm::Alloc { var, elem: self.prim_type()?, len })
            }
            "free" => Ok(Stm::Free { var: self.var()? }),
            "for" => {
                let index = self.var()?;
                self.keyword("in")?;
                let lo = self.operand()?;
                self.sym("..")?;
                let hi = self.operand()?;
                Ok(Stm::For { index, lo, hi, ivdep, body: self.block()? })
            }
            "while" => {
                let cond = self.var()?;
                Ok(Stm::While { cond, body: self.block()? })
            }
            "if" => {
                let cond = self.operand()?;
                let then_block = self.block()?;
                self.keyword("else")?;
                Ok(Stm::If { cond, then_block, else_block: self.block()? })
            }
            _ => self.error_at(at, format!("`{w}` does not start a statement")),
        }
    }

    fn exp(&mut self) -> PResult<Exp> {
        let w = match self.peek() {
            Tok::Word(w) => w.clone(),
            Tok::Num(_) => return Ok(Exp::Operand(self.operand()?)),
            _ => return self.unexpected("an expression"),
        };
        if w == "select" {
            self.advance();
            return Ok(Exp::Select(self.operand()?, self.operand()?, self.operand()?));
        }
        if w == "load" {
            self.advance();
            let p = self.var()?;
            self.sym("[")?;
            let i = self.operand()?;
            self.sym("]")?;
            return Ok(Exp::Load(p, i));
        }
        if parse_constant(&w).is_some() || split_var(&w).is_some() {
            return Ok(Exp::Operand(self.operand()?));
        }
        let (name, types) = self.op_word(
            "an expression",
            |n| by_name(n, CONV_OPS).is_some() || is_typed_op(n),
            |_| format!("expected an expression, found `{w}` (not an operation, a constant or a variable)"),
        )?;
        if let Some(op) = by_name(&name, CONV_OPS) {
            let [from, to] = types[..] else {
                return self.error(format!("`{name}` takes two types, as in `{name}.i32.f64`"));
            };
            self.advance();
            return Ok(Exp::Conv(op, from, to, self.operand()?));
        }
        let [t] = types[..] else {
            return self.error(format!("`{name}` takes one type, as in `{name}.f32`"));
        };
        self.advance();
        if let Some(op) = by_name(&name, BIN_OPS) {
            return Ok(Exp::Bin(op, t, self.operand()?, self.operand()?));
        }
        if let Some(op) = by_name(&name, CMP_OPS) {
            return Ok(Exp::Cmp(op, t, self.operand()?, self.operand()?));
        }
        if let Some(op) = by_name(&name, UN_OPS) {
            return Ok(Exp::Un(op, t, self.operand()?));
        }
        match by_name(&name, TERN_OPS) {
            Some(op) => Ok(Exp::Tern(op, t, self.operand()?, self.operand()?, self.operand()?)),
            None => self.error(format!("unknown operation `{name}`")),
        }
    }
}
