//! Claims about the IR that the default pipeline produces for whole
//! programs of `tests/opt/`: counts of loops and operations, read off the
//! optimised IR (the programs' values are checked by their test blocks).

use std::path::PathBuf;

use ogham_driver::pipeline::{compile_file, Stop};
use ogham_ir::{BinOp, Body, Exp, Program, Soac, SubExp, Type, UnOp};

fn optimised(name: &str) -> Program {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/opt").join(name);
    match compile_file(&path, Stop::Ir) {
        Ok(c) => c.ir,
        Err(e) => panic!("{}", e.rendered),
    }
}

/// Counts the statements of `body` (at any depth) for which `f` holds.
fn count(body: &Body, f: &dyn Fn(&Exp) -> bool) -> usize {
    body.stms
        .iter()
        .map(|s| {
            usize::from(f(&s.exp))
                + ogham_ir::visit::bodies(&s.exp).into_iter().map(|b| count(b, f)).sum::<usize>()
                + ogham_ir::visit::lambdas(&s.exp).into_iter().map(|l| count(&l.body, f)).sum::<usize>()
        })
        .sum()
}

#[test]
fn black_scholes_calls_and_puts_share_one_loop() {
    let prog = optimised("black_scholes_two_maps.fut");
    let main = prog.fun("main").expect("main");
    let before = compile_file(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/opt/black_scholes_two_maps.fut"),
        Stop::Lowered,
    )
    .expect("compiles")
    .ir;
    let lowered = before.fun("main").expect("main");
    let maps = |b: &Body| count(b, &|e| matches!(e, Exp::Soac(Soac::Screma { .. })));
    let unop = |b: &Body, op: UnOp| count(b, &|e| matches!(e, Exp::UnOp(o, _, _) if *o == op));
    // As lowered: two maps, calling `calls` and `puts`, each of which computes
    // sqrt T twice (in d1 and in d2) and exp (-r*T) once.
    assert_eq!(maps(&lowered.body), 2);
    // Optimised: one loop, in which sqrt T and exp (-r*T) are computed once
    // per element, and d1 (the one division of main) once.
    assert_eq!(maps(&main.body), 1, "{prog}");
    assert_eq!(main.body.stms.len(), 1, "{prog}");
    assert_eq!(unop(&main.body, UnOp::Sqrt), 1, "{prog}");
    assert_eq!(unop(&main.body, UnOp::Exp), 1, "{prog}");
    assert_eq!(count(&main.body, &|e| matches!(e, Exp::BinOp(ogham_ir::BinOp::Div, _, _, _))), 1, "{prog}");
    // normCdf is called on four different values: d1, d2, -d2 and -d1.
    assert_eq!(count(&main.body, &|e| matches!(e, Exp::Apply { .. })), 4, "{prog}");
}

#[test]
fn filter_count_and_last_of_scan_build_no_array() {
    let prog = optimised("filter_count.fut");
    // No statement of `count` or `total` binds an array, at any depth.
    for entry in ["count", "total"] {
        let f = prog.fun(entry).expect("entry");
        assert_eq!(array_bindings(&f.body), 0, "{prog}");
        assert_eq!(count(&f.body, &|e| matches!(e, Exp::Soac(Soac::Screma { scans, .. }) if scans.is_empty())), 1);
    }
    // A scan read at another index stays one.
    let middle = prog.fun("middle").expect("middle");
    assert_eq!(count(&middle.body, &|e| matches!(e, Exp::Soac(Soac::Screma { scans, .. }) if !scans.is_empty())), 1);
}

/// The statements binding arrays in `body`, at any depth.
fn array_bindings(b: &Body) -> usize {
    bindings_of_rank(b, 1)
}

/// The variables of rank `rank` or more bound in `b`, at any depth.
fn bindings_of_rank(b: &Body, rank: usize) -> usize {
    bindings(b, &|t| t.rank() >= rank)
}

/// The variables bound in `b`, at any depth, whose type `f` holds for.
fn bindings(b: &Body, f: &dyn Fn(&Type) -> bool) -> usize {
    b.stms
        .iter()
        .map(|s| {
            s.pat.iter().filter(|p| f(&p.ty)).count()
                + ogham_ir::visit::bodies(&s.exp).into_iter().map(|b| bindings(b, f)).sum::<usize>()
                + ogham_ir::visit::lambdas(&s.exp).into_iter().map(|l| bindings(&l.body, f)).sum::<usize>()
        })
        .sum()
}

