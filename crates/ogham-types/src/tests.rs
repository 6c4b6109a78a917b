//! Unit tests on source snippets: the prelude checks, well-typed programs get
//! the expected types, and every diagnostic name is produced by a minimal
//! program.

use ogham_syntax::ast::{NodeIds, Program};
use ogham_syntax::parser::parse_program;
use ogham_syntax::{Diagnostic, FileId};

use crate::prelude::PRELUDE;
use crate::{check, CheckInput, TypeInfo};

fn parse_all(main: &str) -> Result<Vec<Program>, Vec<Diagnostic>> {
    let mut ids = NodeIds::default();
    let mut programs = Vec::new();
    let mut texts: Vec<&str> = PRELUDE.iter().map(|(_, t)| *t).collect();
    texts.push(main);
    for (i, text) in texts.iter().enumerate() {
        let (p, diags) = parse_program(FileId(i as u32), text, &mut ids);
        if !diags.is_empty() {
            return Err(diags);
        }
        programs.push(p);
    }
    Ok(programs)
}

fn run(main: &str) -> Result<TypeInfo, Vec<Diagnostic>> {
    check_all(&parse_all(main).unwrap_or_else(|d| panic!("parse errors: {d:?}")))
}

/// Checks parsed files, the last one the main file.
fn check_all(programs: &[Program]) -> Result<TypeInfo, Vec<Diagnostic>> {
    let n = programs.len();
    let inputs: Vec<CheckInput> = programs
        .iter()
        .enumerate()
        .map(|(i, p)| CheckInput { program: p, is_main: i + 1 == n, imports: Vec::new() })
        .collect();
    check(&inputs)
}

fn ok(main: &str) -> TypeInfo {
    match run(main) {
        Ok(info) => info,
        Err(diags) => {
            panic!("expected success, got {:#?}", diags.iter().map(|d| (d.name, &d.message)).collect::<Vec<_>>())
        }
    }
}

fn err(main: &str, name: &str) -> Vec<Diagnostic> {
    match run(main) {
        Ok(_) => panic!("expected error {name}, but the program checked"),
        Err(diags) => {
            assert!(
                diags.iter().any(|d| d.name == name),
                "expected {name}, got {:#?}",
                diags.iter().map(|d| (d.name, &d.message)).collect::<Vec<_>>()
            );
            diags
        }
    }
}

/// The pretty-printed type of the last definition.
fn last_type(info: &TypeInfo) -> String {
    let def = info.defs.last().expect("a definition");
    crate::show_type(&def.ty, &Default::default())
}

#[test]
fn prelude_checks() {
    ok("");
}

#[test]
fn simple_types() {
    assert_eq!(last_type(&ok("def f (x: i32) = x + 1")), "i32 -> i32");
    assert_eq!(last_type(&ok("def x = 1")), "i32");
    assert_eq!(last_type(&ok("def x = 1.5")), "f64");
    assert_eq!(last_type(&ok("def x: f32 = 1")), "f32");
    assert_eq!(last_type(&ok("def x = (1, true)")), "(i32, bool)");
    assert_eq!(last_type(&ok("def r = {x = 1f64, y = 2f64}")), "{x: f64, y: f64}");
    assert_eq!(last_type(&ok("def f (xs: []f32) = map (+1) xs |> f32.sum")).contains("-> f32"), true);
}

