//! The lexer: source text to tokens.
//!
//! Besides splitting the text, the lexer settles the two questions that
//! depend on whitespace, so that the parser never has to look at it:
//!
//! * a `[` glued to a name, `)` or `]` is an index bracket ([`TokenKind::IndexOpen`]),
//!   while `f [x]` with a space applies `f` to an array literal;
//! * a name glued to `.field` segments is one qualified-name token (`r.a.0`,
//!   `f32.sqrt`), and `f32.+` is one qualified-operator token.
//!
//! Doc comments (`-- |` blocks) are kept aside and attached to the token that
//! follows them. Malformed input produces `lexical-error` diagnostics; an
//! unknown character becomes a [`TokenKind::Error`] token, which the parser
//! treats as "already reported" so that one bad character costs one message.

use crate::ast::Literal;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use ogham_prim::PrimType;

/// The diagnostic name of every lexer error.
pub const LEXICAL_ERROR: &str = "lexical-error";

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An unqualified identifier that is not a keyword (`x`, `_`, `_tmp`, `x'`).
    Name(String),
    /// `a.b.c` or `r.0` written without spaces: the qualifiers and the last part.
    QualName(Vec<String>, String),
    /// An operator symbol, possibly qualified (`+`, `>>=`, `f32.+`).
    Symbol(Vec<String>, String),
    /// `` `f` `` or `` `M.f` ``.
    Backquoted(Vec<String>, String),
    /// `#name`
    Constructor(String),
    /// Numbers, characters (as `Int`) and strings.
    Literal(Literal),
    Keyword(Keyword),
    LParen,
    RParen,
    /// `[` opening an array literal, a size, or a slice after `with`.
    LBracket,
    /// `[` glued to the preceding name, `)` or `]`: indexing.
    IndexOpen,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    /// `=` (the only reserved symbol).
    Equals,
    Colon,
    /// `:>`
    ColonGt,
    /// `->`
    Arrow,
    /// A single `.` that is not part of a name (`(e).f`, `(.a)`, `M.(e)`).
    Dot,
    /// `..`
    DotDot,
    /// `...`
    DotDotDot,
    /// `..<`
    DotDotLt,
    /// `..>`
    DotDotGt,
    /// `?`
    Question,
    /// `???`
    Hole,
    /// `'`
    Tick,
    /// `'^`
    TickHat,
    /// `'~`
    TickTilde,
    /// `#[`
    AttrOpen,
    /// `\`
    Backslash,
    /// `$`
    Dollar,
    /// `type~`
    TypeTilde,
    /// `type^`
    TypeHat,
    /// Something the lexer already reported; the parser stops silently here.
    Error,
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    True,
    False,
    If,
    Then,
    Else,
    Def,
    Let,
    Loop,
    In,
    Val,
    For,
    Do,
    With,
    Local,
    Open,
    Include,
    Import,
    Type,
    Entry,
    Module,
    While,
    Assert,
    Match,
    Case,
}

