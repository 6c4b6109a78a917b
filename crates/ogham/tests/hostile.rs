//! Hostile-input behaviour of the `ogham` command line and of compiled
//! executables: the interpreter (`ogham run`) and executables read
//! arguments alike, write failures are errors, the server keeps Futhark's
//! semantics for consumed and failed variables, opaque values have no
//! external form, source files are decoded strictly, outputs never
//! overwrite the program, and executables read their counts strictly.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn ogham() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ogham"))
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ogham-hostile-{}", std::process::id())).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a command with `input` on stdin; returns (stdout, stderr, exit code).
fn run(mut cmd: Command, input: &[u8]) -> (String, String, i32) {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Writes `source` and compiles it to an executable; returns (program, executable).
fn program(name: &str, source: &str) -> (PathBuf, PathBuf) {
    let d = dir(name);
    let fut = d.join("prog.fut");
    std::fs::write(&fut, source).unwrap();
    let exe = d.join("prog");
    let mut c = ogham();
    c.arg("c").arg(&fut).arg("-o").arg(&exe);
    let (_, err, code) = run(c, b"");
    assert_eq!(code, 0, "{err}");
    (fut, exe)
}

fn interp(fut: &Path, entry: &str, input: &str) -> (String, String, i32) {
    let mut c = ogham();
    c.arg("run").arg(fut).arg("-e").arg(entry);
    run(c, input.as_bytes())
}

fn exe(exe: &Path, entry: &str, input: &str) -> (String, String, i32) {
    let mut c = Command::new(exe);
    c.arg("-e").arg(entry);
    run(c, input.as_bytes())
}

#[test]
fn arguments_are_read_alike_by_the_interpreter_and_executables() {
    let (fut, bin) = program("reader", "entry main (x: f32) (y: u32) : u32 = u32.f32 x + y\n");
    // `1` and hexadecimal floats are valid f32 arguments; suffixed literals
    // wrap modulo 2^32, as Futhark's reader does (-271733879 + 2^32 =
    // 4023233417; 4294967296u32 is 0).
    for (input, expected) in [
        ("1 2u32", "3u32"),
        ("1.0 -271733879u32", "4023233418u32"),
        ("0x1p3f32 0", "8u32"),
        ("1 4294967296u32", "1u32"),
        ("-- a comment\n2.5f32 1u32 -- trailing comment\n", "3u32"),
    ] {
        for (who, (out, err, code)) in [("interp", interp(&fut, "main", input)), ("c", exe(&bin, "main", input))] {
            assert_eq!((code, out.trim()), (0, expected), "{who} on {input:?}: {err}");
        }
    }
    // Surplus values, trailing garbage, wrong types and unsuffixed
    // out-of-range literals are errors.
    for input in ["1 2u32 3", "1 2u32 garbage", "1 2u32 [[[", "1i32 2u32", "1 4294967296", "1"] {
        for (who, (out, _, code)) in [("interp", interp(&fut, "main", input)), ("c", exe(&bin, "main", input))] {
            assert_eq!(code, 1, "{who} accepted {input:?}: {out}");
        }
    }
}

#[test]
fn write_failures_are_errors() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let (fut, bin) = program("write", "def main (x: i32) : i32 = x + 1\n");
    // Standard output on a full disk.
    let to_full = |mut c: Command| {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut child = c.stdin(Stdio::piped()).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
        let _ = child.stdin.take().unwrap().write_all(b"1");
        let out = child.wait_with_output().unwrap();
        (String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
    };
    let mut c = ogham();
    c.arg("run").arg(&fut);
    let (err, code) = to_full(c);
    assert_eq!(code, 1, "ogham run to a full disk: {err}");
    let (err, code) = to_full(Command::new(&bin));
    assert_eq!(code, 1, "executable to a full disk: {err}");
    let mut c = Command::new(&bin);
    c.args(["-t", "/dev/full"]);
    let (_, err, code) = run(c, b"1");
    assert_eq!(code, 1, "runtime file on a full disk: {err}");
}

/// The server's replies, one entry per command (the lines before each `%%% OK`).
fn server(bin: &Path, script: &str) -> Vec<String> {
    let mut c = Command::new(bin);
    c.arg("--server");
    let (out, err, code) = run(c, script.as_bytes());
    assert_eq!(code, 0, "{err}");
    let mut replies: Vec<String> = out.split("%%% OK\n").map(str::to_string).collect();
    replies.remove(0); // the greeting
    replies.pop(); // after the last OK
    replies
}

#[test]
fn server_keeps_futharks_semantics() {
    let (_, bin) = program(
        "server",
        "entry upd (xs: *[]i32) (i: i64) : []i32 = xs with [i] = 7\nentry two (x: i64) : (i64, i64) = (x, x + 1)\n",
    );
    let d = dir("server");
    let good = d.join("good.txt");
    std::fs::write(&good, "[1i32, 2i32, 3i32] 0i64").unwrap();
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "[1i32] garbage").unwrap();
    let words: String = (0..300).map(|i| format!(" w{i}")).collect();
    let script = [
        format!("restore {} xs []i32 i i64", good.display()),
        "call upd u xs i".to_string(),
        "type xs".to_string(),
        format!("store {} xs", d.join("x.bin").display()),
        "free xs".to_string(),
        format!("restore {} a []i32 b i64", bad.display()),
        "type a".to_string(),
        "call two t t i".to_string(),
        "type t".to_string(),
        "restore /dev/zero z []i32".to_string(),
        "store /dev/full u".to_string(),
        format!("types{words}"),
    ]
    .join("\n");
    let r = server(&bin, &format!("{script}\n"));
    let failed =
        |i: usize, what: &str| assert!(r[i].starts_with("%%% FAILURE") && r[i].contains(what), "{i}: {}", r[i]);
    assert_eq!(r[0], "");
    assert!(r[1].starts_with("runtime: "), "{}", r[1]);
    failed(2, "consumed"); // a consumed input may only be freed
    failed(3, "consumed");
    assert_eq!(r[4], "");
    failed(5, "b"); // `b` fails to parse, so `a` is not created either
    failed(6, "Unknown variable: a");
    failed(7, "t"); // two outputs of one name
    failed(8, "Unknown variable: t");
    failed(9, "invalid byte"); // /dev/zero fails at once instead of being read to the end
    if Path::new("/dev/full").exists() {
        failed(10, "Failed to write");
    }
    failed(11, "Too many words");
}

