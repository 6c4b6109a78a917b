//! `ogham test` options for suites that are not ours: `--no-tuning` leaves
//! out `PROG.fut.tuning` files (written for other backends), and
//! `--skip-missing-data` counts cases whose data files are absent instead
//! of failing them.

use std::process::Command;

fn ogham_test(dir: &std::path::Path, flags: &[&str]) -> (String, i32) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_ogham")).arg("test").args(flags).arg(dir.join("prog.fut")).output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

fn setup(name: &str, source: &str, tuning: Option<&str>) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ogham-test-command-{}", std::process::id())).join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("prog.fut"), source).unwrap();
    if let Some(t) = tuning {
        std::fs::write(d.join("prog.fut.tuning"), t).unwrap();
    }
    d
}

#[test]
fn absent_data_files_fail_unless_skipped() {
    let src = "-- ==\n-- input { 2i64 } output { 4i64 }\n-- input @ data/absent.in\n-- output @ data/absent.out\n\
               -- input { 3i64 } output @ data/absent.out\n\ndef main (x: i64) = x * 2\n";
    let d = setup("absent", src, None);
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 passed, 2 failed"), "{out}");
    let (out, code) = ogham_test(&d, &["--skip-missing-data"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 skipped (data files absent)") && out.contains("1 passed, 0 failed"), "{out}");
}

#[test]
fn script_inputs_reading_absent_files_are_skipped() {
    // FutharkScript `$loaddata "file"` names a data file like `input @`.
    let src = "-- ==\n-- script input { (2i64, $loaddata \"data/gen.in\") } output { 4i64 }\n\
               -- input { 3i64 [1i64] } output { 6i64 }\n\ndef main (x: i64) (_: []i64) = x * 2\n";
    let d = setup("loaddata", src, None);
    let (out, code) = ogham_test(&d, &["--skip-missing-data"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 skipped (data files absent)") && out.contains("1 passed, 0 failed"), "{out}");
}

#[test]
fn tuning_files_can_be_left_out() {
    let src = "-- ==\n-- input { 5i64 } output { 5i64 }\n\ndef main (x: i64) = #[param(block)] x\n";
    // A name this program does not have (as in tuning files written for GPU
    // backends) is an error when the file is passed, as in Futhark.
    let d = setup("tuning", src, Some("main.suff_outer_par_1=7\n"));
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Unknown name 'main.suff_outer_par_1'"), "{out}");
    let (out, code) = ogham_test(&d, &["--no-tuning"]);
    assert_eq!(code, 0, "{out}");
    // The file is really not read: with a known name it would change the result.
    let d = setup("tuning-known", src, Some("block=9\n"));
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 1, "{out}");
    let (out, code) = ogham_test(&d, &["--no-tuning"]);
    assert_eq!(code, 0, "{out}");
}

/// Test executables link a boundary object compiled once per
/// configuration, and kept between runs in the cache directory
/// (`$OGHAM_CACHE_DIR`) beside the file it was compiled from: a second run
/// uses it; an object whose file beside it holds other text (a boundary of
/// another ogham, or another compiler's) is not used but compiled again.
#[test]
fn boundary_objects_are_kept_between_runs() {
    let src = "-- ==\n-- input { [1i64, 2i64] } output { 6i64 }\n\ndef main (xs: []i64) = i64.sum (map (*2) xs)\n";
    let d = setup("cache", src, None);
    let cache = d.join("cache");
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_ogham"))
            .args(["test", "--backend", "c"])
            .arg(d.join("prog.fut"))
            .env("OGHAM_CACHE_DIR", &cache)
            .output()
            .unwrap();
        (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
    };
    let (out, code) = run();
    assert_eq!(code, 0, "{out}");
    let kept = |ext: &str| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        v.sort();
        v
    };
    let (sources, objects) = (kept("c"), kept("o"));
    assert_eq!((sources.len(), objects.len()), (1, 1), "one boundary, kept with its file");
    assert!(std::fs::read_to_string(&sources[0]).unwrap().contains("#define OG_GLOBAL extern"));
    // Used as it is by the next run.
    let made = std::fs::metadata(&objects[0]).unwrap().modified().unwrap();
    let (out, code) = run();
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::metadata(&objects[0]).unwrap().modified().unwrap(), made);
    // A file that does not match: the object beside it is not trusted.
    std::fs::write(&sources[0], "/* another boundary */\n").unwrap();
    std::fs::write(&objects[0], "not an object").unwrap();
    let (out, code) = run();
    assert_eq!(code, 0, "{out}");
    assert!(std::fs::read_to_string(&sources[0]).unwrap().contains("#define OG_GLOBAL extern"));
}

#[test]
fn a_gradcheck_that_cannot_compile_fails_only_its_entry() {
    // `vjp` of an accumulator written inside a loop whose trip count
    // differs by element is not supported yet: the entry's derivative
    // checks fail, naming it, and the other entries' are still made and
    // pass.
    let src = "-- ==\n-- entry: halves\n-- gradcheck input { [0.5, -1.0, 2.0, 0.1] }\n\
               entry halves [n] (xs: [n]f64) : [n]f64 =\n  \
               intrinsics.scatter_stream (replicate n 0)\n    \
               (\\(acc: *intrinsics.acc ([n]f64)) (i: i64) ->\n       \
               loop acc for j < i % 2 do intrinsics.acc_write acc ((i + j) % n) xs[i])\n    \
               (iota n)\n\n\
               -- ==\n-- entry: fine\n-- gradcheck input { [0.5, -1.0] }\n\
               entry fine (xs: []f64) : f64 = f64.sum (map (\\x -> x * x) xs)\n";
    let d = setup("gradcheck-existential", src, None);
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("entry halves") && out.contains("the derivative entries of `halves` do not compile"), "{out}");
    assert!(!out.contains("entry fine"), "{out}");
    assert!(out.contains("1 passed, 1 failed"), "{out}");
}

#[test]
fn a_gradcheck_of_a_result_whose_size_the_entry_computes() {
    // The vjp entry's cotangent has a size of its own, to which the result
    // of `filter` is coerced.
    let src = "-- ==\n-- gradcheck input { [0.5, -1.3, 2.0] }\n\
               entry main (xs: []f64) : ([]f64, f64) = (map f64.sin (filter (> 0) xs), f64.sum xs)\n";
    let d = setup("gradcheck-existential-result", src, None);
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

#[test]
fn a_gradcheck_whose_derivative_is_nan_fails() {
    // exp(-∞/x) is 0 near x = 1, but its derivative by the chain rule is
    // 0·∞: a NaN derivative beside finite finite differences is a failure,
    // not a comparison that is false either way.
    let src = "-- ==\n-- gradcheck input { 1.0 }\n\
               entry main (x: f64) : f64 = 2 * x + f64.exp (-f64.inf / x)\n";
    let d = setup("gradcheck-nan", src, None);
    let (out, code) = ogham_test(&d, &[]);
    assert_eq!(code, 1, "{out}");
    let fd = out.split("jvp gives NaN, central finite differences ").nth(1).expect("the NaN is reported");
    assert!(fd.split_whitespace().next().and_then(|x| x.parse::<f64>().ok()).is_some_and(f64::is_finite), "{out}");
}