impl Keyword {
    // `val` is reserved in Futhark but only has a meaning in module types,
    // which are skipped; programs use it as a record field and variable, so
    // it is lexed as a name.
    const ALL: [(&'static str, Keyword); 24] = [
        ("true", Keyword::True),
        ("false", Keyword::False),
        ("if", Keyword::If),
        ("then", Keyword::Then),
        ("else", Keyword::Else),
        ("def", Keyword::Def),
        ("let", Keyword::Let),
        ("loop", Keyword::Loop),
        ("in", Keyword::In),
        ("val", Keyword::Val),
        ("for", Keyword::For),
        ("do", Keyword::Do),
        ("with", Keyword::With),
        ("local", Keyword::Local),
        ("open", Keyword::Open),
        ("include", Keyword::Include),
        ("import", Keyword::Import),
        ("type", Keyword::Type),
        ("entry", Keyword::Entry),
        ("module", Keyword::Module),
        ("while", Keyword::While),
        ("assert", Keyword::Assert),
        ("match", Keyword::Match),
        ("case", Keyword::Case),
    ];

    pub fn from_word(word: &str) -> Option<Keyword> {
        if word == "val" {
            return None;
        }
        Keyword::ALL.iter().find(|(w, _)| *w == word).map(|&(_, k)| k)
    }

    pub fn as_str(self) -> &'static str {
        Keyword::ALL.iter().find(|(_, k)| *k == self).map(|(w, _)| *w).unwrap_or("?")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// The token is the first thing on its line, in column 1.
    pub at_column_one: bool,
    /// Index into [`Lexed::docs`] of a `-- |` block right before this token.
    pub doc: Option<usize>,
}

/// The result of lexing one file. The token list always ends with [`TokenKind::Eof`].
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    /// Texts of documentation comments, without their `-- |` / `--` markers.
    pub docs: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A human-readable description of a token, for "expected X, found Y" messages.
pub fn describe(kind: &TokenKind) -> String {
    match kind {
        TokenKind::Name(n) => format!("`{n}`"),
        TokenKind::QualName(q, n) => format!("`{}.{n}`", q.join(".")),
        TokenKind::Symbol(q, s) if q.is_empty() => format!("`{s}`"),
        TokenKind::Symbol(q, s) => format!("`{}.{s}`", q.join(".")),
        TokenKind::Backquoted(q, n) if q.is_empty() => format!("`` `{n}` ``"),
        TokenKind::Backquoted(q, n) => format!("`` `{}.{n}` ``", q.join(".")),
        TokenKind::Constructor(c) => format!("`#{c}`"),
        TokenKind::Literal(Literal::String(_)) => "a string literal".to_string(),
        TokenKind::Literal(_) => "a literal".to_string(),
        TokenKind::Keyword(k) => format!("`{}`", k.as_str()),
        TokenKind::LParen => "`(`".into(),
        TokenKind::RParen => "`)`".into(),
        TokenKind::LBracket | TokenKind::IndexOpen => "`[`".into(),
        TokenKind::RBracket => "`]`".into(),
        TokenKind::LBrace => "`{`".into(),
        TokenKind::RBrace => "`}`".into(),
        TokenKind::Comma => "`,`".into(),
        TokenKind::Equals => "`=`".into(),
        TokenKind::Colon => "`:`".into(),
        TokenKind::ColonGt => "`:>`".into(),
        TokenKind::Arrow => "`->`".into(),
        TokenKind::Dot => "`.`".into(),
        TokenKind::DotDot => "`..`".into(),
        TokenKind::DotDotDot => "`...`".into(),
        TokenKind::DotDotLt => "`..<`".into(),
        TokenKind::DotDotGt => "`..>`".into(),
        TokenKind::Question => "`?`".into(),
        TokenKind::Hole => "`???`".into(),
        TokenKind::Tick => "`'`".into(),
        TokenKind::TickHat => "`'^`".into(),
        TokenKind::TickTilde => "`'~`".into(),
        TokenKind::AttrOpen => "`#[`".into(),
        TokenKind::Backslash => "`\\`".into(),
        TokenKind::Dollar => "`$`".into(),
        TokenKind::TypeTilde => "`type~`".into(),
        TokenKind::TypeHat => "`type^`".into(),
        TokenKind::Error => "an invalid token".into(),
        TokenKind::Eof => "end of file".into(),
    }
}

/// Characters that may start an operator symbol.
fn is_symbol_start(c: char) -> bool {
    matches!(c, '+' | '-' | '*' | '/' | '%' | '=' | '!' | '>' | '<' | '|' | '&' | '^')
}

/// Characters that may continue an operator symbol (`.` may not start one).
fn is_symbol_char(c: char) -> bool {
    is_symbol_start(c) || c == '.'
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

/// Lexes a whole file. Never panics; every problem becomes a diagnostic.
pub fn lex(file: FileId, text: &str) -> Lexed {
    let mut lexer = Lexer { file, text, bytes: text.as_bytes(), pos: 0, out: Lexed::default(), pending_doc: None };
    lexer.run();
    lexer.out
}

struct Lexer<'a> {
    file: FileId,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    out: Lexed,
    /// A doc comment seen since the last token, waiting for its declaration.
    pending_doc: Option<usize>,
}

impl<'a> Lexer<'a> {
    fn peek_at(&self, offset: usize) -> Option<char> {
        self.text.get(self.pos + offset..).and_then(|s| s.chars().next())
    }

