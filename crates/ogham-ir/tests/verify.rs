//! The verifier accepts well-formed programs and rejects each kind of broken invariant.

use ogham_ir::parse::parse_program;
use ogham_ir::verify::{verify, verify_after};

mod common;

/// Parses `text` and returns the verifier's messages (empty when it passes).
fn errors(text: &str) -> Vec<String> {
    let prog = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match verify(&prog) {
        Ok(_) => Vec::new(),
        Err(errs) => errs.iter().map(|e| e.to_string()).collect(),
    }
}

/// Asserts that some error mentions every one of `needles`.
fn rejects(text: &str, needles: &[&str]) {
    let errs = errors(text);
    assert!(
        errs.iter().any(|e| needles.iter().all(|n| e.contains(n))),
        "expected an error mentioning {needles:?}, got {errs:#?}\nfor\n{text}"
    );
}

fn accepts(text: &str) {
    let errs = errors(text);
    assert!(errs.is_empty(), "unexpected errors {errs:#?}\nfor\n{text}");
}

/// A one-function program with the given parameters, return types and body lines.
fn fun(params: &str, ret: &str, body: &str) -> String {
    format!("fun f ({params}) : ({ret}) {{\n{body}\n}}\n")
}

#[test]
fn good_programs_pass() {
    let sample = common::sample_program();
    let verified = verify(&sample).unwrap_or_else(|e| panic!("{e:?}"));
    // It gives the type of every variable and how often each is used.
    let main = &sample.funs[0];
    for p in &main.params {
        assert_eq!(verified.types.get(&p.name), Some(&p.ty));
    }
    for r in &main.body.result {
        let v = r.as_var().expect("a variable result");
        assert!(verified.types.contains_key(&v) && verified.uses[&v] >= 1);
    }
    accepts(&common::EVERY_CONSTRUCT.replace("f16.nan", "f32.nan"));
    // Sizes bound earlier in the same pattern, existential result sizes.
    accepts(&fun(
        "n_0: i64, c_1: bool",
        "[k_9]i64",
        "  let (k_2: i64, ys_3: [k_2]i64) = if c_1 then {
      let (z_4: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)
      in (n_0, z_4)
    } else {
      let (e_5: [0i64]i64) = scratch.i64([0i64])
      in (0i64, e_5)
    }
  in (ys_3)",
    ));
}

#[test]
fn deliberate_type_error_is_found() {
    let errs = errors(common::EVERY_CONSTRUCT);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].contains("weird.name") && errs[0].contains("u_15"), "{errs:#?}");
}

#[test]
fn scoping() {
    rejects(&fun("x_0: i64", "i64", "  in (y_5)"), &["y_5", "not in scope", "`f`"]);
    rejects(&fun("x_0: i64", "i64", "  let (x_0: i64) = add.i64 x_0 1i64\n  in (x_0)"), &["x_0", "more than once"]);
    // A lambda parameter is not in scope after its lambda.
    rejects(
        &fun(
            "n_0: i64, xs_1: [n_0]i64",
            "i64",
            "  let (ys_2: [n_0]i64) = map(n_0, xs_1, \\(x_3: i64) : (i64) {\n      in (x_3)\n    })\n  in (x_3)",
        ),
        &["x_3", "not in scope"],
    );
    // Names are unique across functions too.
    rejects(
        "fun f (x_0: i64) : (i64) {\n  in (x_0)\n}\nfun g (x_0: i64) : (i64) {\n  in (x_0)\n}\n",
        &["`g`", "x_0", "more than once"],
    );
    // Defined after use.
    rejects(
        &fun("x_0: i64", "i64", "  let (a_1: i64) = add.i64 b_2 1i64\n  let (b_2: i64) = x_0\n  in (a_1)"),
        &["b_2"],
    );
}

