//! Parser tests: every construct, precedence (via a fully parenthesised
//! printer), desugarings, and error reporting.

mod common;

use common::{dec, expr, pat, ty};
use ogham_syntax::ast::*;
use ogham_syntax::parser::{parse_expr, parse_program, parse_type};
use ogham_syntax::FileId;

fn e(src: &str) -> String {
    match parse_expr(FileId(0), src, &mut NodeIds::default()) {
        Ok(e) => expr(&e),
        Err(d) => panic!("{src:?} failed: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()),
    }
}

fn t(src: &str) -> String {
    match parse_type(FileId(0), src, &mut NodeIds::default()) {
        Ok(t) => ty(&t),
        Err(d) => panic!("{src:?} failed: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()),
    }
}

fn prog(src: &str) -> Vec<String> {
    let (p, diags) = parse_program(FileId(0), src, &mut NodeIds::default());
    assert!(diags.is_empty(), "{src:?}: {:?}", diags.iter().map(|d| &d.message).collect::<Vec<_>>());
    p.decs.iter().map(dec).collect()
}

fn errors(src: &str) -> Vec<String> {
    let (_, diags) = parse_program(FileId(0), src, &mut NodeIds::default());
    diags.iter().map(|d| format!("{}: {}", d.name, d.message)).collect()
}

fn expr_error(src: &str) -> Vec<String> {
    match parse_expr(FileId(0), src, &mut NodeIds::default()) {
        Ok(e) => panic!("{src:?} parsed as {}", expr(&e)),
        Err(d) => d.iter().map(|d| format!("{}: {}", d.name, d.message)).collect(),
    }
}

#[test]
fn literals() {
    assert_eq!(e("42"), "42");
    assert_eq!(e("1_000_000"), "1000000");
    assert_eq!(e("42i8"), "42i8");
    assert_eq!(e("0xffu32"), "255u32");
    assert_eq!(e("0b1010"), "10");
    assert_eq!(e("0xFF_FF"), "65535");
    assert_eq!(e("1.5"), "1.5");
    assert_eq!(e("1e3"), "1000.0");
    assert_eq!(e("1.5e-3"), "0.0015");
    assert_eq!(e("0x1.fp3"), "15.5");
    assert_eq!(e("16f32"), "16.0f32");
    assert_eq!(e("1337e2f64"), "133700.0f64");
    assert_eq!(e("2.5f16"), "2.5f16");
    assert_eq!(e("'a'"), "97");
    assert_eq!(e("'\\n'"), "10");
    assert_eq!(e("'\\''"), "39");
    assert_eq!(e("'\\u{3bb}'"), "955");
    assert_eq!(e("'λ'"), "955");
    assert_eq!(e("\"a\\tb\\\"\""), "\"a\\tb\\\"\"");
    assert_eq!(e("\"λ\""), "\"λ\"");
    assert_eq!(e("true"), "true");
    assert_eq!(e("false"), "false");
    assert_eq!(e("???"), "???");
    assert_eq!(e("18446744073709551615u64"), "18446744073709551615u64");
}

#[test]
fn string_bytes_are_utf8() {
    let parsed = parse_expr(FileId(0), "\"é\\n\"", &mut NodeIds::default()).unwrap();
    match parsed.kind {
        ExprKind::Literal(Literal::String(bytes)) => assert_eq!(bytes, vec![0xc3, 0xa9, b'\n']),
        _ => panic!("not a string"),
    }
}

#[test]
fn names_and_projections() {
    assert_eq!(e("x"), "x");
    assert_eq!(e("x'"), "x'");
    assert_eq!(e("_x"), "_x");
    assert_eq!(e("f32.sqrt"), "f32.sqrt");
    assert_eq!(e("r.a.b"), "r.a.b");
    assert_eq!(e("t.0"), "t.0");
    assert_eq!(e("t.0.1"), "t.0.1");
    assert_eq!(e("(e).f"), "e.f");
    assert_eq!(e("(x, y).1"), "tuple(x, y).1");
    assert_eq!(e("(f x).a.b"), "(f x).a.b");
    assert_eq!(e("(x).0.1"), "x.0.1");
    assert_eq!(e("a[0].x"), "a[0].x");
    // Projection via a qualified name keeps the chain; after a call it is `Project`.
    let parsed = parse_expr(FileId(0), "(g y).f", &mut NodeIds::default()).unwrap();
    assert!(matches!(parsed.kind, ExprKind::Project(..)));
}

#[test]
fn indexing_versus_application() {
    assert_eq!(e("a[i]"), "a[i]");
    assert_eq!(e("f [x]"), "(f [x])");
    assert_eq!(e("f a[i]"), "(f a[i])");
    assert_eq!(e("a[i][j]"), "a[i][j]");
    assert_eq!(e("(f x)[0]"), "(f x)[0]");
    assert_eq!(e("r.xs[1]"), "r.xs[1]");
    assert_eq!(e("a[i, j:k:s, :]"), "a[i, j:k:s, :]");
    assert_eq!(e("a[::-1]"), "a[::(-1)]");
    assert_eq!(e("a[1:]"), "a[1:]");
    assert_eq!(e("a[:n]"), "a[:n]");
    assert_eq!(e("a[i+1]"), "a[(i + 1)]");
    assert_eq!(e("a[(x : i64)]"), "a[(x : i64)]");
    assert_eq!(e("[1, 2, 3,]"), "[1, 2, 3]");
    assert_eq!(e("[]"), "[]");
    assert_eq!(e("[[1],[2]][0]"), "[[1], [2]][0]");
}

#[test]
fn precedence() {
    assert_eq!(e("a + b * c"), "(a + (b * c))");
    assert_eq!(e("a * b + c"), "((a * b) + c)");
    assert_eq!(e("a - b - c"), "((a - b) - c)");
    assert_eq!(e("a ** b ** c"), "((a ** b) ** c)");
    assert_eq!(e("a * b ** c"), "(a * (b ** c))");
    assert_eq!(e("x & y == z"), "((x & y) == z)");
    assert_eq!(e("a << 1 + 2"), "(a << (1 + 2))");
    assert_eq!(e("a == b && c != d || e"), "(((a == b) && (c != d)) || e)");
    assert_eq!(e("a || b && c"), "(a || (b && c))");
    assert_eq!(e("a | b ^ c & d"), "(((a | b) ^ c) & d)");
    assert_eq!(e("xs |> map f |> reduce (+) 0"), "((xs |> (map f)) |> (reduce (+) 0))");
    assert_eq!(e("f <| g <| x"), "(f <| (g <| x))");
    assert_eq!(e("a + b |> f"), "((a + b) |> f)");
    assert_eq!(e("f x y + g z"), "((f x y) + (g z))");
    assert_eq!(e("a `max` b + c"), "(a `max` (b + c))");
    assert_eq!(e("a `max` b `min` c"), "((a `max` b) `min` c)");
    assert_eq!(e("a `M.f` b"), "(a `M.f` b)");
    assert_eq!(e("a // b %% c"), "((a // b) %% c)");
    assert_eq!(e("a <= b"), "(a <= b)");
    assert_eq!(e("a f32.+ b * c"), "(a f32.+ (b * c))");
}

#[test]
fn user_defined_operator_fixity() {
    assert_eq!(e("a +^ b * c"), "(a +^ (b * c))");
    assert_eq!(e("a *^ b + c"), "((a *^ b) + c)");
    assert_eq!(e("a >>= b + c"), "(a >>= (b + c))");
    assert_eq!(e("a >>= b == c"), "((a >>= b) == c)");
    assert_eq!(e("a |>> b + c"), "(a |>> (b + c))");
    assert_eq!(e("a <|> b <|> c"), "(a <|> (b <|> c))");
    assert_eq!(e("a !== b + c"), "(a !== (b + c))");
    assert_eq!(e("a >-> b"), "(a >-> b)");
    assert_eq!(e("a **. b * c"), "((a **. b) * c)");
}

#[test]
fn prefix_operators() {
    assert_eq!(e("-x"), "(-x)");
    assert_eq!(e("-x ** 2"), "((-x) ** 2)");
    assert_eq!(e("-f x"), "(-(f x))");
    assert_eq!(e("!a && b"), "((!a) && b)");
    assert_eq!(e("a - -b"), "(a - (-b))");
    assert_eq!(e("f -1"), "(f - 1)");
    assert_eq!(e("f (-1)"), "(f (-1))");
    assert_eq!(e("- - x"), "(-(-x))");
}

#[test]
fn application_forms() {
    assert_eq!(e("f x y"), "(f x y)");
    assert_eq!(e("f (g x) {a = 1} [1] #c"), "(f (g x) {a = 1} [1] #c)");
    assert_eq!(e("assert (x > 0) y"), "(assert (x > 0) y)");
    assert_eq!(e("assert c e + 1"), "((assert c e) + 1)");
    assert_eq!(e("#some 1 x"), "(#some 1 x)");
    assert_eq!(e("#none"), "#none");
    assert_eq!(e("#foo #bar"), "(#foo #bar)");
    assert_eq!(e("f (#some 1)"), "(f (#some 1))");
}

#[test]
fn tuples_records_sections() {
    assert_eq!(e("()"), "tuple()");
    assert_eq!(e("(a, b)"), "tuple(a, b)");
    assert_eq!(e("(a, b,)"), "tuple(a, b)");
    assert_eq!(e("(a)"), "a");
    assert_eq!(e("{x = 1, y}"), "{x = 1, y}");
    assert_eq!(e("{}"), "{}");
    assert_eq!(e("{0 = a, 1 = b,}"), "{0 = a, 1 = b}");
    assert_eq!(e("(+)"), "(+)");
    assert_eq!(e("(-)"), "(-)");
    assert_eq!(e("(x +)"), "(x +)");
    assert_eq!(e("(+ y)"), "(+ y)");
    assert_eq!(e("(* 2 + 1)"), "(* (2 + 1))");
    assert_eq!(e("(a + b *)"), "((a + b) *)");
    assert_eq!(e("(`f`)"), "(`f`)");
    assert_eq!(e("(x `f`)"), "(x `f`)");
    assert_eq!(e("(`f` y)"), "(`f` y)");
    assert_eq!(e("(f32.+)"), "(f32.+)");
    assert_eq!(e("(.a.b)"), "(.a.b)");
    assert_eq!(e("(.0)"), "(.0)");
    assert_eq!(e("(.[i, 1:])"), "(.[i, 1:])");
    assert_eq!(e("(-x)"), "(-x)");
    assert_eq!(e("(!x)"), "(!x)");
    let parsed = parse_expr(FileId(0), "(-x)", &mut NodeIds::default()).unwrap();
    assert!(matches!(parsed.kind, ExprKind::Parens(_)));
}

#[test]
fn ranges() {
    assert_eq!(e("0..<n"), "(0..<n)");
    assert_eq!(e("a..>b"), "(a..>b)");
    assert_eq!(e("1...n"), "(1...n)");
    assert_eq!(e("a..s..<b"), "(a..s..<b)");
    assert_eq!(e("1..2...n"), "(1..2...n)");
    assert_eq!(e("0..<n+1"), "(0..<(n + 1))");
    assert_eq!(e("x.0..<x.1"), "(x.0..<x.1)");
    assert_eq!(e("0..<n : []i64"), "((0..<n) : []i64)");
    assert_eq!(e("iota (n-1)..<n"), "((iota (n - 1))..<n)");
}

#[test]
fn control_flow() {
    assert_eq!(e("if c then a else b + 1"), "(if c then a else (b + 1))");
    assert_eq!(e("x + if c then 1 else 2"), "(x + (if c then 1 else 2))");
    assert_eq!(e("if a then b else if c then d else e"), "(if a then b else (if c then d else e))");
    assert_eq!(e("\\x -> x + 1"), "(\\x -> (x + 1))");
    assert_eq!(e("\\x (y: i32) : i32 -> x"), "(\\x (y: i32): i32 -> x)");
    assert_eq!(e("\\(a, b) {c} _ -> a"), "(\\(a, b) {c = c} _ -> a)");
    assert_eq!(e("map (\\x -> x) xs"), "(map (\\x -> x) xs)");
    assert_eq!(e("match x case 0 -> a case -1 -> b case _ -> c"), "(match x case 0 -> a case -1 -> b case _ -> c)");
    assert_eq!(e("match o case #some x -> x case #none -> 0"), "(match o case (#some x) -> x case #none -> 0)");
    assert_eq!(
        e("match a case 1 -> (match b case 2 -> c) case _ -> d"),
        "(match a case 1 -> (match b case 2 -> c) case _ -> d)"
    );
    assert_eq!(e("match p case (x: i32, 'a', true, 1.5) -> x"), "(match p case ((x: i32), 97, true, 1.5) -> x)");
    assert_eq!(e("match r case {x, y = 2} -> x"), "(match r case {x = x, y = 2} -> x)");
    assert_eq!(e("#[unsafe] a[i] + 1"), "(#[unsafe] (a[i] + 1))");
    assert_eq!(e("#[trace(foo)] x"), "(#[trace(foo)] x)");
}

#[test]
fn lets() {
    assert_eq!(e("let x = 1 in x"), "(let x = 1 in x)");
    assert_eq!(e("let x = 1 let y = 2 in x + y"), "(let x = 1 in (let y = 2 in (x + y)))");
    assert_eq!(e("let (a, b) = p in a"), "(let (a, b) = p in a)");
    assert_eq!(e("let x: i32 = 1 in x"), "(let (x: i32) = 1 in x)");
    assert_eq!(e("let [n] (xs: [n]i32) = ys in n"), "(let [n] (xs: [n]i32) = ys in n)");
    assert_eq!(e("let {a, b = c} = r in a"), "(let {a = a, b = c} = r in a)");
    assert_eq!(e("let _ = f x in 0"), "(let _ = (f x) in 0)");
    assert_eq!(e("let a[i] = v in a"), "(let a = (a with [i] = v) in a)");
    assert_eq!(e("let a[i, 1:2] = v in a"), "(let a = (a with [i, 1:2] = v) in a)");
    assert_eq!(e("let r.f.g = v in r"), "(let r = (r with f.g = v) in r)");
    assert_eq!(e("let f x y = x + y in f 1 2"), "(let f x y = (x + y) in (f 1 2))");
    assert_eq!(e("let f [n] 't (xs: [n]t) : t = xs[0] in f"), "(let f [n] 't (xs: [n]t): t = xs[0] in f)");
    assert_eq!(e("let x = if c then 1 else 2 in x"), "(let x = (if c then 1 else 2) in x)");
    assert_eq!(e("let x = 1 in let y = 2 in y"), "(let x = 1 in (let y = 2 in y))");
    assert_eq!(e("let x = 1 in x + 1 : i32"), "(let x = 1 in ((x + 1) : i32))");
}

#[test]
fn long_let_chains_are_not_limited_by_depth() {
    let mut src = String::new();
    for i in 0..2000 {
        src.push_str(&format!("let x{i} = {i}\n"));
    }
    src.push_str("in x0");
    assert!(parse_expr(FileId(0), &src, &mut NodeIds::default()).is_ok());
}

#[test]
fn loops() {
    assert_eq!(e("loop acc = 0 for i < n do acc + i"), "(loop acc = 0 for i < n do (acc + i))");
    assert_eq!(
        e("loop (x, y) = (0, 1) for i < n do (y, x + y)"),
        "(loop (x, y) = tuple(0, 1) for i < n do tuple(y, (x + y)))"
    );
    assert_eq!(e("loop s = 0 for x in xs do s + x"), "(loop s = 0 for x in xs do (s + x))");
    assert_eq!(e("loop (a, i) for (x, y) in zip xs ys do a"), "(loop (a, i) for (x, y) in (zip xs ys) do a)");
    assert_eq!(e("loop x = 1 while x < 100 do x * 2"), "(loop x = 1 while (x < 100) do (x * 2))");
    assert_eq!(e("loop x for i < 10 do x"), "(loop x for i < 10 do x)");
    assert_eq!(
        e("loop (xs: *[]i32) = copy ys for i < n do xs with [i] = 0"),
        "(loop (xs: *[]i32) = (copy ys) for i < n do (xs with [i] = 0))"
    );
}

#[test]
fn updates_and_ascriptions() {
    assert_eq!(e("a with [i] = v"), "(a with [i] = v)");
    assert_eq!(e("a with [i] = x + 1"), "(a with [i] = (x + 1))");
    assert_eq!(e("a with [i] = v with [j] = w"), "((a with [i] = v) with [j] = w)");
    assert_eq!(e("r with a.b = 1"), "(r with a.b = 1)");
    assert_eq!(e("r with 0 = 1"), "(r with 0 = 1)");
    assert_eq!(e("x + a with [0] = 1"), "((x + a) with [0] = 1)");
    assert_eq!(e("e : i32"), "(e : i32)");
    assert_eq!(e("e :> [n]i32"), "(e :> [n]i32)");
    assert_eq!(e("f x : t"), "((f x) : t)");
}

#[test]
fn types() {
    assert_eq!(t("i32"), "i32");
    assert_eq!(t("f32.t"), "f32.t");
    assert_eq!(t("(i32, bool)"), "(i32, bool)");
    assert_eq!(t("()"), "()");
    assert_eq!(t("(i32)"), "i32");
    assert_eq!(t("{x: f32, y: f32}"), "{x: f32, y: f32}");
    assert_eq!(t("[n]i32"), "[n]i32");
    assert_eq!(t("[]i32"), "[]i32");
    assert_eq!(t("[n+1]i32"), "[(n + 1)]i32");
    assert_eq!(t("[n][m]f64"), "[n][m]f64");
    assert_eq!(t("*[]i32"), "*[]i32");
    assert_eq!(t("a -> b -> c"), "(a -> (b -> c))");
    assert_eq!(t("(a -> b) -> c"), "((a -> b) -> c)");
    assert_eq!(t("(n: i64) -> [n]i32"), "((n: i64) -> [n]i32)");
    assert_eq!(t("[n]a -> (a -> b) -> *[n]b"), "([n]a -> ((a -> b) -> *[n]b))");
    assert_eq!(t("#a i32 | #b"), "(#a i32 | #b)");
    assert_eq!(t("#a (i32, i32) bool | #b | #c ([3]i32)"), "(#a (i32, i32) bool | #b | #c [3]i32)");
    assert_eq!(t("t [n] i32"), "((t [n]) i32)");
    assert_eq!(t("pt [n]t"), "((pt [n]) t)");
    assert_eq!(t("t [] i32"), "((t []) i32)");
    assert_eq!(t("?[n].[n]i32"), "?[n].[n]i32");
    assert_eq!(t("?[n][m].([n]i32, [m]i32)"), "?[n][m].([n]i32, [m]i32)");
    assert_eq!(t("[n]list i32"), "[n](list i32)");
}

#[test]
fn sum_type_payloads_may_be_arrays() {
    assert_eq!(t("#many [n]i32 | #one i32"), "(#many [n]i32 | #one i32)");
    assert_eq!(t("#m [n][m]f32 (i32, bool) | #z"), "(#m [n][m]f32 (i32, bool) | #z)");
}

#[test]
fn val_is_an_ordinary_name() {
    assert_eq!(
        e("match {kind = k, val = v} case {kind = 0, val} -> val"),
        "(match {kind = k, val = v} case {kind = 0, val = val} -> val)"
    );
    assert_eq!(e("r.val"), "r.val");
}

#[test]
fn declarations() {
    assert_eq!(prog("def x = 1"), vec!["def x = 1"]);
    assert_eq!(prog("def x: i32 = 1"), vec!["def x: i32 = 1"]);
    assert_eq!(
        prog("def f [n] 't (xs: [n]t) (y: i32) : [n]t = xs"),
        vec!["def f [n] 't (xs: [n]t) (y: i32): [n]t = xs"]
    );
    assert_eq!(prog("entry main (x: i32) = x"), vec!["entry main (x: i32) = x"]);
    assert_eq!(prog("let x = 1"), vec!["def x = 1"]);
    assert_eq!(prog("def g '~a '^b (f: a -> b) = f"), vec!["def g '~a '^b (f: (a -> b)) = f"]);
    assert_eq!(
        prog("def (a: i32, b: i32) +^ (c: i32, d: i32) = (a+c, b+d)"),
        vec!["def +^ ((a: i32), (b: i32)) ((c: i32), (d: i32)) = tuple((a + c), (b + d))"]
    );
    assert_eq!(prog("def (+^) 't (a: t) b = a"), vec!["def +^ 't (a: t) b = a"]);
    assert_eq!(prog("def f: i32 -> i32 = \\x -> x"), vec!["def f: (i32 -> i32) = (\\x -> x)"]);
    assert_eq!(prog("type t = i32"), vec!["type t = i32"]);
    assert_eq!(prog("type~ t = ?[n].[n]i32"), vec!["type~ t = ?[n].[n]i32"]);
    assert_eq!(prog("type^ f 'a = a -> a"), vec!["type^ f 'a = (a -> a)"]);
    assert_eq!(prog("type two [n] 't = ([n]t, [n]t)"), vec!["type two [n] 't = ([n]t, [n]t)"]);
    assert_eq!(prog("type opt 'a = #some a | #none"), vec!["type opt 'a = (#some a | #none)"]);
    assert_eq!(prog("import \"lib/foo\""), vec!["import \"lib/foo\""]);
    assert_eq!(prog("#[noinline] def f x = x"), vec!["#[noinline] def f x = x"]);
    assert_eq!(
        prog("def a = 1\ndef b = 2\nentry c = 3\ntype d = i32\n"),
        vec!["def a = 1", "def b = 2", "entry c = 3", "type d = i32"]
    );
}

#[test]
fn top_level_let_chain() {
    // A top-level `def` body may be a `let` chain without `in` between bindings.
    assert_eq!(
        prog("def f x =\n  let a = x\n  let b = a\n  in b\ndef g = 1"),
        vec!["def f x = (let a = x in (let b = a in b))", "def g = 1"]
    );
}

#[test]
fn module_declarations() {
    let src = "module M = { def x = 1 def y = (2) }\n\
               def a = 1\n\
               module type MT = { type t val f: t -> t type^ u 'a = a -> t val (+): t -> t -> t val * : t module N: MT include MT }\n\
               open M\n\
               local def helper x = x\n\
               open import \"foo\"\n\
               module N = import \"bar\"\n\
               module F (P: MT) (Q: MT with t = i32) : MT = P\n\
               module G = F M (F N {def z = 1}) : MT\n\
               module type FT = (P: MT) -> MT -> MT\n\
               module H = \\(P: MT) : MT -> P\n\
               def b = M.(x + y)\n";
    assert_eq!(
        prog(src),
        vec![
            "module M = {def x = 1; def y = 2}",
            "def a = 1",
            "module type MT = {type t; val f: (t -> t); type u 'a = (a -> t); val +: (t -> (t -> t)); val *: t; module N: MT; include MT}",
            "open M",
            "local def helper x = x",
            "open import \"foo\"",
            "module N = import \"bar\"",
            "module F (P: MT) (Q: (MT with t = i32)) : MT = P",
            "module G = (((F M) ((F N) {def z = 1})) : MT)",
            "module type FT = ((P: MT) -> (MT -> MT))",
            "module H = (\\(P: MT) : MT -> P)",
            "def b = M.((x + y))",
        ]
    );
}

#[test]
fn doc_comments_attach_to_declarations() {
    let src = "-- | Adds one.\n-- More text.\ndef inc x = x + 1\n-- plain comment\ndef dec x = x - 1\n";
    let (p, d) = parse_program(FileId(0), src, &mut NodeIds::default());
    assert!(d.is_empty());
    let docs: Vec<_> = p
        .decs
        .iter()
        .map(|d| match d {
            Dec::Value(v) => v.doc.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(docs, vec![Some("Adds one.\nMore text.".to_string()), None]);
}

#[test]
fn comments_are_skipped() {
    assert_eq!(prog("def x = 1 -- one\n-- two\ndef y = x--three"), vec!["def x = 1", "def y = x"]);
}

#[test]
fn patterns() {
    let p = |src: &str| {
        let src = format!("def f {src} = 0");
        let (program, d) = parse_program(FileId(0), &src, &mut NodeIds::default());
        assert!(d.is_empty(), "{src}: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
        match &program.decs[0] {
            Dec::Value(v) => v.params.iter().map(pat).collect::<Vec<_>>().join(" "),
            _ => unreachable!(),
        }
    };
    assert_eq!(p("x _ ()"), "x _ ()");
    assert_eq!(p("(x: i32) (a, b,)"), "(x: i32) (a, b)");
    assert_eq!(p("{x, y = (a, b)}"), "{x = x, y = (a, b)}");
    assert_eq!(p("((x: i32), y)"), "((x: i32), y)");
    assert_eq!(p("(#some x: opt)"), "((#some x): opt)");
}

#[test]
fn node_ids_are_unique() {
    let mut ids = NodeIds::default();
    let (p, _) = parse_program(FileId(0), "def f (x: i32) = let y = x + 1 in (y, {y})", &mut ids);
    let (q, _) = parse_program(FileId(1), "def g = 1", &mut ids);
    fn collect(e: &Expr, out: &mut Vec<NodeId>) {
        out.push(e.id);
        match &e.kind {
            ExprKind::BinOp { lhs, rhs, .. } => {
                collect(lhs, out);
                collect(rhs, out);
            }
            ExprKind::Let { pat, value, body, .. } => {
                out.push(pat.id);
                collect(value, out);
                collect(body, out);
            }
            ExprKind::Parens(e) => collect(e, out),
            ExprKind::Tuple(es) => es.iter().for_each(|e| collect(e, out)),
            ExprKind::Record(fs) => fs.iter().for_each(|f| match f {
                RecordField::Explicit(_, e) => collect(e, out),
                RecordField::Pun(_, id) => out.push(*id),
            }),
            _ => {}
        }
    }
    let mut all = Vec::new();
    for d in p.decs.iter().chain(&q.decs) {
        if let Dec::Value(v) = d {
            all.push(v.name.id);
            v.params.iter().for_each(|p| all.push(p.id));
            collect(&v.body, &mut all);
        }
    }
    let mut sorted = all.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), all.len());
}

#[test]
fn spans_cover_the_source() {
    let src = "def f x = x + 1";
    let (p, _) = parse_program(FileId(0), src, &mut NodeIds::default());
    let Dec::Value(v) = &p.decs[0] else { panic!() };
    assert_eq!((v.span.start, v.span.end), (0, src.len() as u32));
    assert_eq!(&src[v.body.span.start as usize..v.body.span.end as usize], "x + 1");
}

#[test]
fn update_paths_desugar() {
    // `r with a[i].b = v` is `r with a = (r.a with [i] = (r.a[i] with b = v))`,
    // with the inner index bound to a name first.
    let (p, diags) = parse_program(FileId(0), "def f r i v = r with a[i].b = v", &mut NodeIds::default());
    assert!(diags.is_empty());
    let Dec::Value(d) = &p.decs[0] else { panic!() };
    let ExprKind::Let { value, body, .. } = &d.body.kind else { panic!("{:?}", d.body.kind) };
    assert!(matches!(value.kind, ExprKind::Var(_)));
    let ExprKind::RecordUpdate { fields, value, .. } = &body.kind else { panic!() };
    assert_eq!(fields[0].text, "a");
    let ExprKind::Update { value, .. } = &value.kind else { panic!() };
    assert!(matches!(value.kind, ExprKind::RecordUpdate { .. }));
}

#[test]
fn error_messages() {
    assert_eq!(errors("def f x = let y = x + 1 then"), vec!["parse-error: Unexpected token: 'then'; expected `in`."]);
    // `let y 1 …` is a local function with a literal parameter.
    assert_eq!(errors("def f x = let y 1 in y"), vec!["parse-error: Unexpected token: 'in'; expected `=`."]);
    assert_eq!(errors("def f x = let y \"s\" in y"), vec!["parse-error: Unexpected token: 'in'; expected `=`."]);
    assert_eq!(errors("def f x = let (y, 1 = x in y"), vec!["parse-error: Unexpected token: '='; expected `)`."]);
    assert_eq!(errors("def f = (1, 2"), vec!["parse-error: Unexpected end of file; expected `)`."]);
    assert_eq!(errors("def f = if x then y"), vec!["parse-error: Unexpected end of file; expected `else`."]);
    assert_eq!(errors("x = 1"), vec!["parse-error: Unexpected token: 'x'; expected a declaration."]);
    assert_eq!(errors("def x = 1 @ 2"), vec!["lexical-error: unexpected character `@`"]);
    assert_eq!(errors("def s = \"abc"), vec!["lexical-error: unterminated string literal"]);
    assert_eq!(errors("def s = 12abc"), vec!["lexical-error: invalid suffix `abc` on a numeric literal"]);
    assert_eq!(errors("def s = 1.5i32"), vec!["lexical-error: a decimal literal cannot have the integer suffix `i32`"]);
    assert_eq!(errors("def s = \"\\q\""), vec!["lexical-error: unknown escape sequence `\\q`"]);
    assert_eq!(errors("def s = 99999999999999999999999"), vec!["lexical-error: integer literal is too large"]);
    assert_eq!(
        errors("def f = (x).(y)"),
        vec!["parse-error: Unexpected token: '.'; expected a module name before `.(`."]
    );
    assert_eq!(errors("module type S = { val x }"), vec!["parse-error: Unexpected token: '}'; expected `:`."]);
    assert_eq!(expr_error("1 2 )"), vec!["parse-error: Unexpected token: ')'; expected end of input."]);
    // Futhark's wording for a `let` without `in` before a declaration, and for `!` in a binding position.
    assert_eq!(errors("def f x = let y = x\ndef g = 1"), vec!["parse-error: Unexpected \"def\" - missing \"in\"?"]);
    assert_eq!(errors("def f x = let y = x\ntype t = i32"), vec!["parse-error: Unexpected \"type\" - missing \"in\"?"]);
    let bang = "parse-error: '!' is a prefix operator and cannot be used as infix operator.";
    assert_eq!(errors("def x ! y = x"), vec![bang]);
    assert_eq!(errors("def (!) x y = x"), vec![bang]);
    assert_eq!(errors("def (x: i32) ! (y: i32) = x"), vec![bang]);
    // An operator that merely starts with `!` is fine.
    assert!(errors("def (!^) x y = x").is_empty());
}

#[test]
fn error_span_is_the_offending_token() {
    let src = "def f x = let y = x + 1 then";
    let (_, d) = parse_program(FileId(0), src, &mut NodeIds::default());
    assert_eq!((d[0].span.start, d[0].span.end), (24, 28));
}

#[test]
fn independent_errors_are_all_reported_once() {
    let src = "def a = (1 +\ndef b = 2\ndef c = let in\ntype t = \ndef d = 4\nentry e = ]\n";
    let errs = errors(src);
    assert_eq!(errs.len(), 4, "{errs:?}");
    let (p, _) = parse_program(FileId(0), src, &mut NodeIds::default());
    let names: Vec<String> = p.decs.iter().map(dec).collect();
    assert_eq!(names, vec!["def b = 2", "def d = 4"]);
}

#[test]
fn lexical_error_does_not_cascade() {
    assert_eq!(errors("def a = x ` y\ndef b = 1").len(), 1);
    assert_eq!(errors("def a = f @ (1\ndef b = 1"), vec!["lexical-error: unexpected character `@`"]);
}

#[test]
fn nesting_too_deep_is_an_error() {
    let src = format!("def x = {}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let errs = errors(&src);
    assert_eq!(errs, vec!["parse-error: nesting too deep"]);
    let src = format!("def x = {}", "-".repeat(10_000) + "1");
    // `--` starts a comment, so use spaced minus signs instead.
    let _ = src;
    let src = format!("def x = {}1", "- ".repeat(10_000));
    assert_eq!(errors(&src), vec!["parse-error: nesting too deep"]);
    let src = format!("def x = a{}", " <| a".repeat(10_000));
    assert_eq!(errors(&src), vec!["parse-error: nesting too deep"]);
    let src = format!("type t = {}i32", "[]".repeat(10_000));
    assert_eq!(errors(&src), vec!["parse-error: nesting too deep"]);
}

#[test]
fn moderate_nesting_is_fine() {
    let src = format!("def x = {}1{}", "(".repeat(40), ")".repeat(40));
    assert!(errors(&src).is_empty());
    let src = format!("def x = {}1{}", "[".repeat(40), "]".repeat(40));
    assert!(errors(&src).is_empty());
}
