//! Demand-driven rewrites: compute only the part of a value that its uses
//! demand (seed 003's idea, on the core IR).
//!
//! What this pass knows so far is one demand level between "nothing" and
//! "the whole array": a scan's result that is only ever read at its last
//! element (`r[w-1]`, as lowering writes the count of a `filter` and as
//! programs write the total of a prefix sum) is demanded as that element
//! alone, which is the reduction of the same operator over the same
//! values. The scan becomes a reduce of the same `Screma`, no array of `w`
//! elements is built, and each read becomes the reduced value. The read's
//! bounds check stays (as a check that `w - 1` is a valid index, which
//! fails exactly when `w` is zero, with the index's own message) unless
//! the read was `#[unsafe]`.
//!
//! Arrays whose size alone is used need no pass of their own: sizes are
//! separate `i64` values in the IR, so dead-code elimination already drops
//! a `map` whose result only has its length taken. Shape and rank demand
//! through function calls and loops are not analysed yet.

use std::collections::HashMap;

use ogham_ir::visit::{count_uses, nested_bodies_mut};
use ogham_ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, NameTable, Operator, Param, PrimType, PrimValue, Program, Soac, Stm, SubExp,
    Type, VName,
};

/// Turns scans read only at their last element into reductions, in every function.
pub fn demand_program(prog: &mut Program) {
    crate::on_consts(prog, demand_body);
    for f in &mut prog.funs {
        demand_body(&mut f.body, &mut prog.names);
    }
}

fn demand_body(body: &mut Body, names: &mut NameTable) {
    let mut uses = HashMap::new();
    count_uses(body, &mut uses);
    let mut minus_one = HashMap::new();
    collect_minus_one(body, &mut minus_one);
    // For each array, its reads at a fixed position, counted.
    let mut reads: HashMap<VName, (SubExp, usize)> = HashMap::new();
    collect_reads(body, &mut reads);
    let last_only = |v: VName, w: SubExp| -> bool {
        match reads.get(&v) {
            Some((SubExp::Var(t), n)) => minus_one.get(t) == Some(&w) && uses.get(&v) == Some(n),
            _ => false,
        }
    };
    let mut reduced: HashMap<VName, SubExp> = HashMap::new();
    rewrite_scans(body, &last_only, &mut reduced);
    if !reduced.is_empty() {
        replace_reads(body, &reduced, names);
    }
}

/// `t = w - 1` definitions: `t ↦ w`.
fn collect_minus_one(body: &Body, out: &mut HashMap<VName, SubExp>) {
    for s in &body.stms {
        if let (Exp::BinOp(BinOp::Sub, PrimType::I64, w, SubExp::Const(PrimValue::I64(1))), [p]) = (&s.exp, &s.pat[..])
        {
            out.insert(p.name, *w);
        }
        for b in ogham_ir::visit::bodies(&s.exp) {
            collect_minus_one(b, out);
        }
        for l in ogham_ir::visit::lambdas(&s.exp) {
            collect_minus_one(&l.body, out);
        }
    }
}

/// Reads `a[t]` of one fixed index: per array, the index when every such
/// read uses the same one, and how many there are. An array read at two
/// different indices gets a constant index that matches nothing.
fn collect_reads(body: &Body, out: &mut HashMap<VName, (SubExp, usize)>) {
    for s in &body.stms {
        if let Exp::Index { array, slice } = &s.exp {
            if let [DimIndex::Fix(t)] = slice[..] {
                let e = out.entry(*array).or_insert((t, 0));
                if e.0 != t {
                    e.0 = SubExp::Const(PrimValue::Bool(false));
                }
                e.1 += 1;
            }
        }
        for b in ogham_ir::visit::bodies(&s.exp) {
            collect_reads(b, out);
        }
        for l in ogham_ir::visit::lambdas(&s.exp) {
            collect_reads(&l.body, out);
        }
    }
}

/// Moves every scan operator whose outputs are all read only at their
/// last element to the reductions of its `Screma`; records the outputs.
fn rewrite_scans(body: &mut Body, last_only: &dyn Fn(VName, SubExp) -> bool, reduced: &mut HashMap<VName, SubExp>) {
    for s in &mut body.stms {
        for b in nested_bodies_mut(&mut s.exp) {
            rewrite_scans(b, last_only, reduced);
        }
        scan_to_reduce(s, last_only, reduced);
    }
}

