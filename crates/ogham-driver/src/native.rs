//! Compiling to native executables through the C backend, and running them
//! the way `futhark test` runs compiled programs: values in on standard
//! input (binary), values out on standard output (binary), or through the
//! executable's `--server` protocol where an input is an opaque value.

use rustc_hash::FxHashMap as HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ogham_data::Value;
use ogham_ir::{Span, Stm};
use ogham_syntax::SourceMap;

use crate::pipeline::Compiled;

/// Renders every statement span of the program as `file:line:col-line:col`,
/// for the run-time error messages of generated code.
pub fn span_texts(sources: &SourceMap, ir: &ogham_ir::Program) -> HashMap<Span, String> {
    fn walk(stms: &[Stm], ir: &ogham_ir::Program, sources: &SourceMap, out: &mut HashMap<Span, String>) {
        for stm in stms {
            if !stm.span.is_dummy() && !out.contains_key(&stm.span) {
                // An inlined statement stands for several frames: one line each.
                let frames: Vec<String> = ir.frames(stm.span).into_iter().map(|s| sources.range(s)).collect();
                if !frames.is_empty() {
                    out.insert(stm.span, frames.join("\n"));
                }
            }
            for b in ogham_ir::visit::bodies(&stm.exp) {
                walk(&b.stms, ir, sources, out);
            }
            for l in ogham_ir::visit::lambdas(&stm.exp) {
                walk(&l.body.stms, ir, sources, out);
            }
        }
    }
    let mut out = HashMap::default();
    walk(&ir.consts, ir, sources, &mut out);
    for f in &ir.funs {
        // A recursive function's definition: where a recursion too deep fails.
        if !f.span.is_dummy() {
            out.entry(f.span).or_insert_with(|| sources.range(f.span));
        }
        walk(&f.body.stms, ir, sources, &mut out);
    }
    out
}

/// C compiler flags for test executables: optimisation off, since the C
/// compiler would otherwise dominate the test suite's time, and every warning
/// an error, so the whole suite checks that generated C is warning-free.
pub const TEST_CFLAGS: &[&str] = &["-O0", "-Wall", "-Wextra", "-Werror"];

/// Compiles the program into an executable at `out` (its C source is written
/// beside it as `out.c`); `extra_cflags` come last, so they override defaults.
/// Returns the time ogham spent generating C (not counting the C compiler).
pub fn compile_executable(
    compiled: &Compiled,
    backend: ogham_c::Backend,
    cc: Option<String>,
    out: &Path,
    extra_cflags: &[&str],
) -> Result<Duration, String> {
    compile_executable_with(compiled, ogham_c::Options { backend, cc, ..c_options() }, out, extra_cflags)
}

/// [`compile_executable`] with every code generation option given (the
/// statement spans are filled in here).
pub fn compile_executable_with(
    compiled: &Compiled,
    opts: ogham_c::Options,
    out: &Path,
    extra_cflags: &[&str],
) -> Result<Duration, String> {
    let start = Instant::now();
    let opts = ogham_c::Options { span_text: span_texts(&compiled.sources, &compiled.ir), ..opts };
    let generated = ogham_c::generate(&verified(&compiled.ir)?, &opts)?;
    let c_path = ogham_c::beside(out, "c");
    std::fs::write(&c_path, &generated.c).map_err(|e| format!("cannot write {}: {e}", c_path.display()))?;
    let codegen = start.elapsed();
    ogham_c::compile_c(&c_path, out, &opts, extra_cflags)?;
    Ok(codegen)
}

/// The boundary objects of test executables ([`ogham_c::generate_split`]):
/// each configuration's boundary is compiled once, into a directory of this
/// run's that goes when this does, and linked into every test executable
/// of that configuration.
pub struct BoundaryObjects {
    dir: PathBuf,
    /// By the boundary's text: its number (the file's name) and its object,
    /// compiled by the first thread to need it while the others wait.
    objects: Mutex<HashMap<String, Arc<(usize, BoundaryObject)>>>,
}

/// A boundary's object file, or why it did not compile.
type BoundaryObject = OnceLock<Result<PathBuf, String>>;

impl Default for BoundaryObjects {
    fn default() -> BoundaryObjects {
        BoundaryObjects::new()
    }
}

impl BoundaryObjects {
    pub fn new() -> BoundaryObjects {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ogham-boundary-{}-{n}", std::process::id()));
        BoundaryObjects { dir, objects: Mutex::default() }
    }

