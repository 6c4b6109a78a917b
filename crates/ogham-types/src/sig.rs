//! A small parser for the built-in signature strings (see
//! [`INTRINSICS`](crate::builtins::INTRINSICS) and the numeric-module member
//! table), producing AST type expressions so that built-ins are typed by the
//! same code that types user definitions.
//!
//! Grammar: `tparam* param* ':' type`, where a tparam is `'a` or `[n]`, a
//! param is `(name: type)`, and types are names, `*t`, `[size]t`, `[]t`,
//! `acc t` (`intrinsics.acc t`), tuples and arrows. Sizes are a name, a
//! constant, or `a+b` / `a*b`.

use ogham_syntax::ast::{
    Binder, Expr, ExprKind, Liftedness, Literal, Name, NodeId, QualName, SizeExp, TypeArg, TypeExp, TypeParam,
};
use ogham_syntax::Span;

/// A parsed built-in signature.
pub struct Signature {
    pub type_params: Vec<TypeParam>,
    /// Parameter name, its binder id, and its type.
    pub params: Vec<(String, NodeId, TypeExp)>,
    pub ret: TypeExp,
}

struct SigParser<'a> {
    tokens: Vec<String>,
    pos: usize,
    fresh: &'a mut dyn FnMut() -> NodeId,
}

fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            out.push("->".into());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

fn name(text: &str) -> Name {
    Name { text: text.to_string(), span: Span::DUMMY }
}

impl SigParser<'_> {
    fn peek(&self) -> &str {
        self.tokens.get(self.pos).map(|s| s.as_str()).unwrap_or("")
    }
    fn peek_at(&self, k: usize) -> &str {
        self.tokens.get(self.pos + k).map(|s| s.as_str()).unwrap_or("")
    }
    fn next(&mut self) -> String {
        let t = self.peek().to_string();
        self.pos += 1;
        t
    }
    fn expect(&mut self, tok: &str) -> Result<(), String> {
        if self.peek() == tok {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected `{tok}`, found `{}`", self.peek()))
        }
    }

    fn signature(&mut self) -> Result<Signature, String> {
        let mut type_params = Vec::new();
        loop {
            match self.peek() {
                "'" => {
                    self.next();
                    let lift = match self.peek() {
                        "^" => {
                            self.next();
                            Liftedness::Lifted
                        }
                        "~" => {
                            self.next();
                            Liftedness::SizeLifted
                        }
                        _ => Liftedness::Unlifted,
                    };
                    let n = self.next();
                    type_params.push(TypeParam::Type(Binder { name: name(&n), id: (self.fresh)() }, lift));
                }
                "[" => {
                    self.next();
                    let n = self.next();
                    self.expect("]")?;
                    type_params.push(TypeParam::Size(Binder { name: name(&n), id: (self.fresh)() }));
                }
                _ => break,
            }
        }
        let mut params = Vec::new();
        while self.peek() == "(" {
            self.next();
            let n = self.next();
            self.expect(":")?;
            let t = self.ty()?;
            self.expect(")")?;
            params.push((n, (self.fresh)(), t));
        }
        self.expect(":")?;
        let ret = self.ty()?;
        if self.pos < self.tokens.len() {
            return Err(format!("trailing `{}`", self.peek()));
        }
        Ok(Signature { type_params, params, ret })
    }

    fn ty(&mut self) -> Result<TypeExp, String> {
        let from = self.unit()?;
        if self.peek() == "->" {
            self.next();
            let to = self.ty()?;
            return Ok(TypeExp::Arrow { param: None, from: Box::new(from), to: Box::new(to), span: Span::DUMMY });
        }
        Ok(from)
    }

    fn unit(&mut self) -> Result<TypeExp, String> {
        match self.peek() {
            "*" => {
                self.next();
                Ok(TypeExp::Unique(Box::new(self.unit()?), Span::DUMMY))
            }
            "[" => {
                self.next();
                let size = if self.peek() == "]" {
                    SizeExp::Anonymous(Span::DUMMY)
                } else {
                    SizeExp::Expr(Box::new(self.size()?))
                };
                self.expect("]")?;
                let elem = self.unit()?;
                Ok(TypeExp::Array(size, Box::new(elem), Span::DUMMY))
            }
            "(" => {
                self.next();
                let mut items = Vec::new();
                while self.peek() != ")" {
                    items.push(self.ty()?);
                    if self.peek() == "," {
                        self.next();
                    } else {
                        break;
                    }
                }
                self.expect(")")?;
                if items.len() == 1 {
                    Ok(items.pop().unwrap_or(TypeExp::Tuple(Vec::new(), Span::DUMMY)))
                } else {
                    Ok(TypeExp::Tuple(items, Span::DUMMY))
                }
            }
            // `acc t`: `intrinsics.acc t`, the accumulators' type.
            "acc" => {
                self.next();
                let arg = self.unit()?;
                let head = QualName { quals: vec!["intrinsics".into()], name: "acc".into(), span: Span::DUMMY };
                Ok(TypeExp::Apply(Box::new(TypeExp::Var(head)), Box::new(TypeArg::Type(arg)), Span::DUMMY))
            }
            t if t.chars().next().is_some_and(|c| c.is_alphabetic()) => {
                let n = self.next();
                Ok(TypeExp::Var(QualName::unqualified(n, Span::DUMMY)))
            }
            t => Err(format!("unexpected `{t}` in type")),
        }
    }

    fn size_atom(&mut self) -> Result<Expr, String> {
        let t = self.next();
        let kind = if let Ok(v) = t.parse::<i128>() {
            ExprKind::Literal(Literal::Int { value: v, suffix: None })
        } else if t.chars().next().is_some_and(|c| c.is_alphabetic()) {
            ExprKind::Var(QualName::unqualified(t, Span::DUMMY))
        } else {
            return Err(format!("unexpected `{t}` in size"));
        };
        Ok(Expr { id: (self.fresh)(), kind, span: Span::DUMMY })
    }

    fn size(&mut self) -> Result<Expr, String> {
        let mut lhs = self.size_atom()?;
        while matches!(self.peek(), "+" | "*" | "-") && self.peek_at(1) != "]" {
            let op = self.next();
            let rhs = self.size_atom()?;
            lhs = Expr {
                id: (self.fresh)(),
                kind: ExprKind::BinOp {
                    op: QualName::unqualified(op, Span::DUMMY),
                    backquoted: false,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span: Span::DUMMY,
            };
        }
        Ok(lhs)
    }
}

/// Parses a built-in signature string; ids for binders come from `fresh`.
pub fn parse_signature(text: &str, fresh: &mut dyn FnMut() -> NodeId) -> Result<Signature, String> {
    SigParser { tokens: tokenize(text), pos: 0, fresh }.signature()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_intrinsic_signature_parses() {
        let mut n = 0;
        let mut fresh = || {
            n += 1;
            NodeId(n)
        };
        for (name, sig) in crate::builtins::INTRINSICS {
            assert!(parse_signature(sig, &mut fresh).is_ok(), "{name}");
        }
    }
}
