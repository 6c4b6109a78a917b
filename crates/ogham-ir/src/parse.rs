//! Parsing the textual form of the IR (see [`crate::print`]) back.
//!
//! Variable numbers in the text are kept: `xs_1` is `VName(1)` with base
//! `xs`, and the program's [`NameTable`] is filled so that every number used
//! has an entry (numbers never mentioned get the base `v`). A number written
//! with two different bases is an error. Spans written as `-- @file:start-end`
//! comments are read back; absent spans are [`Span::DUMMY`].

use std::collections::BTreeMap;
use std::fmt;

use crate::print::{BIN_OPS, CMP_OPS, CONV_OPS, TERN_OPS, UN_OPS};
use crate::{
    AdMode, Body, DimIndex, EntryPoint, EntryValue, Exp, FunDef, HistOp, Lambda, LoopForm, NameTable, Opaque, Operator,
    Param, PrimType, PrimValue, Program, Soac, Span, Stm, StmAttrs, SubExp, Type, VName,
};
use ogham_syntax::FileId;

/// A syntax error in IR text, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a whole program.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let mut p = Parser::new(text)?;
    let mut consts = Vec::new();
    if p.is_keyword("consts") {
        p.next();
        p.sym('{')?;
        while !p.eat_sym('}') {
            consts.push(p.stm()?);
        }
    }
    let mut funs = Vec::new();
    while p.peek() != &Tok::Eof {
        funs.push(p.fun_def()?);
    }
    let names = p.name_table();
    Ok(Program { consts, funs, names, inlined: Vec::new() })
}

/// Parses one function; its names go into `names` (which must agree with it).
pub fn parse_fun_def(text: &str, names: &mut NameTable) -> Result<FunDef, ParseError> {
    let mut p = Parser::new(text)?;
    p.seed_names(names);
    let fun = p.fun_def()?;
    p.expect_eof()?;
    *names = p.name_table();
    Ok(fun)
}

/// Parses a type such as `[n_0]f32`; its names go into `names`.
pub fn parse_type(text: &str, names: &mut NameTable) -> Result<Type, ParseError> {
    let mut p = Parser::new(text)?;
    p.seed_names(names);
    let ty = p.type_()?;
    p.expect_eof()?;
    *names = p.name_table();
    Ok(ty)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// A numeric literal as written, with its suffix if any (`3i64`, `2.5f32`, `0`).
    Num(String),
    Str(String),
    Sym(char),
    /// A `-- @file:start-end` comment.
    Span(Span),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(s) => write!(f, "`{s}`"),
            Tok::Str(s) => write!(f, "string {s:?}"),
            Tok::Sym(c) => write!(f, "`{c}`"),
            Tok::Span(_) => write!(f, "span comment"),
            Tok::Eof => write!(f, "end of input"),
        }
    }
}

struct Lexed {
    tok: Tok,
    line: usize,
    col: usize,
}

