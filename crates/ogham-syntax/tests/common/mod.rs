//! A debug printer for tests: renders the AST fully parenthesised so that
//! precedence and desugaring can be checked with plain string comparisons.

#![allow(dead_code)]

use ogham_syntax::ast::*;

pub fn literal(l: &Literal) -> String {
    match l {
        Literal::Int { value, suffix: None } => value.to_string(),
        Literal::Int { value, suffix: Some(t) } => format!("{value}{t}"),
        Literal::Float { value, suffix: None } => format!("{value:?}"),
        Literal::Float { value, suffix: Some(t) } => format!("{value:?}{t}"),
        Literal::Bool(b) => b.to_string(),
        Literal::String(bytes) => format!("{:?}", String::from_utf8_lossy(bytes)),
    }
}

fn join<T>(items: &[T], sep: &str, f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(sep)
}

fn op(q: &QualName, backquoted: bool) -> String {
    if backquoted {
        format!("`{q}`")
    } else {
        q.to_string()
    }
}

pub fn dims(d: &[DimIndex]) -> String {
    join(d, ", ", |d| match d {
        DimIndex::Index(e) => expr(e),
        DimIndex::Slice { start, end, stride } => {
            let part = |e: &Option<Expr>| e.as_ref().map(expr).unwrap_or_default();
            match stride {
                Some(_) => format!("{}:{}:{}", part(start), part(end), part(stride)),
                None => format!("{}:{}", part(start), part(end)),
            }
        }
    })
}

pub fn type_params(tps: &[TypeParam]) -> String {
    join(tps, "", |tp| match tp {
        TypeParam::Size(b) => format!(" [{}]", b.name.text),
        TypeParam::Type(b, Liftedness::Unlifted) => format!(" '{}", b.name.text),
        TypeParam::Type(b, Liftedness::SizeLifted) => format!(" '~{}", b.name.text),
        TypeParam::Type(b, Liftedness::Lifted) => format!(" '^{}", b.name.text),
    })
}

fn params(ps: &[Pat]) -> String {
    join(ps, "", |p| format!(" {}", pat(p)))
}

fn ret(t: &Option<TypeExp>) -> String {
    t.as_ref().map(|t| format!(": {}", ty(t))).unwrap_or_default()
}

pub fn attr(a: &Attr) -> String {
    if a.args.is_empty() {
        a.name.clone()
    } else {
        format!("{}({})", a.name, join(&a.args, ", ", attr))
    }
}

pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(l) => literal(l),
        ExprKind::Var(q) => q.to_string(),
        ExprKind::Parens(e) => expr(e),
        ExprKind::Tuple(es) => format!("tuple({})", join(es, ", ", expr)),
        ExprKind::Record(fs) => format!(
            "{{{}}}",
            join(fs, ", ", |f| match f {
                RecordField::Explicit(n, e) => format!("{} = {}", n.text, expr(e)),
                RecordField::Pun(n, _) => n.text.clone(),
            })
        ),
        ExprKind::ArrayLit(es) => format!("[{}]", join(es, ", ", expr)),
        ExprKind::Range { start, second, end, kind } => {
            let second = second.as_ref().map(|s| format!("..{}", expr(s))).unwrap_or_default();
            let kind = match kind {
                RangeEnd::UpToExclusive => "..<",
                RangeEnd::DownToExclusive => "..>",
                RangeEnd::ToInclusive => "...",
            };
            format!("({}{second}{kind}{})", expr(start), expr(end))
        }
        ExprKind::Project(e, f) => format!("{}.{}", expr(e), f.text),
        ExprKind::Index(e, d) => format!("{}[{}]", expr(e), dims(d)),
        ExprKind::Apply(f, args) => format!("({} {})", expr(f), join(args, " ", expr)),
        ExprKind::BinOp { op: o, backquoted, lhs, rhs } => {
            format!("({} {} {})", expr(lhs), op(o, *backquoted), expr(rhs))
        }
        ExprKind::Negate(e) => format!("(-{})", expr(e)),
        ExprKind::Not(e) => format!("(!{})", expr(e)),
        ExprKind::OpSection(o, b) => format!("({})", op(o, *b)),
        ExprKind::LeftSection { op: o, backquoted, lhs } => format!("({} {})", expr(lhs), op(o, *backquoted)),
        ExprKind::RightSection { op: o, backquoted, rhs } => format!("({} {})", op(o, *backquoted), expr(rhs)),
        ExprKind::ProjectSection(fs) => format!("({})", join(fs, "", |f| format!(".{}", f.text))),
        ExprKind::IndexSection(d) => format!("(.[{}])", dims(d)),
        ExprKind::If { cond, then_branch, else_branch } => {
            format!("(if {} then {} else {})", expr(cond), expr(then_branch), expr(else_branch))
        }
        ExprKind::Let { sizes, pat: p, value, body } => format!(
            "(let{} {} = {} in {})",
            join(sizes, "", |b| format!(" [{}]", b.name.text)),
            pat(p),
            expr(value),
            expr(body)
        ),
        ExprKind::LetFun { name, type_params: tps, params: ps, ret: r, value, body } => format!(
            "(let {}{}{}{} = {} in {})",
            name.name.text,
            type_params(tps),
            params(ps),
            ret(r),
            expr(value),
            expr(body)
        ),
        ExprKind::Update { array, index, value } => {
            format!("({} with [{}] = {})", expr(array), dims(index), expr(value))
        }
        ExprKind::RecordUpdate { record, fields, value } => {
            format!("({} with {} = {})", expr(record), join(fields, ".", |f| f.text.clone()), expr(value))
        }
        ExprKind::Lambda { params: ps, ret: r, body } => {
            format!("(\\{}{} -> {})", params(ps).trim_start(), ret(r), expr(body))
        }
        ExprKind::Loop { pat: p, init, form, body } => {
            let init = init.as_ref().map(|e| format!(" = {}", expr(e))).unwrap_or_default();
            let form = match form {
                LoopForm::For { var, bound } => format!("for {} < {}", pat(var), expr(bound)),
                LoopForm::ForIn { pat: p, array } => format!("for {} in {}", pat(p), expr(array)),
                LoopForm::While(c) => format!("while {}", expr(c)),
            };
            format!("(loop {}{init} {form} do {})", pat(p), expr(body))
        }
        ExprKind::Match { scrutinee, cases } => format!(
            "(match {}{})",
            expr(scrutinee),
            join(cases, "", |c| format!(" case {} -> {}", pat(&c.pat), expr(&c.body)))
        ),
        ExprKind::Ascribe(e, t) => format!("({} : {})", expr(e), ty(t)),
        ExprKind::Coerce(e, t) => format!("({} :> {})", expr(e), ty(t)),
        ExprKind::Assert { cond, body } => format!("(assert {} {})", expr(cond), expr(body)),
        ExprKind::Constructor(n, args) if args.is_empty() => format!("#{}", n.text),
        ExprKind::Constructor(n, args) => format!("(#{} {})", n.text, join(args, " ", expr)),
        ExprKind::Attr(a, e) => format!("(#[{}] {})", attr(a), expr(e)),
        ExprKind::Hole => "???".to_string(),
        ExprKind::OpenIn(m, e) => format!("{m}.({})", expr(e)),
    }
}

pub fn pat(p: &Pat) -> String {
    match &p.kind {
        PatKind::Var(n) => n.text.clone(),
        PatKind::Wildcard => "_".to_string(),
        PatKind::Tuple(ps) => format!("({})", join(ps, ", ", pat)),
        PatKind::Record(fs) => format!("{{{}}}", join(fs, ", ", |(n, p)| format!("{} = {}", n.text, pat(p)))),
        PatKind::Ascribe(p, t) => format!("({}: {})", pat(p), ty(t)),
        PatKind::Literal(l) => literal(l),
        PatKind::Constructor(n, ps) if ps.is_empty() => format!("#{}", n.text),
        PatKind::Constructor(n, ps) => format!("(#{} {})", n.text, join(ps, " ", pat)),
        PatKind::Attr(a, p) => format!("(#[{}] {})", attr(a), pat(p)),
    }
}

fn size(s: &SizeExp) -> String {
    match s {
        SizeExp::Anonymous(_) => "[]".to_string(),
        SizeExp::Expr(e) => format!("[{}]", expr(e)),
    }
}

