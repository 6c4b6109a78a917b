//! Printing and parsing IR text: hand-built programs print, parse back and
//! print again identically; malformed text gives errors, not panics.

use ogham_ir::parse::parse_program;
use ogham_ir::print;
use ogham_ir::*;

mod common;

use common::sample_program;

fn assert_round_trip(prog: &Program) {
    let text = print::program(prog);
    let parsed = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(print::program(&parsed), text);
    assert!(parsed.names.len() <= prog.names.len());
    // Spans survive the round trip when printed.
    let with_spans = print::program_with_spans(prog);
    let parsed_spans = parse_program(&with_spans).unwrap_or_else(|e| panic!("{e}\n{with_spans}"));
    assert_eq!(print::program_with_spans(&parsed_spans), with_spans);
}

#[test]
fn sample_round_trips() {
    let prog = sample_program();
    let text = print::program(&prog);
    assert!(text.contains("entry main (n_0: i64, xs_1: [n_0]f32) : ([n_0]f32, f32)"), "{text}");
    assert!(text.contains("mul.f32 x_2 2.0f32"), "{text}");
    assert!(text.contains("inputs (\"xs\": \"[]f32\" [1])"), "{text}");
    assert!(text.contains("#[unsafe] let (first_"), "{text}");
    assert!(
        text.contains(r#"assert(pos_"#) && text.contains(r#", "n (= ", n_0, ") must be \"positive\"\n")"#),
        "{text}"
    );
    assert!(print::program_with_spans(&prog).contains("-- @0:10-20"));
    assert_round_trip(&prog);
}

#[test]
fn parsed_program_keeps_numbers_and_fills_names() {
    let text = "fun f (x_7: i64) : (i64) {\n  let (y_9: i64) = add.i64 x_7 1i64\n  in (y_9)\n}\n";
    let prog = parse_program(text).unwrap();
    assert_eq!(prog.funs[0].params[0].name, VName(7));
    assert_eq!(prog.names.len(), 10);
    assert_eq!(prog.names.base(VName(9)), "y");
    assert_eq!(print::program(&prog), text);
    // Fresh names do not collide with parsed ones.
    let mut names = prog.names.clone();
    assert_eq!(names.fresh("z"), VName(10));
}

#[test]
fn every_construct_round_trips() {
    let text = common::EVERY_CONSTRUCT;
    let prog = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    let printed = print::program(&prog);
    let again = parse_program(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(print::program(&again), printed);
    assert!(printed.contains("#[sequential] let (s_14"), "{printed}");
    assert_eq!(printed, text);
}

#[test]
fn bad_text_gives_errors() {
    assert_eq!(parse_program("").unwrap().funs.len(), 0);
    let cases = [
        "fun",
        "fun f (x: i64) : (i64) { in (x) }",
        "fun f (x_1: i64) : (i64) { in (x_1) ",
        "fun f (x_1: i64) : (i64) { let (y_2: i64) = frob.i64 x_1 in (y_2) }",
        "fun f (x_1: i64) : (i64) { let (y_2: i64) = add.q64 x_1 x_1 in (y_2) }",
        "fun f (x_1: i64) : (i64) { in (3) }",
        "fun f (x_1: i64) : (i64) { in (300i8) }",
        "fun f (x_1: i64, y_1: i64) : (i64) { in (x_1) }",
        "fun f (x_1: i64) : (i64) { let () = assert(true, \"abc) in (x_1) }",
        "fun f (x_1: i64) : (i64) { #[fast] let (y_2: i64) = x_1 in (y_2) }",
        "fun f (x_1: i64) : (i64) { in (x_1) } -- @1:2",
        "entry f (x_1: i64) : (i64) { in (x_1) }",
        "entry f (x_1: i64) : (i64) inputs (\"x\": [0]) outputs (\"i64\" [0]) { in (x_1) }",
        "entry f (x_1: i64) : (i64) inputs (*\"x\": \"i64\" [0]) outputs (\"i64\" [0]) { in (x_1) }",
        "fun f (x_1: i64) : (i64) { let (y_2: [n_0]i64) = iota.i64(x_1, 0i64) in (y_2) }",
        "fun f (x_1: i64) : (i64) { in (x_1) } $",
        "fun f (x_1: i64) : (i64) { let () = assert(true, \"\\u{zz}\") in (x_1) }",
    ];
    for case in cases {
        assert!(parse_program(case).is_err(), "accepted: {case}");
    }
    // Any prefix of valid text is handled without panicking.
    let text = print::program(&sample_program());
    for (i, _) in text.char_indices() {
        let _ = parse_program(&text[..i]);
    }
    // Deep nesting is an error, not a stack overflow.
    let mut deep = String::from("fun f (c_0: bool) : (i64) {\n");
    for _ in 0..100_000 {
        deep.push_str("let (x_1: i64) = if c_0 then { ");
    }
    assert!(parse_program(&deep).is_err());
}

#[test]
fn constants_round_trip() {
    let text = "consts {
  let (n_0: i64) = add.i64 2i64 3i64
  let (xs_1: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)
}

fun f (i_2: i64) : (i64) {
  let (x_3: i64) = index xs_1[i_2]
  in (x_3)
}
";
    let prog = parse_program(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(prog.consts.len(), 2);
    assert_eq!(prog.const_params().map(|p| p.name).collect::<Vec<_>>(), vec![VName(0), VName(1)]);
    assert_eq!(print::program(&prog), text);
    assert_round_trip(&prog);
    // An unclosed block is an error.
    assert!(parse_program("consts {\n  let (n_0: i64) = add.i64 2i64 3i64\n").is_err());
}