    /// Compiles a test executable at `out` with [`TEST_CFLAGS`]: the
    /// program's C (written beside it as `out.c`) linked with its
    /// configuration's boundary object. The same program as
    /// [`compile_executable`] makes, in two files rather than one.
    pub fn compile_test_executable(
        &self,
        compiled: &Compiled,
        backend: ogham_c::Backend,
        out: &Path,
    ) -> Result<(), String> {
        let opts = ogham_c::Options { backend, span_text: span_texts(&compiled.sources, &compiled.ir), ..c_options() };
        let split = ogham_c::generate_split(&verified(&compiled.ir)?, &opts)?;
        let c_path = ogham_c::beside(out, "c");
        std::fs::write(&c_path, &split.program).map_err(|e| format!("cannot write {}: {e}", c_path.display()))?;
        let entry = {
            let mut objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
            let n = objects.len();
            objects.entry(split.boundary.clone()).or_insert_with(|| Arc::new((n, OnceLock::new()))).clone()
        };
        let (n, cell) = &*entry;
        let object = cell.get_or_init(|| {
            // The file's text says what made the object: the boundary, the
            // compiler (its `--version`) and the flags.
            let text = format!("/* {} */\n{}", compile_identity(&opts).replace("*/", "* /"), split.boundary);
            let cached = cached_object(&text);
            if let Some((_, o)) =
                cached.as_ref().filter(|(c, o)| o.is_file() && std::fs::read(c).ok() == Some(text.clone().into_bytes()))
            {
                return Ok(o.clone());
            }
            std::fs::create_dir_all(&self.dir).map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
            let c = self.dir.join(format!("boundary{n}.c"));
            let o = c.with_extension("o");
            std::fs::write(&c, &text).map_err(|e| format!("cannot write {}: {e}", c.display()))?;
            ogham_c::compile_object(&c, &o, &opts, TEST_CFLAGS)?;
            if let Some((cc, co)) = cached {
                keep_in_cache(&[(&c, &cc), (&o, &co)]);
            }
            Ok(o)
        });
        let object = object.as_ref().map_err(Clone::clone)?;
        ogham_c::compile_and_link(&c_path, &[object], out, &opts, TEST_CFLAGS)
    }
}

/// What makes a boundary's object besides its text: the C compiler (its
/// name and `--version`, read once per process) and every flag.
fn compile_identity(opts: &ogham_c::Options) -> String {
    static VERSION: OnceLock<String> = OnceLock::new();
    let cc = ogham_c::cc(opts);
    let version = VERSION.get_or_init(|| {
        Command::new(&cc)
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or_default().to_string())
            .unwrap_or_default()
    });
    format!("{cc} ({version}); {:?}", ogham_c::compile_flags(opts, TEST_CFLAGS))
}

/// Where a boundary whose file has `text` is kept between runs (its file
/// and its object), in the user's cache directory (`$OGHAM_CACHE_DIR`,
/// else `$XDG_CACHE_HOME/ogham`, else `~/.cache/ogham`), so that `ogham
/// test` run on one file at a time (as Futhark's suite runners do) need not
/// compile it each time; `None` when there is no such directory. The name
/// is a hash of the text; the object is used only where the file beside it
/// holds the same text.
fn cached_object(text: &str) -> Option<(PathBuf, PathBuf)> {
    use std::hash::{Hash, Hasher};
    let dir = std::env::var_os("OGHAM_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("ogham")))
        .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache").join("ogham")))?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let stem = dir.join(format!("boundary-{:016x}", h.finish()));
    Some((stem.with_extension("c"), stem.with_extension("o")))
}

/// Copies freshly made files into the cache, each under a temporary name
/// then renamed, so that no run reads a file half written; a failure only
/// means the next run compiles again.
fn keep_in_cache(files: &[(&Path, &Path)]) {
    // Unique to this process and call: two runs in one process (the
    // suite's backends) may keep the same file at once.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    for (from, to) in files {
        let Some(dir) = to.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let tmp = to.with_extension(format!("tmp{}-{call}", std::process::id()));
        if std::fs::copy(from, &tmp).is_err() || std::fs::rename(&tmp, to).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return;
        }
    }
}

impl Drop for BoundaryObjects {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Writes Futhark's `--library` output for the program: `out.c`, `out.h`
/// and `out.json` (`out` is the path without extension).
pub fn write_library(compiled: &Compiled, backend: ogham_c::Backend, out: &Path) -> Result<(), String> {
    let opts = ogham_c::Options {
        backend,
        library: true,
        span_text: span_texts(&compiled.sources, &compiled.ir),
        ..c_options()
    };
    ogham_c::write_library(&verified(&compiled.ir)?, &opts, out)
}

/// The imperative kernels the C backend makes of a program's loops, after
/// their passes, in their text form (`ogham dev --kernels`).
pub fn kernels(ir: &ogham_ir::Program, backend: ogham_c::Backend) -> Result<Vec<String>, String> {
    let opts = ogham_c::Options { backend, ..c_options() };
    ogham_c::codegen::kernels(&verified(ir)?, &opts)
}

/// The code generation options every C compilation starts from: the
/// imperative kernels are verified after each pass where the core IR is
/// ([`crate::pipeline::verifying`]).
pub fn c_options() -> ogham_c::Options {
    ogham_c::Options { verify: crate::pipeline::verifying(), ..ogham_c::Options::default() }
}

/// The verifier's view of the program, which the C backend takes: code is
/// generated only from IR that passed it.
fn verified(ir: &ogham_ir::Program) -> Result<ogham_ir::verify::Verified<'_>, String> {
    ogham_ir::verify::verify(ir).map_err(|errors| {
        let mut msg = String::from("internal error: the IR given to the C backend does not verify:");
        for e in errors.iter().take(20) {
            msg.push_str("\n  ");
            msg.push_str(&e.to_string());
        }
        msg
    })
}

