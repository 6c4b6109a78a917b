//! End-to-end tests of the C backend: IR text is compiled to executables,
//! which are run on inputs; their output text and exit codes are checked.

use rustc_hash::FxHashMap as HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use ogham_c::{compile_and_link, compile_c, compile_object, generate, generate_split, Backend, Options};
use ogham_ir::Span;
use ogham_syntax::FileId;

fn tmp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ogham-c-tests-{}", std::process::id())).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn parse(text: &str) -> ogham_ir::Program {
    let prog = ogham_ir::parse::parse_program(text).unwrap_or_else(|e| panic!("bad test IR: {e:?}"));
    ogham_ir::verify::verify(&prog).unwrap_or_else(|e| panic!("test IR does not verify: {e:?}"));
    prog
}

fn verified(prog: &ogham_ir::Program) -> ogham_ir::verify::Verified<'_> {
    ogham_ir::verify::verify(prog).unwrap_or_else(|e| panic!("IR does not verify: {e:?}"))
}

/// Builds the IR as given, or, for a name ending in `-opt`, after the
/// middle end's default pipeline (as the driver runs it).
fn build(name: &str, text: &str, opts: &Options) -> PathBuf {
    // Tests compile at -O1 (the last -O wins): the 2-core test machines are slow at -O3.
    let dir = tmp_dir(name);
    let exe = dir.join("prog");
    let c_path = dir.join("prog.c");
    let mut prog = parse(text);
    if name.ends_with("-opt") {
        ogham_opt::run(&mut prog, &ogham_opt::default_pipeline(), &ogham_opt::Target::PORTABLE, true, |_, _| {})
            .unwrap_or_else(|f| panic!("{}", f.message()));
    }
    std::fs::write(&c_path, generate(&verified(&prog), opts).unwrap_or_else(|e| panic!("{e}")).c).unwrap();
    compile_c(&c_path, &exe, opts, &["-O1"]).unwrap_or_else(|e| panic!("{e}"));
    exe
}