fn lex(text: &str) -> Result<Vec<Lexed>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let err = |line: usize, col: usize, message: String| ParseError { line, col, message };
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
            let end = chars[i..].iter().position(|&c| c == '\n').map_or(chars.len(), |p| i + p);
            let comment: String = chars[i + 2..end].iter().collect();
            if let Some(span_text) = comment.trim_start().strip_prefix('@') {
                let span = parse_span(span_text.trim_end())
                    .ok_or_else(|| err(line, col, format!("malformed span comment `--{comment}`")))?;
                toks.push(Lexed { tok: Tok::Span(span), line, col });
            }
            i = end;
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '\'') {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())) {
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                let after_exponent = chars[i - 1] == 'e' || chars[i - 1] == 'E';
                if d.is_ascii_alphanumeric() || d == '.' || d == '_' || ((d == '-' || d == '+') && after_exponent) {
                    i += 1;
                } else {
                    break;
                }
            }
            Tok::Num(chars[start..i].iter().collect())
        } else if c == '"' {
            i += 1;
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => return Err(err(line, col, "unterminated string".into())),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let esc = chars.get(i + 1).copied();
                        i += 2;
                        match esc {
                            Some('\\') => s.push('\\'),
                            Some('"') => s.push('"'),
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some('u') if chars.get(i) == Some(&'{') => {
                                let close = chars[i..].iter().position(|&c| c == '}').map(|p| i + p);
                                let code = close
                                    .and_then(|close| {
                                        u32::from_str_radix(&chars[i + 1..close].iter().collect::<String>(), 16).ok()
                                    })
                                    .and_then(char::from_u32)
                                    .ok_or_else(|| err(line, col, "malformed \\u{…} escape in string".into()))?;
                                s.push(code);
                                i = close.unwrap_or(i) + 1;
                            }
                            other => {
                                return Err(err(
                                    line,
                                    col,
                                    format!("unknown escape `\\{}` in string", other.unwrap_or(' ')),
                                ))
                            }
                        }
                    }
                    Some(&c) => {
                        s.push(c);
                        i += 1;
                    }
                }
            }
            Tok::Str(s)
        } else if "()[]{},:=\\.*#<-+".contains(c) {
            i += 1;
            Tok::Sym(c)
        } else {
            return Err(err(line, col, format!("unexpected character `{c}`")));
        };
        toks.push(Lexed { tok, line, col });
    }
    toks.push(Lexed { tok: Tok::Eof, line, col: i - line_start + 1 });
    Ok(toks)
}

/// `file:start-end`.
fn parse_span(s: &str) -> Option<Span> {
    let (file, range) = s.split_once(':')?;
    let (start, end) = range.split_once('-')?;
    Some(Span { file: FileId(file.parse().ok()?), start: start.parse().ok()?, end: end.parse().ok()? })
}

/// Reads one constant as the text form writes it: `3i64`, `-2.5f32`,
/// `true`, `f32.inf`, `-f64.inf`, `f32.nan` (shared with `ogham-imp`).
pub fn parse_constant(s: &str) -> Option<PrimValue> {
    match s {
        "true" => return Some(PrimValue::Bool(true)),
        "false" => return Some(PrimValue::Bool(false)),
        _ => {}
    }
    let (negative, rest) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    if let Some((t, which)) = rest.split_once('.') {
        if let Some(t) = PrimType::from_name(t).filter(|t| t.is_float()) {
            return special_float(t, which, negative);
        }
    }
    parse_literal(s)
}

/// Reads a literal with a type suffix (`3i64`, `-0.5f32`).
fn parse_literal(s: &str) -> Option<PrimValue> {
    let ty = PrimType::ALL.into_iter().filter(|t| *t != PrimType::Bool).find(|t| {
        s.strip_suffix(t.name()).is_some_and(|digits| digits.ends_with(|c: char| c.is_ascii_digit() || c == '.'))
    })?;
    let digits = s.strip_suffix(ty.name())?.replace('_', "");
    Some(match ty {
        PrimType::I8 => PrimValue::I8(digits.parse().ok()?),
        PrimType::I16 => PrimValue::I16(digits.parse().ok()?),
        PrimType::I32 => PrimValue::I32(digits.parse().ok()?),
        PrimType::I64 => PrimValue::I64(digits.parse().ok()?),
        PrimType::U8 => PrimValue::U8(digits.parse().ok()?),
        PrimType::U16 => PrimValue::U16(digits.parse().ok()?),
        PrimType::U32 => PrimValue::U32(digits.parse().ok()?),
        PrimType::U64 => PrimValue::U64(digits.parse().ok()?),
        PrimType::F16 => PrimValue::F16(ogham_prim::f16_from_f64(digits.parse().ok()?)),
        PrimType::F32 => PrimValue::F32(digits.parse().ok()?),
        PrimType::F64 => PrimValue::F64(digits.parse().ok()?),
        PrimType::Bool => return None,
    })
}