#[test]
fn operand_types() {
    rejects(&fun("x_0: i64", "i64", "  let (y_1: i64) = add.i64 x_0 1i32\n  in (y_1)"), &["1i32", "expected i64"]);
    rejects(&fun("x_0: i64", "i64", "  let (y_1: i64) = lt.i64 x_0 1i64\n  in (y_1)"), &["y_1", "pattern"]);
    rejects(
        &fun(
            "x_0: i64",
            "i64",
            "  let (y_1: i64) = if x_0 then {\n      in (1i64)\n    } else {\n      in (2i64)\n    }\n  in (y_1)",
        ),
        &["condition", "x_0"],
    );
    rejects(
        &fun(
            "x_0: i64",
            "i64",
            "  let (y_1: i64) = loop (a_2: i64 = 0i64) for i_3 < 10i32 {\n      in (a_2)\n    }\n  in (y_1)",
        ),
        &["loop bound", "10i32"],
    );
    rejects(
        &fun(
            "c_0: bool",
            "i64",
            "  let (y_1: i64) = loop (a_2: i64 = 0i64) while c_0 {\n      in (a_2)\n    }\n  in (y_1)",
        ),
        &["while condition", "c_0", "not a loop parameter"],
    );
    rejects(
        &fun(
            "x_0: i64",
            "i64",
            "  let (y_1: i64) = loop (a_2: i64 = 0i64) while a_2 {\n      in (a_2)\n    }\n  in (y_1)",
        ),
        &["while condition", "not a bool"],
    );
    rejects(&fun("x_0: i64", "i64", "  let (y_1: i64) = apply g(x_0)\n  in (y_1)"), &["unknown function `g`"]);
}

#[test]
fn shapes() {
    rejects(
        &fun("n_0: i64", "[k_9]i64", "  let (y_1: [k_9]i64) = iota.i64(n_0, 0i64, 1i64)\n  in (y_1)"),
        &["k_9", "not in scope"],
    );
    rejects(
        &fun("n_0: f32", "[n_0]i64", "  let (y_1: [n_0]i64) = iota.i64(3i64, 0i64, 1i64)\n  in (y_1)"),
        &["n_0", "not i64"],
    );
    rejects(
        &fun("n_0: i64", "[3i32]i64", "  let (y_1: [3i64]i64) = iota.i64(3i64, 0i64, 1i64)\n  in (y_1)"),
        &["3i32", "not an i64"],
    );
}

#[test]
fn results() {
    rejects(&fun("x_0: i64", "i64, i64", "  in (x_0)"), &["result of the function body", "1 values where 2"]);
    rejects(&fun("xs_0: [3i64]i64", "i64", "  in (xs_0)"), &["result", "[3i64]i64"]);
    rejects(&fun("xs_0: [3i64]i64", "[4i64]i64", "  in (xs_0)"), &["result", "[4i64]i64"]);
    // Different size variables are accepted: they may be equal at run time.
    accepts(&fun("n_0: i64, m_1: i64, xs_2: [n_0]i64", "[m_1]i64", "  in (xs_2)"));
}

#[test]
fn soacs() {
    rejects(
        &fun(
            "xs_0: [4i64]f32",
            "[3i64]f32",
            "  let (ys_1: [3i64]f32) = map(3i64, xs_0, \\(x_2: f32) : (f32) {\n      in (x_2)\n    })\n  in (ys_1)",
        ),
        &["outer size 4i64", "width is 3i64"],
    );
    rejects(
        &fun(
            "n_0: i64, xs_1: [n_0]f32",
            "[n_0]f32",
            "  let (ys_2: [n_0]f32) = map(n_0, xs_1, \\(x_3: i64) : (f32) {\n      in (1.0f32)\n    })\n  in (ys_2)",
        ),
        &["parameters of the lambda", "i64"],
    );
    let reduce = |params: &str, neutral: &str| {
        fun(
            "n_0: i64, xs_1: [n_0]f32",
            "f32",
            &format!(
                "  let (s_2: f32) = screma(n_0, xs_1, scans [], reduces [op([{neutral}], \\({params}) : (f32) {{
      in (a_3)
    }})], \\(x_5: f32) : (f32) {{
      in (x_5)
    }})
  in (s_2)"
            ),
        )
    };
    accepts(&reduce("a_3: f32, b_4: f32", "0.0f32"));
    rejects(&reduce("a_3: f32", "0.0f32"), &["returns 1 values but takes 1 parameters"]);
    rejects(&reduce("a_3: f32, b_4: f32", "0.0f32, 1.0f32"), &["2 neutral elements for 1 values"]);
    rejects(&reduce("a_3: f32, b_4: f32", "0i32"), &["neutral element", "0i32"]);
    rejects(
        &fun(
            "n_0: i64, is_1: [n_0]i64, d_2: [5i64]f32",
            "[5i64]f32",
            "  let (d_3: [5i64]f32) = scatter(n_0, is_1, dests [d_2], \\(i_4: i64) : (i64) {\n      in (i_4)\n    })\n  in (d_3)",
        ),
        &["map function", "not indices and values for destinations of ranks [1]"],
    );
}