pub fn ty(t: &TypeExp) -> String {
    match t {
        TypeExp::Var(q) => q.to_string(),
        TypeExp::Tuple(ts, _) => format!("({})", join(ts, ", ", ty)),
        TypeExp::Record(fs, _) => format!("{{{}}}", join(fs, ", ", |(n, t)| format!("{}: {}", n.text, ty(t)))),
        TypeExp::Array(s, t, _) => format!("{}{}", size(s), ty(t)),
        TypeExp::Unique(t, _) => format!("*{}", ty(t)),
        TypeExp::Arrow { param: None, from, to, .. } => format!("({} -> {})", ty(from), ty(to)),
        TypeExp::Arrow { param: Some(n), from, to, .. } => format!("(({}: {}) -> {})", n.text, ty(from), ty(to)),
        TypeExp::Sum(cs, _) => format!(
            "({})",
            join(cs, " | ", |(n, ts)| {
                let payload = join(ts, "", |t| format!(" {}", ty(t)));
                format!("#{}{payload}", n.text)
            })
        ),
        TypeExp::Apply(f, arg, _) => match &**arg {
            TypeArg::Size(s) => format!("({} {})", ty(f), size(s)),
            TypeArg::Type(a) => format!("({} {})", ty(f), ty(a)),
        },
        TypeExp::Existential(bs, t, _) => {
            format!("?{}.{}", join(bs, "", |b| format!("[{}]", b.name.text)), ty(t))
        }
    }
}

pub fn dec(d: &Dec) -> String {
    match d {
        Dec::Value(v) => {
            let attrs = join(&v.attrs, "", |a| format!("#[{}] ", attr(a)));
            let kw = if v.entry { "entry" } else { "def" };
            format!(
                "{attrs}{kw} {}{}{}{} = {}",
                v.name.name.text,
                type_params(&v.type_params),
                params(&v.params),
                ret(&v.ret),
                expr(&v.body)
            )
        }
        Dec::Type(t) => {
            let kw = match t.liftedness {
                Liftedness::Unlifted => "type",
                Liftedness::SizeLifted => "type~",
                Liftedness::Lifted => "type^",
            };
            format!("{kw} {}{} = {}", t.name.name.text, type_params(&t.params), ty(&t.def))
        }
        Dec::Import { path, .. } => format!("import {path:?}"),
        Dec::Module(m) => {
            let params: String = m.params.iter().map(|p| format!(" ({}: {})", p.name.text, sig(&p.sig))).collect();
            let s = m.sig.as_ref().map(|s| format!(" : {}", sig(s))).unwrap_or_default();
            format!("module {}{params}{s} = {}", m.name.text, mod_exp(&m.body))
        }
        Dec::ModType { name, sig: s, .. } => format!("module type {} = {}", name.text, sig(s)),
        Dec::Open(m, _) => format!("open {}", mod_exp(m)),
        Dec::Local(d, _) => format!("local {}", dec(d)),
    }
}

pub fn mod_exp(m: &ModExp) -> String {
    match m {
        ModExp::Var(q) => q.to_string(),
        ModExp::Struct(decs, _) => format!("{{{}}}", join(decs, "; ", dec)),
        ModExp::Import(path, _) => format!("import {path:?}"),
        ModExp::Ascribe(m, s, _) => format!("({} : {})", mod_exp(m), sig(s)),
        ModExp::Apply(f, a, _) => format!("({} {})", mod_exp(f), mod_exp(a)),
        ModExp::Lambda(p, r, b, _) => {
            let r = r.as_ref().map(|s| format!(" : {}", sig(s))).unwrap_or_default();
            format!("(\\({}: {}){r} -> {})", p.name.text, sig(&p.sig), mod_exp(b))
        }
    }
}

pub fn sig(s: &SigExp) -> String {
    match s {
        SigExp::Var(q) => q.to_string(),
        SigExp::Specs(specs, _) => format!("{{{}}}", join(specs, "; ", spec)),
        SigExp::With { sig: s, path, params, def, .. } => {
            format!("({} with {path}{} = {})", sig(s), type_params(params), ty(def))
        }
        SigExp::Arrow { param: Some(p), from, to, .. } => format!("(({}: {}) -> {})", p.text, sig(from), sig(to)),
        SigExp::Arrow { param: None, from, to, .. } => format!("({} -> {})", sig(from), sig(to)),
    }
}

pub fn spec(s: &Spec) -> String {
    match s {
        Spec::Val { name, type_params: tp, ty: t, .. } => format!("val {}{}: {}", name.text, type_params(tp), ty(t)),
        Spec::Type { name, params, def, .. } => {
            let def = def.as_ref().map(|d| format!(" = {}", ty(d))).unwrap_or_default();
            format!("type {}{}{def}", name.name.text, type_params(params))
        }
        Spec::Module { name, sig: s, .. } => format!("module {}: {}", name.text, sig(s)),
        Spec::Include(s, _) => format!("include {}", sig(s)),
    }
}