    fn byte_at(&self, index: usize) -> u8 {
        self.bytes.get(index).copied().unwrap_or(0)
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
        let span = self.span(start, end);
        self.out.diagnostics.push(Diagnostic::error(LEXICAL_ERROR, span, message));
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        let token = Token {
            kind,
            span: self.span(start, self.pos),
            at_column_one: start == 0 || self.byte_at(start - 1) == b'\n',
            doc: self.pending_doc.take(),
        };
        self.out.tokens.push(token);
    }

    /// Whether the previous token ends exactly at `start` and is one after
    /// which a `[` means indexing and a `.` means field access.
    fn glued_to_operand(&self, start: usize) -> bool {
        match self.out.tokens.last() {
            Some(t) if t.span.end as usize == start => matches!(
                t.kind,
                TokenKind::Name(_)
                    | TokenKind::QualName(..)
                    | TokenKind::RParen
                    | TokenKind::RBracket
                    | TokenKind::RBrace
            ),
            _ => false,
        }
    }

    /// A field number such as the `0` in `(x).0` glued to this position (for `(x).0.1`).
    fn glued_to_int(&self, start: usize) -> bool {
        matches!(self.out.tokens.last(), Some(t) if t.span.end as usize == start
            && matches!(t.kind, TokenKind::Literal(Literal::Int { .. })))
    }

    /// `(.0)` is a projection section, not the float `0.0`.
    fn glued_to_lparen(&self, start: usize) -> bool {
        matches!(self.out.tokens.last(), Some(t) if t.span.end as usize == start && t.kind == TokenKind::LParen)
    }

    fn glued_to_dot(&self, start: usize) -> bool {
        matches!(self.out.tokens.last(), Some(t) if t.span.end as usize == start && t.kind == TokenKind::Dot)
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let Some(c) = self.peek_at(0) else { break };
            if c.is_whitespace() {
                self.pos += c.len_utf8();
                continue;
            }
            if self.text[start..].starts_with("--") {
                self.comment();
                continue;
            }
            self.token(c, start);
        }
        let end = self.bytes.len();
        self.out.tokens.push(Token {
            kind: TokenKind::Eof,
            span: self.span(end, end),
            at_column_one: false,
            doc: self.pending_doc.take(),
        });
    }

    /// Skips a line comment; a `-- |` line starts a doc block that continues
    /// over the immediately following comment lines.
    fn comment(&mut self) {
        let line = self.rest_of_line();
        let Some(first) = line.strip_prefix("-- |") else { return };
        let mut doc = first.strip_prefix(' ').unwrap_or(first).to_string();
        loop {
            let save = self.pos;
            // Skip the newline and indentation, then look for another `--` line.
            while let Some(c) = self.peek_at(0) {
                if c == '\n' || !c.is_whitespace() {
                    break;
                }
                self.pos += c.len_utf8();
            }
            if self.peek_at(0) == Some('\n') {
                self.pos += 1;
                while matches!(self.peek_at(0), Some(' ' | '\t' | '\r')) {
                    self.pos += 1;
                }
            }
            if !self.text[self.pos..].starts_with("--") {
                self.pos = save;
                break;
            }
            let next = self.rest_of_line();
            let body = &next[2..];
            doc.push('\n');
            doc.push_str(body.strip_prefix(' ').unwrap_or(body));
        }
        self.out.docs.push(doc);
        self.pending_doc = Some(self.out.docs.len() - 1);
    }