/// Counts the statements for which `f` holds inside the bodies of the
/// top-level loops of `body`.
fn count_in_loops(body: &Body, f: &dyn Fn(&Exp) -> bool) -> usize {
    body.stms
        .iter()
        .filter_map(|s| match &s.exp {
            Exp::Loop { body, .. } => Some(body),
            _ => None,
        })
        .map(|b| count(b, f))
        .sum()
}

#[test]
fn only_lengths_are_computed_where_only_lengths_are_used() {
    let prog = optimised("shape_demand.fut");
    for entry in ["shifted_length", "two_diagonals_length"] {
        // The entry and every function it calls, transitively.
        let mut reached = vec![entry.to_string()];
        let mut at = 0;
        while at < reached.len() {
            let f = prog.fun(&reached[at]).expect("a function of the program");
            assert_eq!(array_bindings(&f.body), 0, "{entry} reaches {}, which builds an array:\n{prog}", f.name);
            if f.entry.is_none() {
                assert!(f.params.iter().all(|p| p.ty.rank() == 0), "{} takes an array:\n{prog}", f.name);
            }
            let mut calls = std::collections::BTreeSet::new();
            collect_calls(&f.body, &mut calls);
            for c in calls {
                if !reached.contains(&c) {
                    reached.push(c);
                }
            }
            at += 1;
        }
    }
    // `shift` itself, for the entry that returns the shifted array, builds it.
    let shifted = prog.fun("shifted").expect("shifted");
    let mut calls = std::collections::BTreeSet::new();
    collect_calls(&shifted.body, &mut calls);
    assert!(calls.iter().any(|c| array_bindings(&prog.fun(c).expect("callee").body) > 0), "{prog}");
}

fn collect_calls(b: &Body, out: &mut std::collections::BTreeSet<String>) {
    ogham_ir::visit::collect_calls(&b.stms, out);
}

#[test]
fn compilation_is_deterministic() {
    // Hash maps iterate in a different order in every instance; the IR
    // must not depend on it.
    let first = ogham_ir::print::program(&optimised("same_instance_twice.fut"));
    for _ in 0..20 {
        assert_eq!(ogham_ir::print::program(&optimised("same_instance_twice.fut")), first);
    }
}

/// The SOACs of `body` at any depth whose results are arrays (maps
/// building an array), and the array results of the function's top level.
fn array_soacs(b: &Body) -> usize {
    count(b, &|e| matches!(e, Exp::Soac(_)))
        - count(
            b,
            &|e| matches!(e, Exp::Soac(Soac::Screma { reduces, scans, .. }) if !reduces.is_empty() && scans.is_empty()),
        )
}

#[test]
fn dense_layer_and_convolution_are_one_loop_nest() {
    // Seed 000's figure 2: the A_iNF form has a loop per statement; after
    // fission, CSE, LICM and fusion the middle end leaves one map over the
    // rows (outputs) whose dot product is a reduction that builds no array.
    for (file, entry) in [("dense_layer.fut", "dense"), ("convolution.fut", "conv")] {
        let prog = optimised(file);
        let f = prog.fun(entry).expect("entry");
        let reductions =
            count(&f.body, &|e| matches!(e, Exp::Soac(Soac::Screma { reduces, .. }) if !reduces.is_empty()));
        assert_eq!(reductions, 1, "{prog}");
        assert_eq!(array_soacs(&f.body), 1, "{prog}");
        // Inside the outer map, nothing binds an array.
        let outer = f.body.stms.iter().find(|s| matches!(s.exp, Exp::Soac(_))).expect("the outer map");
        let inner: usize = ogham_ir::visit::lambdas(&outer.exp).into_iter().map(|l| array_bindings(&l.body)).sum();
        assert_eq!(inner, 0, "{prog}");
    }
}

/// The elementary functions (`tanh`, `exp`) that `entry` computes, in its
/// body and in every function it calls, directly or not.
fn elementary_functions(prog: &Program, entry: &str) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![entry.to_string()];
    let mut total = 0;
    while let Some(f) = todo.pop() {
        if !seen.insert(f.clone()) {
            continue;
        }
        let body = &prog.fun(&f).unwrap_or_else(|| panic!("no function {f}")).body;
        total += count(body, &|e| matches!(e, Exp::UnOp(UnOp::Tanh | UnOp::Exp, _, _)));
        let mut calls = std::collections::BTreeSet::new();
        collect_calls(body, &mut calls);
        todo.extend(calls);
    }
    total
}

