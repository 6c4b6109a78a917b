//! Giving every node of a copied subtree a fresh [`NodeId`].
//!
//! The type checker elaborates each application of a functor by checking a
//! copy of the functor's body; the copy's nodes need ids of their own so
//! that the facts recorded about them (types, resolutions) do not collide
//! with those of other copies. [`renumber_mod_exp`] rewrites every id in a
//! module expression: expressions, patterns, binders and record puns.

use crate::ast::*;

/// Replaces every id in `m` with one from `fresh`.
pub fn renumber_mod_exp(m: &mut ModExp, fresh: &mut dyn FnMut() -> NodeId) {
    Renumber { fresh }.mod_exp(m)
}

/// Replaces every id in `s` with one from `fresh`.
pub fn renumber_sig_exp(s: &mut SigExp, fresh: &mut dyn FnMut() -> NodeId) {
    Renumber { fresh }.sig(s)
}

struct Renumber<'f> {
    fresh: &'f mut dyn FnMut() -> NodeId,
}

impl Renumber<'_> {
    fn id(&mut self, id: &mut NodeId) {
        *id = (self.fresh)();
    }

    fn binder(&mut self, b: &mut Binder) {
        self.id(&mut b.id);
    }

    fn mod_exp(&mut self, m: &mut ModExp) {
        match m {
            ModExp::Var(_) | ModExp::Import(..) => {}
            ModExp::Struct(decs, _) => decs.iter_mut().for_each(|d| self.dec(d)),
            ModExp::Ascribe(m, s, _) => {
                self.mod_exp(m);
                self.sig(s);
            }
            ModExp::Apply(f, a, _) => {
                self.mod_exp(f);
                self.mod_exp(a);
            }
            ModExp::Lambda(p, r, b, _) => {
                self.sig(&mut p.sig);
                if let Some(r) = r {
                    self.sig(r);
                }
                self.mod_exp(b);
            }
        }
    }

    fn sig(&mut self, s: &mut SigExp) {
        match s {
            SigExp::Var(_) => {}
            SigExp::Specs(specs, _) => {
                for spec in specs {
                    match spec {
                        Spec::Val { type_params, ty, .. } => {
                            self.type_params(type_params);
                            self.ty(ty);
                        }
                        Spec::Type { name, params, def, .. } => {
                            self.binder(name);
                            self.type_params(params);
                            if let Some(d) = def {
                                self.ty(d);
                            }
                        }
                        Spec::Module { sig, .. } | Spec::Include(sig, _) => self.sig(sig),
                    }
                }
            }
            SigExp::With { sig, params, def, .. } => {
                self.sig(sig);
                self.type_params(params);
                self.ty(def);
            }
            SigExp::Arrow { from, to, .. } => {
                self.sig(from);
                self.sig(to);
            }
        }
    }

    fn dec(&mut self, d: &mut Dec) {
        match d {
            Dec::Value(v) => {
                self.binder(&mut v.name);
                self.type_params(&mut v.type_params);
                v.params.iter_mut().for_each(|p| self.pat(p));
                if let Some(r) = &mut v.ret {
                    self.ty(r);
                }
                self.expr(&mut v.body);
            }
            Dec::Type(t) => {
                self.binder(&mut t.name);
                self.type_params(&mut t.params);
                self.ty(&mut t.def);
            }
            Dec::Import { .. } => {}
            Dec::Module(m) => {
                for p in &mut m.params {
                    self.sig(&mut p.sig);
                }
                if let Some(s) = &mut m.sig {
                    self.sig(s);
                }
                self.mod_exp(&mut m.body);
            }
            Dec::ModType { sig, .. } => self.sig(sig),
            Dec::Open(m, _) => self.mod_exp(m),
            Dec::Local(d, _) => self.dec(d),
        }
    }

    fn type_params(&mut self, ps: &mut [TypeParam]) {
        for p in ps {
            match p {
                TypeParam::Size(b) | TypeParam::Type(b, _) => self.binder(b),
            }
        }
    }

    fn ty(&mut self, t: &mut TypeExp) {
        match t {
            TypeExp::Var(_) => {}
            TypeExp::Tuple(items, _) => items.iter_mut().for_each(|t| self.ty(t)),
            TypeExp::Record(fields, _) => fields.iter_mut().for_each(|(_, t)| self.ty(t)),
            TypeExp::Array(size, elem, _) => {
                self.size(size);
                self.ty(elem);
            }
            TypeExp::Unique(t, _) => self.ty(t),
            TypeExp::Arrow { from, to, .. } => {
                self.ty(from);
                self.ty(to);
            }
            TypeExp::Sum(cs, _) => cs.iter_mut().flat_map(|(_, ts)| ts).for_each(|t| self.ty(t)),
            TypeExp::Apply(f, arg, _) => {
                self.ty(f);
                match arg.as_mut() {
                    TypeArg::Size(s) => self.size(s),
                    TypeArg::Type(t) => self.ty(t),
                }
            }
            TypeExp::Existential(binders, t, _) => {
                binders.iter_mut().for_each(|b| self.binder(b));
                self.ty(t);
            }
        }
    }

    fn size(&mut self, s: &mut SizeExp) {
        if let SizeExp::Expr(e) = s {
            self.expr(e);
        }
    }

    fn pat(&mut self, p: &mut Pat) {
        self.id(&mut p.id);
        match &mut p.kind {
            PatKind::Var(_) | PatKind::Wildcard | PatKind::Literal(_) => {}
            PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter_mut().for_each(|p| self.pat(p)),
            PatKind::Record(fs) => fs.iter_mut().for_each(|(_, p)| self.pat(p)),
            PatKind::Ascribe(p, t) => {
                self.pat(p);
                self.ty(t);
            }
            PatKind::Attr(_, p) => self.pat(p),
        }
    }

    fn dims(&mut self, dims: &mut [DimIndex]) {
        for d in dims {
            match d {
                DimIndex::Index(e) => self.expr(e),
                DimIndex::Slice { start, end, stride } => {
                    for e in [start, end, stride].into_iter().flatten() {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        self.id(&mut e.id);
        match &mut e.kind {
            ExprKind::Literal(_)
            | ExprKind::Var(_)
            | ExprKind::OpSection(..)
            | ExprKind::ProjectSection(_)
            | ExprKind::Hole => {}
            ExprKind::Parens(x)
            | ExprKind::Project(x, _)
            | ExprKind::Negate(x)
            | ExprKind::Not(x)
            | ExprKind::Attr(_, x)
            | ExprKind::OpenIn(_, x) => self.expr(x),
            ExprKind::Tuple(xs) | ExprKind::ArrayLit(xs) | ExprKind::Constructor(_, xs) => {
                xs.iter_mut().for_each(|x| self.expr(x))
            }
            ExprKind::Record(fields) => {
                for f in fields {
                    match f {
                        RecordField::Explicit(_, x) => self.expr(x),
                        RecordField::Pun(_, id) => self.id(id),
                    }
                }
            }
            ExprKind::Range { start, second, end, .. } => {
                self.expr(start);
                if let Some(s) = second {
                    self.expr(s);
                }
                self.expr(end);
            }
            ExprKind::Index(x, dims) => {
                self.expr(x);
                self.dims(dims);
            }
            ExprKind::IndexSection(dims) => self.dims(dims),
            ExprKind::Apply(f, args) => {
                self.expr(f);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            ExprKind::BinOp { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::LeftSection { lhs: x, .. } | ExprKind::RightSection { rhs: x, .. } => self.expr(x),
            ExprKind::If { cond, then_branch, else_branch } => {
                self.expr(cond);
                self.expr(then_branch);
                self.expr(else_branch);
            }
            ExprKind::Let { sizes, pat, value, body } => {
                sizes.iter_mut().for_each(|b| self.binder(b));
                self.pat(pat);
                self.expr(value);
                self.expr(body);
            }
            ExprKind::LetFun { name, type_params, params, ret, value, body } => {
                self.binder(name);
                self.type_params(type_params);
                params.iter_mut().for_each(|p| self.pat(p));
                if let Some(r) = ret {
                    self.ty(r);
                }
                self.expr(value);
                self.expr(body);
            }
            ExprKind::Update { array, index, value } => {
                self.expr(array);
                self.dims(index);
                self.expr(value);
            }
            ExprKind::RecordUpdate { record, value, .. } => {
                self.expr(record);
                self.expr(value);
            }
            ExprKind::Lambda { params, ret, body } => {
                params.iter_mut().for_each(|p| self.pat(p));
                if let Some(r) = ret {
                    self.ty(r);
                }
                self.expr(body);
            }
            ExprKind::Loop { pat, init, form, body } => {
                self.pat(pat);
                if let Some(i) = init {
                    self.expr(i);
                }
                match form {
                    LoopForm::For { var, bound } => {
                        self.pat(var);
                        self.expr(bound);
                    }
                    LoopForm::ForIn { pat, array } => {
                        self.pat(pat);
                        self.expr(array);
                    }
                    LoopForm::While(c) => self.expr(c),
                }
                self.expr(body);
            }
            ExprKind::Match { scrutinee, cases } => {
                self.expr(scrutinee);
                for c in cases {
                    self.pat(&mut c.pat);
                    self.expr(&mut c.body);
                }
            }
            ExprKind::Ascribe(x, t) | ExprKind::Coerce(x, t) => {
                self.expr(x);
                self.ty(t);
            }
            ExprKind::Assert { cond, body } => {
                self.expr(cond);
                self.expr(body);
            }
        }
    }
}