/// Runs an executable with stdin; returns (stdout, stderr, exit code).
fn run(exe: &PathBuf, args: &[&str], input: &[u8]) -> (String, String, i32) {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn all_backends() -> Vec<(&'static str, Options)> {
    let seq = Options::default();
    let mc = Options { backend: Backend::Multicore, ..Options::default() };
    vec![("seq", seq.clone()), ("seq-opt", seq), ("mc", mc)]
}

/// Checks that every backend prints `expected` for `input`.
fn check(name: &str, text: &str, input: &str, expected: &str) {
    for (flavour, opts) in all_backends() {
        let exe = build(&format!("{name}-{flavour}"), text, &opts);
        let (out, err, code) = run(&exe, &[], input.as_bytes());
        assert_eq!(code, 0, "{name} ({flavour}) failed: {err}");
        assert_eq!(out, expected, "{name} ({flavour})");
    }
}

const DOT: &str = r#"
entry main (n_0: i64, xs_1: [n_0]f32, ys_2: [n_0]f32) : (f32, [n_0]f32)
  inputs ("[]f32" [1], "[]f32" [2])
  outputs ("f32" [0], "[]f32" [1]) {
  let (ps_3: [n_0]f32) = map(n_0, xs_1, ys_2, \(x_4: f32, y_5: f32) : (f32) {
      let (p_6: f32) = mul.f32 x_4 y_5
      in (p_6)
    })
  let (s_7: f32) = screma(n_0, ps_3, scans [], reduces [op([0.0f32], \(a_8: f32, b_9: f32) : (f32) {
      let (c_10: f32) = add.f32 a_8 b_9
      in (c_10)
    })], \(z_11: f32) : (f32) {
      in (z_11)
    })
  let (q_12: [n_0]f32) = map(n_0, xs_1, \(x_13: f32) : (f32) {
      let (d_14: f32) = div.f32 x_13 4.0f32
      in (d_14)
    })
  in (s_7, q_12)
}
"#;

#[test]
fn dot_product_and_map() {
    check("dot", DOT, "[1f32, 2, 3] [4f32, 5, 6]", "32f32\n[0.25f32, 0.5f32, 0.75f32]\n");
    check("dot-empty", DOT, "empty([0]f32) empty([0]f32)", "0f32\nempty([0]f32)\n");
}

#[test]
fn binary_input_and_output() {
    let exe = build("dot-bin", DOT, &Options::default());
    let mut input = Vec::new();
    for xs in [[1.0f32, 2.0], [3.0, 4.0]] {
        input.extend_from_slice(b"b\x02\x01 f32");
        input.extend_from_slice(&2u64.to_le_bytes());
        for x in xs {
            input.extend_from_slice(&x.to_le_bytes());
        }
    }
    let (out, err, code) = run(&exe, &[], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "11f32\n[0.25f32, 0.5f32]\n");
    let (out, _, _) = run(&exe, &["-b"], b"[1f32] [2f32]");
    assert!(out.starts_with("b\x02\x00 f32"), "{out:?}");
}

#[test]
fn bad_input_is_an_error() {
    let exe = build("dot-badin", DOT, &Options::default());
    for input in ["[1f32, 2] [1f32]", "[1i32] [2f32]", "[1f32] [2f32] 3", "[1f32", ""] {
        let (_, err, code) = run(&exe, &[], input.as_bytes());
        assert_eq!(code, 1, "input {input:?}");
        assert!(err.starts_with("Error:"), "input {input:?}: {err}");
    }
}

const CHECKS: &str = r#"
entry main (n_0: i64, xs_1: [n_0]i32, i_2: i64, d_3: i32) : (i32, i32)
  inputs ("[]i32" [1], "i64" [2], "i32" [3])
  outputs ("i32" [0], "i32" [1]) {
  let (x_4: i32) = index xs_1[i_2] -- @0:10-20
  let (q_5: i32) = div.i32 x_4 d_3 -- @0:30-40
  let (c_6: bool) = lt.i32 q_5 100i32
  let () = assert(c_6, "result too large") -- @0:50-60
  let (r_7: i32) = mod.i32 x_4 d_3 -- @0:30-40
  in (q_5, r_7)
}
"#;

#[test]
fn run_time_errors_report_the_location() {
    let mut span_text = HashMap::default();
    span_text.insert(Span::new(FileId(0), 10, 20), "prog.fut:2:3-2:9".to_string());
    span_text.insert(Span::new(FileId(0), 30, 40), "prog.fut:3:3-3:9".to_string());
    span_text.insert(Span::new(FileId(0), 50, 60), "prog.fut:4:3-4:9".to_string());
    for (flavour, opts) in all_backends() {
        let opts = Options { span_text: span_text.clone(), ..opts };
        let exe = build(&format!("checks-{flavour}"), CHECKS, &opts);
        let (out, _, code) = run(&exe, &[], b"[-7, 8, 900] 0i64 2");
        assert_eq!((out.as_str(), code), ("-4i32\n1i32\n", 0), "floored division and modulus");
        let (_, err, code) = run(&exe, &[], b"[-7, 8, 900] 3i64 2");
        assert_eq!(code, 1);
        assert!(
            err.contains("Error: Index [3] out of bounds for array of shape [3].") && err.contains("prog.fut:2:3-2:9"),
            "{err}"
        );
        let (_, err, code) = run(&exe, &[], b"[-7, 8, 900] 1i64 0");
        assert_eq!(code, 1);
        assert!(err.contains("division by zero") && err.contains("prog.fut:3:3-3:9"), "{err}");
        let (_, err, code) = run(&exe, &[], b"[-7, 8, 900] 2i64 1");
        assert_eq!(code, 1);
        assert!(err.contains("result too large") && err.contains("prog.fut:4:3-4:9"), "{err}");
    }
}

/// Exercises most constructs: loops with in-place updates, slices, transpose, reshape, concat, scans, hist, scatter.
const KITCHEN: &str = r#"
entry main (n_0: i64, m_1: i64, xss_2: [n_0][m_1]i64) : ([m_1][n_0]i64, [n_0]i64, [4i64]i64, [n_0]i64, i64, [10i64]i64)
  inputs ("[][]i64" [2])
  outputs ("[][]i64" [0], "[]i64" [1], "[]i64" [2], "[]i64" [3], "i64" [4], "[]i64" [5]) {
  let (t_3: [m_1][n_0]i64) = rearrange([1, 0], xss_2)
  let (tc_4: [m_1][n_0]i64) = copy(t_3)
  let (sums_5: [n_0]i64) = map(n_0, xss_2, \(row_6: [m_1]i64) : (i64) {
      let (s_7: i64) = screma(m_1, row_6, scans [], reduces [op([0i64], \(a_8: i64, b_9: i64) : (i64) {
          let (c_10: i64) = add.i64 a_8 b_9
          in (c_10)
        })], \(z_11: i64) : (i64) {
          in (z_11)
        })
      in (s_7)
    })
  let (z_12: [4i64]i64) = replicate([4i64], 0i64)
  let (h_13: [4i64]i64) = hist(n_0, sums_5, ops [histop([4i64], [z_12], commop([0i64], \(a_14: i64, b_15: i64) : (i64) {
      let (c_16: i64) = add.i64 a_14 b_15
      in (c_16)
    }))], \(s_17: i64) : (i64, i64) {
      let (k_18: i64) = mod.i64 s_17 4i64
      in (k_18, 1i64)
    })
  let (pre_19: [n_0]i64) = screma(n_0, sums_5, scans [op([0i64], \(a_20: i64, b_21: i64) : (i64) {
      let (c_22: i64) = add.i64 a_20 b_21
      in (c_22)
    })], reduces [], \(z_23: i64) : (i64) {
      in (z_23)
    })
  let (acc_24: i64) = loop (a_25: i64 = 1i64) for i_26 < n_0 {
      let (x_27: i64) = index sums_5[i_26]
      let (y_28: i64) = mul.i64 a_25 x_27
      let (w_29: i64) = mod.i64 y_28 1000003i64
      in (w_29)
    }
  let (io_30: [10i64]i64) = iota.i64(10i64, 0i64, 1i64)
  let (buf_31: [10i64]i64) = loop (b_32: [10i64]i64 = io_30) for j_33 < 5i64 {
      let (v_34: i64) = index b_32[j_33]
      let (v2_35: i64) = mul.i64 v_34 v_34
      let (b2_36: [10i64]i64) = update b_32[j_33] = v2_35
      in (b2_36)
    }
  let (slv_37: [5i64]i64) = index buf_31[9i64:+5i64*-2i64]
  let (sl_43: [5i64]i64) = copy(slv_37)
  let (is_38: [5i64]i64) = iota.i64(5i64, 0i64, 1i64)
  let (out_39: [10i64]i64) = scatter(5i64, is_38, sl_43, dests [buf_31], \(i_40: i64, v_41: i64) : (i64, i64) {
      let (k_42: i64) = add.i64 i_40 5i64
      in (k_42, v_41)
    })
  in (tc_4, sums_5, h_13, pre_19, acc_24, out_39)
}
"#;

#[test]
fn kitchen_sink() {
    check(
        "kitchen",
        KITCHEN,
        "[[1i64, 2, 3], [4, 5, 6]]",
        "[[1i64, 4i64], [2i64, 5i64], [3i64, 6i64]]\n[6i64, 15i64]\n[0i64, 0i64, 1i64, 1i64]\n[6i64, 21i64]\n90i64\n[0i64, 1i64, 4i64, 9i64, 16i64, 9i64, 7i64, 5i64, 9i64, 1i64]\n",
    );
}

#[test]
fn multicore_matches_sequential_on_large_inputs() {
    let n = 100_000;
    let xs: Vec<String> = (0..n).map(|i| format!("{}i64", (i * 7919) % 1000)).collect();
    let input = format!("[[{}]]", xs.join(", "));
    let text = KITCHEN;
    let seq = build("large-seq", text, &Options::default());
    let mc = build("large-mc", text, &Options { backend: Backend::Multicore, ..Options::default() });
    let (a, e1, c1) = run(&seq, &[], input.as_bytes());
    let (b, e2, c2) = run(&mc, &["-P", "2"], input.as_bytes());
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(a, b);
    // A large one-dimensional scan and reduction, split across threads.
    let (out_seq, _, _) = run(&build("dot-large-seq", DOT, &Options::default()), &[], dot_input(n).as_bytes());
    let dot_mc = build("dot-large-mc", DOT, &Options { backend: Backend::Multicore, ..Options::default() });
    for threads in ["1", "2", "3"] {
        let (out_mc, err, code) = run(&dot_mc, &["-P", threads], dot_input(n).as_bytes());
        assert_eq!(code, 0, "{err}");
        assert_eq!(out_seq.lines().nth(1), out_mc.lines().nth(1));
    }
}

fn dot_input(n: usize) -> String {
    let xs: Vec<String> = (0..n).map(|i| format!("{}f32", i % 5)).collect();
    format!("[{}] [{}]", xs.join(", "), xs.join(", "))
}

/// Test executables are linked from the program's file and a boundary
/// object shared by every program of a configuration (`generate_split`).
/// Programs of one configuration (here the largest rank) have one boundary,
/// and linked with it they print what their single files print, with the
/// warning flags of the test suite; on multicore with a large input on two
/// threads, where the runtime's globals (`og_in_job`, the block cache) must
/// be one object across the two files.
#[test]
fn split_programs_share_one_boundary() {
    let flags = ["-O1", "-Wall", "-Wextra", "-Werror"];
    for (flavour, opts) in
        [("seq", Options::default()), ("mc", Options { backend: Backend::Multicore, ..Options::default() })]
    {
        let split = |text: &str| generate_split(&verified(&parse(text)), &opts).unwrap_or_else(|e| panic!("{e}"));
        let (dot, values, kitchen) = (split(DOT), split(VALUES), split(KITCHEN));
        assert_eq!(dot.boundary, values.boundary, "{flavour}: one configuration, one boundary");
        assert_ne!(dot.boundary, kitchen.boundary, "{flavour}: views of rank 3 are another configuration");
        let dir = tmp_dir(&format!("split-{flavour}"));
        let boundary = dir.join("boundary.c");
        std::fs::write(&boundary, &dot.boundary).unwrap();
        let object = dir.join("boundary.o");
        compile_object(&boundary, &object, &opts, &flags).unwrap_or_else(|e| panic!("{e}"));
        let cases = [
            ("dot", dot, DOT, dot_input(100_000)),
            ("values", values, VALUES, "-128i8 0xffffu16 0.1 true 18446744073709551615u64 f32.nan".to_string()),
        ];
        for (name, split, text, input) in cases {
            let c = dir.join(format!("{name}.c"));
            std::fs::write(&c, &split.program).unwrap();
            let exe = dir.join(name);
            compile_and_link(&c, &[&object], &exe, &opts, &flags).unwrap_or_else(|e| panic!("{e}"));
            let whole = build(&format!("whole-{name}-{flavour}"), text, &opts);
            let (expected, _, _) = run(&whole, &["-P", "2"], input.as_bytes());
            let (out, err, code) = run(&exe, &["-P", "2"], input.as_bytes());
            assert_eq!(code, 0, "{name} ({flavour}, split) failed: {err}");
            assert_eq!(out, expected, "{name} ({flavour}, split)");
        }
    }
}

const VALUES: &str = r#"
entry main (a_0: i8, b_1: u16, c_2: f64, d_3: bool, e_4: u64, f_5: f32) : (i8, u16, f64, bool, u64, f32, f32)
  inputs ("i8" [0], "u16" [1], "f64" [2], "bool" [3], "u64" [4], "f32" [5])
  outputs ("i8" [0], "u16" [1], "f64" [2], "bool" [3], "u64" [4], "f32" [5], "f32" [6]) {
  let (g_6: f32) = div.f32 f_5 0.0f32
  in (a_0, b_1, c_2, d_3, e_4, f_5, g_6)
}
"#;

#[test]
fn scalar_values_round_trip() {
    check(
        "values",
        VALUES,
        "-128i8 0xffffu16 0.1 true 18446744073709551615u64 f32.nan",
        "-128i8\n65535u16\n0.10000000000000001f64\ntrue\n18446744073709551615u64\nf32.nan\nf32.nan\n",
    );
    check(
        "values-inf",
        VALUES,
        "1_0i8 1 -2.5e3f64 false 0 -f32.inf",
        "10i8\n1u16\n-2500f64\nfalse\n0u64\n-f32.inf\n-f32.inf\n",
    );
}

#[test]
fn server_protocol() {
    let dir = tmp_dir("server");
    let exe = build("server", DOT, &Options::default());
    let data = dir.join("in.txt");
    std::fs::write(&data, "[1f32, 2] [3f32, 4]").unwrap();
    let out_file = dir.join("out.bin");
    let script = format!(
        "entry_points\ninputs main\noutputs main\nrestore {} a []f32 b []f32\ncall main s q a b\nstore {} s q\nbogus command\nfree a b s q\nfree a\ncall main x y\ntypes\n",
        data.display(),
        out_file.display()
    );
    let (out, err, code) = run(&exe, &["--server"], script.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "%%% OK");
    assert_eq!(&lines[1..3], &["main", "%%% OK"]);
    assert_eq!(&lines[3..6], &["[]f32", "[]f32", "%%% OK"]);
    assert_eq!(&lines[6..9], &["f32", "[]f32", "%%% OK"]);
    assert!(lines[10].starts_with("runtime: "), "{out}");
    assert_eq!(out.matches("%%% FAILURE").count(), 3, "{out}");
    let stored = std::fs::read(&out_file).unwrap();
    assert!(stored.starts_with(b"b\x02\x00 f32"));
    assert_eq!(&stored[7..11], &11f32.to_le_bytes());
}

#[test]
fn generated_c_is_warning_free() {
    for (flavour, opts) in all_backends() {
        for (name, text) in [("dot", DOT), ("kitchen", KITCHEN), ("checks", CHECKS), ("values", VALUES)] {
            let dir = tmp_dir(&format!("werror-{name}-{flavour}"));
            let c_path = dir.join("prog.c");
            std::fs::write(&c_path, generate(&verified(&parse(text)), &opts).unwrap().c).unwrap();
            compile_c(&c_path, &dir.join("prog"), &opts, &["-Wall", "-Wextra", "-Werror", "-O1"])
                .unwrap_or_else(|e| panic!("{name} ({flavour}): {e}"));
        }
    }
}

#[test]
fn runs_clean_under_sanitizers() {
    let dir = tmp_dir("sanitize");
    // Skip when the C compiler cannot build sanitized programs here.
    let probe = dir.join("probe.c");
    std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
    let ok = Command::new("cc")
        .arg(&probe)
        .args(["-fsanitize=address,undefined", "-o"])
        .arg(dir.join("probe"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("skipping: the C compiler does not support -fsanitize=address,undefined");
        return;
    }
    for (flavour, opts) in all_backends() {
        let c_path = dir.join(format!("kitchen-{flavour}.c"));
        let exe = dir.join(format!("kitchen-{flavour}"));
        std::fs::write(&c_path, generate(&verified(&parse(KITCHEN)), &opts).unwrap().c).unwrap();
        compile_c(&c_path, &exe, &opts, &["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g", "-O1"])
            .unwrap();
        let (out, err, code) = run(&exe, &[], b"[[1i64, 2, 3], [4, 5, 6]]");
        assert_eq!(code, 0, "{flavour}: {err}");
        assert!(out.contains("[6i64, 15i64]"), "{out}");
    }
}

/// A `withacc` whose function builds a row that it both adds into an
/// accumulator and returns (reverse mode's adjoint rows, kept and summed).
const ROW_KEPT_AND_ADDED: &str = r#"
entry main (n_0: i64, m_1: i64, xss_2: [n_0][m_1]f64, z_3: [m_1]f64) : ([m_1]f64, [n_0][m_1]f64)
  inputs ("[][]f64" [2], *"[]f64" [3])
  outputs ("[]f64" [0], "[][]f64" [1]) {
  let (s_4: [m_1]f64, rows_5: [n_0][m_1]f64) = withacc(n_0, xss_2, accs [z_3], \(acc_6: [m_1]f64, xs_7: [m_1]f64) : ([m_1]f64, [m_1]f64) {
      let (ys_8: [m_1]f64) = map(m_1, xs_7, \(x_9: f64) : (f64) {
          let (t_10: f64) = mul.f64 x_9 3.0f64
          in (t_10)
        })
      let (acc_11: [m_1]f64) = updacc(add) acc_6[0i64:+m_1*1i64] = ys_8
      in (acc_11, ys_8)
    })
  in (s_4, rows_5)
}
"#;

#[test]
fn withacc_row_kept_and_added_is_built_in_place() {
    // Three times each row, summed into the accumulator and kept: the row
    // is built in its place in the result (no copy), and the accumulator
    // reads it there.
    check(
        "row_kept_and_added",
        ROW_KEPT_AND_ADDED,
        "[[1.0, 2.0], [0.5, -1.0], [4.0, 0.0]] [10.0, 20.0]",
        "[26.5f64, 23f64]\n[[3f64, 6f64], [1.5f64, -3f64], [12f64, 0f64]]\n",
    );
    let prog = parse(ROW_KEPT_AND_ADDED);
    let c = generate(&verified(&prog), &Options::default()).unwrap_or_else(|e| panic!("{e}")).c;
    let start = c
        .lines()
        .position(|l| l.starts_with("static int og_fun0_main(") && l.ends_with('{'))
        .expect("the entry's function");
    let body: Vec<&str> = c.lines().skip(start).take_while(|l| *l != "}").collect();
    assert!(body.len() > 1 && !body.iter().any(|l| l.contains("og_copy_into")), "{}", body.join("\n"));
}