#[test]
fn recurrent_gradient_computes_each_elementary_function_once() {
    // The objective's cell computes one `exp` (its gate's sigmoid) and one
    // `tanh`. Without tapes, the gradient called the cell in its forward
    // loop and again when re-executing each step's inner loop, and then
    // the cell's reverse derivative, which runs the cell once more (4 in
    // the functions the gradient reaches, each run once per step and
    // layer). With them, only the cell's forward half computes them, once
    // per step and layer; its reverse half reads them.
    let prog = optimised("recurrent_gradient.fut");
    assert_eq!(elementary_functions(&prog, "objective"), 2, "{prog}");
    assert_eq!(elementary_functions(&prog, "gradient"), 2, "{prog}");
}

#[test]
fn recurrent_gradient_saves_the_gate_exp_not_the_gate() {
    // Per step and layer, the forward loop saves the cell's input (the
    // inner loop's parameter) and the residuals of the cell's forward
    // half. Those were the gate `1 / (1 + exp (-z))`, the `exp (-z)` its
    // derivative reads, and the `tanh`; the reverse half now computes the
    // gate again from the saved `exp` (calls.rs, `replayed_map`), so one
    // array fewer is saved: three in all, each one number per step, layer
    // and element.
    let prog = optimised("recurrent_gradient.fut");
    let gradient = &prog.fun("gradient").expect("gradient").body;
    assert_eq!(count(gradient, &|e| matches!(e, Exp::Scratch { .. })), 3, "{prog}");
}

/// The `update`s in `body` (at any depth) that write a row computed by a
/// map of the same body.
fn map_rows_copied(body: &Body) -> usize {
    let mapped: Vec<_> = body
        .stms
        .iter()
        .filter(|s| matches!(s.exp, Exp::Soac(Soac::Screma { .. })))
        .flat_map(|s| s.pat.iter().map(|p| p.name))
        .collect();
    body.stms
        .iter()
        .map(|s| {
            let here = matches!(&s.exp, Exp::Update { value: ogham_ir::SubExp::Var(v), .. } if mapped.contains(v));
            usize::from(here)
                + ogham_ir::visit::bodies(&s.exp).into_iter().map(map_rows_copied).sum::<usize>()
                + ogham_ir::visit::lambdas(&s.exp).into_iter().map(|l| map_rows_copied(&l.body)).sum::<usize>()
        })
        .sum()
}

#[test]
fn recurrent_gradient_writes_its_tapes_in_place() {
    // The cell's forward half (made by reverse mode, called once) is
    // inlined into the forward loop (`inline` after `demand`), and the map
    // computing its residuals (the gate's `exp` and the `tanh`) writes each
    // of them straight into the tape of that step and layer (`mapinto`):
    // no call is left, and no mapped row is built and then copied into an
    // array by an `update`.
    let prog = optimised("recurrent_gradient.fut");
    let gradient = &prog.fun("gradient").expect("gradient").body;
    assert_eq!(count(gradient, &|e| matches!(e, Exp::Apply { .. })), 0, "{prog}");
    assert_eq!(map_rows_copied(gradient), 0, "{prog}");
    assert!(count(gradient, &|e| matches!(e, Exp::UpdAcc { op: None, .. })) >= 2, "{prog}");
}

/// The dot products (a reduction of the products of two arrays) in `body`.
fn dot_products(body: &Body) -> usize {
    count(body, &|e| {
        matches!(e, Exp::Soac(Soac::Screma { arrs, reduces, map, .. })
            if !reduces.is_empty()
                && arrs.len() == 2
                && matches!(&map.body.stms[..], [s] if matches!(s.exp, Exp::BinOp(BinOp::Mul, ..))))
    })
}

#[test]
fn mixture_gradient_computes_each_dot_product_once() {
    // The objective computes `Q_k (x_i - μ_k)` as one dot product per row.
    // The return sweep of each point runs the map over the components
    // again (its log-sum-exp reads the results), and the return sweep of
    // that map read its dot products again until the map saved them. The
    // gradient has two more, of its own: the transposed product `Q_kᵀ v`
    // and the sum of the outer products over the points (`accreduce`).
    let prog = optimised("mixture_gradient.fut");
    let objective = dot_products(&prog.fun("objective").expect("objective").body);
    assert!(objective > 0, "{prog}");
    assert_eq!(dot_products(&prog.fun("gradient").expect("gradient").body), objective + 2, "{prog}");
}