#[test]
fn indexing() {
    rejects(
        &fun("xs_0: [3i64]f32", "f32", "  let (y_1: f32) = index xs_0[0i64, 1i64]\n  in (y_1)"),
        &["slice of 2 dimensions", "rank 1"],
    );
    rejects(
        &fun("xs_0: [3i64]f32", "f32", "  let (y_1: f32) = index xs_0[0i32]\n  in (y_1)"),
        &["0i32", "expected i64"],
    );
    rejects(
        &fun(
            "xs_0: [3i64][4i64]f32",
            "[3i64][4i64]f32",
            "  let (ys_1: [3i64][4i64]f32) = update xs_0[0i64] = 1.0f32\n  in (ys_1)",
        ),
        &["value written", "[4i64]f32"],
    );
    accepts(&fun(
        "xs_0: [3i64][4i64]f32, r_2: [4i64]f32",
        "[3i64][4i64]f32",
        "  let (ys_1: [3i64][4i64]f32) = update xs_0[0i64] = r_2\n  in (ys_1)",
    ));
}

#[test]
fn consumption() {
    rejects(
        &fun(
            "xs_0: [3i64]f32",
            "f32",
            "  let (ys_1: [3i64]f32) = update xs_0[0i64] = 1.0f32\n  let (y_2: f32) = index xs_0[1i64]\n  in (y_2)",
        ),
        &["xs_0", "used in the definition of `y_2` after being consumed"],
    );
    rejects(
        &fun("xs_0: [3i64]f32", "[3i64]f32", "  let (ys_1: [3i64]f32) = update xs_0[0i64] = 1.0f32\n  in (xs_0)"),
        &["xs_0", "returned after being consumed"],
    );
    // Consumption inside a branch counts for the enclosing body.
    rejects(
        &fun(
            "xs_0: [3i64]f32, c_1: bool",
            "[3i64]f32",
            "  let (ys_2: [3i64]f32) = if c_1 then {
      let (zs_3: [3i64]f32) = update xs_0[0i64] = 1.0f32
      in (zs_3)
    } else {
      in (xs_0)
    }
  in (xs_0)",
        ),
        &["xs_0", "after being consumed"],
    );
}

#[test]
fn entry_points() {
    let entry = |inputs: &str, outputs: &str| {
        format!("entry main (x_0: i64) : (i64)\n  inputs ({inputs})\n  outputs ({outputs}) {{\n  in (x_0)\n}}\n")
    };
    accepts(&entry("\"i64\" [0]", "\"i64\" [0]"));
    accepts(&entry("\"x\": \"i64\" [0]", "\"i64\" [0]"));
    rejects(&entry("\"x\": \"i64\" [0]", "\"y\": \"i64\" [0]"), &["entry output", "has a name", "`y`"]);
    rejects(&entry("\"\": \"i64\" [0]", "\"i64\" [0]"), &["entry input", "empty name"]);
    rejects(&entry("\"i64\" [1]", "\"i64\" [0]"), &["entry input", "part 1", "only 1 parameters"]);
    rejects(&entry("\"i64\" [0]", "\"i64\" [3]"), &["entry output", "part 3"]);
    rejects(
        &entry("\"(i64, i64)\" [0] record {\"0\": \"i64\" 1, \"1\": \"i64\" 1}", "\"i64\" [0]"),
        &["fields span 2 parts"],
    );
    let two = |inputs: &str| {
        format!(
            "entry main (t_0: i8, x_1: i64) : (i64)\n  inputs ({inputs})\n  outputs (\"i64\" [0]) {{\n  in (x_1)\n}}\n"
        )
    };
    accepts(&two("\"s\": \"#a i64 | #b\" [0, 1] sum {\"a\": [\"i64\" 1], \"b\": []}"));
    accepts(&two("\"s\": \"[](#a | #b)\" [0, 1] sum_array 1 {\"a\": [], \"b\": [\"bool\" 1]}"));
    rejects(
        &two("\"s\": \"#a i64 | #b\" [0, 1] sum {\"a\": [\"i64\" 1, \"i64\" 1], \"b\": []}"),
        &["tag and payloads span 3 parts, but it has 2"],
    );
}

#[test]
fn verify_after_names_the_pass() {
    let prog = parse_program(&fun("x_0: i64", "i64", "  in (y_5)")).unwrap();
    let msg = verify_after("lower", &prog).unwrap_err();
    assert!(msg.starts_with("IR verifier failed after pass `lower`:"), "{msg}");
    assert!(msg.contains("in function `f`") && msg.contains("y_5"), "{msg}");
    assert_eq!(verify_after("lower", &common::sample_program()), Ok(()));
}