#[test]
fn polymorphism_and_prelude() {
    ok("def main (xs: []i32) = reduce (+) 0 (map (*2) xs)");
    ok("def main [n] (xs: [n]i32) (ys: [n]i32) : []i32 = map2 (+) xs ys");
    // Anonymous parameter sizes are inferred: the two `[]` become one size (as in Futhark).
    ok("def main (xs: []i32) (ys: []i32) : []i32 = map2 (+) xs ys");
    err("def main [n] [m] (xs: [n]i32) (ys: [m]i32) : []i32 = map2 (+) xs ys", "size-mismatch");
    // ... but not with a size known only inside the body.
    err("def main (xs: []i32) = let ys = filter (>0) xs in map2 (+) xs ys", "size-mismatch");
    err("def main (xs: []i64) = let n = length xs in map2 (+) xs (iota n)", "size-mismatch");
    ok("def main (n: i64) (xs: []i64) = map2 (+) xs (iota n)");
    ok("def main [n] (xs: [n]i32) = map2 (+) xs (rep 1)");
    err("def main : []i32 = rep 0", "ambiguous-size");
    // A type nothing constrains is the unit type, as in Futhark.
    ok("def main : i64 = length []");
    ok("def main [n] (k: i64) (xs: [n]i32) = split (xs :> [k + (n - k)]i32)");
    ok("def main [n] (xs: [n]i32) = let m = n / 2 in unflatten (xs :> [2 * m]i32)");
    ok("def main (x: i32) = let id2 't (v: t) : t = v in (id2 x, id2 true)");
    // Arguments are evaluated last to first: the array is known before the function.
    ok("def ap [n] (f: [n]i32 -> i32) (xs: [n]i32) = f xs\ndef main (ys: []i32) = ap (\\zs -> zs[0]) (filter (>0) ys)");
    err(
        "def ap [n] (xs: [n]i32) (f: [n]i32 -> i32) = f xs\ndef main (ys: []i32) = ap (filter (>0) ys) (\\zs -> zs[0])",
        "causality-check",
    );
    err("def f (x: i32) : []i32 -> i32 = \\ys -> ys[0] + x", "existential-param-ret");
    err("def main (xs: []i32) = map (\\x -> \\(y: i32) -> x + y) xs", "array-of-functions");
    ok("def main (x: i32) : i32 -> i32 = \\y -> x + y");
    ok("def main = map (f32.acos)");
    err("def main (x: i32) : (i32 -> i32) -> i32 = \\f -> f x", "higher-order-entry");
    err("def main (x: i32) : i32 -> (i32 -> i32, i32) = \\y -> ((+y), x)", "higher-order-entry");
    err("def f (s: #a i32 i32 | #b) = match s case #a x -> x case #b -> 0", "arity-mismatch");
    ok("def main (n: i64) = let a = replicate n 0i32 let a = if n > 1 then a with [1] = 1 else a in a with [0] = 2");
    ok("def main (xs: []f32) = let (a, b) = unzip (zip xs xs) in map2 (*) a b");
    ok("def main (n: i64) = tabulate_2d n n (\\i j -> i + j)");
    ok("def main (xs: []i32) = filter (>0) xs");
    ok("def main (xs: []i32) = let (a, b) = partition (>0) xs in (length a, length b)");
    ok("def main (xs: [6]i32) = unflatten xs : [2][3]i32");
    ok("def main [n] [m] (xss: [n][m]f64) : [n*m]f64 = flatten xss");
    ok("def main (xs: []i32) = scan (+) 0 xs |> reverse |> head");
    ok("def main (x: f32) = f32.sqrt x + f32.pi + f32.i32 3 + f32.from_bits (f32.to_bits x)");
    ok("def main (xs: []i32) = i32.sum xs + i32.maximum xs + i32.num_bits");
    ok("def main [n] (dest: *[10]i32) (is: [n]i64) (vs: [n]i32) = scatter dest is vs");
    ok("def main (xs: []f32) = hist (+) 0 10 (map (\\_ -> 0) xs) xs");
    ok("def id2 x = x\ndef main = (id2 1i32, id2 true)");
}

#[test]
fn sizes() {
    ok("def f [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys");
    ok("def f [n] (xs: [n]i32) : [n+1]i32 = xs ++ [1]");
    ok("def f [n] (xs: [n]i32) : [1+n]i32 = xs ++ [1]");
    ok("def f [n] (xs: [n+1]i32) : [n]i32 = tail xs");
    ok("def f (n: i64) : [n]i64 = iota n");
    ok("def f (xs: []i32) = let [k] (ys: [k]i32) = filter (>0) xs in length ys");
    ok("def f [n] (xs: [n]i32) = if true then xs else xs");
    ok("def f [n] [m] (xs: [n]i32) (ys: [m]i32) = if true then xs else ys");
    ok("def f [n] (xs: [n]i32) = loop acc = xs for i < 3 do map (+1) acc");
    ok("def f = loop acc = [] for i < 3 do acc ++ [i]");
    ok("def f [n] (xs: [n]i32) : [n]i32 = xs :> [n]i32");
    err("def f [n] [m] (xs: [n]i32) (ys: [m]i32) = map2 (+) xs ys", "size-mismatch");
    let diags = err("def f [n] [m] (xs: [n]i32) (ys: [m]i32) = zip xs ys", "size-mismatch");
    assert!(diags[0].message.contains("do not match"));
    err("def f (xs: []i32) = let ys = filter (>0) xs in zip xs ys", "size-mismatch");
}

