//! The parser: tokens to the AST.
//!
//! Recursive descent, with precedence climbing for infix operators. The
//! levels follow Futhark's implemented grammar, from loosest to tightest:
//! `:`/`:>`, ranges, `` `f` ``, `with`, `|>`, `<|` (right), `||`, `&&`,
//! comparisons (`== != < > <= >=` and anything starting with `!` or `=`),
//! `& ^ |`, `<< >>`, `+ -`, `* / % // %%`, `**`, prefix `-`/`!`, then
//! juxtaposition. A user-defined operator takes the level of the longest
//! built-in operator that is a prefix of it (`>>=` binds like `>>`).
//!
//! Error handling: within one declaration the first syntax error is
//! reported and the parser resynchronises at the next declaration keyword,
//! so every independent error is reported once and nothing cascades. A
//! depth limit turns pathological nesting into a `parse-error` instead of a
//! stack overflow.

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::lexer::{describe, lex, Keyword, Token, TokenKind};
use crate::source::{FileId, Span};

/// The diagnostic name of every syntax error.
pub const PARSE_ERROR: &str = "parse-error";

/// How deeply expressions, patterns and types may nest before the parser
/// gives up; keeps recursion (and stack use) bounded on hostile input.
const MAX_DEPTH: usize = 192;

/// Parses one file. Always returns a program (possibly partial) and every
/// syntax error found; never panics.
pub fn parse_program(file: FileId, text: &str, ids: &mut NodeIds) -> (Program, Vec<Diagnostic>) {
    on_parser_stack(text, || parse_program_here(file, text, ids))
}

fn parse_program_here(file: FileId, text: &str, ids: &mut NodeIds) -> (Program, Vec<Diagnostic>) {
    let lexed = lex(file, text);
    let mut parser = Parser::new(text, lexed.tokens, lexed.docs, ids);
    let program = parser.program();
    let mut diagnostics = lexed.diagnostics;
    diagnostics.extend(parser.diagnostics);
    (program, diagnostics)
}

/// Parses a single expression (the whole text must be one expression).
pub fn parse_expr(file: FileId, text: &str, ids: &mut NodeIds) -> Result<Expr, Vec<Diagnostic>> {
    on_parser_stack(text, || parse_whole(file, text, ids, |p| p.expr()))
}

/// Parses a single type, e.g. a built-in signature `[n]a -> (a -> b) -> *[n]b`.
pub fn parse_type(file: FileId, text: &str, ids: &mut NodeIds) -> Result<TypeExp, Vec<Diagnostic>> {
    on_parser_stack(text, || parse_whole(file, text, ids, |p| p.type_exp()))
}

/// Texts up to this size are parsed on the caller's thread: at most about
/// 128 nesting levels fit in them, well within any thread's stack.
const SHORT_TEXT_BYTES: usize = 64;

/// Stack for the parser thread. Recursive descent over large AST nodes uses
/// a few KiB per nesting level; at [`MAX_DEPTH`] that is about 2 MiB in a
/// debug build, more than a test thread has. The memory is only reserved,
/// and touched pages are what deep input actually uses.
const PARSER_STACK_BYTES: usize = 16 << 20;

/// Runs `job` on a scoped thread with a [`PARSER_STACK_BYTES`] stack, so the
/// depth limit, not the caller's stack size, decides what input is too deep.
/// Falls back to the current thread if no thread can be started. Short
/// texts (such as built-in signatures) cannot nest deeply enough to matter,
/// so they skip the cost of a thread.
fn on_parser_stack<T: Send>(text: &str, job: impl FnOnce() -> T + Send) -> T {
    if text.len() <= SHORT_TEXT_BYTES {
        return job();
    }
    let mut job = Some(job);
    let outcome = std::thread::scope(|scope| {
        let slot = &mut job;
        std::thread::Builder::new()
            .name("ogham-parser".to_string())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, move || slot.take().map(|job| job()))
            .ok()
            .map(|handle| handle.join())
    });
    match outcome {
        Some(Ok(Some(value))) => return value,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        _ => {}
    }
    match job.take() {
        Some(job) => job(),
        None => std::panic::resume_unwind(Box::new("the parser thread lost its job")),
    }
}

fn parse_whole<T>(
    file: FileId,
    text: &str,
    ids: &mut NodeIds,
    parse: impl FnOnce(&mut Parser) -> PResult<T>,
) -> Result<T, Vec<Diagnostic>> {
    let lexed = lex(file, text);
    let mut parser = Parser::new(text, lexed.tokens, lexed.docs, ids);
    let result =
        parse(&mut parser).and_then(
            |value| {
                if parser.at(&TokenKind::Eof) {
                    Ok(value)
                } else {
                    parser.fail("end of input")
                }
            },
        );
    let mut diagnostics = lexed.diagnostics;
    diagnostics.extend(parser.diagnostics);
    match result {
        Ok(value) if diagnostics.is_empty() => Ok(value),
        _ => Err(diagnostics),
    }
}

/// Marker for "an error has been reported; unwind to the declaration level".
struct Stop;

type PResult<T> = Result<T, Stop>;

/// Binding strength of infix operators; larger binds tighter.
mod prec {
    pub const BACKQUOTE: u8 = 1;
    pub const WITH: u8 = 2;
    pub const PIPE: u8 = 3;
    pub const BACKPIPE: u8 = 4;
    pub const OR: u8 = 5;
    pub const AND: u8 = 6;
    pub const COMPARE: u8 = 7;
    pub const BITWISE: u8 = 8;
    pub const SHIFT: u8 = 9;
    pub const ADD: u8 = 10;
    pub const MUL: u8 = 11;
    pub const POW: u8 = 12;
}

/// Precedence and right-associativity of an operator symbol, from the
/// longest built-in operator that is a prefix of it.
fn operator_fixity(symbol: &str) -> (u8, bool) {
    const BUILTINS: [(&str, u8); 25] = [
        ("|>", prec::PIPE),
        ("<|", prec::BACKPIPE),
        ("||", prec::OR),
        ("&&", prec::AND),
        ("<=", prec::COMPARE),
        (">=", prec::COMPARE),
        ("==", prec::COMPARE),
        ("!=", prec::COMPARE),
        ("<", prec::COMPARE),
        (">", prec::COMPARE),
        ("!", prec::COMPARE),
        ("=", prec::COMPARE),
        ("&", prec::BITWISE),
        ("^", prec::BITWISE),
        ("|", prec::BITWISE),
        ("<<", prec::SHIFT),
        (">>", prec::SHIFT),
        ("+", prec::ADD),
        ("-", prec::ADD),
        ("*", prec::MUL),
        ("/", prec::MUL),
        ("%", prec::MUL),
        ("//", prec::MUL),
        ("%%", prec::MUL),
        ("**", prec::POW),
    ];
    let level = BUILTINS
        .iter()
        .filter(|(op, _)| symbol.starts_with(op))
        .max_by_key(|(op, _)| op.len())
        .map(|&(_, level)| level)
        // Every symbol starts with a one-character built-in; this is only a fallback.
        .unwrap_or(prec::COMPARE);
    (level, level == prec::BACKPIPE)
}

/// One step of an update path (`r with a.b[i].c = v`, `let xs[i].f = v`,
/// the section `(.a[0])`).
enum PathStep {
    Fields(Vec<Name>),
    Index(Vec<DimIndex>),
}

/// One `let` binding of a chain, before the chain's body is known.
enum LetBinding {
    Plain { sizes: Vec<Binder>, pat: Pat, value: Expr },
    Function { name: Binder, type_params: Vec<TypeParam>, params: Vec<Pat>, ret: Option<TypeExp>, value: Expr },
}

/// Futhark's message for `!` in a binding position.
const PREFIX_BANG: &str = "'!' is a prefix operator and cannot be used as infix operator.";

