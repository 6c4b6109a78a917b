//! Vertical fusion: a producer `map` is merged into the SOAC that consumes it.
//!
//! A statement `let ys = map(w, xs, f)` (a `Screma` with no scans or
//! reductions) whose results are used only as input arrays of one later SOAC
//! over the same `w` (a `map`, `reduce`, `scan`, `hist` or `scatter`) is
//! removed, and its lambda is run inside the consumer's lambda instead: the
//! consumer reads the producer's inputs, computes `f` per element, and binds
//! its former parameters to `f`'s results. So `reduce (+) 0 (map2 (*) xs ys)`
//! becomes one loop that never materialises the products. Variable names stay
//! unique because the producer's statement disappears.
//!
//! The rewrite is only done when no statement between producer and consumer
//! may consume (update in place) anything the producer reads, since the
//! producer's work moves to the consumer's position; an array passed to a
//! function or given to a loop counts as possibly consumed.

use std::collections::{BTreeSet, HashMap};

use ogham_ir::visit::{bodies, consumed_deep, for_each_operand, free_vars_exp, lambdas};
use ogham_ir::{Body, Exp, Lambda, Param, Program, Soac, Stm, StmAttrs, SubExp, VName};

/// Fuses every function of the program.
pub fn fuse_program(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.funs {
        fuse_body(&mut f.body);
    }
    out
}

/// Fuses inside a body, innermost bodies first.
pub fn fuse_body(body: &mut Body) {
    for stm in &mut body.stms {
        fuse_nested(&mut stm.exp);
    }
    while let Some((p, c)) = find_pair(body) {
        let producer = body.stms.remove(p);
        let consumer = &mut body.stms[c - 1];
        merge(producer, consumer);
    }
}

fn fuse_nested(exp: &mut Exp) {
    match exp {
        Exp::If { then_body, else_body, .. } => {
            fuse_body(then_body);
            fuse_body(else_body);
        }
        Exp::Loop { body, .. } => fuse_body(body),
        Exp::Soac(soac) => {
            let (map, ops): (&mut Lambda, Vec<&mut Lambda>) = match soac {
                Soac::Screma { scans, reduces, map, .. } => {
                    (map, scans.iter_mut().chain(reduces.iter_mut()).map(|o| &mut o.lambda).collect())
                }
                Soac::Hist { ops, map, .. } => (map, ops.iter_mut().map(|o| &mut o.op.lambda).collect()),
                Soac::Scatter { map, .. } => (map, Vec::new()),
            };
            fuse_body(&mut map.body);
            for l in ops {
                fuse_body(&mut l.body);
            }
        }
        _ => {}
    }
}

/// Counts the uses of every variable in a body (nested bodies included).
pub(crate) fn count_uses(body: &Body, counts: &mut HashMap<VName, usize>) {
    for stm in &body.stms {
        count_uses_exp(&stm.exp, counts);
    }
    for r in &body.result {
        if let SubExp::Var(v) = r {
            *counts.entry(*v).or_default() += 1;
        }
    }
}

pub(crate) fn count_uses_exp(exp: &Exp, counts: &mut HashMap<VName, usize>) {
    for_each_operand(exp, &mut |se| {
        if let SubExp::Var(v) = se {
            *counts.entry(v).or_default() += 1;
        }
    });
    for b in bodies(exp) {
        count_uses(b, counts);
    }
    for l in lambdas(exp) {
        count_uses(&l.body, counts);
    }
}

/// The parts of a SOAC that fusion rewrites: its width, input arrays and map lambda.
fn soac_parts(exp: &Exp) -> Option<(&SubExp, &Vec<VName>, &Lambda)> {
    match exp {
        Exp::Soac(Soac::Screma { w, arrs, map, .. })
        | Exp::Soac(Soac::Hist { w, arrs, map, .. })
        | Exp::Soac(Soac::Scatter { w, arrs, map, .. }) => Some((w, arrs, map)),
        _ => None,
    }
}

fn is_plain_map(stm: &Stm) -> bool {
    matches!(&stm.exp, Exp::Soac(Soac::Screma { scans, reduces, .. }) if scans.is_empty() && reduces.is_empty())
}