/// A loop consuming `xs_1` (its body updates the parameter in place), with
/// `after` lines following it.
fn loop_over_xs(init: &str, after: &str) -> String {
    fun(
        "n_0: i64, xs_1: [3i64]i32",
        "i32",
        &format!(
            "{init}  let (ys_2: [3i64]i32) = loop (acc_3: [3i64]i32 = INIT) for i_4 < n_0 {{
      let (upd_5: [3i64]i32) = update acc_3[0i64] = 7i32
      in (upd_5)
    }}
{after}"
        ),
    )
}

#[test]
fn loops_consume_initial_values() {
    // The known case: the interpreter printed 1, the C backend 7 (the loop
    // parameter is written in place, and its memory is `xs_1`'s).
    rejects(
        &loop_over_xs("", "  let (x_6: i32) = index xs_1[0i64]\n  in (x_6)").replace("INIT", "xs_1"),
        &["`xs_1` is used in the definition of `x_6` after being consumed by the definition of `ys_2`"],
    );
    // A slice of the initial value is consumed with it.
    rejects(
        &loop_over_xs(
            "  let (v_7: [2i64]i32) = index xs_1[1i64:+2i64*1i64]\n",
            "  let (x_6: i32) = index v_7[0i64]\n  in (x_6)",
        )
        .replace("INIT", "xs_1"),
        &["`v_7`", "`xs_1`", "after being consumed"],
    );
    // A fresh copy may be consumed; the original is untouched.
    accepts(
        &loop_over_xs(
            "  let (c_7: [3i64]i32) = copy(xs_1)\n",
            "  let (x_6: i32) = index xs_1[0i64]\n  let (y_8: i32) = index ys_2[0i64]\n  let (s_9: i32) = add.i32 x_6 y_8\n  in (s_9)",
        )
        .replace("INIT", "c_7"),
    );
    // A loop that only reads its parameter consumes nothing.
    accepts(&fun(
        "n_0: i64, xs_1: [3i64]i32",
        "i32",
        "  let (ys_2: [3i64]i32) = loop (acc_3: [3i64]i32 = xs_1) for i_4 < n_0 {
      let (a_5: [3i64]i32) = copy(acc_3)
      in (a_5)
    }
  let (x_6: i32) = index xs_1[0i64]
  in (x_6)",
    ));
}

#[test]
fn loop_bodies() {
    // The body reads the initial value that it updates through the parameter.
    rejects(
        &fun(
            "n_0: i64, xs_1: [3i64]i32",
            "[3i64]i32",
            "  let (ys_2: [3i64]i32) = loop (acc_3: [3i64]i32 = xs_1) for i_4 < n_0 {
      let (x_6: i32) = index xs_1[0i64]
      let (upd_5: [3i64]i32) = update acc_3[0i64] = x_6
      in (upd_5)
    }
  in (ys_2)",
        ),
        &["consumes `xs_1`", "its body uses `xs_1`"],
    );
    // The body consumes an array bound outside it.
    rejects(
        &fun(
            "n_0: i64, xs_1: [3i64]i32",
            "i64",
            "  let (k_2: i64) = loop (j_3: i64 = 0i64) for i_4 < n_0 {
      let (upd_5: [3i64]i32) = update xs_1[0i64] = 7i32
      in (j_3)
    }
  in (k_2)",
        ),
        &["loop body", "consumes `xs_1`", "bound outside it"],
    );
    // The body gives a parameter it consumes an array bound outside the loop.
    rejects(
        &fun(
            "n_0: i64, xs_1: [3i64]i32, zs_2: [3i64]i32",
            "[3i64]i32",
            "  let (ys_3: [3i64]i32) = loop (acc_4: [3i64]i32 = xs_1) for i_5 < n_0 {
      let (upd_6: [3i64]i32) = update acc_4[0i64] = 7i32
      in (zs_2)
    }
  in (ys_3)",
        ),
        &["consumes its parameter `acc_4`", "`zs_2`"],
    );
    // Two parameters swapped, one updated: both initial values are consumed.
    let swap = |after: &str| {
        fun(
            "n_0: i64, xs_1: [3i64]i32, zs_2: [3i64]i32",
            "[3i64]i32",
            &format!(
                "  let (a_3: [3i64]i32, b_4: [3i64]i32) = loop (p_5: [3i64]i32 = xs_1, q_6: [3i64]i32 = zs_2) for i_7 < n_0 {{
      let (upd_8: [3i64]i32) = update q_6[0i64] = 7i32
      in (upd_8, p_5)
    }}
{after}"
            ),
        )
    };
    accepts(&swap("  in (a_3)"));
    rejects(&swap("  let (x_9: i32) = index xs_1[0i64]\n  in (a_3)"), &["`xs_1`", "after being consumed"]);
    // The same array as two parameters, one updated.
    rejects(
        &fun(
            "n_0: i64, xs_1: [3i64]i32",
            "[3i64]i32",
            "  let (a_3: [3i64]i32, b_4: [3i64]i32) = loop (p_5: [3i64]i32 = xs_1, q_6: [3i64]i32 = xs_1) for i_7 < n_0 {
      let (upd_8: [3i64]i32) = update p_5[0i64] = 7i32
      in (upd_8, q_6)
    }
  in (a_3)",
        ),
        &["`q_6` is returned after being consumed", "`p_5`"],
    );
    // Branches that swap the two parameters, each updating one: the `if`'s
    // results may each be either parameter, but never both the same.
    let branches = |then: &str, els: &str| {
        fun(
            "n_0: i64, xs_1: [3i64]i32, zs_2: [3i64]i32, c_10: bool",
            "[3i64]i32",
            &format!(
                "  let (a_3: [3i64]i32, b_4: [3i64]i32) = loop (p_5: [3i64]i32 = xs_1, q_6: [3i64]i32 = zs_2) for i_7 < n_0 {{
      let (r_11: [3i64]i32, s_12: [3i64]i32) = if c_10 then {{
          let (upd_8: [3i64]i32) = update q_6[0i64] = 7i32
          in ({then})
        }} else {{
          let (upd_9: [3i64]i32) = update p_5[0i64] = 8i32
          in ({els})
        }}
      in (r_11, s_12)
    }}
  in (a_3)"
            ),
        )
    };
    accepts(&branches("upd_8, p_5", "upd_9, q_6"));
    // A branch giving both results the same memory makes them share it.
    rejects(&branches("upd_8, upd_8", "upd_9, q_6"), &["after being consumed"]);
}