/// A special float value `f32.nan` / `f64.inf`, negated when `negative`.
fn special_float(ty: PrimType, which: &str, negative: bool) -> Option<PrimValue> {
    let x = match which {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        _ => return None,
    };
    let x = if negative { -x } else { x };
    match ty {
        PrimType::F16 => Some(PrimValue::F16(ogham_prim::f16_from_f64(x))),
        PrimType::F32 => Some(PrimValue::F32(x as f32)),
        PrimType::F64 => Some(PrimValue::F64(x)),
        _ => None,
    }
}

/// Splits `base_N` into its base and number.
fn split_var(s: &str) -> Option<(&str, u32)> {
    let (base, num) = s.rsplit_once('_')?;
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, num.parse().ok()?))
}

const SOAC_KEYWORDS: &[&str] = &["scans", "reduces", "ops", "dests", "accs"];

struct Parser {
    toks: Vec<Lexed>,
    pos: usize,
    names: BTreeMap<u32, String>,
    /// How many bodies enclose the current position; limited so that
    /// pathological input gives an error instead of overflowing the stack.
    depth: usize,
}

/// The deepest nesting of bodies accepted.
const MAX_DEPTH: usize = 256;

type PResult<T> = Result<T, ParseError>;

impl Parser {
    fn new(text: &str) -> PResult<Parser> {
        Ok(Parser { toks: lex(text)?, pos: 0, names: BTreeMap::new(), depth: 0 })
    }

    fn seed_names(&mut self, names: &NameTable) {
        for (i, n) in names.names.iter().enumerate() {
            self.names.insert(i as u32, n.clone());
        }
    }

    fn name_table(&self) -> NameTable {
        let len = self.names.keys().next_back().map_or(0, |&k| k as usize + 1);
        let mut names = vec!["v".to_string(); len];
        for (&k, v) in &self.names {
            names[k as usize] = v.clone();
        }
        NameTable { names }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        &self.toks[(self.pos + ahead).min(self.toks.len() - 1)].tok
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn error<T>(&self, message: impl Into<String>) -> PResult<T> {
        let l = &self.toks[self.pos];
        Err(ParseError { line: l.line, col: l.col, message: message.into() })
    }

    fn unexpected<T>(&self, wanted: &str) -> PResult<T> {
        self.error(format!("expected {wanted}, found {}", self.peek()))
    }

    fn expect_eof(&self) -> PResult<()> {
        if self.peek() == &Tok::Eof {
            Ok(())
        } else {
            self.unexpected("end of input")
        }
    }

    fn is_sym(&self, c: char) -> bool {
        self.peek() == &Tok::Sym(c)
    }

    fn eat_sym(&mut self, c: char) -> bool {
        if self.is_sym(c) {
            self.next();
            true
        } else {
            false
        }
    }

    fn sym(&mut self, c: char) -> PResult<()> {
        if self.eat_sym(c) {
            Ok(())
        } else {
            self.unexpected(&format!("`{c}`"))
        }
    }

    fn is_keyword(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    fn keyword(&mut self, kw: &str) -> PResult<()> {
        if self.is_keyword(kw) {
            self.next();
            Ok(())
        } else {
            self.unexpected(&format!("`{kw}`"))
        }
    }

    fn ident(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.next();
                Ok(s)
            }
            _ => self.unexpected("an identifier"),
        }
    }