struct Parser<'a> {
    /// The source text, for quoting tokens in messages.
    text: &'a str,
    tokens: Vec<Token>,
    docs: Vec<String>,
    pos: usize,
    ids: &'a mut NodeIds,
    diagnostics: Vec<Diagnostic>,
    depth: usize,
    /// End of the last consumed token, for node spans.
    prev_span: Span,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, tokens: Vec<Token>, docs: Vec<String>, ids: &'a mut NodeIds) -> Parser<'a> {
        let prev_span = tokens.first().map(|t| Span { end: t.span.start, ..t.span }).unwrap_or_default();
        Parser { text, tokens, docs, pos: 0, ids, diagnostics: Vec::new(), depth: 0, prev_span }
    }

    // ----- token access ---------------------------------------------------

    fn token(&self) -> &Token {
        let last = self.tokens.len().saturating_sub(1);
        &self.tokens[self.pos.min(last)]
    }

    fn peek(&self) -> &TokenKind {
        &self.token().kind
    }

    fn peek_nth(&self, n: usize) -> &TokenKind {
        match self.tokens.get(self.pos + n).or(self.tokens.last()) {
            Some(t) => &t.kind,
            None => &TokenKind::Eof,
        }
    }

    fn span(&self) -> Span {
        self.token().span
    }

    fn at(&self, kind: &TokenKind) -> bool {
        self.peek() == kind
    }

    fn at_keyword(&self, keyword: Keyword) -> bool {
        self.at(&TokenKind::Keyword(keyword))
    }

    fn at_symbol(&self, symbol: &str) -> bool {
        matches!(self.peek(), TokenKind::Symbol(q, s) if q.is_empty() && s == symbol)
    }

    fn bump(&mut self) -> Token {
        let token = self.token().clone();
        if self.pos < self.tokens.len().saturating_sub(1) {
            self.pos += 1;
        }
        self.prev_span = token.span;
        token
    }

    fn eat(&mut self, kind: &TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_keyword(&mut self, keyword: Keyword) -> bool {
        self.eat(&TokenKind::Keyword(keyword))
    }

    fn expect(&mut self, kind: &TokenKind) -> PResult<Span> {
        if self.at(kind) {
            Ok(self.bump().span)
        } else {
            self.fail(&describe(kind))
        }
    }

    fn expect_keyword(&mut self, keyword: Keyword) -> PResult<Span> {
        self.expect(&TokenKind::Keyword(keyword))
    }

    /// Reports "Unexpected token: 'x'; expected `what`." (Futhark's wording
    /// first) at the current token, unless the token is a lexical error that
    /// was already reported.
    fn fail<T>(&mut self, what: &str) -> PResult<T> {
        let token = self.token();
        let message = match &token.kind {
            TokenKind::Error => return Err(Stop),
            TokenKind::Eof => format!("Unexpected end of file; expected {what}."),
            // A declaration keyword where a `let` wanted its `in`.
            TokenKind::Keyword(k @ (Keyword::Def | Keyword::Type | Keyword::Module)) if what == "`in`" => {
                format!("Unexpected \"{}\" - missing \"in\"?", k.as_str())
            }
            kind => {
                let quoted = self
                    .text
                    .get(token.span.start as usize..token.span.end as usize)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .unwrap_or_else(|| describe(kind));
                format!("Unexpected token: '{quoted}'; expected {what}.")
            }
        };
        self.diagnostics.push(Diagnostic::error(PARSE_ERROR, token.span, message));
        Err(Stop)
    }

    fn error_at<T>(&mut self, span: Span, message: impl Into<String>) -> PResult<T> {
        self.diagnostics.push(Diagnostic::error(PARSE_ERROR, span, message));
        Err(Stop)
    }

    /// Runs `f` one nesting level deeper, failing cleanly past [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            let span = self.span();
            return self.error_at(span, "nesting too deep");
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// The span from `start` to the end of the last consumed token.
    fn since(&self, start: Span) -> Span {
        start.to(self.prev_span)
    }

    fn expr_node(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.ids.fresh(), kind, span }
    }

    fn pat_node(&mut self, kind: PatKind, span: Span) -> Pat {
        Pat { id: self.ids.fresh(), kind, span }
    }

    fn binder(&mut self, name: Name) -> Binder {
        Binder { name, id: self.ids.fresh() }
    }

    fn name(&mut self, what: &str) -> PResult<Name> {
        match self.peek().clone() {
            TokenKind::Name(text) => {
                let span = self.bump().span;
                Ok(Name { text, span })
            }
            _ => self.fail(what),
        }
    }

    /// Whether the current token starts immediately where the previous one ended.
    fn glued(&self) -> bool {
        self.pos > 0 && self.token().span.start == self.prev_span.end
    }

    // ----- declarations ---------------------------------------------------

    fn program(&mut self) -> Program {
        let mut decs = Vec::new();
        while !self.at(&TokenKind::Eof) {
            let start = self.pos;
            match self.nested(|p| p.dec()) {
                Ok(dec) => decs.push(dec),
                Err(Stop) => {
                    if self.pos == start {
                        self.bump();
                    }
                    self.resynchronise();
                }
            }
        }
        Program { decs }
    }

    /// Whether the current token can start a top-level declaration. `let`
    /// and `#[` count only in column 1, as they also occur in expressions.
    fn at_dec_start(&self) -> bool {
        let token = self.token();
        match &token.kind {
            TokenKind::Keyword(
                Keyword::Def
                | Keyword::Entry
                | Keyword::Type
                | Keyword::Module
                | Keyword::Open
                | Keyword::Local
                | Keyword::Include
                | Keyword::Import,
            )
            | TokenKind::TypeTilde
            | TokenKind::TypeHat => true,
            TokenKind::Keyword(Keyword::Let) | TokenKind::AttrOpen => token.at_column_one,
            _ => false,
        }
    }

    fn resynchronise(&mut self) {
        while !self.at(&TokenKind::Eof) && !self.at_dec_start() {
            self.bump();
        }
    }

    #[inline(never)]
    fn dec(&mut self) -> PResult<Dec> {
        let first = self.token().clone();
        let doc = first.doc.and_then(|i| self.docs.get(i).cloned());
        let mut attrs = Vec::new();
        while self.at(&TokenKind::AttrOpen) {
            attrs.push(self.attr()?);
        }
        match self.peek().clone() {
            TokenKind::Keyword(Keyword::Def) | TokenKind::Keyword(Keyword::Let) => {
                self.value_dec(false, attrs, doc, first.span).map(Dec::Value)
            }
            TokenKind::Keyword(Keyword::Entry) => self.value_dec(true, attrs, doc, first.span).map(Dec::Value),
            TokenKind::Keyword(Keyword::Type) | TokenKind::TypeTilde | TokenKind::TypeHat => {
                self.type_dec(first.span).map(Dec::Type)
            }
            TokenKind::Keyword(Keyword::Import) => {
                self.bump();
                match self.peek().clone() {
                    TokenKind::Literal(Literal::String(bytes)) => {
                        self.bump();
                        let path = String::from_utf8_lossy(&bytes).into_owned();
                        Ok(Dec::Import { path, span: self.since(first.span) })
                    }
                    _ => self.fail("a string literal after `import`"),
                }
            }
            TokenKind::Keyword(Keyword::Local) => {
                self.bump();
                let inner = self.nested(|p| p.dec())?;
                Ok(Dec::Local(Box::new(inner), self.since(first.span)))
            }
            TokenKind::Keyword(Keyword::Module) => {
                self.bump();
                if self.eat_keyword(Keyword::Type) {
                    let name = self.name("a module type name")?;
                    self.expect(&TokenKind::Equals)?;
                    let sig = self.sig_exp()?;
                    return Ok(Dec::ModType { name, sig, span: self.since(first.span) });
                }
                self.mod_bind(first.span).map(Dec::Module)
            }
            TokenKind::Keyword(Keyword::Open) => {
                self.bump();
                let m = self.mod_exp()?;
                Ok(Dec::Open(m, self.since(first.span)))
            }
            _ => self.fail("a declaration"),
        }
    }

    // ----- the module language ---------------------------------------------

    /// After `module`: `name (p: s)… [: s] = e`.
    fn mod_bind(&mut self, start: Span) -> PResult<ModBind> {
        let name = self.name("a module name")?;
        let mut params = Vec::new();
        while self.at(&TokenKind::LParen) {
            params.push(self.mod_param()?);
        }
        let sig = if self.eat(&TokenKind::Colon) { Some(self.sig_exp()?) } else { None };
        self.expect(&TokenKind::Equals)?;
        let body = self.mod_exp()?;
        Ok(ModBind { name, params, sig, body, span: self.since(start) })
    }

    /// `(name: s)`
    fn mod_param(&mut self) -> PResult<ModParam> {
        let start = self.expect(&TokenKind::LParen)?;
        let name = self.name("a module parameter name")?;
        self.expect(&TokenKind::Colon)?;
        let sig = self.sig_exp()?;
        self.expect(&TokenKind::RParen)?;
        Ok(ModParam { name, sig, span: self.since(start) })
    }

    /// A module expression: applications, then an optional ascription `: s`.
    fn mod_exp(&mut self) -> PResult<ModExp> {
        self.nested(|p| {
            let start = p.span();
            if p.eat(&TokenKind::Backslash) {
                let param = p.mod_param()?;
                let ret = if p.eat(&TokenKind::Colon) { Some(p.sig_refined()?) } else { None };
                p.expect(&TokenKind::Arrow)?;
                let body = p.mod_exp()?;
                return Ok(ModExp::Lambda(param, ret, Box::new(body), p.since(start)));
            }
            let mut e = p.mod_atom()?;
            while p.at_mod_atom_start() {
                let arg = p.mod_atom()?;
                e = ModExp::Apply(Box::new(e), Box::new(arg), p.since(start));
            }
            if p.eat(&TokenKind::Colon) {
                let sig = p.sig_exp()?;
                e = ModExp::Ascribe(Box::new(e), sig, p.since(start));
            }
            Ok(e)
        })
    }

    /// A name or qualified name token (`M`, `M.N.t`), consumed.
    fn qual_name(&mut self) -> Option<QualName> {
        let q = match self.peek().clone() {
            TokenKind::Name(name) => QualName::unqualified(name, self.span()),
            TokenKind::QualName(quals, name) => QualName { quals, name, span: self.span() },
            _ => return None,
        };
        self.bump();
        Some(q)
    }

    fn at_mod_atom_start(&self) -> bool {
        match self.peek() {
            TokenKind::Name(_) | TokenKind::QualName(..) | TokenKind::LParen | TokenKind::LBrace => true,
            // `module m = import "x"`: an `import` that is not at the start
            // of a line belongs to the module expression.
            TokenKind::Keyword(Keyword::Import) => !self.token().at_column_one,
            _ => false,
        }
    }

    fn mod_atom(&mut self) -> PResult<ModExp> {
        let start = self.span();
        if let Some(q) = self.qual_name() {
            return Ok(ModExp::Var(q));
        }
        match self.peek().clone() {
            TokenKind::LParen => {
                self.bump();
                let e = self.mod_exp()?;
                self.expect(&TokenKind::RParen)?;
                Ok(e)
            }
            TokenKind::LBrace => {
                self.bump();
                let mut decs = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    if self.at(&TokenKind::Eof) {
                        return self.fail("`}`");
                    }
                    decs.push(self.nested(|p| p.dec())?);
                }
                self.bump();
                Ok(ModExp::Struct(decs, self.since(start)))
            }
            TokenKind::Keyword(Keyword::Import) => {
                self.bump();
                match self.peek().clone() {
                    TokenKind::Literal(Literal::String(bytes)) => {
                        self.bump();
                        Ok(ModExp::Import(String::from_utf8_lossy(&bytes).into_owned(), self.since(start)))
                    }
                    _ => self.fail("a string literal after `import`"),
                }
            }
            _ => self.fail("a module expression"),
        }
    }

    /// A module type: `s1 -> s2` (right-associative), `(p: s1) -> s2`, or a
    /// refined atom `s with t = te …`.
    fn sig_exp(&mut self) -> PResult<SigExp> {
        self.nested(|p| {
            let start = p.span();
            if let (TokenKind::LParen, TokenKind::Name(text), TokenKind::Colon) =
                (p.peek().clone(), p.peek_nth(1).clone(), p.peek_nth(2).clone())
            {
                p.bump();
                let name_span = p.bump().span;
                p.bump();
                let from = p.sig_exp()?;
                p.expect(&TokenKind::RParen)?;
                p.expect(&TokenKind::Arrow)?;
                let to = p.sig_exp()?;
                let param = Some(Name { text, span: name_span });
                return Ok(SigExp::Arrow { param, from: Box::new(from), to: Box::new(to), span: p.since(start) });
            }
            let s = p.sig_refined()?;
            if p.eat(&TokenKind::Arrow) {
                let to = p.sig_exp()?;
                return Ok(SigExp::Arrow { param: None, from: Box::new(s), to: Box::new(to), span: p.since(start) });
            }
            Ok(s)
        })
    }

    /// A module type atom with any `with` refinements, but no arrow.
    fn sig_refined(&mut self) -> PResult<SigExp> {
        self.nested(|p| {
            let start = p.span();
            let mut s = p.sig_atom()?;
            while p.eat_keyword(Keyword::With) {
                let Some(path) = p.qual_name() else {
                    return p.fail("a type name after `with`");
                };
                let params = p.type_params()?;
                p.expect(&TokenKind::Equals)?;
                let def = p.type_exp()?;
                s = SigExp::With { sig: Box::new(s), path, params, def, span: p.since(start) };
            }
            Ok(s)
        })
    }

    fn sig_atom(&mut self) -> PResult<SigExp> {
        let start = self.span();
        if let Some(q) = self.qual_name() {
            return Ok(SigExp::Var(q));
        }
        match self.peek().clone() {
            TokenKind::LParen => {
                self.bump();
                let s = self.sig_exp()?;
                self.expect(&TokenKind::RParen)?;
                Ok(s)
            }
            TokenKind::LBrace => {
                self.bump();
                let mut specs = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    specs.push(self.nested(|p| p.spec())?);
                }
                self.bump();
                Ok(SigExp::Specs(specs, self.since(start)))
            }
            _ => self.fail("a module type"),
        }
    }

    /// One specification of a module type.
    fn spec(&mut self) -> PResult<Spec> {
        while self.at(&TokenKind::AttrOpen) {
            self.attr()?;
        }
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Name(v) if v == "val" => {
                self.bump();
                let name = match (self.peek().clone(), self.peek_nth(1).clone(), self.peek_nth(2).clone()) {
                    (TokenKind::LParen, TokenKind::Symbol(q, sym), TokenKind::RParen) if q.is_empty() => {
                        let open = self.bump().span;
                        self.bump();
                        self.bump();
                        Name { text: sym, span: self.since(open) }
                    }
                    // `val + : t -> t -> t`
                    (TokenKind::Symbol(q, sym), _, _) if q.is_empty() => Name { text: sym, span: self.bump().span },
                    _ => self.name("a name after `val`")?,
                };
                let type_params = self.type_params()?;
                self.expect(&TokenKind::Colon)?;
                let ty = self.type_exp()?;
                Ok(Spec::Val { name, type_params, ty, span: self.since(start) })
            }
            TokenKind::Keyword(Keyword::Type) | TokenKind::TypeTilde | TokenKind::TypeHat => {
                let liftedness = match self.bump().kind {
                    TokenKind::TypeTilde => Liftedness::SizeLifted,
                    TokenKind::TypeHat => Liftedness::Lifted,
                    _ => Liftedness::Unlifted,
                };
                let name = self.name("a type name")?;
                let name = self.binder(name);
                let params = self.type_params()?;
                let def = if self.eat(&TokenKind::Equals) { Some(self.type_exp()?) } else { None };
                Ok(Spec::Type { name, liftedness, params, def, span: self.since(start) })
            }
            TokenKind::Keyword(Keyword::Module) => {
                self.bump();
                let name = self.name("a module name")?;
                self.expect(&TokenKind::Colon)?;
                let sig = self.sig_exp()?;
                Ok(Spec::Module { name, sig, span: self.since(start) })
            }
            TokenKind::Keyword(Keyword::Include) => {
                self.bump();
                let sig = self.sig_exp()?;
                Ok(Spec::Include(sig, self.since(start)))
            }
            _ => self.fail("a specification (`val`, `type`, `module` or `include`)"),
        }
    }

    #[inline(never)]
    fn attr(&mut self) -> PResult<Attr> {
        let start = self.expect(&TokenKind::AttrOpen)?;
        let mut attr = self.attr_body()?;
        self.expect(&TokenKind::RBracket)?;
        attr.span = self.since(start);
        Ok(attr)
    }

    /// `name`, `name(attr, …)` or a number.
    fn attr_body(&mut self) -> PResult<Attr> {
        self.nested(|p| {
            let start = p.span();
            let name = match p.peek().clone() {
                TokenKind::Name(n) => n,
                TokenKind::Keyword(k) => k.as_str().to_string(),
                TokenKind::Literal(Literal::Int { value, .. }) => value.to_string(),
                _ => return p.fail("an attribute"),
            };
            p.bump();
            let mut args = Vec::new();
            if p.at(&TokenKind::LParen) {
                p.bump();
                while !p.at(&TokenKind::RParen) {
                    args.push(p.attr_body()?);
                    if !p.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                p.expect(&TokenKind::RParen)?;
            }
            Ok(Attr { name, args, span: p.since(start) })
        })
    }

    #[inline(never)]
    fn value_dec(&mut self, entry: bool, attrs: Vec<Attr>, doc: Option<String>, start: Span) -> PResult<ValueDec> {
        self.bump();
        let (name, type_params, params) = if let (TokenKind::LParen, TokenKind::Symbol(q, sym), TokenKind::RParen) =
            (self.peek().clone(), self.peek_nth(1).clone(), self.peek_nth(2).clone())
        {
            // `def (+^) a b = …`
            let open = self.bump().span;
            self.bump();
            self.bump();
            if !q.is_empty() {
                return self.error_at(self.since(open), "an operator definition cannot have a qualified name");
            }
            if sym == "!" {
                return self.error_at(self.since(open), PREFIX_BANG);
            }
            let name = Name { text: sym, span: self.since(open) };
            let name = self.binder(name);
            let type_params = self.type_params()?;
            let params = self.params()?;
            (name, type_params, params)
        } else if let TokenKind::Name(_) = self.peek() {
            let name = self.name("a name")?;
            let name = self.binder(name);
            let type_params = self.type_params()?;
            let params = self.params()?;
            (name, type_params, params)
        } else if matches!(self.peek(), TokenKind::LParen | TokenKind::LBrace) {
            // `def (a: t) +^ (b: t) = …`
            let lhs = self.pattern_atom()?;
            let name = match self.peek().clone() {
                TokenKind::Symbol(q, sym) if q.is_empty() && sym != "!" => {
                    let span = self.bump().span;
                    Name { text: sym, span }
                }
                TokenKind::Symbol(q, _) if q.is_empty() => {
                    let span = self.span();
                    return self.error_at(span, PREFIX_BANG);
                }
                _ => return self.fail("an operator symbol"),
            };
            let name = self.binder(name);
            let rhs = self.pattern_atom()?;
            (name, Vec::new(), vec![lhs, rhs])
        } else {
            return self.fail("a name");
        };
        let ret = if self.eat(&TokenKind::Colon) { Some(self.type_exp()?) } else { None };
        if matches!(self.peek(), TokenKind::Symbol(q, sym) if q.is_empty() && sym == "!") {
            // `def x ! y = …`
            let span = self.span();
            return self.error_at(span, PREFIX_BANG);
        }
        self.expect(&TokenKind::Equals)?;
        let body = self.expr()?;
        Ok(ValueDec { entry, name, type_params, params, ret, body, attrs, doc, span: self.since(start) })
    }

    #[inline(never)]
    fn type_dec(&mut self, start: Span) -> PResult<TypeDec> {
        let liftedness = match self.bump().kind {
            TokenKind::TypeTilde => Liftedness::SizeLifted,
            TokenKind::TypeHat => Liftedness::Lifted,
            _ => Liftedness::Unlifted,
        };
        let name = self.name("a type name")?;
        let name = self.binder(name);
        let params = self.type_params()?;
        self.expect(&TokenKind::Equals)?;
        let def = self.type_exp()?;
        Ok(TypeDec { name, liftedness, params, def, span: self.since(start) })
    }

    /// `[n]`, `'a`, `'~a`, `'^a`, any number of them.
    fn type_params(&mut self) -> PResult<Vec<TypeParam>> {
        let mut params = Vec::new();
        loop {
            match self.peek() {
                TokenKind::LBracket | TokenKind::IndexOpen => {
                    self.bump();
                    let name = self.name("a size parameter name")?;
                    self.expect(&TokenKind::RBracket)?;
                    let binder = self.binder(name);
                    params.push(TypeParam::Size(binder));
                }
                TokenKind::Tick | TokenKind::TickTilde | TokenKind::TickHat => {
                    let liftedness = match self.bump().kind {
                        TokenKind::TickTilde => Liftedness::SizeLifted,
                        TokenKind::TickHat => Liftedness::Lifted,
                        _ => Liftedness::Unlifted,
                    };
                    let name = self.name("a type parameter name")?;
                    let binder = self.binder(name);
                    params.push(TypeParam::Type(binder, liftedness));
                }
                _ => return Ok(params),
            }
        }
    }

    /// Function parameters: atomic patterns (names, literals, parenthesised
    /// patterns, records; `(+)` binds an operator name).
    fn params(&mut self) -> PResult<Vec<Pat>> {
        let mut params = Vec::new();
        while matches!(
            self.peek(),
            TokenKind::Name(_)
                | TokenKind::LParen
                | TokenKind::LBrace
                | TokenKind::Literal(_)
                | TokenKind::Keyword(Keyword::True | Keyword::False)
        ) {
            params.push(self.pattern_atom()?);
        }
        Ok(params)
    }

    // ----- expressions ----------------------------------------------------

    /// A full expression, including type ascriptions.
    fn expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.expr_with(true))
    }

    /// An expression that may not be a bare ascription (array indices,
    /// where `:` separates slice bounds).
    fn expr_no_ascription(&mut self) -> PResult<Expr> {
        self.nested(|p| p.expr_with(false))
    }

    fn expr_with(&mut self, allow_ascription: bool) -> PResult<Expr> {
        let mut e = self.range()?;
        while allow_ascription && matches!(self.peek(), TokenKind::Colon | TokenKind::ColonGt) {
            let coerce = self.bump().kind == TokenKind::ColonGt;
            let t = self.type_exp()?;
            let span = e.span.to(t.span());
            let kind = if coerce { ExprKind::Coerce(Box::new(e), t) } else { ExprKind::Ascribe(Box::new(e), t) };
            e = self.expr_node(kind, span);
        }
        Ok(e)
    }

    /// `a`, `a..<b`, `a..s...b` and friends.
    #[inline(never)]
    fn range(&mut self) -> PResult<Expr> {
        let start = self.infix(0)?;
        let second = if self.eat(&TokenKind::DotDot) { Some(Box::new(self.infix(0)?)) } else { None };
        let kind = match self.peek() {
            TokenKind::DotDotDot => RangeEnd::ToInclusive,
            TokenKind::DotDotLt => RangeEnd::UpToExclusive,
            TokenKind::DotDotGt => RangeEnd::DownToExclusive,
            _ if second.is_some() => return self.fail("`...`, `..<` or `..>`"),
            _ => return Ok(start),
        };
        self.bump();
        let end = self.infix(0)?;
        let span = start.span.to(end.span);
        Ok(self.expr_node(ExprKind::Range { start: Box::new(start), second, end: Box::new(end), kind }, span))
    }

    /// The infix operator at the current token: its name, whether it is
    /// backquoted, its precedence and associativity.
    fn infix_operator(&self) -> Option<(QualName, bool, u8, bool)> {
        let span = self.span();
        match self.peek() {
            TokenKind::Symbol(quals, sym) if !(quals.is_empty() && sym == "!") => {
                let (level, right) = operator_fixity(sym);
                Some((QualName { quals: quals.clone(), name: sym.clone(), span }, false, level, right))
            }
            TokenKind::Backquoted(quals, name) => {
                Some((QualName { quals: quals.clone(), name: name.clone(), span }, true, prec::BACKQUOTE, false))
            }
            _ => None,
        }
    }

    /// Precedence climbing over the infix operators and `with`.
    fn infix(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            if self.at_keyword(Keyword::With) {
                if prec::WITH < min_level {
                    break;
                }
                lhs = self.with_update(lhs)?;
                continue;
            }
            let Some((op, backquoted, level, right)) = self.infix_operator() else { break };
            // `(x +)` is a left section: leave the operator to the caller.
            if level < min_level || self.peek_nth(1) == &TokenKind::RParen {
                break;
            }
            self.bump();
            let next_min = if right { level } else { level + 1 };
            let rhs = self.nested(|p| p.infix(next_min))?;
            let span = lhs.span.to(rhs.span);
            lhs = self.expr_node(ExprKind::BinOp { op, backquoted, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span);
        }
        Ok(lhs)
    }

    /// `e with [i] = v`, `e with a.b = v`, or a path of both (`e with
    /// a[i].b = v`, Futhark 0.27) (the `with` is the current token).
    #[inline(never)]
    fn with_update(&mut self, target: Expr) -> PResult<Expr> {
        self.bump();
        let steps = self.update_path(Vec::new())?;
        self.expect(&TokenKind::Equals)?;
        let value = self.nested(|p| p.infix(prec::PIPE))?;
        Ok(self.path_update(target, steps, value))
    }

    /// The path of an update, up to `=`: record fields and indices in any
    /// order (`a.b[i].c`, `[i].f`, `0[1]`).
    fn update_path(&mut self, mut steps: Vec<PathStep>) -> PResult<Vec<PathStep>> {
        loop {
            if matches!(self.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                self.bump();
                steps.push(PathStep::Index(self.slice_dims()?));
            } else {
                let fields = self.field_path()?;
                match steps.last_mut() {
                    Some(PathStep::Fields(prev)) => prev.extend(fields),
                    _ => steps.push(PathStep::Fields(fields)),
                }
            }
            if self.at(&TokenKind::Dot) && !matches!(self.peek_nth(1), TokenKind::LBracket | TokenKind::IndexOpen) {
                self.bump();
            } else if !self.at(&TokenKind::IndexOpen) {
                return Ok(steps);
            }
        }
    }

    /// `target with steps = value`, desugared into nested one-step updates:
    /// `r with a[i] = v` is `r with a = (r.a with [i] = v)`. A target that is
    /// not a plain name, and the indices of all but the last step, are bound
    /// to names first, so that each is evaluated once.
    fn path_update(&mut self, target: Expr, mut steps: Vec<PathStep>, value: Expr) -> Expr {
        let span = target.span.to(value.span);
        if steps.len() == 1 {
            let kind = match steps.pop() {
                Some(PathStep::Index(index)) => {
                    ExprKind::Update { array: Box::new(target), index, value: Box::new(value) }
                }
                Some(PathStep::Fields(fields)) => {
                    ExprKind::RecordUpdate { record: Box::new(target), fields, value: Box::new(value) }
                }
                None => return target,
            };
            return self.expr_node(kind, span);
        }
        let mut lets: Vec<(Name, Expr)> = Vec::new();
        let root = match &target.kind {
            ExprKind::Var(q) if q.quals.is_empty() => q.name.clone(),
            _ => {
                let name = format!("(path{})", self.ids.fresh().0);
                lets.push((Name { text: name.clone(), span: target.span }, target));
                name
            }
        };
        let last = steps.len() - 1;
        for step in &mut steps[..last] {
            if let PathStep::Index(dims) = step {
                for d in dims {
                    let parts: Vec<&mut Expr> = match d {
                        DimIndex::Index(e) => vec![e],
                        DimIndex::Slice { start, end, stride } => {
                            [start, end, stride].into_iter().filter_map(|x| x.as_mut()).collect()
                        }
                    };
                    for e in parts {
                        let name = format!("(path{})", self.ids.fresh().0);
                        let var = ExprKind::Var(QualName::unqualified(name.clone(), e.span));
                        let var = self.expr_node(var, e.span);
                        lets.push((Name { text: name, span: e.span }, std::mem::replace(e, var)));
                    }
                }
            }
        }
        let Some(last_step) = steps.pop() else { return value };
        let mut body = self.path_update_from(&root, span, &steps, 0, last_step, value);
        while let Some((name, bound)) = lets.pop() {
            let pat = self.pat_node(PatKind::Var(name.clone()), name.span);
            let kind = ExprKind::Let { sizes: Vec::new(), pat, value: Box::new(bound), body: Box::new(body) };
            body = self.expr_node(kind, span);
        }
        body
    }

    /// The update of `root` followed by `inner[..k]` at `inner[k..]` and then `last`.
    fn path_update_from(
        &mut self,
        root: &str,
        span: Span,
        inner: &[PathStep],
        k: usize,
        last: PathStep,
        value: Expr,
    ) -> Expr {
        let target = self.path_access(root, span, &inner[..k]);
        let (step, value) = match inner.get(k) {
            None => (last, value),
            Some(PathStep::Index(dims)) => {
                let dims = self.copy_dims(dims);
                (PathStep::Index(dims), self.path_update_from(root, span, inner, k + 1, last, value))
            }
            Some(PathStep::Fields(fields)) => {
                let fields = fields.clone();
                (PathStep::Fields(fields), self.path_update_from(root, span, inner, k + 1, last, value))
            }
        };
        let kind = match step {
            PathStep::Index(index) => ExprKind::Update { array: Box::new(target), index, value: Box::new(value) },
            PathStep::Fields(fields) => {
                ExprKind::RecordUpdate { record: Box::new(target), fields, value: Box::new(value) }
            }
        };
        self.expr_node(kind, span)
    }

    /// `root` followed by the accesses of `steps`, moved into the result.
    fn path_access_owned(&mut self, root: &str, span: Span, steps: Vec<PathStep>) -> Expr {
        let mut e = self.expr_node(ExprKind::Var(QualName::unqualified(root, span)), span);
        for step in steps {
            match step {
                PathStep::Index(index) => e = self.expr_node(ExprKind::Index(Box::new(e), index), span),
                PathStep::Fields(fields) => {
                    for f in fields {
                        e = self.expr_node(ExprKind::Project(Box::new(e), f), span);
                    }
                }
            }
        }
        e
    }

    /// `root` followed by the accesses of `steps`, as fresh nodes.
    fn path_access(&mut self, root: &str, span: Span, steps: &[PathStep]) -> Expr {
        let mut e = self.expr_node(ExprKind::Var(QualName::unqualified(root, span)), span);
        for step in steps {
            match step {
                PathStep::Index(dims) => {
                    let index = self.copy_dims(dims);
                    e = self.expr_node(ExprKind::Index(Box::new(e), index), span);
                }
                PathStep::Fields(fields) => {
                    for f in fields {
                        e = self.expr_node(ExprKind::Project(Box::new(e), f.clone()), span);
                    }
                }
            }
        }
        e
    }

    /// A copy of indices with fresh node ids. Only used on the indices of
    /// inner path steps, which `path_update` made plain names; the last
    /// step's indices are never copied.
    fn copy_dims(&mut self, dims: &[DimIndex]) -> Vec<DimIndex> {
        let copy = |p: &mut Self, e: &Expr| p.expr_node(e.kind.clone(), e.span);
        dims.iter()
            .map(|d| match d {
                DimIndex::Index(e) => DimIndex::Index(copy(self, e)),
                DimIndex::Slice { start, end, stride } => DimIndex::Slice {
                    start: start.as_ref().map(|e| copy(self, e)),
                    end: end.as_ref().map(|e| copy(self, e)),
                    stride: stride.as_ref().map(|e| copy(self, e)),
                },
            })
            .collect()
    }

    /// `a`, `a.b.c` or `0`: a path of record fields.
    fn field_path(&mut self) -> PResult<Vec<Name>> {
        let span = self.span();
        let parts = match self.peek().clone() {
            TokenKind::Name(n) => vec![n],
            TokenKind::QualName(mut quals, n) => {
                quals.push(n);
                quals
            }
            TokenKind::Literal(Literal::Int { value, suffix: None }) => vec![value.to_string()],
            _ => return self.fail("a field name"),
        };
        self.bump();
        Ok(parts.into_iter().map(|text| Name { text, span }).collect())
    }

    /// Prefix operators and the forms whose body extends as far right as possible.
    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            TokenKind::Symbol(q, s) if q.is_empty() && (s == "-" || s == "!") => {
                let negate = s == "-";
                self.bump();
                let operand = self.nested(|p| p.unary())?;
                let span = self.since(start);
                let kind = if negate { ExprKind::Negate(Box::new(operand)) } else { ExprKind::Not(Box::new(operand)) };
                Ok(self.expr_node(kind, span))
            }
            TokenKind::Keyword(Keyword::If) => self.if_expr(),
            TokenKind::Keyword(Keyword::Let) => self.let_expr(),
            TokenKind::Keyword(Keyword::Loop) => self.loop_expr(),
            TokenKind::Keyword(Keyword::Match) => self.match_expr(),
            TokenKind::Backslash => self.lambda(),
            TokenKind::AttrOpen => {
                let attr = self.attr()?;
                let body = self.expr()?;
                let span = self.since(start);
                Ok(self.expr_node(ExprKind::Attr(attr, Box::new(body)), span))
            }
            _ => self.application(),
        }
    }

    fn at_atom_start(&self) -> bool {
        matches!(
            self.peek(),
            TokenKind::Name(_)
                | TokenKind::QualName(..)
                | TokenKind::Literal(_)
                | TokenKind::Keyword(Keyword::True | Keyword::False)
                | TokenKind::LParen
                | TokenKind::LBrace
                | TokenKind::LBracket
                | TokenKind::Hole
                | TokenKind::Constructor(_)
        )
    }

    /// Juxtaposition: `f a b`, `#c a b`, `assert c e`.
    #[inline(never)]
    fn application(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Keyword(Keyword::Assert) => {
                self.bump();
                let cond = self.atom()?;
                let body = self.atom()?;
                let span = self.since(start);
                Ok(self.expr_node(ExprKind::Assert { cond: Box::new(cond), body: Box::new(body) }, span))
            }
            TokenKind::Constructor(c) => {
                self.bump();
                let name = Name { text: c, span: start };
                let mut args = Vec::new();
                while self.at_atom_start() {
                    args.push(self.atom()?);
                }
                let span = self.since(start);
                Ok(self.expr_node(ExprKind::Constructor(name, args), span))
            }
            _ => {
                let head = self.atom()?;
                let mut args = Vec::new();
                while self.at_atom_start() {
                    args.push(self.atom()?);
                }
                // A lambda may be the last argument without parentheses
                // (`tabulate n \i -> i * 2`), as since Futhark 0.25.24.
                if self.at(&TokenKind::Backslash) {
                    args.push(self.nested(|p| p.lambda())?);
                }
                if args.is_empty() {
                    return Ok(head);
                }
                let span = self.since(start);
                Ok(self.expr_node(ExprKind::Apply(Box::new(head), args), span))
            }
        }
    }

    /// An atom followed by any indexing `a[i]` and field accesses `(e).f`.
    fn atom(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let start = p.span();
            let mut e = p.atom_base()?;
            loop {
                match p.peek() {
                    TokenKind::IndexOpen => {
                        p.bump();
                        let index = p.slice_dims()?;
                        let span = p.since(start);
                        e = p.expr_node(ExprKind::Index(Box::new(e), index), span);
                    }
                    TokenKind::Dot if p.glued() => {
                        if p.peek_nth(1) == &TokenKind::LParen {
                            // `M.(e)`: a local open of the module named by `e`.
                            let module = match &e.kind {
                                ExprKind::Var(q) => q.clone(),
                                _ => return p.fail("a module name before `.(`"),
                            };
                            p.bump();
                            p.bump();
                            let inner = p.expr()?;
                            p.expect(&TokenKind::RParen)?;
                            let span = p.since(start);
                            e = p.expr_node(ExprKind::OpenIn(module, Box::new(inner)), span);
                            continue;
                        }
                        p.bump();
                        if !p.glued() {
                            return p.fail("a field name right after `.`");
                        }
                        for field in p.field_path()? {
                            let span = p.since(start);
                            e = p.expr_node(ExprKind::Project(Box::new(e), field), span);
                        }
                    }
                    _ => return Ok(e),
                }
            }
        })
    }

    #[inline(never)]
    fn atom_base(&mut self) -> PResult<Expr> {
        let start = self.span();
        let kind = match self.peek().clone() {
            TokenKind::Literal(literal) => {
                self.bump();
                ExprKind::Literal(literal)
            }
            TokenKind::Keyword(Keyword::True) => {
                self.bump();
                ExprKind::Literal(Literal::Bool(true))
            }
            TokenKind::Keyword(Keyword::False) => {
                self.bump();
                ExprKind::Literal(Literal::Bool(false))
            }
            TokenKind::Name(n) if n == "_" => {
                return self.error_at(start, "`_` can only be used in patterns");
            }
            TokenKind::Name(n) => {
                self.bump();
                ExprKind::Var(QualName::unqualified(n, start))
            }
            TokenKind::QualName(quals, name) => {
                self.bump();
                ExprKind::Var(QualName { quals, name, span: start })
            }
            TokenKind::Hole => {
                self.bump();
                ExprKind::Hole
            }
            TokenKind::Constructor(c) => {
                self.bump();
                ExprKind::Constructor(Name { text: c, span: start }, Vec::new())
            }
            TokenKind::LParen => {
                self.bump();
                return self.paren_expr(start);
            }
            TokenKind::LBrace => {
                self.bump();
                return self.record_expr(start);
            }
            TokenKind::LBracket => {
                self.bump();
                let mut elems = Vec::new();
                while !self.at(&TokenKind::RBracket) {
                    elems.push(self.expr()?);
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBracket)?;
                ExprKind::ArrayLit(elems)
            }
            _ => return self.fail("an expression"),
        };
        let span = self.since(start);
        Ok(self.expr_node(kind, span))
    }

    /// After `(`: unit, parentheses, tuples and all the sections.
    #[inline(never)]
    fn paren_expr(&mut self, start: Span) -> PResult<Expr> {
        if self.eat(&TokenKind::RParen) {
            let span = self.since(start);
            return Ok(self.expr_node(ExprKind::Tuple(Vec::new()), span));
        }
        if let Some((op, backquoted, _, _)) = self.infix_operator() {
            let is_prefix_operator = !backquoted && op.quals.is_empty() && op.name == "-";
            if self.peek_nth(1) == &TokenKind::RParen {
                // `(+)`
                self.bump();
                self.bump();
                let span = self.since(start);
                return Ok(self.expr_node(ExprKind::OpSection(op, backquoted), span));
            }
            if !is_prefix_operator {
                // `(+ y)`; `(-x)` is a negation instead.
                self.bump();
                let rhs = self.expr()?;
                self.expect(&TokenKind::RParen)?;
                let span = self.since(start);
                return Ok(self.expr_node(ExprKind::RightSection { op, backquoted, rhs: Box::new(rhs) }, span));
            }
        }
        if self.at(&TokenKind::Dot) {
            self.bump();
            let mut steps = self.update_path(Vec::new())?;
            self.expect(&TokenKind::RParen)?;
            let span = self.since(start);
            let kind = match steps.pop() {
                Some(PathStep::Index(dims)) if steps.is_empty() => ExprKind::IndexSection(dims),
                Some(PathStep::Fields(fields)) if steps.is_empty() => ExprKind::ProjectSection(fields),
                last => {
                    // `(.a[0].b)` (Futhark 0.27) is `\x -> x.a[0].b`.
                    steps.extend(last);
                    let name = format!("(section{})", self.ids.fresh().0);
                    let body = self.path_access_owned(&name, span, steps);
                    let param = self.pat_node(PatKind::Var(Name { text: name, span }), span);
                    ExprKind::Lambda { params: vec![param], ret: None, body: Box::new(body) }
                }
            };
            return Ok(self.expr_node(kind, span));
        }
        let first = self.expr()?;
        if self.eat(&TokenKind::RParen) {
            let span = self.since(start);
            return Ok(self.expr_node(ExprKind::Parens(Box::new(first)), span));
        }
        if self.at(&TokenKind::Comma) {
            let mut elems = vec![first];
            while self.eat(&TokenKind::Comma) {
                if self.at(&TokenKind::RParen) {
                    break;
                }
                elems.push(self.expr()?);
            }
            self.expect(&TokenKind::RParen)?;
            let span = self.since(start);
            return Ok(self.expr_node(ExprKind::Tuple(elems), span));
        }
        if let Some((op, backquoted, _, _)) = self.infix_operator() {
            if self.peek_nth(1) == &TokenKind::RParen {
                // `(x +)`
                self.bump();
                self.bump();
                let span = self.since(start);
                return Ok(self.expr_node(ExprKind::LeftSection { op, backquoted, lhs: Box::new(first) }, span));
            }
        }
        self.fail("`)`")
    }

    /// After `{`: `{x = e, y}`.
    #[inline(never)]
    fn record_expr(&mut self, start: Span) -> PResult<Expr> {
        let mut fields = Vec::new();
        while !self.at(&TokenKind::RBrace) {
            let span = self.span();
            match self.peek().clone() {
                TokenKind::Name(text) => {
                    self.bump();
                    let name = Name { text, span };
                    if self.eat(&TokenKind::Equals) {
                        fields.push(RecordField::Explicit(name, self.expr()?));
                    } else {
                        let id = self.ids.fresh();
                        fields.push(RecordField::Pun(name, id));
                    }
                }
                TokenKind::Literal(Literal::Int { value, suffix: None }) => {
                    self.bump();
                    let name = Name { text: value.to_string(), span };
                    self.expect(&TokenKind::Equals)?;
                    fields.push(RecordField::Explicit(name, self.expr()?));
                }
                _ => return self.fail("a field name"),
            }
            if !self.eat(&TokenKind::Comma) {
                break;
            }
        }
        self.expect(&TokenKind::RBrace)?;
        let span = self.since(start);
        Ok(self.expr_node(ExprKind::Record(fields), span))
    }

    /// The inside of `[i, j:k:s, :]` after the opening bracket, through `]`.
    #[inline(never)]
    fn slice_dims(&mut self) -> PResult<Vec<DimIndex>> {
        let mut dims = Vec::new();
        loop {
            dims.push(self.dim_index()?);
            if !self.eat(&TokenKind::Comma) || self.at(&TokenKind::RBracket) {
                break;
            }
        }
        self.expect(&TokenKind::RBracket)?;
        Ok(dims)
    }

    #[inline(never)]
    fn dim_index(&mut self) -> PResult<DimIndex> {
        let ends_part = |p: &Self| matches!(p.peek(), TokenKind::Colon | TokenKind::Comma | TokenKind::RBracket);
        let start = if ends_part(self) { None } else { Some(self.expr_no_ascription()?) };
        if !self.eat(&TokenKind::Colon) {
            return match start {
                Some(e) => Ok(DimIndex::Index(e)),
                None => self.fail("an index"),
            };
        }
        let end = if ends_part(self) { None } else { Some(self.expr_no_ascription()?) };
        let stride = if self.eat(&TokenKind::Colon) && !matches!(self.peek(), TokenKind::Comma | TokenKind::RBracket) {
            Some(self.expr_no_ascription()?)
        } else {
            None
        };
        Ok(DimIndex::Slice { start, end, stride })
    }

    #[inline(never)]
    fn if_expr(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let cond = self.expr()?;
        self.expect_keyword(Keyword::Then)?;
        let then_branch = self.expr()?;
        self.expect_keyword(Keyword::Else)?;
        let else_branch = self.expr()?;
        let span = self.since(start);
        let kind = ExprKind::If {
            cond: Box::new(cond),
            then_branch: Box::new(then_branch),
            else_branch: Box::new(else_branch),
        };
        Ok(self.expr_node(kind, span))
    }

    /// A chain of `let`s, parsed iteratively so that long sequences of
    /// bindings do not count against the nesting limit.
    #[inline(never)]
    fn let_expr(&mut self) -> PResult<Expr> {
        let mut bindings = Vec::new();
        let body = loop {
            let start = self.expect_keyword(Keyword::Let)?;
            bindings.push((start, self.let_binding()?));
            if self.eat_keyword(Keyword::In) {
                if self.at_keyword(Keyword::Let) {
                    continue;
                }
                break self.expr()?;
            }
            if !self.at_keyword(Keyword::Let) {
                return self.fail("`in`");
            }
        };
        let mut body = body;
        while let Some((start, binding)) = bindings.pop() {
            let span = start.to(body.span);
            let kind = match binding {
                LetBinding::Plain { sizes, pat, value } => {
                    ExprKind::Let { sizes, pat, value: Box::new(value), body: Box::new(body) }
                }
                LetBinding::Function { name, type_params, params, ret, value } => {
                    ExprKind::LetFun { name, type_params, params, ret, value: Box::new(value), body: Box::new(body) }
                }
            };
            body = self.expr_node(kind, span);
        }
        Ok(body)
    }

    /// One binding after `let`, through its value.
    #[inline(never)]
    fn let_binding(&mut self) -> PResult<LetBinding> {
        match (self.peek().clone(), self.peek_nth(1).clone()) {
            // `let a[i] = v` means `let a = a with [i] = v`, `let r.f.g = v`
            // updates a record field, and any path of both (`let r.a[i].b = v`).
            (TokenKind::Name(_), TokenKind::IndexOpen)
            | (TokenKind::QualName(..), TokenKind::Equals | TokenKind::IndexOpen | TokenKind::Dot) => {
                let token = self.bump();
                let span = token.span;
                let (root, steps) = match token.kind {
                    TokenKind::QualName(mut quals, last) => {
                        quals.push(last);
                        let root = quals.remove(0);
                        (root, vec![PathStep::Fields(quals.into_iter().map(|text| Name { text, span }).collect())])
                    }
                    TokenKind::Name(text) => (text, Vec::new()),
                    _ => return self.fail("a name"),
                };
                let steps = match self.peek() {
                    TokenKind::Equals => steps,
                    TokenKind::Dot => {
                        self.bump();
                        self.update_path(steps)?
                    }
                    _ => self.update_path(steps)?,
                };
                self.expect(&TokenKind::Equals)?;
                let value = self.expr()?;
                let target = self.expr_node(ExprKind::Var(QualName::unqualified(root.clone(), span)), span);
                let value = self.path_update(target, steps, value);
                let pat = self.pat_node(PatKind::Var(Name { text: root, span }), span);
                Ok(LetBinding::Plain { sizes: Vec::new(), pat, value })
            }
            // `let f [n] 'a (x: t) : r = e` defines a local function.
            (TokenKind::Name(text), next)
                if text != "_" && !matches!(next, TokenKind::Equals | TokenKind::Colon | TokenKind::Comma) =>
            {
                let name = self.name("a name")?;
                let name = self.binder(name);
                let type_params = self.type_params()?;
                let params = self.params()?;
                let ret = if self.eat(&TokenKind::Colon) { Some(self.type_exp()?) } else { None };
                self.expect(&TokenKind::Equals)?;
                let value = self.expr()?;
                Ok(LetBinding::Function { name, type_params, params, ret, value })
            }
            _ => {
                let mut sizes = Vec::new();
                // `let [n][m] p = e`: the second `[` is glued to the first `]`.
                while matches!(self.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                    self.bump();
                    let name = self.name("a size name")?;
                    self.expect(&TokenKind::RBracket)?;
                    sizes.push(self.binder(name));
                }
                let pat = self.pattern()?;
                self.expect(&TokenKind::Equals)?;
                let value = self.expr()?;
                Ok(LetBinding::Plain { sizes, pat, value })
            }
        }
    }

    #[inline(never)]
    fn loop_expr(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let pat = self.pattern()?;
        let init = if self.eat(&TokenKind::Equals) { Some(Box::new(self.expr()?)) } else { None };
        let form = if self.eat_keyword(Keyword::For) {
            let is_counter = matches!(self.peek(), TokenKind::Name(_))
                && matches!(self.peek_nth(1), TokenKind::Symbol(q, s) if q.is_empty() && s == "<");
            if is_counter {
                let var = self.pattern_atom()?;
                self.bump();
                LoopForm::For { var, bound: Box::new(self.expr()?) }
            } else {
                let pat = self.pattern()?;
                self.expect_keyword(Keyword::In)?;
                LoopForm::ForIn { pat, array: Box::new(self.expr()?) }
            }
        } else if self.eat_keyword(Keyword::While) {
            LoopForm::While(Box::new(self.expr()?))
        } else {
            return self.fail("`for` or `while`");
        };
        self.expect_keyword(Keyword::Do)?;
        let body = self.expr()?;
        let span = self.since(start);
        Ok(self.expr_node(ExprKind::Loop { pat, init, form, body: Box::new(body) }, span))
    }

    #[inline(never)]
    fn match_expr(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let scrutinee = self.expr()?;
        let mut cases = Vec::new();
        while self.at_keyword(Keyword::Case) {
            let case_start = self.bump().span;
            let pat = self.pattern()?;
            self.expect(&TokenKind::Arrow)?;
            let body = self.expr()?;
            cases.push(Case { pat, body, span: self.since(case_start) });
        }
        if cases.is_empty() {
            return self.fail("`case`");
        }
        let span = self.since(start);
        Ok(self.expr_node(ExprKind::Match { scrutinee: Box::new(scrutinee), cases }, span))
    }

    /// `\p1 p2 : t -> body`
    #[inline(never)]
    fn lambda(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let params = self.params()?;
        if params.is_empty() {
            return self.fail("a lambda parameter");
        }
        // The return type stops before `->`, which belongs to the lambda.
        let ret = if self.eat(&TokenKind::Colon) { Some(self.type_no_arrow()?) } else { None };
        self.expect(&TokenKind::Arrow)?;
        let body = self.expr()?;
        let span = self.since(start);
        Ok(self.expr_node(ExprKind::Lambda { params, ret, body: Box::new(body) }, span))
    }

    // ----- patterns -------------------------------------------------------

    /// A pattern, possibly with a type ascription `p : t`.
    fn pattern(&mut self) -> PResult<Pat> {
        self.nested(|p| {
            let start = p.span();
            let pat = p.pattern_constructor()?;
            if p.eat(&TokenKind::Colon) {
                let t = p.type_exp()?;
                let span = p.since(start);
                return Ok(p.pat_node(PatKind::Ascribe(Box::new(pat), t), span));
            }
            Ok(pat)
        })
    }

    /// `#c p1 p2`, `#[attr] p`, or an atomic pattern.
    #[inline(never)]
    fn pattern_constructor(&mut self) -> PResult<Pat> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Constructor(c) => {
                self.bump();
                let mut args = Vec::new();
                while matches!(
                    self.peek(),
                    TokenKind::Name(_)
                        | TokenKind::LParen
                        | TokenKind::LBrace
                        | TokenKind::Literal(_)
                        | TokenKind::Constructor(_)
                        | TokenKind::Keyword(Keyword::True | Keyword::False)
                ) {
                    args.push(self.pattern_atom()?);
                }
                let span = self.since(start);
                Ok(self.pat_node(PatKind::Constructor(Name { text: c, span: start }, args), span))
            }
            TokenKind::AttrOpen => {
                let attr = self.attr()?;
                let inner = self.pattern()?;
                let span = self.since(start);
                Ok(self.pat_node(PatKind::Attr(attr, Box::new(inner)), span))
            }
            _ => self.pattern_atom(),
        }
    }

    fn pattern_atom(&mut self) -> PResult<Pat> {
        self.nested(|p| p.pattern_atom_inner())
    }

    #[inline(never)]
    fn pattern_atom_inner(&mut self) -> PResult<Pat> {
        let start = self.span();
        let kind = match self.peek().clone() {
            TokenKind::Name(n) if n == "_" => {
                self.bump();
                PatKind::Wildcard
            }
            TokenKind::Name(text) => {
                self.bump();
                PatKind::Var(Name { text, span: start })
            }
            TokenKind::Literal(literal) => {
                self.bump();
                PatKind::Literal(literal)
            }
            TokenKind::Keyword(Keyword::True) => {
                self.bump();
                PatKind::Literal(Literal::Bool(true))
            }
            TokenKind::Keyword(Keyword::False) => {
                self.bump();
                PatKind::Literal(Literal::Bool(false))
            }
            TokenKind::Symbol(q, s) if q.is_empty() && s == "-" => {
                self.bump();
                match self.peek().clone() {
                    TokenKind::Literal(Literal::Int { value, suffix }) => {
                        self.bump();
                        PatKind::Literal(Literal::Int { value: -value, suffix })
                    }
                    TokenKind::Literal(Literal::Float { value, suffix }) => {
                        self.bump();
                        PatKind::Literal(Literal::Float { value: -value, suffix })
                    }
                    _ => return self.fail("a number after `-` in a pattern"),
                }
            }
            TokenKind::Constructor(c) => {
                self.bump();
                PatKind::Constructor(Name { text: c, span: start }, Vec::new())
            }
            // `(+)` binds an operator name (`def f (+) x y = x + y`).
            TokenKind::LParen
                if matches!(self.peek_nth(1), TokenKind::Symbol(q, _) if q.is_empty())
                    && self.peek_nth(2) == &TokenKind::RParen =>
            {
                self.bump();
                let TokenKind::Symbol(_, text) = self.bump().kind else { return self.fail("an operator") };
                self.bump();
                PatKind::Var(Name { text, span: self.since(start) })
            }
            TokenKind::LParen => {
                self.bump();
                if self.eat(&TokenKind::RParen) {
                    PatKind::Tuple(Vec::new())
                } else {
                    let first = self.pattern()?;
                    if self.eat(&TokenKind::RParen) {
                        // A parenthesised pattern is just that pattern, with the wider span.
                        return Ok(Pat { span: self.since(start), ..first });
                    }
                    let mut elems = vec![first];
                    while self.eat(&TokenKind::Comma) {
                        if self.at(&TokenKind::RParen) {
                            break;
                        }
                        elems.push(self.pattern()?);
                    }
                    self.expect(&TokenKind::RParen)?;
                    PatKind::Tuple(elems)
                }
            }
            TokenKind::LBrace => {
                self.bump();
                let mut fields = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    let span = self.span();
                    let text = match self.peek().clone() {
                        TokenKind::Name(text) => text,
                        TokenKind::Literal(Literal::Int { value, suffix: None }) => value.to_string(),
                        _ => return self.fail("a field name"),
                    };
                    self.bump();
                    let name = Name { text, span };
                    let pat = if self.eat(&TokenKind::Equals) {
                        self.pattern()?
                    } else if self.eat(&TokenKind::Colon) {
                        // `{x: t}` is a pun with an ascription.
                        let t = self.type_exp()?;
                        let var = self.pat_node(PatKind::Var(name.clone()), span);
                        let pat_span = self.since(span);
                        self.pat_node(PatKind::Ascribe(Box::new(var), t), pat_span)
                    } else {
                        self.pat_node(PatKind::Var(name.clone()), span)
                    };
                    fields.push((name, pat));
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBrace)?;
                PatKind::Record(fields)
            }
            _ => return self.fail("a pattern"),
        };
        let span = self.since(start);
        Ok(self.pat_node(kind, span))
    }

    // ----- types ----------------------------------------------------------

    /// A full type, including function arrows.
    fn type_exp(&mut self) -> PResult<TypeExp> {
        self.nested(|p| {
            let start = p.span();
            // `(n: i64) -> [n]t`
            if let (TokenKind::LParen, TokenKind::Name(text), TokenKind::Colon) =
                (p.peek().clone(), p.peek_nth(1).clone(), p.peek_nth(2).clone())
            {
                p.bump();
                let name_span = p.bump().span;
                p.bump();
                let from = p.type_exp()?;
                p.expect(&TokenKind::RParen)?;
                p.expect(&TokenKind::Arrow)?;
                let to = p.type_exp()?;
                let span = p.since(start);
                let param = Some(Name { text, span: name_span });
                return Ok(TypeExp::Arrow { param, from: Box::new(from), to: Box::new(to), span });
            }
            let from = p.type_no_arrow()?;
            if p.eat(&TokenKind::Arrow) {
                let to = p.type_exp()?;
                let span = p.since(start);
                return Ok(TypeExp::Arrow { param: None, from: Box::new(from), to: Box::new(to), span });
            }
            Ok(from)
        })
    }

    /// A type without a top-level arrow: sums, `*t`, `[n]t`, `?[n].t`, applications.
    fn type_no_arrow(&mut self) -> PResult<TypeExp> {
        self.nested(|p| {
            let start = p.span();
            match p.peek().clone() {
                TokenKind::Constructor(_) => {
                    let mut constructors = Vec::new();
                    loop {
                        let span = p.span();
                        let TokenKind::Constructor(c) = p.peek().clone() else {
                            return p.fail("a constructor");
                        };
                        p.bump();
                        let mut payload = Vec::new();
                        while p.at_type_atom_start() || matches!(p.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                            payload.push(p.payload_type()?);
                        }
                        constructors.push((Name { text: c, span }, payload));
                        if !p.at_symbol("|") {
                            break;
                        }
                        p.bump();
                    }
                    Ok(TypeExp::Sum(constructors, p.since(start)))
                }
                TokenKind::Symbol(q, s) if q.is_empty() && s == "*" => {
                    p.bump();
                    let inner = p.type_no_arrow()?;
                    Ok(TypeExp::Unique(Box::new(inner), p.since(start)))
                }
                TokenKind::LBracket | TokenKind::IndexOpen => {
                    p.bump();
                    let size = p.size_in_brackets(start)?;
                    let elem = p.type_no_arrow()?;
                    Ok(TypeExp::Array(size, Box::new(elem), p.since(start)))
                }
                TokenKind::Question => {
                    p.bump();
                    let mut binders = Vec::new();
                    while matches!(p.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                        p.bump();
                        let name = p.name("a size name")?;
                        p.expect(&TokenKind::RBracket)?;
                        binders.push(p.binder(name));
                    }
                    if binders.is_empty() {
                        return p.fail("`[`");
                    }
                    p.expect(&TokenKind::Dot)?;
                    let body = p.type_exp()?;
                    Ok(TypeExp::Existential(binders, Box::new(body), p.since(start)))
                }
                _ => p.type_application(),
            }
        })
    }

    /// One payload type of a sum constructor: a type atom, or an array of
    /// one (`#many [n]i32`), since there is no type application to confuse it with.
    fn payload_type(&mut self) -> PResult<TypeExp> {
        self.nested(|p| {
            if matches!(p.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                let start = p.bump().span;
                let size = p.size_in_brackets(start)?;
                let elem = p.payload_type()?;
                return Ok(TypeExp::Array(size, Box::new(elem), p.since(start)));
            }
            p.type_atom()
        })
    }

    /// After `[`: `]` or `e]`.
    #[inline(never)]
    fn size_in_brackets(&mut self, start: Span) -> PResult<SizeExp> {
        if self.eat(&TokenKind::RBracket) {
            return Ok(SizeExp::Anonymous(self.since(start)));
        }
        let e = self.expr()?;
        self.expect(&TokenKind::RBracket)?;
        Ok(SizeExp::Expr(Box::new(e)))
    }

    /// `val` is lexed as a name, but in a module type it starts the next
    /// specification, so it never starts a type argument.
    fn at_type_atom_start(&self) -> bool {
        match self.peek() {
            TokenKind::Name(n) => n != "val",
            TokenKind::QualName(..) | TokenKind::LParen | TokenKind::LBrace => true,
            _ => false,
        }
    }

    /// `t [n] i32`: a type name applied to size and type arguments.
    #[inline(never)]
    fn type_application(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        let mut t = self.type_atom()?;
        if !matches!(t, TypeExp::Var(_)) {
            return Ok(t);
        }
        loop {
            let arg = if matches!(self.peek(), TokenKind::LBracket | TokenKind::IndexOpen) {
                let open = self.bump().span;
                TypeArg::Size(self.size_in_brackets(open)?)
            } else if self.at_type_atom_start() {
                TypeArg::Type(self.type_atom()?)
            } else {
                return Ok(t);
            };
            t = TypeExp::Apply(Box::new(t), Box::new(arg), self.since(start));
        }
    }

    #[inline(never)]
    fn type_atom(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Name(name) if name != "_" => {
                self.bump();
                Ok(TypeExp::Var(QualName::unqualified(name, start)))
            }
            TokenKind::QualName(quals, name) => {
                self.bump();
                Ok(TypeExp::Var(QualName { quals, name, span: start }))
            }
            TokenKind::LParen => {
                self.bump();
                if self.eat(&TokenKind::RParen) {
                    return Ok(TypeExp::Tuple(Vec::new(), self.since(start)));
                }
                let first = self.type_exp()?;
                if self.eat(&TokenKind::RParen) {
                    return Ok(first);
                }
                let mut elems = vec![first];
                while self.eat(&TokenKind::Comma) {
                    if self.at(&TokenKind::RParen) {
                        break;
                    }
                    elems.push(self.type_exp()?);
                }
                self.expect(&TokenKind::RParen)?;
                Ok(TypeExp::Tuple(elems, self.since(start)))
            }
            TokenKind::LBrace => {
                self.bump();
                let mut fields = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    let span = self.span();
                    let text = match self.peek().clone() {
                        TokenKind::Name(text) => text,
                        TokenKind::Literal(Literal::Int { value, suffix: None }) => value.to_string(),
                        _ => return self.fail("a field name"),
                    };
                    self.bump();
                    self.expect(&TokenKind::Colon)?;
                    let t = self.type_exp()?;
                    fields.push((Name { text, span }, t));
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBrace)?;
                Ok(TypeExp::Record(fields, self.since(start)))
            }
            _ => self.fail("a type"),
        }
    }
}