/// The dot products in `body` that run inside the function of a `withacc`
/// (other than `accreduce`'s over chunks of points, which holds all the
/// gradient's work).
fn dot_products_in_withaccs(body: &Body) -> usize {
    body.stms
        .iter()
        .map(|s| match &s.exp {
            Exp::Soac(Soac::WithAcc { map, .. }) if over_chunks(&map.body) => dot_products_in_withaccs(&map.body),
            Exp::Soac(Soac::WithAcc { map, .. }) => dot_products(&map.body),
            exp => {
                ogham_ir::visit::bodies(exp).into_iter().map(dot_products_in_withaccs).sum::<usize>()
                    + ogham_ir::visit::lambdas(exp)
                        .into_iter()
                        .map(|l| dot_products_in_withaccs(&l.body))
                        .sum::<usize>()
            }
        })
        .sum()
}

#[test]
fn mixture_gradient_runs_its_forward_by_component_and_the_means_product_once_per_component() {
    // Every point adds -Q_kᵀ w̄ into μ_k's adjoint; `linhoist` sums the w̄
    // over the points and runs the transposed product after them, in a
    // `withacc` over the components. The other dot product in a `withacc`
    // is `accreduce`'s sum of outer products over a chunk of points, which
    // each component adds into its slice of the sums as soon as it has it
    // (a `withacc` over the components). None is left in the points'
    // return sweep. The forward dot products `Q_k (x - μ_k)` that the
    // points' return sweep runs again move out of it (`acchoist`) and run
    // with the components outside the points (`interchange`), each Q_k
    // read by a whole chunk of points.
    let prog = optimised("mixture_gradient.fut");
    let gradient = &prog.fun("gradient").expect("gradient").body;
    assert_eq!(dot_products_in_withaccs(gradient), 2, "{prog}");
    assert_eq!(maps_over_points_of_maps_over_matrices(gradient), 0, "{prog}");
    let objective = &prog.fun("objective").expect("objective").body;
    assert_eq!(maps_over_points_of_maps_over_matrices(objective), 0, "{prog}");
}

/// Whether `body` is the function of `accreduce`'s `withacc` over chunks
/// of points: it runs a `withacc` over as many points as it computes.
fn over_chunks(body: &Body) -> bool {
    let bound: Vec<_> = body.stms.iter().flat_map(|s| s.pat.iter().map(|p| p.name)).collect();
    body.stms.iter().any(|s| matches!(&s.exp, Exp::Soac(Soac::WithAcc { w: SubExp::Var(w), .. }) if bound.contains(w)))
}

/// The maps over points (a vector per iteration) whose function maps over
/// per-component matrices (a matrix per iteration) computing dot
/// products: every point reads every matrix.
fn maps_over_points_of_maps_over_matrices(body: &Body) -> usize {
    let holds_dot_products = |exp: &Exp| ogham_ir::visit::lambdas(exp).iter().any(|l| dot_products(&l.body) > 0);
    count(body, &|e| {
        matches!(e, Exp::Soac(Soac::Screma { map, .. })
            if map.params.iter().any(|p| p.ty.rank() == 1)
                && map.body.stms.iter().any(|t| matches!(&t.exp, Exp::Soac(Soac::Screma { map: inner, .. })
                    if inner.params.iter().any(|p| p.ty.rank() == 2) && holds_dot_products(&t.exp))))
    })
}

#[test]
fn per_component_matrices_are_read_by_a_map_over_the_points() {
    let prog = optimised("interchange.fut");
    let f = prog.fun("objective").expect("objective");
    // The component map is a top-level statement whose lambda maps over
    // the points, and the points read its results transposed.
    let outer_over_components = f.body.stms.iter().any(|s| match &s.exp {
        Exp::Soac(Soac::Screma { map, .. }) => {
            map.body.stms.iter().any(|t| matches!(&t.exp, Exp::Soac(Soac::Screma { arrs, .. }) if arrs.len() == 1))
                && s.pat.iter().all(|p| p.ty.rank() == 2)
        }
        _ => false,
    });
    assert!(outer_over_components, "{prog}");
    assert_eq!(count(&f.body, &|e| matches!(e, Exp::Rearrange { perm, .. } if perm == &[1, 0])), 1, "{prog}");
}

#[test]
fn branch_adds_to_a_free_arrays_adjoint_in_place() {
    // Inside the reverse loop: no array built per iteration (a zero
    // adjoint, or a map adding it to the loop's).
    let prog = optimised("branch_adjoints_in_place.fut");
    let gradient = prog.fun("gradient").expect("gradient");
    let in_loops = count_in_loops(&gradient.body, &|e| matches!(e, Exp::Replicate { .. } | Exp::Soac(_)));
    assert_eq!(in_loops, 0, "{}", ogham_ir::print::program(&prog));
}

