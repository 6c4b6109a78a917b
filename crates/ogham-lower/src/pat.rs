//! Patterns: binding a static value to a pattern's variables, and testing
//! whether a value matches a refutable pattern (for `match`).

use ogham_ir::builder::BodyBuilder;
use ogham_ir::{CmpOp, PrimType, PrimValue, SubExp};
use ogham_syntax::ast::{Pat, PatKind};
use ogham_types::Type;

use crate::expr::{leaf, literal_value, project};
use crate::value::{Scope, Val};
use crate::{internal, LResult, Lowerer};

impl<'a> Lowerer<'a> {
    /// The scope extended with the bindings of `pat` matched against `v`.
    /// Refutable parts are not tested (see [`Lowerer::pat_test`]).
    pub fn bind_pat(&mut self, b: &mut BodyBuilder, sc: &Scope<'a>, pat: &'a Pat, v: Val<'a>) -> LResult<Scope<'a>> {
        match &pat.kind {
            PatKind::Var(_) => {
                // The existential sizes of the value are known from here on
                // (`let rs = filter p xs in ... rep x` sized like `rs`).
                let scope = match self.binding_type(pat.id, pat.span) {
                    Ok(t) => self.knowing_sizes_of(sc, t, &v),
                    Err(_) => sc.clone(),
                };
                Ok(scope.bind(pat.id, v))
            }
            PatKind::Wildcard | PatKind::Literal(_) => Ok(sc.clone()),
            PatKind::Tuple(items) => {
                if items.len() == 1 {
                    return self.bind_pat(b, sc, &items[0], v);
                }
                let mut scope = sc.clone();
                for (i, p) in items.iter().enumerate() {
                    let field = project(v.clone(), &i.to_string(), p.span)?;
                    scope = self.bind_pat(b, &scope, p, field)?;
                }
                Ok(scope)
            }
            PatKind::Record(fields) => {
                let mut scope = sc.clone();
                for (name, p) in fields {
                    let field = project(v.clone(), &name.text, name.span)?;
                    scope = self.bind_pat(b, &scope, p, field)?;
                }
                Ok(scope)
            }
            PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => self.bind_pat(b, sc, inner, v),
            PatKind::Constructor(name, items) => {
                let payload = self.payload_of(pat, &name.text, v)?;
                let mut scope = sc.clone();
                for (p, x) in items.iter().zip(payload) {
                    scope = self.bind_pat(b, &scope, p, x)?;
                }
                Ok(scope)
            }
        }
    }

    /// The payload values of constructor `name` in sum value `v` matched by `pat`.
    fn payload_of(&self, pat: &'a Pat, name: &str, v: Val<'a>) -> LResult<Vec<Val<'a>>> {
        let index = self.constructor_index(pat, name)?;
        match v {
            Val::Sum { mut payloads, .. } if index < payloads.len() => Ok(payloads.swap_remove(index)),
            _ => Err(internal(pat.span, "a constructor pattern on a non-sum value")),
        }
    }

    /// The tag of constructor `name` in the sum type of `pat`.
    fn constructor_index(&self, pat: &'a Pat, name: &str) -> LResult<usize> {
        match self.binding_type(pat.id, pat.span)? {
            Type::Sum(cs) => cs.keys().position(|k| k == name).ok_or_else(|| internal(pat.span, "unknown constructor")),
            _ => Err(internal(pat.span, "a constructor pattern of non-sum type")),
        }
    }

    /// A boolean that holds when `v` matches `pat` (constant `true` for irrefutable patterns).
    pub fn pat_test(&mut self, b: &mut BodyBuilder, pat: &'a Pat, v: &Val<'a>) -> LResult<SubExp> {
        let yes = SubExp::Const(PrimValue::Bool(true));
        match &pat.kind {
            PatKind::Var(_) | PatKind::Wildcard => Ok(yes),
            PatKind::Ascribe(inner, _) | PatKind::Attr(_, inner) => self.pat_test(b, inner, v),
            PatKind::Literal(lit) => {
                let se = leaf(v, pat.span)?;
                let t = self.se_type(se).elem();
                let lit = SubExp::Const(literal_value(lit, t));
                Ok(self.cmp(b, CmpOp::Eq, t, se, lit))
            }
            PatKind::Tuple(items) => {
                if items.len() == 1 {
                    return self.pat_test(b, &items[0], v);
                }
                let mut acc = yes;
                for (i, p) in items.iter().enumerate() {
                    let field = project(v.clone(), &i.to_string(), p.span)?;
                    let t = self.pat_test(b, p, &field)?;
                    acc = self.and(b, acc, t);
                }
                Ok(acc)
            }
            PatKind::Record(fields) => {
                let mut acc = yes;
                for (name, p) in fields {
                    let field = project(v.clone(), &name.text, name.span)?;
                    let t = self.pat_test(b, p, &field)?;
                    acc = self.and(b, acc, t);
                }
                Ok(acc)
            }
            PatKind::Constructor(name, items) => {
                let index = self.constructor_index(pat, &name.text)?;
                let Val::Sum { tag, .. } = v else {
                    return Err(internal(pat.span, "a constructor pattern on a non-sum value"));
                };
                let mut acc = self.cmp(b, CmpOp::Eq, PrimType::I8, *tag, SubExp::Const(PrimValue::I8(index as i8)));
                let payload = self.payload_of(pat, &name.text, v.clone())?;
                for (p, x) in items.iter().zip(&payload) {
                    let t = self.pat_test(b, p, x)?;
                    acc = self.and(b, acc, t);
                }
                Ok(acc)
            }
        }
    }
}