    /// Consumes up to (not including) the next newline and returns the text.
    fn rest_of_line(&mut self) -> &'a str {
        let start = self.pos;
        let end = self.text[start..].find('\n').map(|i| start + i).unwrap_or(self.text.len());
        self.pos = end;
        self.text[start..end].trim_end_matches('\r')
    }

    fn token(&mut self, c: char, start: usize) {
        match c {
            '(' => self.single(TokenKind::LParen, start),
            ')' => self.single(TokenKind::RParen, start),
            '[' => {
                // As in Futhark, a `[` right after a name character indexes,
                // so `x.0[1]` and the tuple path `0[1]` index too.
                let glued_to_literal = matches!(self.out.tokens.last(), Some(t) if t.span.end as usize == start
                    && matches!(t.kind, TokenKind::Literal(Literal::Int { .. })))
                    && start > 0
                    && (self.byte_at(start - 1).is_ascii_alphanumeric() || self.byte_at(start - 1) == b'_');
                let kind = if self.glued_to_operand(start) || glued_to_literal {
                    TokenKind::IndexOpen
                } else {
                    TokenKind::LBracket
                };
                self.single(kind, start)
            }
            ']' => self.single(TokenKind::RBracket, start),
            '{' => self.single(TokenKind::LBrace, start),
            '}' => self.single(TokenKind::RBrace, start),
            ',' => self.single(TokenKind::Comma, start),
            '\\' => self.single(TokenKind::Backslash, start),
            '$' => self.single(TokenKind::Dollar, start),
            ':' => {
                if self.byte_at(start + 1) == b'>' {
                    self.pos += 2;
                    self.push(TokenKind::ColonGt, start);
                } else {
                    self.single(TokenKind::Colon, start)
                }
            }
            '?' => {
                if self.text[start..].starts_with("???") {
                    self.pos += 3;
                    self.push(TokenKind::Hole, start);
                } else {
                    self.single(TokenKind::Question, start)
                }
            }
            '.' => self.dot(start),
            '#' => self.hash(start),
            '\'' => self.tick(start),
            '"' => self.string(start),
            '`' => self.backquoted(start),
            '0'..='9' => self.number(start),
            c if is_name_start(c) => self.name(start),
            c if is_symbol_start(c) => self.symbol(start, Vec::new()),
            other => {
                self.pos += other.len_utf8();
                self.error(start, self.pos, format!("unexpected character `{}`", other.escape_default()));
                self.push(TokenKind::Error, start);
            }
        }
    }

    fn single(&mut self, kind: TokenKind, start: usize) {
        self.pos = start + 1;
        self.push(kind, start);
    }

    fn dot(&mut self, start: usize) {
        let rest = &self.text[start..];
        let (kind, len) = if rest.starts_with("..<") {
            (TokenKind::DotDotLt, 3)
        } else if rest.starts_with("..>") {
            (TokenKind::DotDotGt, 3)
        } else if rest.starts_with("...") {
            (TokenKind::DotDotDot, 3)
        } else if rest.starts_with("..") {
            (TokenKind::DotDot, 2)
        } else if self.byte_at(start + 1).is_ascii_digit()
            && !self.glued_to_operand(start)
            && !self.glued_to_int(start)
            && !self.glued_to_lparen(start)
        {
            // `.5` is a float unless it is a field access such as `(x).0`.
            self.number(start);
            return;
        } else {
            (TokenKind::Dot, 1)
        };
        self.pos = start + len;
        self.push(kind, start);
    }

    fn hash(&mut self, start: usize) {
        if self.byte_at(start + 1) == b'[' {
            self.pos = start + 2;
            self.push(TokenKind::AttrOpen, start);
        } else if is_name_start(self.byte_at(start + 1) as char) {
            self.pos = start + 1;
            let name = self.word();
            self.push(TokenKind::Constructor(name.to_string()), start);
        } else {
            self.pos = start + 1;
            self.error(start, self.pos, "expected a constructor name or `[` right after `#`");
            self.push(TokenKind::Error, start);
        }
    }

    /// `'a'` is a character literal; otherwise `'`, `'^` and `'~` introduce type parameters.
    fn tick(&mut self, start: usize) {
        self.pos = start + 1;
        match self.peek_at(0) {
            Some('^') if self.peek_at(1) != Some('\'') => {
                self.pos += 1;
                self.push(TokenKind::TickHat, start);
                return;
            }
            Some('~') if self.peek_at(1) != Some('\'') => {
                self.pos += 1;
                self.push(TokenKind::TickTilde, start);
                return;
            }
            _ => {}
        }
        match self.peek_at(0) {
            Some('\\') => {
                let value = self.escape();
                if self.peek_at(0) != Some('\'') {
                    self.error(start, self.pos, "unterminated character literal");
                    self.push(TokenKind::Error, start);
                    return;
                }
                self.pos += 1;
                let value = value.unwrap_or(0) as i128;
                self.push(TokenKind::Literal(Literal::Int { value, suffix: None }), start);
            }
            Some(c) if c != '\'' && c != '\n' && self.peek_at(c.len_utf8()) == Some('\'') => {
                self.pos += c.len_utf8() + 1;
                let value = c as u32 as i128;
                self.push(TokenKind::Literal(Literal::Int { value, suffix: None }), start);
            }
            // Not a character literal: a type-parameter tick (`'a`).
            _ => self.push(TokenKind::Tick, start),
        }
    }

    /// Reads one escape sequence starting at a backslash; reports bad ones.
    /// Returns the code point, or `None` after reporting an error.
    fn escape(&mut self) -> Option<u32> {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.peek_at(0) else {
            self.error(start, self.pos, "unterminated escape sequence");
            return None;
        };
        self.pos += c.len_utf8();
        let simple = match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '0' => Some('\0'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' => Some('\\'),
            '\'' => Some('\''),
            '"' => Some('"'),
            _ => None,
        };
        if let Some(s) = simple {
            return Some(s as u32);
        }
        let digits_start;
        let digits_end;
        match c {
            'x' => {
                digits_start = self.pos;
                while self.byte_at(self.pos).is_ascii_hexdigit() && self.pos - digits_start < 2 {
                    self.pos += 1;
                }
                digits_end = self.pos;
            }
            'u' if self.byte_at(self.pos) == b'{' => {
                self.pos += 1;
                digits_start = self.pos;
                while self.byte_at(self.pos).is_ascii_hexdigit() {
                    self.pos += 1;
                }
                digits_end = self.pos;
                if self.byte_at(self.pos) != b'}' {
                    self.error(start, self.pos, "expected `}` to close a `\\u{...}` escape");
                    return None;
                }
                self.pos += 1;
            }
            'u' => {
                digits_start = self.pos;
                while self.byte_at(self.pos).is_ascii_hexdigit() && self.pos - digits_start < 4 {
                    self.pos += 1;
                }
                digits_end = self.pos;
            }
            other => {
                self.error(start, self.pos, format!("unknown escape sequence `\\{}`", other.escape_default()));
                return None;
            }
        }
        let digits = &self.text[digits_start..digits_end];
        let code = if digits.is_empty() || digits.len() > 6 { None } else { u32::from_str_radix(digits, 16).ok() };
        match code.filter(|&c| char::from_u32(c).is_some()) {
            Some(code) => Some(code),
            None => {
                self.error(start, self.pos, "invalid code point in escape sequence");
                None
            }
        }
    }

    fn string(&mut self, start: usize) {
        self.pos = start + 1;
        let mut bytes = Vec::new();
        loop {
            match self.peek_at(0) {
                None | Some('\n') => {
                    self.error(start, self.pos, "unterminated string literal");
                    break;
                }
                Some('"') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => {
                    if let Some(c) = self.escape().and_then(char::from_u32) {
                        let mut buf = [0; 4];
                        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
                Some(c) => {
                    let mut buf = [0; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    self.pos += c.len_utf8();
                }
            }
        }
        self.push(TokenKind::Literal(Literal::String(bytes)), start);
    }

    fn backquoted(&mut self, start: usize) {
        self.pos = start + 1;
        if !is_name_start(self.byte_at(self.pos) as char) {
            self.error(start, self.pos, "expected a function name after `` ` ``");
            self.push(TokenKind::Error, start);
            return;
        }
        let (quals, name) = self.qualified_parts();
        if self.byte_at(self.pos) != b'`' {
            self.error(start, self.pos, "expected a closing `` ` ``");
            self.push(TokenKind::Error, start);
            return;
        }
        self.pos += 1;
        self.push(TokenKind::Backquoted(quals, name), start);
    }

    /// Reads `[A-Za-z_][A-Za-z0-9_']*` at the current position.
    fn word(&mut self) -> &'a str {
        let start = self.pos;
        while is_name_char(self.byte_at(self.pos) as char) && self.pos < self.bytes.len() {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    /// Reads `name(.part)*` where a part is a name or a decimal field number.
    fn qualified_parts(&mut self) -> (Vec<String>, String) {
        let mut parts = vec![self.word().to_string()];
        while self.byte_at(self.pos) == b'.' {
            let next = self.byte_at(self.pos + 1) as char;
            if is_name_start(next) {
                let save = self.pos;
                self.pos += 1;
                let part = self.word();
                if Keyword::from_word(part).is_some() {
                    // `x.in` is not a field access; leave the dot alone.
                    self.pos = save;
                    break;
                }
                parts.push(part.to_string());
            } else if next.is_ascii_digit() {
                self.pos += 1;
                let digits_start = self.pos;
                while self.byte_at(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
                parts.push(self.text[digits_start..self.pos].to_string());
            } else {
                break;
            }
        }
        let name = parts.pop().unwrap_or_default();
        (parts, name)
    }

    fn name(&mut self, start: usize) {
        let (quals, name) = self.qualified_parts();
        if quals.is_empty() {
            if let Some(keyword) = Keyword::from_word(&name) {
                if keyword == Keyword::Type && matches!(self.byte_at(self.pos), b'~' | b'^') {
                    let kind = if self.byte_at(self.pos) == b'~' { TokenKind::TypeTilde } else { TokenKind::TypeHat };
                    self.pos += 1;
                    self.push(kind, start);
                } else {
                    self.push(TokenKind::Keyword(keyword), start);
                }
                return;
            }
        }
        // `f32.+` is a qualified operator symbol.
        if self.byte_at(self.pos) == b'.' && is_symbol_start(self.byte_at(self.pos + 1) as char) {
            let mut quals = quals;
            quals.push(name);
            self.pos += 1;
            self.symbol(start, quals);
            return;
        }
        if quals.is_empty() {
            self.push(TokenKind::Name(name), start);
        } else {
            self.push(TokenKind::QualName(quals, name), start);
        }
    }

    fn symbol(&mut self, start: usize, quals: Vec<String>) {
        let sym_start = self.pos;
        while let Some(c) = self.peek_at(0) {
            // A `--` inside a run of symbol characters starts a comment.
            if !is_symbol_char(c) || self.text[self.pos..].starts_with("--") {
                break;
            }
            self.pos += 1;
        }
        if self.pos == sym_start {
            // Only reachable via `f32.-` followed by `-`: the symbol itself was a comment.
            self.pos = sym_start + 1;
        }
        let sym = &self.text[sym_start..self.pos];
        let kind = if quals.is_empty() {
            match sym {
                "=" => TokenKind::Equals,
                "->" => TokenKind::Arrow,
                _ => TokenKind::Symbol(Vec::new(), sym.to_string()),
            }
        } else {
            TokenKind::Symbol(quals, sym.to_string())
        };
        self.push(kind, start);
    }

    /// Integer and float literals, including `0x`/`0b`, hex floats, `_`
    /// separators and type suffixes. A field number after a `.` (as in
    /// `(x).1`) is lexed as a plain decimal integer.
    fn number(&mut self, start: usize) {
        self.pos = start;
        if self.glued_to_dot(start) {
            let digits = self.digits(|b| b.is_ascii_digit());
            let value = digits.parse::<i128>().unwrap_or(0);
            self.push(TokenKind::Literal(Literal::Int { value, suffix: None }), start);
            return;
        }
        let radix_prefix = if self.byte_at(start) == b'0' { self.byte_at(start + 1).to_ascii_lowercase() } else { 0 };
        let literal = if radix_prefix == b'x' && self.byte_at(start + 2).is_ascii_hexdigit() {
            self.pos = start + 2;
            self.hex_number(start)
        } else if radix_prefix == b'b' && matches!(self.byte_at(start + 2), b'0' | b'1') {
            self.pos = start + 2;
            let digits = self.digits(|b| b == b'0' || b == b'1');
            let value = self.int_value(start, &digits, 2);
            Literal::Int { value, suffix: None }
        } else {
            self.decimal_number(start)
        };
        let literal = self.suffix(start, literal);
        self.push(TokenKind::Literal(literal), start);
    }

    /// Reads digits (and `_` separators) accepted by `ok`, returning them without separators.
    fn digits(&mut self, ok: impl Fn(u8) -> bool) -> String {
        let mut out = String::new();
        loop {
            let b = self.byte_at(self.pos);
            if ok(b) {
                out.push(b as char);
            } else if b != b'_' || out.is_empty() {
                break;
            }
            self.pos += 1;
        }
        out
    }

    fn int_value(&mut self, start: usize, digits: &str, radix: u32) -> i128 {
        match i128::from_str_radix(digits, radix) {
            Ok(v) if v <= u64::MAX as i128 => v,
            _ => {
                self.error(start, self.pos, "integer literal is too large");
                0
            }
        }
    }

    fn decimal_number(&mut self, start: usize) -> Literal {
        let int_part = self.digits(|b| b.is_ascii_digit());
        let mut text = int_part.clone();
        let mut is_float = false;
        if self.byte_at(self.pos) == b'.' && self.byte_at(self.pos + 1).is_ascii_digit() {
            self.pos += 1;
            text.push('.');
            text.push_str(&self.digits(|b| b.is_ascii_digit()));
            is_float = true;
        }
        if matches!(self.byte_at(self.pos), b'e' | b'E') {
            let sign = matches!(self.byte_at(self.pos + 1), b'+' | b'-');
            let first_digit = self.pos + 1 + sign as usize;
            if self.byte_at(first_digit).is_ascii_digit() {
                text.push('e');
                if sign {
                    text.push(self.byte_at(self.pos + 1) as char);
                }
                self.pos = first_digit;
                text.push_str(&self.digits(|b| b.is_ascii_digit()));
                is_float = true;
            }
        }
        if is_float {
            let text = if text.starts_with('.') { format!("0{text}") } else { text };
            Literal::Float { value: text.parse::<f64>().unwrap_or(0.0), suffix: None }
        } else {
            let value = self.int_value(start, &int_part, 10);
            Literal::Int { value, suffix: None }
        }
    }

    /// After `0x`: a hex integer, or a hex float `0x1.fp3`.
    fn hex_number(&mut self, start: usize) -> Literal {
        let int_digits = self.digits(|b| b.is_ascii_hexdigit());
        let save = self.pos;
        let mut frac_digits = String::new();
        if self.byte_at(self.pos) == b'.' && self.byte_at(self.pos + 1).is_ascii_hexdigit() {
            self.pos += 1;
            frac_digits = self.digits(|b| b.is_ascii_hexdigit());
        }
        let has_exponent = matches!(self.byte_at(self.pos), b'p' | b'P') && {
            let sign = matches!(self.byte_at(self.pos + 1), b'+' | b'-');
            self.byte_at(self.pos + 1 + sign as usize).is_ascii_digit()
        };
        if !has_exponent {
            if !frac_digits.is_empty() {
                // `0x1.f` without an exponent: not a hex float, so the `.` is not ours.
                self.pos = save;
            }
            let value = self.int_value(start, &int_digits, 16);
            return Literal::Int { value, suffix: None };
        }
        self.pos += 1;
        let negative = self.byte_at(self.pos) == b'-';
        if matches!(self.byte_at(self.pos), b'+' | b'-') {
            self.pos += 1;
        }
        let exp_digits = self.digits(|b| b.is_ascii_digit());
        let exponent = exp_digits.parse::<i32>().unwrap_or(i32::MAX / 2).min(100_000);
        let exponent = if negative { -exponent } else { exponent };
        let mut mantissa = 0.0f64;
        for d in int_digits.chars().chain(frac_digits.chars()) {
            mantissa = mantissa * 16.0 + d.to_digit(16).unwrap_or(0) as f64;
        }
        let scale = exponent.saturating_sub(4 * frac_digits.len().min(100_000) as i32);
        // Scale in two steps so that huge mantissas with tiny exponents do not overflow early.
        let value = mantissa * 2f64.powi(scale / 2) * 2f64.powi(scale - scale / 2);
        Literal::Float { value, suffix: None }
    }

    /// Applies a type suffix (`i32`, `u8`, `f64`…) directly after a number.
    fn suffix(&mut self, start: usize, literal: Literal) -> Literal {
        if !is_name_char(self.byte_at(self.pos) as char) || self.pos >= self.bytes.len() {
            return literal;
        }
        let suffix_start = self.pos;
        let word = self.word();
        let Some(prim) = PrimType::from_name(word).filter(|p| p.is_numeric()) else {
            self.error(suffix_start, self.pos, format!("invalid suffix `{word}` on a numeric literal"));
            return literal;
        };
        match literal {
            Literal::Int { value, .. } if prim.is_float() => Literal::Float { value: value as f64, suffix: Some(prim) },
            Literal::Int { value, .. } => Literal::Int { value, suffix: Some(prim) },
            Literal::Float { value, .. } if prim.is_float() => Literal::Float { value, suffix: Some(prim) },
            Literal::Float { value, .. } => {
                self.error(start, self.pos, format!("a decimal literal cannot have the integer suffix `{word}`"));
                Literal::Float { value, suffix: None }
            }
            other => other,
        }
    }
}