/// Finds a producer `p` and its consumer `c` (indices into `body.stms`).
fn find_pair(body: &Body) -> Option<(usize, usize)> {
    let mut counts = HashMap::new();
    count_uses(body, &mut counts);
    for (p, producer) in body.stms.iter().enumerate() {
        if !is_plain_map(producer) || producer.attrs.sequential {
            continue;
        }
        let Some((pw, _, plam)) = soac_parts(&producer.exp) else { continue };
        if plam.body.result.len() != producer.pat.len() {
            continue;
        }
        let outs: Vec<VName> = producer.pat.iter().map(|x| x.name).collect();
        let total: usize = outs.iter().map(|v| counts.get(v).copied().unwrap_or(0)).sum();
        if total == 0 {
            continue;
        }
        // The first later statement that uses any output must be the consumer, using all of them.
        let Some(c) = (p + 1..body.stms.len()).find(|&c| {
            let mut m = HashMap::new();
            count_uses_exp(&body.stms[c].exp, &mut m);
            outs.iter().any(|v| m.contains_key(v))
        }) else {
            continue;
        };
        let consumer = &body.stms[c];
        let Some((cw, carrs, _)) = soac_parts(&consumer.exp) else { continue };
        if cw != pw {
            continue;
        }
        let in_arrs = carrs.iter().filter(|a| outs.contains(a)).count();
        if in_arrs != total {
            continue;
        }
        // Nothing in between may consume what the producer reads.
        let reads: BTreeSet<VName> = free_vars_exp(&producer.exp);
        let clobbered = body.stms[p + 1..=c].iter().any(|s| may_consume(&s.exp).iter().any(|v| reads.contains(v)));
        if clobbered {
            continue;
        }
        return Some((p, c));
    }
    None
}

/// The variables `exp` may consume: those it or a nested statement consumes
/// directly, and, since neither says which of them it consumes, every array
/// passed to a function (`Apply`) or given as a loop's initial value (a loop
/// updating its parameter in place writes into that array).
fn may_consume(exp: &Exp) -> BTreeSet<VName> {
    fn go(exp: &Exp, out: &mut BTreeSet<VName>) {
        let args: Vec<&SubExp> = match exp {
            Exp::Apply { args, .. } => args.iter().collect(),
            Exp::Loop { params, .. } => params.iter().filter(|(p, _)| p.ty.rank() > 0).map(|(_, init)| init).collect(),
            _ => Vec::new(),
        };
        out.extend(args.into_iter().filter_map(|a| match a {
            SubExp::Var(v) => Some(*v),
            SubExp::Const(_) => None,
        }));
        for b in bodies(exp) {
            b.stms.iter().for_each(|s| go(&s.exp, out));
        }
        for l in lambdas(exp) {
            l.body.stms.iter().for_each(|s| go(&s.exp, out));
        }
    }
    let mut out = consumed_deep(exp);
    go(exp, &mut out);
    out
}

/// Moves the producer's lambda into the consumer's.
fn merge(producer: Stm, consumer: &mut Stm) {
    let Exp::Soac(Soac::Screma { arrs: parrs, map: plam, .. }) = producer.exp else { return };
    let outs: Vec<VName> = producer.pat.iter().map(|x| x.name).collect();
    let (carrs, clam) = match &mut consumer.exp {
        Exp::Soac(Soac::Screma { arrs, map, .. })
        | Exp::Soac(Soac::Hist { arrs, map, .. })
        | Exp::Soac(Soac::Scatter { arrs, map, .. }) => (arrs, map),
        _ => return,
    };
    let mut kept_arrs = Vec::new();
    let mut kept_params = Vec::new();
    let mut bridge = Vec::new();
    for (a, param) in carrs.iter().zip(clam.params.iter()) {
        match outs.iter().position(|o| o == a) {
            Some(k) => bridge.push(Stm {
                pat: vec![Param { name: param.name, ty: param.ty.clone() }],
                exp: Exp::SubExp(plam.body.result[k]),
                attrs: StmAttrs::default(),
                span: producer.span,
            }),
            None => {
                kept_arrs.push(*a);
                kept_params.push(param.clone());
            }
        }
    }
    kept_arrs.extend(parrs);
    kept_params.extend(plam.params);
    let mut stms = plam.body.stms;
    stms.extend(bridge);
    stms.append(&mut clam.body.stms);
    *carrs = kept_arrs;
    clam.params = kept_params;
    clam.body.stms = stms;
}