fn scan_to_reduce(stm: &mut Stm, last_only: &dyn Fn(VName, SubExp) -> bool, reduced: &mut HashMap<VName, SubExp>) {
    let Exp::Soac(Soac::Screma { w, scans, reduces, map, .. }) = &mut stm.exp else { return };
    let w = *w;
    let scan_widths: Vec<usize> = scans.iter().map(|o| o.neutral.len()).collect();
    let n_scan: usize = scan_widths.iter().sum();
    let n_red: usize = reduces.iter().map(|o| o.neutral.len()).sum();
    if stm.pat.len() < n_scan + n_red || map.body.result.len() < n_scan + n_red {
        return;
    }
    // Which scan operators go: all their outputs are read at `w - 1` only.
    let mut at = 0;
    let mut moving = Vec::new();
    for &k in &scan_widths {
        moving.push(k > 0 && stm.pat[at..at + k].iter().all(|p| last_only(p.name, w)));
        at += k;
    }
    if !moving.iter().any(|&m| m) {
        return;
    }
    // Reorder operators, pattern and lambda results: kept scans, then the
    // old reductions, then the new ones, then the mapped values.
    let old_scans = std::mem::take(scans);
    let mut pat = std::mem::take(&mut stm.pat);
    let mut res = std::mem::take(&mut map.body.result);
    let mut ret = std::mem::take(&mut map.ret);
    let rest_pat = pat.split_off(n_scan + n_red);
    let red_pat = pat.split_off(n_scan);
    let rest_res = res.split_off(n_scan + n_red);
    let red_res = res.split_off(n_scan);
    let rest_ret = ret.split_off(n_scan + n_red);
    let red_ret = ret.split_off(n_scan);
    let (mut kept_pat, mut kept_res, mut kept_ret) = (Vec::new(), Vec::new(), Vec::new());
    let (mut new_pat, mut new_res, mut new_ret) = (Vec::new(), Vec::new(), Vec::new());
    let mut new_ops: Vec<Operator> = Vec::new();
    let mut at = 0;
    for (op, (&k, &m)) in old_scans.into_iter().zip(scan_widths.iter().zip(&moving)) {
        let range = at..at + k;
        at += k;
        if m {
            for p in &pat[range.clone()] {
                // The reduced value has the type of one element of the scan.
                let ty = p.ty.row();
                reduced.insert(p.name, w);
                new_pat.push(Param { name: p.name, ty });
            }
            new_res.extend_from_slice(&res[range.clone()]);
            new_ret.extend_from_slice(&ret[range]);
            new_ops.push(op);
        } else {
            kept_pat.extend_from_slice(&pat[range.clone()]);
            kept_res.extend_from_slice(&res[range.clone()]);
            kept_ret.extend_from_slice(&ret[range]);
            scans.push(op);
        }
    }
    reduces.extend(new_ops);
    stm.pat = [kept_pat, red_pat, new_pat, rest_pat].concat();
    map.body.result = [kept_res, red_res, new_res, rest_res].concat();
    map.ret = [kept_ret, red_ret, new_ret, rest_ret].concat();
}

/// Replaces each read `x = r[t]` of a reduced scan output `r` by `x = r`,
/// after a check that `t` (which is `w - 1`) is a valid index, with the
/// message the index would have given.
fn replace_reads(body: &mut Body, reduced: &HashMap<VName, SubExp>, names: &mut NameTable) {
    let mut stms = Vec::with_capacity(body.stms.len());
    for mut s in std::mem::take(&mut body.stms) {
        if let Exp::Index { array, slice } = &s.exp {
            if let (Some(&w), [DimIndex::Fix(t)]) = (reduced.get(array), &slice[..]) {
                let r = *array;
                if !s.attrs.unsafe_ {
                    // `t = w - 1 < w` holds, so the index is valid when `0 <= t`.
                    let ok = names.fresh("index_ok");
                    stms.push(Stm {
                        pat: vec![Param { name: ok, ty: Type::Prim(PrimType::Bool) }],
                        exp: Exp::CmpOp(CmpOp::Le, PrimType::I64, SubExp::i64(0), *t),
                        attrs: s.attrs,
                        span: s.span,
                    });
                    let message = "Index [] out of bounds for array of shape [].".to_string();
                    stms.push(Stm {
                        pat: Vec::new(),
                        exp: Exp::Assert { cond: SubExp::Var(ok), message, args: vec![(7, *t), (43, w)] },
                        attrs: s.attrs,
                        span: s.span,
                    });
                }
                s.exp = Exp::SubExp(SubExp::Var(r));
            }
        }
        for b in nested_bodies_mut(&mut s.exp) {
            replace_reads(b, reduced, names);
        }
        stms.push(s);
    }
    body.stms = stms;
}