#[test]
fn server_names_sized_abbreviations_as_futhark_does() {
    // Futhark names an opaque entry type by the type written, without its
    // size arguments or uniqueness: `state [n]`, `*state []` and `state`
    // are all `state`.
    let (_, bin) = program(
        "sized_names",
        "type state [n] = {xs: [n]f64, t: f64}\n\
         entry make (n: i64) : state [n] = {xs = replicate n 1, t = 0}\n\
         entry step [n] (s: *state [n]) : state [n] = s with t = s.t + 1\n",
    );
    let r = server(&bin, "outputs make\ninputs step\noutputs step\ntypes\n");
    assert_eq!(r, ["state\n", "*state\n", "state\n", "state\n"]);
}

#[test]
fn opaque_values_have_no_external_form() {
    let source = "type t = #a | #b i32\n\
                  entry sum (x: i32) : t = if x > 0 then #a else #b x\n\
                  entry rec (x: i32) : {x: i32, y: f32} = {x, y = 1.5}\n\
                  entry tup (x: i32) : (i32, (f32, bool)) = (x, (2.5, true))\n\
                  entry takes (v: t) : i32 = match v case #a -> 0 case #b x -> x\n";
    let (fut, bin) = program("opaque", source);
    for (who, run) in [("interp", interp as fn(&Path, &str, &str) -> (String, String, i32)), ("c", exe)] {
        let path = if who == "c" { &bin } else { &fut };
        let (out, err, code) = run(path, "sum", "1");
        assert_eq!((code, out.as_str()), (1, ""), "{who}");
        assert!(err.contains("Values of type \"t\" have no external representation."), "{who}: {err}");
        let (out, err, code) = run(path, "rec", "1");
        assert_eq!((code, out.as_str()), (1, ""), "{who}: {err}");
        // Tuples print one component per line, as Futhark does.
        let (out, err, code) = run(path, "tup", "1");
        assert_eq!((code, out.as_str()), (0, "1i32\n2.5f32\ntrue\n"), "{who}: {err}");
        // Opaque inputs cannot be given, whatever the tag and payload.
        for input in ["0i8 5i32", "7i8 5i32", "-1i8 5i32"] {
            let (out, err, code) = run(path, "takes", input);
            assert_eq!(code, 1, "{who} read an opaque input {input:?}: {out}");
            assert!(err.contains("Cannot read input #0 of type t"), "{who}: {err}");
        }
    }
}