/// A body that takes a view `v_2` of `xs_1` (`view`: its type and
/// definition), reads `v_2[read]` and updates `xs_1`, the read before or
/// after the update.
fn view_then_update(view: &str, read: &str, read_before: bool) -> String {
    let read = format!("  let (x_4: i32) = index v_2[{read}]\n");
    let update = "  let (ys_3: [2i64][3i64]i32) = update xs_1[0i64, 0i64] = 7i32\n";
    let (first, second) = if read_before { (read.as_str(), update) } else { (update, read.as_str()) };
    fun("xs_1: [2i64][3i64]i32", "i32", &format!("  let (v_2: {view}\n{first}{second}  in (x_4)"))
}

#[test]
fn views_are_consumed_with_their_source() {
    // The known case: the interpreter printed 1, the C backend 7.
    for (view, read) in [
        ("[2i64][3i64]i32) = index xs_1[0i64:+2i64*1i64]", "0i64, 0i64"),
        ("[3i64]i32) = index xs_1[0i64]", "0i64"),
        ("[6i64]i32) = reshape([6i64], xs_1)", "0i64"),
        ("[3i64][2i64]i32) = rearrange([1, 0], xs_1)", "0i64, 0i64"),
        ("[2i64][3i64]i32) = xs_1", "0i64, 0i64"),
    ] {
        rejects(
            &view_then_update(view, read, false),
            &["`v_2` is used in the definition of `x_4` after being consumed", "`xs_1`", "`ys_3`"],
        );
        accepts(&view_then_update(view, read, true));
    }
    // Consuming the view consumes its source.
    rejects(
        &fun(
            "xs_1: [2i64][3i64]i32",
            "i32",
            "  let (v_2: [3i64]i32) = index xs_1[1i64]\n  let (w_3: [3i64]i32) = update v_2[0i64] = 7i32\n  let (x_4: i32) = index xs_1[0i64, 0i64]\n  in (x_4)",
        ),
        &["`xs_1` is used", "after being consumed", "`v_2`"],
    );
    // Certified values and branch results alias what they rebind.
    rejects(
        &fun(
            "xs_1: [3i64]i32, c_2: bool",
            "i32",
            "  let (k_3: bool) = assert(c_2, \"no\")\n  let (v_4: [3i64]i32) = certify(k_3, xs_1)\n  let (u_5: [3i64]i32) = update xs_1[0i64] = 7i32\n  let (x_6: i32) = index v_4[0i64]\n  in (x_6)",
        ),
        &["`v_4`", "`xs_1`", "after being consumed"],
    );
    rejects(
        &fun(
            "xs_1: [3i64]i32, zs_2: [3i64]i32, c_3: bool",
            "i32",
            "  let (v_4: [3i64]i32) = if c_3 then {\n      in (xs_1)\n    } else {\n      in (zs_2)\n    }\n  let (u_5: [3i64]i32) = update v_4[0i64] = 7i32\n  let (x_6: i32) = index zs_2[0i64]\n  in (x_6)",
        ),
        &["`zs_2`", "`v_4`", "after being consumed"],
    );
    // A copy is fresh.
    accepts(&fun(
        "xs_1: [3i64]i32",
        "i32",
        "  let (v_2: [3i64]i32) = copy(xs_1)\n  let (u_3: [3i64]i32) = update v_2[0i64] = 7i32\n  let (x_4: i32) = index xs_1[0i64]\n  in (x_4)",
    ));
}

