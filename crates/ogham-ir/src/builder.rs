//! A small helper for emitting statements in A-normal form.
//!
//! Lowering and later passes build bodies statement by statement: each
//! `bind*` call appends a statement and returns the fresh variable(s) it binds.

use crate::{Body, Exp, NameTable, Param, Span, Stm, StmAttrs, SubExp, Type, VName};

/// Collects statements for one body.
#[derive(Debug, Default)]
pub struct BodyBuilder {
    pub stms: Vec<Stm>,
    /// The span given to statements appended from now on.
    pub span: Span,
    /// The attributes given to statements appended from now on.
    pub attrs: StmAttrs,
}

impl BodyBuilder {
    pub fn new(span: Span) -> BodyBuilder {
        BodyBuilder { stms: Vec::new(), span, attrs: StmAttrs::default() }
    }

    /// Appends `let pat = exp`.
    pub fn push(&mut self, pat: Vec<Param>, exp: Exp) {
        self.stms.push(Stm { pat, exp, attrs: self.attrs, span: self.span });
    }

    /// Binds one fresh variable of type `ty` to `exp`.
    pub fn bind(&mut self, names: &mut NameTable, base: &str, ty: Type, exp: Exp) -> VName {
        let name = names.fresh(base);
        self.push(vec![Param { name, ty }], exp);
        name
    }

    /// Binds `exp` to a fresh variable unless it is already atomic.
    pub fn atom(&mut self, names: &mut NameTable, base: &str, ty: Type, exp: Exp) -> SubExp {
        match exp {
            Exp::SubExp(se) => se,
            exp => SubExp::Var(self.bind(names, base, ty, exp)),
        }
    }

    /// Binds several fresh variables of the given types to `exp`.
    pub fn bind_many(&mut self, names: &mut NameTable, base: &str, tys: Vec<Type>, exp: Exp) -> Vec<VName> {
        let pat: Vec<Param> = tys.into_iter().map(|ty| Param { name: names.fresh(base), ty }).collect();
        let vs = pat.iter().map(|p| p.name).collect();
        self.push(pat, exp);
        vs
    }

    /// Finishes the body with the given results.
    pub fn finish(self, result: Vec<SubExp>) -> Body {
        Body { stms: self.stms, result }
    }
}