#[test]
fn records_and_sums() {
    ok("def f (p: {x: f64, y: f64}) = p.x + p.y");
    ok("def f (p: (i32, bool)) = p.0");
    ok("def f (ps: [](i32, f32)) = map (\\p -> p.1) ps");
    ok("def f (p: {x: f64, y: f64}) = p with x = 2");
    ok("type t = #a i32 | #b\ndef f (x: t) = match x case #a v -> v case #b -> 0");
    ok("def f (b: bool) : #yes | #no = if b then #yes else #no");
    err("def f (p: {x: f64}) = p.z", "unknown-field");
    err("def f p = p.x", "record-type-not-known");
}

#[test]
fn consumption() {
    ok("def f (xs: *[]i32) = xs with [0] = 1");
    ok("def f (xs: []i32) = let ys = copy xs in ys with [0] = 1");
    ok("def f (n: i64) = let xs = replicate n 0 let xs[0] = 1 in xs");
    ok("def f (xs: *[]i32) = loop xs for i < 3 do xs with [i] = 0");
    err("def f (xs: []i32) = xs with [0] = 1", "not-consumable");
    err("def f (xs: *[]i32) = let ys = xs with [0] = 1 in xs[0]", "use-after-consume");
    err("def f (xs: *[]i32) = let ys = xs let zs = ys with [0] = 1 in xs", "use-after-consume");
    err("def g (xs: *[]i32) (ys: []i32) = xs\ndef f (xs: *[]i32) = g xs xs", "consuming-argument");
    err("def f (xs: []i32) : *[]i32 = xs", "return-aliased");
    err("def f (xs: *[]i32) : (*[]i32, *[]i32) = (xs, xs)", "unique-return-aliased");
    err("def f (xs: *[]i32) = map (\\i -> let ys = xs with [0] = i32.i64 i in ys[0]) (iota 3)", "not-consumable");
    err(
        "def g (x: *[]i32) (i: i64) = x with [i] = 0\ndef f (xs: *[]i32) = let h = g xs in h 0",
        "contains-consumption",
    );
    err("def g (p: *([]i32, []i32)) = p.0\ndef f (xs: *[]i32) = g (xs, xs)", "self-aliasing-arg");
    err("def t : []i32 = [1]\ndef f (b: bool) = if b then t else [2]", "alias-free-variable");
    err("def t : *[]i32 = [1]", "unique-constant");
    err("def f (m: *[][]i32) = m with [0] = m[1]", "in-place-alias");
    err("def f (o: []i32) = loop a = [1, 2] for i < 2 do let a[0] = 0 in o", "consuming-loop-param-aliases");
    err(
        "def f (n: i64) = loop (a: *[]i64, b: *[]i64) = (iota n, iota n) for i < 2 do (a, a)",
        "loop-parameter-aliases-other",
    );
    err(
        "def f (n: i64) = loop (a, b) = (iota n, iota n) for i < 2 do let b[0] = 1 in (b[1:], b)",
        "aliases-previously-returned",
    );
    ok("def f (xs: []i32) = let ys = xs |> map (+ 1) in ys with [0] = 0");
    ok("def g (n: i64) = iota n\ndef f (n: i64) = let a = g n in a with [0] = 1");
    ok("def f (xs: []i32) (ys: []i32) = loop (a, b) = (copy xs, copy ys) for i < 3 do (b with [0] = i, a)");
}

#[test]
fn matches() {
    ok("def f (b: bool) = match b case true -> 1 case false -> 0");
    ok("def f (x: i32) = match x case 0 -> 1 case _ -> 2");
    let d = err("def f (b: bool) = match b case true -> 1", "unmatched-cases");
    assert!(d[0].message.contains("false"));
    let d = err("def f (x: #a | #b | #c) : i32 = match x case #a -> 1 case #b -> 2", "unmatched-cases");
    assert!(d[0].message.contains("#c"));
    err("def f (x: i32) = match x case 0 -> 1", "unmatched-cases");
    err("def f (x: #a i32 | #b) = let (#a y) = x in y", "refutable-pattern");
}