#[test]
fn one_statement_consuming_and_using_the_same_memory() {
    // The written value is a row of the updated array.
    rejects(
        &fun(
            "xs_1: [2i64][3i64]i32",
            "[2i64][3i64]i32",
            "  let (v_2: [3i64]i32) = index xs_1[1i64]\n  let (u_3: [2i64][3i64]i32) = update xs_1[0i64] = v_2\n  in (u_3)",
        ),
        &["consumes `xs_1` and also uses `v_2`"],
    );
    // A scatter whose lambda reads its destination.
    rejects(
        &fun(
            "n_0: i64, is_1: [n_0]i64, xs_2: [n_0]i64",
            "[n_0]i64",
            "  let (d_3: [n_0]i64) = scatter(n_0, is_1, dests [xs_2], \\(i_4: i64) : (i64, i64) {
      let (x_5: i64) = index xs_2[i_4]
      in (i_4, x_5)
    })
  in (d_3)",
        ),
        &["consumes `xs_2` and also uses it"],
    );
    // A map lambda may update its own row, not an array from outside.
    let map = |target: &str| {
        fun(
            "n_0: i64, xss_1: [n_0][3i64]i64, zs_2: [3i64]i64",
            "[n_0][3i64]i64",
            &format!(
                "  let (ys_3: [n_0][3i64]i64) = map(n_0, xss_1, \\(r_4: [3i64]i64) : ([3i64]i64) {{
      let (u_5: [3i64]i64) = update {target}[0i64] = 1i64
      in (u_5)
    }})
  in (ys_3)"
            ),
        )
    };
    accepts(&map("r_4"));
    rejects(&map("zs_2"), &["lambda", "consumes `zs_2`", "bound outside it"]);
    rejects(
        &map("r_4").replace("  in (ys_3)", "  let (x_6: i64) = index xss_1[0i64, 0i64]\n  in (ys_3)"),
        &["`xss_1` is used in the definition of `x_6` after being consumed"],
    );
}

#[test]
fn calls_consume_what_their_callees_consume() {
    let prog = |callee_body: &str, after: &str| {
        format!(
            "fun g (ys_0: [3i64]i32) : ([3i64]i32) {{\n{callee_body}\n}}\n{}",
            fun(
                "xs_1: [3i64]i32",
                "i32",
                &format!(
                    "  let (r_2: [3i64]i32) = apply g(xs_1)\n{after}  let (x_3: i32) = index xs_1[0i64]\n  in (x_3)"
                ),
            )
        )
    };
    let updates = "  let (u_4: [3i64]i32) = update ys_0[0i64] = 7i32\n  in (u_4)";
    let copies = "  let (c_4: [3i64]i32) = copy(ys_0)\n  in (c_4)";
    rejects(
        &prog(updates, ""),
        &["`xs_1` is used in the definition of `x_3` after being consumed by the definition of `r_2`"],
    );
    accepts(&prog(copies, ""));
    // The result of a function returning its parameter aliases the argument.
    rejects(
        &prog("  in (ys_0)", "  let (w_5: [3i64]i32) = update r_2[0i64] = 1i32\n"),
        &["`xs_1`", "`r_2`", "after being consumed"],
    );
    // A fresh result may be updated.
    accepts(&prog(copies, "  let (w_5: [3i64]i32) = update r_2[0i64] = 1i32\n"));
}