#[test]
fn source_files_are_decoded_strictly() {
    let d = dir("utf8");
    let bom = d.join("bom.fut");
    std::fs::write(&bom, b"\xEF\xBB\xBFdef main (x: i32) : i32 = x + 1\n").unwrap();
    let (out, err, code) = interp(&bom, "main", "41");
    assert_eq!((code, out.trim()), (0, "42i32"), "{err}");
    let bad = d.join("bad.fut");
    std::fs::write(&bad, b"def main (x: i32) : i32 =\n  x + 1 -- caf\xE9\n").unwrap();
    let mut c = ogham();
    c.arg("check").arg(&bad);
    let (_, err, code) = run(c, b"");
    assert_eq!(code, 1);
    assert!(err.contains("Error[invalid-utf8]") && err.contains("bad.fut:2:15"), "{err}");
    assert!(err.contains("0xe9"), "{err}");
}

#[test]
fn outputs_never_overwrite_the_program() {
    let d = dir("outputs");
    let source = "entry main (x: i32) = x + 1\n";
    let fut = d.join("prog.fut");
    std::fs::write(&fut, source).unwrap();
    // `-o prog.fut` would make the executable the program itself, and a
    // program without an extension would be its own default output.
    for (program, out) in [(fut.clone(), Some(fut.clone())), (d.join("bare"), None)] {
        std::fs::write(&program, source).unwrap();
        let mut c = ogham();
        c.arg("c").arg(&program);
        if let Some(o) = &out {
            c.arg("-o").arg(o);
        }
        let (_, err, code) = run(c, b"");
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("would overwrite the program"), "{err}");
        assert_eq!(std::fs::read_to_string(&program).unwrap(), source);
    }
    // `-o prog.c`: the C goes beside the executable as `prog.c.c`, as
    // Futhark names it, rather than the C compiler compiling a file into
    // itself.
    let mut c = ogham();
    c.arg("c").arg(&fut).arg("-o").arg(d.join("prog.c"));
    let (_, err, code) = run(c, b"");
    assert_eq!(code, 0, "{err}");
    assert!(d.join("prog.c.c").is_file());
    assert_eq!(exe(&d.join("prog.c"), "main", "41").0.trim(), "42i32");
}

#[test]
fn thread_counts_are_read_strictly() {
    let (_, bin) = program("threads", "entry main (x: i32) = x + 1\n");
    // 0 threads means one per processor, as in Futhark.
    for ok in ["0", "1", "3"] {
        let mut c = Command::new(&bin);
        c.args(["-P", ok]);
        let (out, err, code) = run(c, b"1");
        assert_eq!((out.trim(), code), ("2i32", 0), "-P {ok}: {err}");
    }
    for bad in ["-1", "2x", "", "99999999999"] {
        let mut c = Command::new(&bin);
        c.args(["-P", bad]);
        let (_, err, code) = run(c, b"1");
        assert_eq!(code, 1, "-P {bad:?}");
        assert!(err.contains("--num-threads needs a number of threads"), "{err}");
    }
    let mut c = Command::new(&bin);
    c.args(["-r", "3x"]);
    let (_, err, code) = run(c, b"1");
    assert_eq!(code, 1);
    assert!(err.contains("-r needs a positive number"), "{err}");
}