#[test]
fn conditional_updates_in_a_loop_are_logged_not_saved_whole() {
    // The Thomas algorithm's gradient: the loops update their arrays in
    // one branch or the other of an `if`. No matrix (a whole array saved
    // per iteration) anywhere, and no array copied inside a loop.
    let prog = optimised("thomas_solver.fut");
    let gradient = prog.fun("grad_d").expect("grad_d");
    let printed = ogham_ir::print::program(&prog);
    assert_eq!(bindings_of_rank(&gradient.body, 2), 0, "{printed}");
    let copies_in_loops = count_in_loops(&gradient.body, &|e| matches!(e, Exp::Copy(_)));
    assert_eq!(copies_in_loops, 0, "{printed}");
}

#[test]
fn range_updates_and_scatters_in_a_loop_are_logged_not_saved_whole() {
    // A loop updating a range of its array of the same length in every
    // iteration, or scattering (or adding into buckets) the same number
    // of values, logs what it overwrites per iteration: no array of rank
    // 2 or more has rows as long as the input (the array saved per
    // iteration).
    let cases: [(&str, &[&str]); 2] = [
        ("slice_updates_in_loops.fut", &["window", "blocks"]),
        ("scatter_updates_in_loops.fut", &["one", "out_of_range", "hist_add"]),
    ];
    for (file, entries) in cases {
        logged_not_saved_whole(file, entries);
    }
}

fn logged_not_saved_whole(file: &str, entries: &[&str]) {
    let prog = optimised(&format!("../ad/{file}"));
    let printed = ogham_ir::print::program(&prog);
    for entry in entries {
        let gradient = prog.fun(entry).expect("entry");
        let input = gradient.params.iter().find(|p| p.ty.rank() == 1).expect("the input array");
        let n: SubExp = input.ty.shape()[0];
        let whole_rows = bindings(&gradient.body, &|t| t.rank() >= 2 && t.shape()[1..].contains(&n));
        assert_eq!(whole_rows, 0, "{entry}: {printed}");
    }
}

#[test]
fn a_condition_reading_a_logged_array_copies_no_adjoint() {
    // The `if` of the loop reads the carried array in its condition: the
    // adjoint array the branches return is theirs, and the read's
    // contribution is added to it in place, not to a copy made per
    // reverse iteration.
    let prog = optimised("../ad/conditional_loop_updates.fut");
    let gradient = prog.fun("condition_reads").expect("condition_reads");
    let copies_in_loops = count_in_loops(&gradient.body, &|e| matches!(e, Exp::Copy(_)));
    assert_eq!(copies_in_loops, 0, "{}", ogham_ir::print::program(&prog));
}

#[test]
fn nested_conditional_updates_restore_in_place() {
    // `else if` and `match` in a loop, each branch updating the carried
    // array: the reverse loop undoes and restores the updates in place,
    // copying no array per iteration.
    let prog = optimised("../ad/conditional_loop_updates.fut");
    for entry in ["else_if", "by_case"] {
        let gradient = prog.fun(entry).expect("entry");
        let copies_in_loops = count_in_loops(&gradient.body, &|e| matches!(e, Exp::Copy(_)));
        assert_eq!(copies_in_loops, 0, "{entry}: {}", ogham_ir::print::program(&prog));
    }
}

#[test]
fn few_values_into_buckets_in_a_loop_touch_only_their_buckets() {
    // `reduce_by_index` with `max`, and with `*`, of two values per
    // iteration: the return sweep reads the destination's elements saved
    // at the indices and combines the values pairwise; no copy of the
    // destination, and no array of its size (a bucket per element), is
    // made per iteration.
    for (file, entry) in [("hist_extreme_few.fut", "in_loop"), ("hist_few_values.fut", "mul_loop")] {
        let prog = optimised(&format!("../ad/{file}"));
        let gradient = prog.fun(entry).expect("entry");
        let n: SubExp = gradient.params.iter().find(|p| p.ty.rank() == 1).expect("the input array").ty.shape()[0];
        let per_iteration = count_in_loops(&gradient.body, &|e| match e {
            Exp::Copy(_) => true,
            Exp::Replicate { shape, .. } => shape.contains(&n),
            _ => false,
        });
        assert_eq!(per_iteration, 0, "{entry}: {}", ogham_ir::print::program(&prog));
    }
}