#[test]
fn nested_updates_write_back() {
    // `xs with [1][2] = 7` as lowering writes it: the row is updated in
    // place, then written back where it came from.
    accepts(&fun(
        "xs_1: [2i64][3i64]i32",
        "[2i64][3i64]i32",
        "  let (v_2: [3i64]i32) = index xs_1[1i64]
  let (w_3: [3i64]i32) = update v_2[2i64] = 7i32
  let (u_4: [2i64][3i64]i32) = update xs_1[1i64] = w_3
  in (u_4)",
    ));
    // An unchanged row written back.
    accepts(&fun(
        "xs_1: [2i64][3i64]i32",
        "[2i64][3i64]i32",
        "  let (v_2: [3i64]i32) = index xs_1[1i64]\n  let (u_3: [2i64][3i64]i32) = update xs_1[1i64] = v_2\n  in (u_3)",
    ));
    // Written back elsewhere, it overlaps.
    rejects(
        &fun(
            "xs_1: [2i64][3i64]i32",
            "[2i64][3i64]i32",
            "  let (v_2: [3i64]i32) = index xs_1[1i64]
  let (w_3: [3i64]i32) = update v_2[2i64] = 7i32
  let (u_4: [2i64][3i64]i32) = update xs_1[0i64] = w_3
  in (u_4)",
        ),
        &["`xs_1` is used in the definition of `u_4` after being consumed"],
    );
}

#[test]
fn constants_are_in_scope_and_never_consumed_or_returned() {
    let consts = "consts {
  let (n_0: i64) = add.i64 2i64 3i64
  let (xs_1: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)
}
";
    // Read, and used in a type, by a function.
    accepts(&format!(
        "{consts}{}",
        fun(
            "i_2: i64",
            "i64, [n_0]i64",
            "  let (x_3: i64) = index xs_1[i_2]\n  let (c_4: [n_0]i64) = copy(xs_1)\n  in (x_3, c_4)"
        )
    ));
    // Updated in place: every call shares it.
    rejects(
        &format!(
            "{consts}{}",
            fun("i_2: i64", "[n_0]i64", "  let (u_3: [n_0]i64) = update xs_1[i_2] = 1i64\n  in (u_3)")
        ),
        &["consumes the constant", "xs_1"],
    );
    // Returned, or a view of it returned: a caller may update it.
    rejects(&format!("{consts}{}", fun("i_2: i64", "[n_0]i64", "  in (xs_1)")), &["returns", "xs_1"]);
    rejects(
        &format!(
            "{consts}{}",
            fun("i_2: i64", "[2i64]i64", "  let (s_3: [2i64]i64) = index xs_1[0i64:+2i64*1i64]\n  in (s_3)")
        ),
        &["returns (a view of) the constant", "xs_1"],
    );
    // A constant the constants consumed is not in scope for functions.
    rejects(
        "consts {
  let (xs_1: [3i64]i64) = iota.i64(3i64, 0i64, 1i64)
  let (ys_2: [3i64]i64) = update xs_1[0i64] = 7i64
}
fun f () : (i64) {
  let (x_3: i64) = index xs_1[0i64]
  in (x_3)
}
",
        &["xs_1", "after being consumed"],
    );
}

#[test]
fn entry_points_consume_only_unique_inputs() {
    let entry = |star: &str| {
        format!(
            "entry main (xs_0: [3i64]i64) : ([3i64]i64)
  inputs (\"xs\": {star}\"[]i64\" [0])
  outputs (\"[]i64\" [0]) {{
  let (ys_1: [3i64]i64) = update xs_0[0i64] = 7i64
  in (ys_1)
}}
"
        )
    };
    accepts(&entry("*"));
    rejects(&entry(""), &["consumes its input `xs`", "xs_0", "not declared unique"]);
    // Through a view of it, and in one branch of an `if`: the input is
    // consumed all the same.
    let deeper = |star: &str| {
        format!(
            "entry main (xs_0: [3i64]i64, c_1: bool) : (i64)
  inputs (\"xs\": {star}\"[]i64\" [0], \"c\": \"bool\" [1])
  outputs (\"i64\" [0]) {{
  let (v_2: [2i64]i64) = index xs_0[1i64:+2i64*1i64]
  let (r_3: i64) = if c_1 then {{
      let (w_4: [2i64]i64) = update v_2[0i64] = 7i64
      let (y_5: i64) = index w_4[1i64]
      in (y_5)
    }} else {{
      in (0i64)
    }}
  in (r_3)
}}
"
        )
    };
    accepts(&deeper("*"));
    rejects(&deeper(""), &["consumes its input `xs`", "xs_0", "not declared unique"]);
}