    fn string(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.next();
                Ok(s)
            }
            _ => self.unexpected("a string"),
        }
    }

    fn natural(&mut self) -> PResult<usize> {
        match self.peek().clone() {
            Tok::Num(s) => match s.parse() {
                Ok(n) => {
                    self.next();
                    Ok(n)
                }
                Err(_) => self.unexpected("a plain non-negative number"),
            },
            _ => self.unexpected("a number"),
        }
    }

    fn fun_name(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) | Tok::Str(s) => {
                self.next();
                Ok(s)
            }
            _ => self.unexpected("a function name"),
        }
    }

    fn optional_span(&mut self) -> Span {
        if let Tok::Span(span) = *self.peek() {
            self.next();
            span
        } else {
            Span::DUMMY
        }
    }

    /// A comma-separated list between `open` and `close`.
    fn list<T>(&mut self, open: char, close: char, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        self.sym(open)?;
        let mut items = Vec::new();
        if self.eat_sym(close) {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.eat_sym(close) {
                return Ok(items);
            }
            self.sym(',')?;
        }
    }

    fn var(&mut self) -> PResult<VName> {
        let name = match self.peek() {
            Tok::Ident(s) => s.clone(),
            _ => return self.unexpected("a variable"),
        };
        let Some((base, num)) = split_var(&name) else {
            return self.error(format!("`{name}` is not a variable (variables are written `base_number`)"));
        };
        match self.names.get(&num) {
            Some(known) if known != base => {
                return self.error(format!("variable number {num} is written both as `{known}_{num}` and `{name}`"))
            }
            Some(_) => {}
            None => {
                self.names.insert(num, base.to_string());
            }
        }
        self.next();
        Ok(VName(num))
    }

    fn prim_type(&mut self) -> PResult<PrimType> {
        match self.peek() {
            Tok::Ident(s) => match PrimType::from_name(s) {
                Some(t) => {
                    self.next();
                    Ok(t)
                }
                None => self.unexpected("a primitive type"),
            },
            _ => self.unexpected("a primitive type"),
        }
    }

    fn subexp(&mut self) -> PResult<SubExp> {
        match self.peek().clone() {
            Tok::Num(s) => match parse_literal(&s) {
                Some(v) => {
                    self.next();
                    Ok(SubExp::Const(v))
                }
                None => self.error(format!("`{s}` is not a constant (constants carry a type suffix, as in `3i64`)")),
            },
            Tok::Sym('-') => {
                self.next();
                self.special_float(true)
            }
            Tok::Ident(s) if s == "true" || s == "false" => {
                self.next();
                Ok(SubExp::Const(PrimValue::Bool(s == "true")))
            }
            Tok::Ident(s) if PrimType::from_name(&s).is_some() => self.special_float(false),
            Tok::Ident(_) => Ok(SubExp::Var(self.var()?)),
            _ => self.unexpected("a constant or variable"),
        }
    }

    fn special_float(&mut self, negative: bool) -> PResult<SubExp> {
        let t = self.prim_type()?;
        self.sym('.')?;
        let which = self.ident()?;
        match special_float(t, &which, negative) {
            Some(v) => Ok(SubExp::Const(v)),
            None => self.error(format!("`{t}.{which}` is not a constant")),
        }
    }

    fn type_(&mut self) -> PResult<Type> {
        let mut shape = Vec::new();
        while self.eat_sym('[') {
            shape.push(self.subexp()?);
            self.sym(']')?;
        }
        let elem = self.prim_type()?;
        Ok(if shape.is_empty() { Type::Prim(elem) } else { Type::Array { elem, shape } })
    }

    fn types(&mut self) -> PResult<Vec<Type>> {
        self.list('(', ')', |p| p.type_())
    }

    fn param(&mut self) -> PResult<Param> {
        let name = self.var()?;
        self.sym(':')?;
        let ty = self.type_()?;
        Ok(Param { name, ty })
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.list('(', ')', |p| p.param())
    }

    fn fun_def(&mut self) -> PResult<FunDef> {
        let is_entry = match self.peek() {
            Tok::Ident(s) if s == "fun" => false,
            Tok::Ident(s) if s == "entry" => true,
            _ => return self.unexpected("`fun` or `entry`"),
        };
        self.next();
        let name = self.fun_name()?;
        let params = self.params()?;
        self.sym(':')?;
        let ret = self.types()?;
        let entry = if is_entry {
            self.keyword("inputs")?;
            let inputs = self.list('(', ')', |p| p.entry_value())?;
            self.keyword("outputs")?;
            let outputs = self.list('(', ')', |p| p.entry_value())?;
            Some(EntryPoint { inputs, outputs })
        } else {
            None
        };
        self.sym('{')?;
        let span = self.optional_span();
        let body = self.body_contents()?;
        self.sym('}')?;
        Ok(FunDef { name, params, ret, body, entry, span })
    }

    /// `"name": *"type" [parts] …`; the name is written for inputs only.
    fn entry_value(&mut self) -> PResult<EntryValue> {
        let mut name = None;
        let mut unique = self.eat_sym('*');
        let mut type_name = self.string()?;
        if !unique && self.eat_sym(':') {
            name = Some(type_name);
            unique = self.eat_sym('*');
            type_name = self.string()?;
        }
        let parts = self.list('[', ']', |p| p.natural())?;
        let opaque = if self.is_keyword("record") {
            self.next();
            Some(Opaque::Record { fields: self.fields()? })
        } else if self.is_keyword("record_array") {
            self.next();
            let rank = self.natural()?;
            Some(Opaque::RecordArray { rank, fields: self.fields()? })
        } else if self.is_keyword("sum") {
            self.next();
            Some(Opaque::Sum { variants: self.variants()? })
        } else if self.is_keyword("sum_array") {
            self.next();
            let rank = self.natural()?;
            Some(Opaque::SumArray { rank, variants: self.variants()? })
        } else {
            None
        };
        Ok(EntryValue { name, type_name, unique, parts, opaque })
    }

    fn variants(&mut self) -> PResult<Vec<(String, Vec<(String, usize)>)>> {
        self.list('{', '}', |p| {
            let name = p.string()?;
            p.sym(':')?;
            let payload = p.list('[', ']', |p| {
                let ty = p.string()?;
                let parts = p.natural()?;
                Ok((ty, parts))
            })?;
            Ok((name, payload))
        })
    }

    fn fields(&mut self) -> PResult<Vec<(String, String, usize)>> {
        self.list('{', '}', |p| {
            let name = p.string()?;
            p.sym(':')?;
            let ty = p.string()?;
            let parts = p.natural()?;
            Ok((name, ty, parts))
        })
    }

    /// Statements then `in (results)`, up to (not including) the closing brace.
    fn body_contents(&mut self) -> PResult<Body> {
        let mut stms = Vec::new();
        while !self.is_keyword("in") {
            stms.push(self.stm()?);
        }
        self.next();
        let result = self.list('(', ')', |p| p.subexp())?;
        Ok(Body { stms, result })
    }

    fn body(&mut self) -> PResult<Body> {
        if self.depth >= MAX_DEPTH {
            return self.error(format!("bodies nested more than {MAX_DEPTH} deep"));
        }
        self.sym('{')?;
        self.depth += 1;
        let body = self.body_contents();
        self.depth -= 1;
        let body = body?;
        self.sym('}')?;
        Ok(body)
    }

    fn stm(&mut self) -> PResult<Stm> {
        let mut attrs = StmAttrs::default();
        while self.eat_sym('#') {
            self.sym('[')?;
            match self.ident()?.as_str() {
                "unsafe" => attrs.unsafe_ = true,
                "sequential" => attrs.sequential = true,
                "virtual" => attrs.virtual_ = true,
                "interchange" => attrs.interchange = true,
                "stripmine" => {
                    self.sym('(')?;
                    let k = self.natural()?;
                    let Ok(k) = u8::try_from(k) else { return self.error("a strip-mining depth above 255") };
                    attrs.stripmine = Some(k);
                    self.sym(')')?;
                }
                other => return self.error(format!("unknown statement attribute `{other}`")),
            }
            self.sym(']')?;
        }
        if !self.is_keyword("let") {
            return self.unexpected("`let` or `in`");
        }
        self.next();
        let pat = self.params()?;
        self.sym('=')?;
        let exp = self.exp()?;
        let span = self.optional_span();
        Ok(Stm { pat, exp, attrs, span })
    }

    fn shape(&mut self) -> PResult<Vec<SubExp>> {
        self.list('[', ']', |p| p.subexp())
    }

    fn slice(&mut self) -> PResult<Vec<DimIndex>> {
        self.list('[', ']', |p| {
            let start = p.subexp()?;
            if p.eat_sym(':') {
                p.sym('+')?;
                let len = p.subexp()?;
                p.sym('*')?;
                let stride = p.subexp()?;
                Ok(DimIndex::Slice { start, len, stride })
            } else {
                Ok(DimIndex::Fix(start))
            }
        })
    }

    /// `name.type` with the operator name already known to be followed by `.`.
    fn op_type(&mut self) -> PResult<PrimType> {
        self.sym('.')?;
        self.prim_type()
    }

    fn exp(&mut self) -> PResult<Exp> {
        let word = match self.peek() {
            Tok::Ident(s) => s.clone(),
            _ => return Ok(Exp::SubExp(self.subexp()?)),
        };
        let dotted = self.peek_at(1) == &Tok::Sym('.');
        if dotted && PrimType::from_name(&word).is_none() {
            self.next();
            if let Some((op, _)) = BIN_OPS.iter().find(|(_, n)| *n == word) {
                let t = self.op_type()?;
                return Ok(Exp::BinOp(*op, t, self.subexp()?, self.subexp()?));
            }
            if let Some((op, _)) = CMP_OPS.iter().find(|(_, n)| *n == word) {
                let t = self.op_type()?;
                return Ok(Exp::CmpOp(*op, t, self.subexp()?, self.subexp()?));
            }
            if let Some((op, _)) = UN_OPS.iter().find(|(_, n)| *n == word) {
                let t = self.op_type()?;
                return Ok(Exp::UnOp(*op, t, self.subexp()?));
            }
            if let Some((op, _)) = TERN_OPS.iter().find(|(_, n)| *n == word) {
                let t = self.op_type()?;
                return Ok(Exp::TernOp(*op, t, self.subexp()?, self.subexp()?, self.subexp()?));
            }
            if let Some((op, _)) = CONV_OPS.iter().find(|(_, n)| *n == word) {
                let from = self.op_type()?;
                let to = self.op_type()?;
                return Ok(Exp::Conv(*op, from, to, self.subexp()?));
            }
            if word == "iota" {
                let elem = self.op_type()?;
                let args = self.list('(', ')', |p| p.subexp())?;
                let [n, start, step] = args[..] else {
                    return self.error("`iota` takes three operands: (n, start, step)");
                };
                return Ok(Exp::Iota { n, start, step, elem });
            }
            if word == "scratch" {
                let elem = self.op_type()?;
                self.sym('(')?;
                let shape = self.shape()?;
                self.sym(')')?;
                return Ok(Exp::Scratch { elem, shape });
            }
            return self.error(format!("unknown operator `{word}`"));
        }
        match word.as_str() {
            "apply" => {
                self.next();
                let func = self.fun_name()?;
                let args = self.list('(', ')', |p| p.subexp())?;
                Ok(Exp::Apply { func, args })
            }
            "if" => {
                self.next();
                let cond = self.subexp()?;
                self.keyword("then")?;
                let then_body = self.body()?;
                self.keyword("else")?;
                let else_body = self.body()?;
                Ok(Exp::If { cond, then_body, else_body })
            }
            "loop" => {
                self.next();
                let params = self.list('(', ')', |p| {
                    let param = p.param()?;
                    p.sym('=')?;
                    Ok((param, p.subexp()?))
                })?;
                let form = if self.is_keyword("for") {
                    self.next();
                    let i = self.var()?;
                    self.sym('<')?;
                    LoopForm::For { i, bound: self.subexp()? }
                } else if self.is_keyword("while") {
                    self.next();
                    LoopForm::While { cond: self.var()? }
                } else {
                    return self.unexpected("`for` or `while`");
                };
                let body = self.body()?;
                Ok(Exp::Loop { params, form, body })
            }
            "index" => {
                self.next();
                let array = self.var()?;
                let slice = self.slice()?;
                Ok(Exp::Index { array, slice })
            }
            "updacc" => {
                self.next();
                let op = if self.eat_sym('(') {
                    let name = self.ident()?;
                    let Some((op, _)) = BIN_OPS.iter().find(|(_, n)| *n == name) else {
                        return self.error(format!("unknown operator `{name}`"));
                    };
                    self.sym(')')?;
                    Some(*op)
                } else {
                    None
                };
                let acc = self.var()?;
                let slice = self.slice()?;
                self.sym('=')?;
                let value = self.subexp()?;
                Ok(Exp::UpdAcc { acc, slice, value, op })
            }
            "update" => {
                self.next();
                let array = self.var()?;
                let slice = self.slice()?;
                self.sym('=')?;
                let value = self.subexp()?;
                Ok(Exp::Update { array, slice, value })
            }
            "replicate" => {
                self.next();
                self.sym('(')?;
                let shape = self.shape()?;
                self.sym(',')?;
                let value = self.subexp()?;
                self.sym(')')?;
                Ok(Exp::Replicate { shape, value })
            }
            "reshape" => {
                self.next();
                self.sym('(')?;
                let shape = self.shape()?;
                self.sym(',')?;
                let array = self.var()?;
                self.sym(')')?;
                Ok(Exp::Reshape { array, shape })
            }
            "rearrange" => {
                self.next();
                self.sym('(')?;
                let perm = self.list('[', ']', |p| p.natural())?;
                self.sym(',')?;
                let array = self.var()?;
                self.sym(')')?;
                Ok(Exp::Rearrange { array, perm })
            }
            "concat" => {
                self.next();
                self.sym('(')?;
                let dim = self.natural()?;
                self.sym(',')?;
                let len = self.subexp()?;
                let mut arrays = Vec::new();
                while self.eat_sym(',') {
                    arrays.push(self.var()?);
                }
                self.sym(')')?;
                Ok(Exp::Concat { dim, arrays, len })
            }
            "copy" => {
                self.next();
                self.sym('(')?;
                let v = self.var()?;
                self.sym(')')?;
                Ok(Exp::Copy(v))
            }
            "array" => {
                self.next();
                self.sym('(')?;
                let elem_ty = self.type_()?;
                self.sym(',')?;
                let elems = self.shape()?;
                self.sym(')')?;
                Ok(Exp::ArrayLit { elems, elem_ty })
            }
            "assert" => {
                self.next();
                self.sym('(')?;
                let cond = self.subexp()?;
                self.sym(',')?;
                // Text and operands alternate, starting and ending with text.
                let mut message = self.string()?;
                let mut args = Vec::new();
                while self.eat_sym(',') {
                    args.push((message.len(), self.subexp()?));
                    self.sym(',')?;
                    message.push_str(&self.string()?);
                }
                self.sym(')')?;
                Ok(Exp::Assert { cond, message, args })
            }
            "certify" => {
                self.next();
                self.sym('(')?;
                let cert = self.var()?;
                let mut values = Vec::new();
                while self.eat_sym(',') {
                    values.push(self.subexp()?);
                }
                self.sym(')')?;
                Ok(Exp::Certify { cert, values })
            }
            "user_param" => {
                self.next();
                self.sym('(')?;
                let name = self.string()?;
                self.sym(',')?;
                let default = self.subexp()?;
                self.sym(')')?;
                Ok(Exp::UserParam { name, default })
            }
            "jvp" | "vjp" | "custom_vjp" | "jmp" | "mjp" => {
                self.next();
                self.sym('(')?;
                let args = self.shape()?;
                self.sym(',')?;
                let seeds = self.shape()?;
                self.sym(',')?;
                let lambda = self.lambda()?;
                self.sym(')')?;
                let mode = match word.as_str() {
                    "jvp" => AdMode::Jvp,
                    "vjp" => AdMode::Vjp,
                    "jmp" => AdMode::Jmp,
                    "mjp" => AdMode::Mjp,
                    _ => AdMode::CustomVjp,
                };
                Ok(Exp::Ad { mode, lambda, args, seeds })
            }
            "map" | "screma" | "hist" | "scatter" | "withacc" => {
                self.next();
                self.soac(&word).map(Exp::Soac)
            }
            _ => Ok(Exp::SubExp(self.subexp()?)),
        }
    }

    /// The operands of a SOAC after its name: `(w, arrs…, [extra,] lambda)`.
    fn soac(&mut self, name: &str) -> PResult<Soac> {
        self.sym('(')?;
        let w = self.subexp()?;
        let mut arrs = Vec::new();
        self.sym(',')?;
        while !self.is_sym('\\') && !matches!(self.peek(), Tok::Ident(s) if SOAC_KEYWORDS.contains(&s.as_str())) {
            arrs.push(self.var()?);
            self.sym(',')?;
        }
        let soac = match name {
            "map" => Soac::Screma { w, arrs, scans: Vec::new(), reduces: Vec::new(), map: self.lambda()? },
            "screma" => {
                self.keyword("scans")?;
                let scans = self.list('[', ']', |p| p.operator())?;
                self.sym(',')?;
                self.keyword("reduces")?;
                let reduces = self.list('[', ']', |p| p.operator())?;
                self.sym(',')?;
                Soac::Screma { w, arrs, scans, reduces, map: self.lambda()? }
            }
            "hist" => {
                self.keyword("ops")?;
                let ops = self.list('[', ']', |p| p.hist_op())?;
                self.sym(',')?;
                Soac::Hist { w, arrs, ops, map: self.lambda()? }
            }
            "withacc" => {
                self.keyword("accs")?;
                let accs = self.list('[', ']', |p| p.var())?;
                self.sym(',')?;
                Soac::WithAcc { w, arrs, accs, map: self.lambda()? }
            }
            _ => {
                self.keyword("dests")?;
                let dests = self.list('[', ']', |p| p.var())?;
                self.sym(',')?;
                Soac::Scatter { w, arrs, dests, map: self.lambda()? }
            }
        };
        self.sym(')')?;
        Ok(soac)
    }

    fn hist_op(&mut self) -> PResult<HistOp> {
        self.keyword("histop")?;
        self.sym('(')?;
        let shape = self.shape()?;
        self.sym(',')?;
        let dests = self.list('[', ']', |p| p.var())?;
        self.sym(',')?;
        let op = self.operator()?;
        self.sym(')')?;
        Ok(HistOp { shape, dests, op })
    }

    fn operator(&mut self) -> PResult<Operator> {
        let commutative = match self.peek() {
            Tok::Ident(s) if s == "op" => false,
            Tok::Ident(s) if s == "commop" => true,
            _ => return self.unexpected("`op` or `commop`"),
        };
        self.next();
        self.sym('(')?;
        let neutral = self.shape()?;
        self.sym(',')?;
        let lambda = self.lambda()?;
        self.sym(')')?;
        Ok(Operator { lambda, neutral, commutative })
    }

    fn lambda(&mut self) -> PResult<Lambda> {
        self.sym('\\')?;
        let params = self.params()?;
        self.sym(':')?;
        let ret = self.types()?;
        let body = self.body()?;
        Ok(Lambda { params, body, ret })
    }
}
