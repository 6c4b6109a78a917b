//! Loops whose carried arrays have sizes that are loop parameters (the
//! lowering makes a size a parameter whenever it is not known to stay the
//! same). Reverse mode saves every iteration's parameters in one array
//! per parameter, which needs one shape for all iterations, so under `vjp`
//! such a loop is rewritten to keep its initial sizes: uses of a size
//! parameter become its initial value, and each iteration checks that the
//! sizes it returns are those (a located run-time error otherwise; a
//! compile-time error where both are constants and differ, or where the
//! body returns the initial size plus or minus a constant: `xs ++ [x]`).

use ogham_ir::visit::{substitute_type, substitute_uses};
use ogham_ir::{BinOp, CmpOp, Exp, Param, PrimType, Stm, SubExp, Type, VName};

use super::R;
use crate::ad::Ad;
use crate::Rejection;

impl Ad {
    /// `s` with its loop's size parameters fixed to their initial values,
    /// when it is such a loop.
    pub(super) fn fixed_loop_sizes(&mut self, s: &Stm) -> R<Option<Stm>> {
        let Exp::Loop { params, form, body } = &s.exp else { return Ok(None) };
        let mentioned = |v: VName| params.iter().any(|(p, _)| p.ty.shape().contains(&SubExp::Var(v)));
        let sizes: Vec<(usize, VName, SubExp)> = params
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| p.ty == Type::Prim(PrimType::I64) && mentioned(p.name))
            .map(|(k, (p, init))| (k, p.name, *init))
            .collect();
        if sizes.is_empty() {
            return Ok(None);
        }
        let to = |v: VName| sizes.iter().find(|(_, p, _)| *p == v).map(|(_, _, init)| *init);
        let mut params = params.clone();
        for (p, _) in &mut params {
            substitute_type(&mut p.ty, &to);
        }
        let mut body = body.clone();
        substitute_uses(&mut body, &to);
        let span = s.span;
        for &(k, _, init) in &sizes {
            let next = body.result[k];
            if differs(&body.stms, next, init) {
                return Err(Rejection {
                    name: "loop-shape-change",
                    span,
                    message: "reverse-mode automatic differentiation (`vjp`) of a loop whose carried arrays change \
                              shape between iterations is not supported."
                        .into(),
                });
            }
            if matches!((next, init), (SubExp::Const(_), SubExp::Const(_))) {
                // Equal constants: nothing to check at run time.
                continue;
            }
            let same =
                self.scalar(&mut body.stms, PrimType::Bool, Exp::CmpOp(CmpOp::Eq, PrimType::I64, next, init), span);
            body.stms.push(Stm {
                pat: vec![],
                exp: Exp::Assert {
                    cond: same,
                    message: "a loop differentiated by `vjp` changed the shape of an array it carries".into(),
                    args: vec![],
                },
                attrs: Default::default(),
                span,
            });
            body.result[k] = init;
        }
        // Arrays the body computed with other sizes are seen in the fixed
        // shape (the reshape checks the element count again).
        for ((p, _), r) in params.iter().zip(body.result.iter_mut()) {
            let SubExp::Var(v) = *r else { continue };
            if p.ty.rank() == 0 || self.types.get(&v) == Some(&p.ty) {
                continue;
            }
            let fixed = self.bind(
                &mut body.stms,
                "fixed",
                p.ty.clone(),
                Exp::Reshape { array: v, shape: p.ty.shape().to_vec() },
                span,
            );
            *r = SubExp::Var(fixed);
        }
        let mut pat: Vec<Param> = s.pat.clone();
        for (q, (p, _)) in pat.iter_mut().zip(&params) {
            if q.ty.rank() > 0 {
                q.ty = p.ty.clone();
                self.types.insert(q.name, q.ty.clone());
            }
        }
        for (p, _) in &params {
            self.types.insert(p.name, p.ty.clone());
        }
        Ok(Some(Stm { pat, exp: Exp::Loop { params, form: form.clone(), body }, attrs: s.attrs, span }))
    }
}

/// Whether the size `next` a loop body returns provably differs from the
/// size `init` it started with: two different constants, or `init` plus or
/// minus a nonzero constant computed in the body (`xs ++ [x]`, `xs[1:]`).
fn differs(stms: &[Stm], next: SubExp, init: SubExp) -> bool {
    if let (SubExp::Const(a), SubExp::Const(b)) = (next, init) {
        return a != b;
    }
    let SubExp::Var(v) = next else { return false };
    let Some(def) = stms.iter().find(|s| s.pat.first().is_some_and(|p| p.name == v)) else { return false };
    let nonzero = |x: &SubExp| matches!(x, SubExp::Const(c) if c.as_i64() != 0);
    match &def.exp {
        Exp::BinOp(BinOp::Add, PrimType::I64, a, b) => (*a == init && nonzero(b)) || (*b == init && nonzero(a)),
        Exp::BinOp(BinOp::Sub, PrimType::I64, a, b) => *a == init && nonzero(b),
        _ => false,
    }
}