#[test]
fn layout_attributes_are_checked() {
    // A virtual iota read only by a map of its body is fine.
    accepts(&fun(
        "n_0: i64",
        "[n_0]i64",
        "  #[virtual] let (is_1: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)
  let (ys_2: [n_0]i64) = map(n_0, is_1, \\(i_3: i64) : (i64) {
      let (t_4: i64) = add.i64 i_3 1i64
      in (t_4)
    })
  in (ys_2)",
    ));
    // Returned, it must be built.
    rejects(
        &fun("n_0: i64", "[n_0]i64", "  #[virtual] let (is_1: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)\n  in (is_1)"),
        &["is_1", "#[virtual]"],
    );
    // Indexed, likewise.
    rejects(
        &fun(
            "n_0: i64",
            "i64",
            "  #[virtual] let (is_1: [n_0]i64) = iota.i64(n_0, 0i64, 1i64)\n  let (x_2: i64) = index is_1[0i64]\n  in (x_2)",
        ),
        &["is_1", "#[virtual]"],
    );
    // A map that is not a map of one reduction cannot be interchanged.
    rejects(
        &fun(
            "n_0: i64, xs_1: [n_0]i64",
            "[n_0]i64",
            "  #[interchange] let (ys_2: [n_0]i64) = map(n_0, xs_1, \\(x_3: i64) : (i64) {
      let (t_4: i64) = add.i64 x_3 1i64
      in (t_4)
    })
  in (ys_2)",
        ),
        &["ys_2", "#[interchange]"],
    );
}

/// A `withacc` over `is_1`/`vs_2` into `z_4` whose lambda body is `body`
/// (accumulator `a_6`, row values `i_7` and `v_8`; it returns `(r)`).
fn with_acc(body: &str, r: &str) -> String {
    fun(
        "n_0: i64, is_1: [n_0]i64, vs_2: [n_0]f64, k_3: i64",
        "[k_3]f64",
        &format!(
            "  let (z_4: [k_3]f64) = replicate([k_3], 0.0f64)
  let (r_5: [k_3]f64) = withacc(n_0, is_1, vs_2, accs [z_4], \\(a_6: [k_3]f64, i_7: i64, v_8: f64) : ([k_3]f64) {{
{body}
      in ({r})
    }})
  in (r_5)"
        ),
    )
}

#[test]
fn accumulators_are_write_only_and_linear() {
    // Updates, a loop and a branch threading the accumulator, a nested withacc.
    accepts(&with_acc("      let (a_9: [k_3]f64) = updacc(add) a_6[i_7] = v_8", "a_9"));
    accepts(&with_acc(
        "      let (a_9: [k_3]f64) = loop (b_10: [k_3]f64 = a_6) for j_11 < 3i64 {
          let (b_12: [k_3]f64) = updacc(add) b_10[j_11] = v_8
          in (b_12)
        }
      let (c_13: bool) = lt.f64 v_8 0.0f64
      let (a_14: [k_3]f64) = if c_13 then {
          let (a_15: [k_3]f64) = updacc(add) a_9[0i64] = v_8
          in (a_15)
        } else {
          in (a_9)
        }
      let (a_16: [k_3]f64) = withacc(n_0, is_1, accs [a_14], \\(d_17: [k_3]f64, q_18: i64) : ([k_3]f64) {
          let (d_19: [k_3]f64) = updacc(add) d_17[q_18] = v_8
          in (d_19)
        })",
        "a_16",
    ));
    // Read by an index.
    rejects(
        &with_acc(
            "      let (x_9: f64) = index a_6[0i64]
      let (a_10: [k_3]f64) = updacc(add) a_6[i_7] = x_9",
            "a_10",
        ),
        &["a_6", "is read"],
    );
    // Used free in a loop body that does not take it.
    rejects(
        &with_acc(
            "      let (s_9: f64) = loop (s_10: f64 = 0.0f64) for j_11 < 3i64 {
          let (y_12: f64) = index a_6[j_11]
          in (y_12)
        }
      let (a_13: [k_3]f64) = updacc(add) a_6[i_7] = s_9",
            "a_13",
        ),
        &["a_6", "does not take it"],
    );
    // Updated with two operators.
    rejects(
        &with_acc(
            "      let (a_9: [k_3]f64) = updacc(add) a_6[i_7] = v_8
      let (a_10: [k_3]f64) = updacc(max) a_9[i_7] = v_8",
            "a_10",
        ),
        &["a_9", "different operators"],
    );
    // Used twice (the first update consumed it).
    rejects(
        &with_acc(
            "      let (a_9: [k_3]f64) = updacc(add) a_6[i_7] = v_8
      let (a_10: [k_3]f64) = updacc(add) a_6[0i64] = v_8",
            "a_10",
        ),
        &["a_6", "consumed"],
    );
    // An operator accumulators cannot combine with.
    rejects(&with_acc("      let (a_9: [k_3]f64) = updacc(sub) a_6[i_7] = v_8", "a_9"), &["sub"]);
}