#[test]
fn restrictions() {
    err("def f (b: bool) = if b then (\\x -> x + 1i32) else (\\x -> x)", "higher-order-branch");
    err("def f = loop g = (\\x -> x + 1i32) for i < 3 do g", "higher-order-loop");
    err("def f = [\\x -> x + 1i32]", "array-of-functions");
    err("entry f 't (x: t) = x", "polymorphic-entry");
    err("entry f (g: i32 -> i32) = g 1", "higher-order-entry");
    err(
        "def f (n: i64) (g: i64 -> i64) : i64 = if n == 0 then 0 else f (n - 1) (\\x -> g x)",
        "recursive-call-changed-argument",
    );
    err("def f (n: i64) : i64 -> i64 = \\x -> if n == 0 then x else f (n - 1) x", "recursive-higher-order-return");
    err("def f (x: i32) = let g (y: i32) : i32 = g y in g x", "not-supported-yet");
    err("def f (x: f64) = with_vjp f64.sin (\\_ _ -> 0f64) x 1", "arity-mismatch");
    err("module m = {} def x = m.y", "unknown-name");
    err("module type s = { val y: i32 } module m : s = { def y = 1f32 }", "module-mismatch");
    err("module type s = { type t val y: t } module m : s = { def y = 1 }", "module-mismatch");
    err("module f (p: { val x: i32 }) = { def y = p.x } module m = f { def z = 1i32 }", "module-mismatch");
}

#[test]
fn name_and_type_errors() {
    err("def f = y", "unknown-name");
    err("def f (x: t) = x", "unknown-type");
    err("def f = 1 + true", "type-mismatch");
    err("def f : u8 = 300", "literal-out-of-bounds");
    ok("def f = -128i8");
    err("def f (x: i32) = x 1", "not-a-function");
    err("def f (g: i32 -> i32) = g 1 2", "arity-mismatch");
    err("def f (x: i32) (x: i32) = x", "duplicate-binding");
    err("def f = {a = 1, a = 2}", "duplicate-field");
    err("def f [n] (x: i32) = x", "unused-size");
    err("def f x = x x", "occurs-check");
    err("def f = f32.nosuch 1", "unknown-name");
    err("def f = intrinsics.nosuch", "unknown-name");
}

#[test]
fn independent_errors_are_all_reported() {
    let run = run("def a = y\ndef b = z\ndef c = a + 1");
    let diags = run.err().expect("errors");
    assert_eq!(diags.iter().filter(|d| d.name == "unknown-name").count(), 2, "{diags:#?}");
    // (`c` may get a warning: its type is defaulted to i32.)
    let errors = diags.iter().filter(|d| d.severity == ogham_syntax::Severity::Error).count();
    assert_eq!(errors, 2, "{diags:#?}");
}

#[test]
fn resolutions_and_entries() {
    let info = ok("def main (xs: []i32) = map (+1) xs");
    assert_eq!(info.entries.len(), 1);
    assert!(info
        .resolutions
        .values()
        .any(|r| matches!(r, crate::Resolution::Builtin(crate::Builtin::Intrinsic(n)) if n == "map")));
    assert!(info
        .resolutions
        .values()
        .any(|r| matches!(r, crate::Resolution::Builtin(crate::Builtin::BinOp(ogham_prim::ops::BinOp::Add)))));
}