/// The default executable name for a program: its path without `.fut`.
pub fn default_output(program: &Path) -> PathBuf {
    program.with_extension("")
}

/// Runs a compiled executable on one entry point: the arguments go in as
/// binary values, the results come back as binary values. A run-time error
/// is returned as the program's standard error.
pub fn run_executable(exe: &Path, entry: &str, args: &[Value]) -> Result<Vec<Value>, String> {
    run_executable_with(exe, entry, args, &[], true)
}

/// [`run_executable`] with extra command-line options (such as `--tuning
/// FILE`); when `results` is false the program prints nothing (`-n`), so
/// results without an external form are no error, and no values come back.
pub fn run_executable_with(
    exe: &Path,
    entry: &str,
    args: &[Value],
    options: &[String],
    results: bool,
) -> Result<Vec<Value>, String> {
    let mut child = Command::new(exe)
        .args(["-e", entry, if results { "-b" } else { "-n" }])
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let input = ogham_data::values_to_binary(args);
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    // Write from another thread so a program that fails before reading all its input cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let _ = writer.join();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        return Err(if stderr.is_empty() { format!("program exited with {}", output.status) } else { stderr });
    }
    if !results {
        return Ok(Vec::new());
    }
    ogham_data::read_values(&output.stdout).map_err(|e| format!("cannot read the program's output: {e}"))
}

/// Runs an entry point of a compiled executable through its `--server`
/// protocol, giving each input as its parts (`args` in order, one per part):
/// an opaque input (a record or tuple) is built from its parts with `new`,
/// as FutharkScript builds a record argument from a call's results. The
/// results come back as with [`run_executable_with`].
pub fn run_executable_parts(
    exe: &Path,
    entry: &str,
    inputs: &[ogham_ir::EntryValue],
    args: &[Value],
    options: &[String],
    results: bool,
) -> Result<Vec<Value>, String> {
    use std::io::{BufRead, BufReader};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let wanted: usize = inputs.iter().map(|i| i.parts.len()).sum();
    if args.len() != wanted {
        return Err(format!("Entry point \"{entry}\" takes {wanted} value(s) in all, but {} were given.", args.len()));
    }
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ogham-server-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let run = || -> Result<Vec<Value>, String> {
        let mut child = Command::new(exe)
            .arg("--server")
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let mut stdin = child.stdin.take().ok_or("no standard input")?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no standard output")?);
        // One answer: its lines up to `%%% OK`, or the failure message.
        let mut answer = |during: &str| -> Result<Vec<String>, String> {
            let (mut out, mut failed) = (Vec::new(), false);
            loop {
                let mut l = String::new();
                if stdout.read_line(&mut l).map_err(|e| format!("server: {e}"))? == 0 {
                    return Err(format!("the server stopped {during}"));
                }
                match l.trim_end() {
                    "%%% OK" if failed => return Err(out.join("\n")),
                    "%%% OK" => return Ok(out),
                    "%%% FAILURE" => failed = true,
                    l => out.push(l.to_string()),
                }
            }
        };
        // The server greets with an empty answer before its first command.
        answer("before its first command")?;
        let mut command = |line: &str| -> Result<Vec<String>, String> {
            writeln!(stdin, "{line}").and_then(|_| stdin.flush()).map_err(|e| format!("server: {e}"))?;
            answer(&format!("during `{line}`"))
        };
        let input_file = dir.join("in");
        std::fs::write(&input_file, ogham_data::values_to_binary(args)).map_err(|e| format!("cannot write: {e}"))?;
        let mut restore = format!("restore {}", input_file.display());
        for (k, v) in args.iter().enumerate() {
            restore.push_str(&format!(" p{k} {}{}", "[]".repeat(v.rank()), v.elem_type().name()));
        }
        command(&restore)?;
        let mut next = 0;
        let mut in_vars = Vec::new();
        for (i, input) in inputs.iter().enumerate() {
            let parts: Vec<String> = (next..next + input.parts.len()).map(|k| format!("p{k}")).collect();
            next += input.parts.len();
            if input.opaque.is_some() {
                command(&format!("new in{i} \"{}\" {}", input.type_name, parts.join(" ")))?;
                in_vars.push(format!("in{i}"));
            } else {
                in_vars.extend(parts);
            }
        }
        let n_out = command(&format!("outputs {entry}"))?.len();
        let outs: Vec<String> = (0..n_out).map(|k| format!("out{k}")).collect();
        command(&format!("call {entry} {} {}", outs.join(" "), in_vars.join(" ")))?;
        let output_file = dir.join("out");
        if results {
            command(&format!("store {} {}", output_file.display(), outs.join(" ")))?;
        }
        // The server exits at `quit` or at the end of its input.
        let _ = command("quit");
        drop(stdin);
        let _ = child.wait();
        if !results {
            return Ok(Vec::new());
        }
        ogham_data::read_values_file(&output_file).map_err(|e| format!("cannot read the program's output: {e}"))
    };
    let result = run();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