/// Mutated programs (characters deleted or swapped) must never make the checker panic.
#[test]
fn mutations_never_panic() {
    let seeds = [
        "def f [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys",
        "def f (xs: *[]i32) = loop xs for i < 3 do xs with [i] = 0",
        "type t = #a i32 | #b\ndef f (x: t) = match x case #a v -> v case #b -> 0",
        "def f (p: {x: f64, y: f64}) = let q = p with x = 2 in q.x + p.y",
        "def f (xs: []i32) = let [k] (ys: [k]i32) = filter (>0) xs in unflatten (ys :> [k*1]i32) : [k][1]i32",
        "def f = loop acc = [] for i < 3 do acc ++ [i]\nentry main (x: f32) = f32.sqrt x |> (\\y -> y * 2)",
    ];
    let iterations: usize = std::env::var("OGHAM_MUTATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..iterations {
        let seed: Vec<char> = seeds[i % seeds.len()].chars().collect();
        let mut text = seed.clone();
        for _ in 0..1 + next() % 3 {
            if text.is_empty() {
                break;
            }
            let a = (next() as usize) % text.len();
            match next() % 3 {
                0 => {
                    text.remove(a);
                }
                1 => {
                    let b = (next() as usize) % text.len();
                    text.swap(a, b);
                }
                _ => {
                    let c = seed[(next() as usize) % seed.len()];
                    text.insert(a, c);
                }
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(programs) = parse_all(&text) {
            let n = programs.len();
            let inputs: Vec<CheckInput> = programs
                .iter()
                .enumerate()
                .map(|(i, p)| CheckInput { program: p, is_main: i + 1 == n, imports: Vec::new() })
                .collect();
            let _ = check(&inputs);
        }
    }
}

/// Runs `f` on a thread with a stack as large as the driver's: long chains
/// of lets and operators are deep trees.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Long programs check, with no step limit turning into a false error
/// (a 12 000-term sum used to be `ambiguous-type`). Their speed is
/// measured elsewhere, never in tests.
#[test]
fn long_programs_check() {
    use std::fmt::Write as _;
    on_big_stack(|| {
        let mut lets = String::from("def main (x: i32) : i32 =\n  let a0 = x\n");
        for i in 1..20_000 {
            let _ = writeln!(lets, "  let a{i} = a{} + 1", i - 1);
        }
        lets.push_str("  in a19999\n");
        assert_eq!(last_type(&ok(&lets)), "i32 -> i32");

        let elems: Vec<String> = (0..20_000).map(|i| (i % 100).to_string()).collect();
        let array = format!("def main = [{}]", elems.join(", "));
        assert_eq!(last_type(&ok(&array)), "[20000]i32");

        let sum = format!("def main = {}", vec!["1"; 12_000].join(" + "));
        assert_eq!(last_type(&ok(&sum)), "i32");
        let floats = format!("def main = {}", vec!["1.5"; 12_000].join(" * "));
        assert_eq!(last_type(&ok(&floats)), "f64");

        let mut defs = String::from("def step0 (x: i32) = x\n");
        for i in 1..5_000 {
            let _ = writeln!(defs, "def step{i} x = step{} x + {i}", i - 1);
        }
        let info = ok(&defs);
        assert_eq!(info.defs.iter().filter(|d| d.name.starts_with("step")).count(), 5_000);
        assert_eq!(last_type(&info), "i32 -> i32");

        // Many loops in one definition (each checked twice when its sizes change).
        let mut loops = String::from("def main (n: i64) =\n  let xs0 = iota n\n");
        for i in 1..2_000 {
            let _ = writeln!(loops, "  let xs{i} = loop acc = xs{} for j < 2 do acc ++ [j]", i - 1);
        }
        loops.push_str("  in length xs1999\n");
        assert_eq!(last_type(&ok(&loops)), "i64 -> i64");
    });
}

/// Types that double at each step stop at the size limit with a located
/// error instead of exhausting memory.
#[test]
fn exponential_types_are_too_large() {
    use std::fmt::Write as _;
    let mut abbrevs = String::from("type t0 = (i32, i32)\n");
    for i in 1..40 {
        let _ = writeln!(abbrevs, "type t{i} = (t{0}, t{0})", i - 1);
    }
    abbrevs.push_str("def main (x: t39) = x\n");
    let diags = err(&abbrevs, "type-too-large");
    // `t13` is the first with more than 20 000 parts (2^15 - 1): the
    // error is on its definition.
    let start = abbrevs.find("type t13 ").unwrap_or(0);
    let end = start + abbrevs[start..].find('\n').unwrap_or(0);
    let first = diags.iter().find(|d| d.name == "type-too-large").map(|d| d.span.start as usize);
    assert!(first.is_some_and(|at| (start..end).contains(&at)), "{first:?} not in {start}..{end}");

    let nested = format!("type pair 'a = (a, a)\ndef main (x: {}i32{}) = x", "pair (".repeat(40), ")".repeat(40));
    err(&nested, "type-too-large");

    let mut poly = String::from("def f0 'a (x: a) = (x, x)\n");
    for i in 1..40 {
        let _ = writeln!(poly, "def f{i} 'a (x: a) = f{0} (f{0} x)", i - 1);
    }
    poly.push_str("def main (x: i32) = f39 x\n");
    err(&poly, "type-too-large");

    let mut inferred = String::from("def f0 x = (x, x)\n");
    for i in 1..40 {
        let _ = writeln!(inferred, "def f{i} x = f{0} (f{0} x)", i - 1);
    }
    err(&inferred, "type-too-large");

    let mut local = String::from("def main (y: i32) =\n  let f0 'a (x: a) = (x, x)\n");
    for i in 1..40 {
        let _ = writeln!(local, "  let f{i} 'a (x: a) = f{0} (f{0} x)", i - 1);
    }
    local.push_str("  in f39 y\n");
    err(&local, "type-too-large");

    // Each use is small enough; nesting them is not, and comparing the
    // results must not take as long as expanding them.
    let f3 = "def f0 'a (x: a) = (x, x)\ndef f1 'a (x: a) = f0 (f0 x)\ndef f2 'a (x: a) = f1 (f1 x)\ndef f3 'a (x: a) = f2 (f2 x)\n";
    let deep = format!("{f3}def main (x: i32) = {0}x{1} == {0}x{1}", "f3 (".repeat(8), ")".repeat(8));
    err(&deep, "type-too-large");

    // Below the limit, large types are fine: 4 095 parts each way.
    let mut fine = String::from("type t0 = (i32, i32)\n");
    for i in 1..11 {
        let _ = writeln!(fine, "type t{i} = (t{0}, t{0})", i - 1);
    }
    fine.push_str("def main (x: t10) : t10 = x\n");
    ok(&fine);
    ok(&format!("{f3}def main (x: i32) = f3 x == f3 x"));
}

/// The value definitions `prune` keeps of the prelude for `main`, by name.
fn kept_after_pruning(main: &str) -> Vec<String> {
    let mut programs = parse_all(main).unwrap_or_else(|d| panic!("parse errors: {d:?}"));
    crate::prelude::prune(&mut programs[0], FileId(0), PRELUDE[0].1, [main]);
    programs[0]
        .decs
        .iter()
        .filter_map(|d| match d {
            ogham_syntax::ast::Dec::Value(v) => Some(v.name.name.text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn pruning_keeps_what_the_program_spells_and_what_that_names() {
    // map2 is written with zip; nothing names iterate or scan.
    let kept = kept_after_pruning("def main (xs: []f32) = map2 (+) xs xs |> f32.sum");
    for name in ["map2", "zip", "|>"] {
        assert!(kept.iter().any(|k| k == name), "{name} dropped: {kept:?}");
    }
    for name in ["iterate", "scan", "<|", "map3"] {
        assert!(!kept.iter().any(|k| k == name), "{name} kept: {kept:?}");
    }
    // A backquoted name, an operator section, and a local variable that
    // shares a definition's name (kept: pruning goes by spelling).
    let kept = kept_after_pruning("def main (x: i32) = let flip = x in (`const` flip) 2 |> (<|) id");
    for name in ["const", "flip", "<|", "id", "|>"] {
        assert!(kept.iter().any(|k| k == name), "{name} dropped: {kept:?}");
    }
    // Names after `intrinsics.` are built-ins, not the prelude's definitions.
    let kept = kept_after_pruning("def main (xs: []i32) = intrinsics.map (\\x -> x) xs");
    assert!(!kept.iter().any(|k| k == "map"), "map kept: {kept:?}");
    // Type abbreviations and module types stay; the pruned prelude checks.
    let main = "def main (xs: []f64) = reduce (+) 0 (map f64.sqrt xs)";
    let mut programs = parse_all(main).unwrap();
    let before = programs[0].decs.len();
    crate::prelude::prune(&mut programs[0], FileId(0), PRELUDE[0].1, [main]);
    assert!(programs[0].decs.len() < before / 2, "{} of {before} declarations kept", programs[0].decs.len());
    check_all(&programs).unwrap_or_else(|d| panic!("{d:?}"));
}
