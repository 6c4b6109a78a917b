//! `ogham bench`: timing programs on the datasets of their `-- ==` blocks,
//! the way `futhark bench` does it (anchor-futhark.md §2.5).
//!
//! Each program is compiled once for the chosen backend. For the C
//! backends the executable is run as `prog -e ENTRY -t TIMING_FILE -r N -n`
//! with the dataset on standard input (`-b` instead of `-n` for the run
//! whose results are checked); it does one warm-up run and then `N`
//! timed runs, writing each run's runtime in microseconds, one per line, to
//! the timing file (§5.1). For the interpreter, [`run::run_interpreter`] is
//! timed in-process (one warm-up call, then the timed calls), with the
//! arguments read and copied outside the timed region.
//!
//! Method: at least `runs` timed runs (default 10) and at least `min_time`
//! of measured time (default 0.5 s; measuring stops after twice that and a
//! second all the same, for runs shorter than the timer's microsecond); then, unless disabled, a convergence
//! phase that keeps measuring until the relative standard error of the mean
//! is at most 1% or `convergence_max` has passed. Cases tagged `nobench`,
//! `disable` or `no_<backend>` are skipped, as are programs and cases with a
//! tag listed in `exclude`. When a case gives an expected output (`output {
//! … }` or `output @ file`), the result of the last run is checked against it
//! with Futhark's tolerance.
//!
//! Output, one block per program and entry point:
//! ```text
//! benchmarks/mandelbrot.fut (no tuning file):
//! data/mandelbrot-1000.in:      12345μs (95% CI: [   12300.0,    12400.0])
//! ```
//! The interval is mean ± t(0.975, n−1)·s/√n (Student's t; Futhark itself
//! bootstraps, which gives nearly the same interval for these sample
//! sizes). `--json` writes Futhark's schema: `{ "prog.fut[:entry]":
//! { "datasets": { NAME: { "runtimes": [µs, …], "bytes": {}, "stderr"?: … }
//! | NAME: "error message" } } }`, the `:entry` part omitted for `main`.
//!
//! The C backends are reached through [`BenchOptions::compile`], a function
//! that turns the checked program into an executable: by default
//! [`compile_native`], which also measures the time to generate C apart
//! from the C compiler's (printed with `-v`: `Compiled prog.fut: front end
//! A ms, C generation B ms, C compiler C ms`).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ogham_data::testspec::{parse_test_spec, CaseInput, Expected, RunCase, TestAction};
use ogham_data::Value;

use crate::pipeline::{compile_file, Compiled, Stop};
use crate::run;
use crate::test_runner::{find_programs, Backend};

/// Turns a checked program into a standalone executable at the given path
/// for a C backend (`Backend::C` or `Backend::Multicore`). Returns the time
/// spent generating C (before the C compiler), when it is known.
pub type CompileExecutable = fn(&Compiled, Backend, &Path) -> Result<Option<Duration>, String>;

/// The default [`CompileExecutable`]: ogham's C backend, generating
/// `out.c` next to the executable and compiling it with the system C
/// compiler (as `ogham c` / `ogham multicore` do), timing the generation.
pub fn compile_native(compiled: &Compiled, backend: Backend, out: &Path) -> Result<Option<Duration>, String> {
    let c_backend = match backend {
        Backend::Interp => return Err("the interpreter runs programs without an executable".into()),
        Backend::C => ogham_c::Backend::Sequential,
        Backend::Multicore => ogham_c::Backend::Multicore,
    };
    crate::native::compile_executable(compiled, c_backend, None, out, &[]).map(Some)
}

/// A [`CompileExecutable`] for when no C backend may be used.
pub fn c_backend_unavailable(_: &Compiled, backend: Backend, _: &Path) -> Result<Option<Duration>, String> {
    Err(format!("C backend not available (backend `{}`)", backend.tag_name()))
}

/// What `ogham bench` is asked to do.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Which backend runs the programs (`--backend`, default `c`).
    pub backend: Backend,
    /// The least number of timed runs per dataset (`-r`, default 10).
    pub runs: usize,
    /// Where to write the results in Futhark's JSON schema (`--json`).
    pub json: Option<PathBuf>,
    /// Benchmark only this entry point (`-e`); default: every entry point
    /// named in the test blocks.
    pub entry_point: Option<String>,
    /// Skip programs and cases carrying one of these tags (`--exclude-case`).
    pub exclude: Vec<String>,
    /// Use the executables already built instead of compiling (`--skip-compilation`).
    pub skip_compilation: bool,
    /// Where executables are written (default: next to the program, named
    /// after it without `.fut`, as `futhark bench` does).
    pub exe_dir: Option<PathBuf>,
    /// Extra arguments for every run of an executable (`--pass-option`).
    pub pass_options: Vec<String>,
    /// The least total measured time per dataset (default 0.5 s).
    pub min_time: Duration,
    /// Whether to keep measuring until the mean is precise (default: yes).
    pub convergence_phase: bool,
    /// The most time the convergence phase may take per dataset (default 300 s).
    pub convergence_max: Duration,
    /// Print compilation times and every batch of runs to stderr (`-v`).
    pub verbose: bool,
    /// How to build an executable for the C backends.
    pub compile: CompileExecutable,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            backend: Backend::C,
            runs: 10,
            json: None,
            entry_point: None,
            exclude: Vec::new(),
            skip_compilation: false,
            exe_dir: None,
            pass_options: Vec::new(),
            min_time: Duration::from_millis(500),
            convergence_phase: true,
            convergence_max: Duration::from_secs(300),
            verbose: false,
            compile: compile_native,
        }
    }
}

/// The command line of `ogham bench`, with `futhark bench`'s option names;
/// the CLI adds it as a subcommand (`Bench(bench::BenchArgs)`) and calls
/// [`run_cli`].
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Programs, or directories searched for `.fut` files.
    pub paths: Vec<PathBuf>,
    /// Which backend runs the programs.
    #[arg(long, default_value = "c")]
    pub backend: Backend,
    /// The least number of timed runs per dataset.
    #[arg(short = 'r', long = "runs", default_value_t = 10)]
    pub runs: usize,
    /// Write the runtimes to this file in Futhark's JSON schema.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Benchmark only this entry point.
    #[arg(short = 'e', long = "entry-point")]
    pub entry_point: Option<String>,
    /// Skip cases and programs with this tag (repeatable).
    #[arg(long = "exclude-case")]
    pub exclude: Vec<String>,
    /// Run the executables already built instead of compiling.
    #[arg(long)]
    pub skip_compilation: bool,
    /// Pass this option to every run of the executable (repeatable).
    #[arg(long = "pass-option", allow_hyphen_values = true)]
    pub pass_options: Vec<String>,
    /// Stop after the initial runs, without waiting for a precise mean.
    #[arg(long)]
    pub no_convergence_phase: bool,
    /// The most seconds the convergence phase may take per dataset.
    #[arg(long, default_value_t = 300.0)]
    pub convergence_max_seconds: f64,
    /// Print compile times and every batch of runs to stderr.
    #[arg(short, long)]
    pub verbose: bool,
}

impl BenchArgs {
    /// The options these arguments ask for, building executables with `compile`.
    pub fn options(&self, compile: CompileExecutable) -> BenchOptions {
        BenchOptions {
            backend: self.backend,
            runs: self.runs,
            json: self.json.clone(),
            entry_point: self.entry_point.clone(),
            exclude: self.exclude.clone(),
            skip_compilation: self.skip_compilation,
            pass_options: self.pass_options.clone(),
            convergence_phase: !self.no_convergence_phase,
            convergence_max: Duration::from_secs_f64(self.convergence_max_seconds.max(0.0)),
            verbose: self.verbose,
            compile,
            ..BenchOptions::default()
        }
    }
}

/// `ogham bench`: runs [`run_bench`] with ogham's C backend and returns the
/// exit status (0 when every dataset was measured, 1 otherwise). No paths
/// means `benchmarks`.
pub fn run_cli(args: &BenchArgs) -> i32 {
    let paths = if args.paths.is_empty() { vec![PathBuf::from("benchmarks")] } else { args.paths.clone() };
    match run_bench(&paths, &args.options(compile_native)) {
        Ok(report) if report.failures() == 0 => 0,
        Ok(_) => 1,
        Err(msg) => {
            eprintln!("Error: {msg}");
            1
        }
    }
}

/// The relative standard error at which the convergence phase stops.
const TARGET_RSE: f64 = 0.01;

/// Most timed runs one executable invocation is asked for.
const MAX_BATCH: usize = 100_000;

/// Everything measured for one program and entry point.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    /// The program, as it was found under the given paths.
    pub path: PathBuf,
    pub entry: String,
    /// Time from source to checked IR (`None` when compilation was skipped).
    pub frontend_time: Option<Duration>,
    /// Time of generating C, before the C compiler (`None` for the
    /// interpreter, when compilation was skipped or failed, or when the
    /// compile function does not tell).
    pub codegen_time: Option<Duration>,
    /// Time of generating C and running the C compiler (`None` for the
    /// interpreter or when compilation was skipped or failed).
    pub backend_time: Option<Duration>,
    pub datasets: Vec<DatasetResult>,
}

impl ProgramResult {
    /// The key of this program in the JSON file: `path`, or `path:entry`
    /// when the entry point is not `main`.
    pub fn key(&self) -> String {
        if self.entry == "main" {
            self.path.display().to_string()
        } else {
            format!("{}:{}", self.path.display(), self.entry)
        }
    }
}

/// The measurements of one dataset, or why there are none.
#[derive(Clone, Debug)]
pub struct DatasetResult {
    pub name: String,
    pub outcome: Result<Measurement, String>,
}

/// Runtimes of one dataset.
#[derive(Clone, Debug, Default)]
pub struct Measurement {
    /// Runtime of every timed run, in microseconds.
    pub runtimes: Vec<u64>,
    /// What the runs wrote to standard error, if anything.
    pub stderr: String,
}

impl Measurement {
    /// The mean runtime in microseconds.
    pub fn mean(&self) -> f64 {
        mean(&self.runtimes)
    }

    /// The 95% confidence interval of the mean, in microseconds.
    pub fn confidence_interval(&self) -> (f64, f64) {
        confidence_interval(&self.runtimes)
    }
}

/// The outcome of `ogham bench`.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    pub programs: Vec<ProgramResult>,
}

impl BenchReport {
    /// How many datasets failed (to compile, run, or validate).
    pub fn failures(&self) -> usize {
        self.programs.iter().flat_map(|p| &p.datasets).filter(|d| d.outcome.is_err()).count()
    }

    /// The results in Futhark's JSON schema.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        for (i, p) in self.programs.iter().enumerate() {
            out.push_str(if i == 0 { "\n  " } else { ",\n  " });
            out.push_str(&json_string(&p.key()));
            out.push_str(": {\"datasets\": {");
            for (j, d) in p.datasets.iter().enumerate() {
                out.push_str(if j == 0 { "\n    " } else { ",\n    " });
                out.push_str(&json_string(&d.name));
                out.push_str(": ");
                match &d.outcome {
                    Err(msg) => out.push_str(&json_string(msg)),
                    Ok(m) => {
                        let runtimes: Vec<String> = m.runtimes.iter().map(u64::to_string).collect();
                        out.push_str(&format!("{{\"runtimes\": [{}], \"bytes\": {{}}", runtimes.join(", ")));
                        if !m.stderr.is_empty() {
                            out.push_str(&format!(", \"stderr\": {}", json_string(&m.stderr)));
                        }
                        out.push('}');
                    }
                }
            }
            out.push_str(if p.datasets.is_empty() { "}}" } else { "\n  }}" });
        }
        out.push_str(if self.programs.is_empty() { "}\n" } else { "\n}\n" });
        out
    }
}

/// Benchmarks every `.fut` file under `paths` that has datasets, printing a
/// block of lines per program and entry point to stdout, and writes the
/// JSON file if asked. Fails only when the JSON file cannot be written;
/// failed datasets are in the report (see [`BenchReport::failures`]).
pub fn run_bench(paths: &[PathBuf], opts: &BenchOptions) -> Result<BenchReport, String> {
    let mut report = BenchReport::default();
    for program in find_programs(paths) {
        report.programs.extend(bench_program(&program, opts));
    }
    if let Some(json) = &opts.json {
        std::fs::write(json, report.to_json()).map_err(|e| format!("cannot write {}: {e}", json.display()))?;
    }
    Ok(report)
}

/// Where the executable of `program` goes.
pub fn executable_path(program: &Path, opts: &BenchOptions) -> PathBuf {
    let stem = program.file_stem().map_or_else(|| "a.out".into(), |s| s.to_os_string());
    match &opts.exe_dir {
        Some(dir) => dir.join(stem),
        None => program.with_file_name(stem),
    }
}

/// The compiled form a program is run in.
enum Runner {
    Interpreter(Compiled),
    Executable(PathBuf),
}

fn bench_program(path: &Path, opts: &BenchOptions) -> Vec<ProgramResult> {
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return vec![whole_program_error(path, "main", format!("cannot read: {e}"))],
    };
    let spec = match parse_test_spec(&source) {
        Ok(Some(spec)) => spec,
        Ok(None) => return Vec::new(),
        Err(e) => return vec![whole_program_error(path, "main", format!("malformed test block: {e}"))],
    };
    if spec.tags.iter().any(|t| opts.exclude.contains(t)) {
        return Vec::new();
    }
    let TestAction::Run { groups, .. } = spec.action else { return Vec::new() };
    // Entry points in order of first mention, each with its cases.
    let mut entries: Vec<(String, Vec<RunCase>)> = Vec::new();
    for group in &groups {
        for entry in &group.entries {
            if opts.entry_point.as_ref().is_some_and(|e| e != entry) {
                continue;
            }
            let cases = group
                .cases
                .iter()
                .filter(|c| !c.excluded(opts.backend.tag_name(), true))
                .filter(|c| !c.tags.iter().any(|t| opts.exclude.contains(t)))
                .cloned();
            match entries.iter_mut().find(|(e, _)| e == entry) {
                Some((_, list)) => list.extend(cases),
                None => entries.push((entry.clone(), cases.collect())),
            }
        }
    }
    entries.retain(|(_, cases)| !cases.is_empty());
    if entries.is_empty() {
        return Vec::new();
    }

    let (runner, times) = match prepare(path, opts) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("{}: {}", path.display(), msg.trim_end());
            return entries
                .iter()
                .map(|(entry, cases)| ProgramResult {
                    path: path.to_path_buf(),
                    entry: entry.clone(),
                    frontend_time: None,
                    codegen_time: None,
                    backend_time: None,
                    datasets: cases
                        .iter()
                        .map(|c| DatasetResult { name: c.name.clone(), outcome: Err(msg.clone()) })
                        .collect(),
                })
                .collect();
        }
    };
    let CompileTimes { frontend: frontend_time, codegen: codegen_time, backend: backend_time } = times;
    if opts.verbose {
        if let Some(fe) = frontend_time {
            let mut line = format!("Compiled {}: front end {:.1} ms", path.display(), ms(fe));
            if let (Some(cg), Some(be)) = (codegen_time, backend_time) {
                line.push_str(&format!(", C generation {:.1} ms, C compiler {:.1} ms", ms(cg), ms(be - cg.min(be))));
            } else if let Some(be) = backend_time {
                line.push_str(&format!(", back end and C compiler {:.1} ms", ms(be)));
            }
            eprintln!("{line}");
        }
    }

    let dir = path.parent().unwrap_or(Path::new("."));
    // As `futhark bench`: a tuning file `PROG.fut.tuning` is passed with `--tuning`.
    let tuning = run::tuning_file(path);
    let tuning_note = match &tuning {
        Some(file) => format!("using {}", file.file_name().unwrap_or_default().to_string_lossy()),
        None => "no tuning file".to_string(),
    };
    let tuning = match (&tuning, &runner) {
        (None, _) => Tuning::default(),
        (Some(file), Runner::Executable(_)) => {
            Tuning { options: vec!["--tuning".to_string(), file.display().to_string()], ..Tuning::default() }
        }
        (Some(file), Runner::Interpreter(compiled)) => {
            match run::read_tuning_file(file, &ogham_c::tuning::all(&compiled.ir)) {
                Ok(values) => Tuning { values, ..Tuning::default() },
                Err(msg) => Tuning { error: Some(msg), ..Tuning::default() },
            }
        }
    };
    let mut results = Vec::new();
    for (entry, cases) in entries {
        let mut result = ProgramResult {
            path: path.to_path_buf(),
            entry: entry.clone(),
            frontend_time,
            codegen_time,
            backend_time,
            datasets: Vec::new(),
        };
        if entry == "main" {
            println!("{} ({tuning_note}):", path.display());
        } else {
            println!("{}:{entry} ({tuning_note}):", path.display());
        }
        let width = cases.iter().map(|c| c.name.chars().count()).max().unwrap_or(0) + 1;
        for case in &cases {
            let outcome = match &tuning.error {
                Some(msg) => Err(msg.clone()),
                None => bench_case(&runner, dir, &entry, case, opts, &tuning),
            };
            print_line(&case.name, width, &outcome);
            result.datasets.push(DatasetResult { name: case.name.clone(), outcome });
        }
        results.push(result);
    }
    results
}

fn whole_program_error(path: &Path, entry: &str, msg: String) -> ProgramResult {
    eprintln!("{}: {msg}", path.display());
    ProgramResult {
        path: path.to_path_buf(),
        entry: entry.to_string(),
        frontend_time: None,
        codegen_time: None,
        backend_time: None,
        datasets: Vec::new(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// How long the phases of compiling one program took.
#[derive(Clone, Copy, Debug, Default)]
struct CompileTimes {
    frontend: Option<Duration>,
    codegen: Option<Duration>,
    backend: Option<Duration>,
}

/// Compiles the program for the backend: returns how to run it and how
/// long compiling took.
fn prepare(path: &Path, opts: &BenchOptions) -> Result<(Runner, CompileTimes), String> {
    if opts.skip_compilation && opts.backend != Backend::Interp {
        let exe = executable_path(path, opts);
        if !exe.is_file() {
            return Err(format!("--skip-compilation: no executable {}", exe.display()));
        }
        return Ok((Runner::Executable(exe), CompileTimes::default()));
    }
    let start = Instant::now();
    let compiled =
        compile_file(path, Stop::Ir).map_err(|e| format!("compilation failed:\n{}", e.rendered.trim_end()))?;
    let frontend = Some(start.elapsed());
    match opts.backend {
        Backend::Interp => Ok((Runner::Interpreter(compiled), CompileTimes { frontend, ..CompileTimes::default() })),
        Backend::C | Backend::Multicore => {
            let exe = executable_path(path, opts);
            let start = Instant::now();
            let codegen = (opts.compile)(&compiled, opts.backend, &exe)?;
            let backend = Some(start.elapsed());
            Ok((Runner::Executable(exe), CompileTimes { frontend, codegen, backend }))
        }
    }
}

/// The line of one dataset, as `futhark bench` prints it.
fn print_line(name: &str, width: usize, outcome: &Result<Measurement, String>) {
    let label = format!("{name}:");
    match outcome {
        Ok(m) => {
            let (lo, hi) = m.confidence_interval();
            println!("{label:<width$}{:>10.0}μs (95% CI: [{lo:>10.1}, {hi:>10.1}])", m.mean());
        }
        Err(msg) => {
            println!("{label:<width$} failed");
            for line in msg.lines() {
                println!("  {line}");
            }
        }
    }
    let _ = std::io::stdout().flush();
}

/// A dataset's input, ready to be fed to a run.
enum Input {
    /// An uncompressed data file, piped straight to the executable.
    File(PathBuf),
    /// Bytes in the value formats.
    Bytes(Vec<u8>),
}

fn case_input(dir: &Path, input: &CaseInput) -> Result<Input, String> {
    match input {
        CaseInput::Values(text) => Ok(Input::Bytes(text.clone().into_bytes())),
        CaseInput::File(file) => {
            let path = dir.join(file);
            let mut magic = [0u8; 2];
            let mut f = File::open(&path).map_err(|e| format!("cannot read input {}: {e}", path.display()))?;
            let n = f.read(&mut magic).map_err(|e| format!("cannot read input {}: {e}", path.display()))?;
            if n == 2 && magic == [0x1f, 0x8b] {
                let bytes = ogham_data::read_data_file(&path).map_err(|e| e.to_string())?;
                Ok(Input::Bytes(bytes))
            } else {
                Ok(Input::File(path))
            }
        }
        CaseInput::Random(items) => {
            let items = ogham_data::parse_random_items(items).map_err(|e| format!("bad random input: {e}"))?;
            let values = ogham_data::generate_random_input(&items, 1, &ogham_data::RandomBounds::default())
                .map_err(|e| format!("cannot generate random input: {e}"))?;
            Ok(Input::Bytes(ogham_data::values_to_binary(&values)))
        }
        CaseInput::Script(_) | CaseInput::ScriptFile(_) => Err("script inputs are not supported".into()),
    }
}

fn input_values(input: &Input) -> Result<Vec<Value>, String> {
    match input {
        Input::File(path) => ogham_data::read_values_file(path).map_err(|e| format!("cannot read input: {e}")),
        Input::Bytes(bytes) => ogham_data::read_values(bytes).map_err(|e| format!("bad input values: {e}")),
    }
}

/// The expected results of a case, if it states them.
fn expected_values(dir: &Path, expected: &Expected) -> Result<Option<Vec<Value>>, String> {
    match expected {
        Expected::Values(text) => {
            ogham_data::parse_values(text).map(Some).map_err(|e| format!("bad expected values: {e}"))
        }
        Expected::File(file) => ogham_data::read_values_file(&dir.join(file))
            .map(Some)
            .map_err(|e| format!("cannot read output {file}: {e}")),
        Expected::Success | Expected::Auto | Expected::RunError(_) => Ok(None),
    }
}

fn validate(expected: &Option<Vec<Value>>, got: &[Value]) -> Result<(), String> {
    if let Some(expected) = expected {
        let cmp = ogham_data::compare_values(expected, got);
        if !cmp.is_match() {
            return Err(format!("result differs from the expected output:\n{}", cmp.report()));
        }
    }
    Ok(())
}

/// Takes `n` timed runs: their microseconds and what they wrote to stderr.
type Sampler<'a> = Box<dyn FnMut(usize) -> Result<(Vec<u64>, String), String> + 'a>;

/// A program's tuning file, as the runner takes it.
#[derive(Default)]
struct Tuning {
    /// For executables: `--tuning FILE`.
    options: Vec<String>,
    /// For the interpreter: the parameters the file sets.
    values: rustc_hash::FxHashMap<String, i64>,
    /// The file cannot be read (interpreter; executables report it themselves).
    error: Option<String>,
}

fn bench_case(
    runner: &Runner,
    dir: &Path,
    entry: &str,
    case: &RunCase,
    opts: &BenchOptions,
    tuning: &Tuning,
) -> Result<Measurement, String> {
    if let Expected::RunError(_) = case.expected {
        return Err("cases that expect an error are not benchmarked".into());
    }
    let input = case_input(dir, &case.input)?;
    let expected = expected_values(dir, &case.expected)?;
    let runs = opts.runs.max(1);
    let mut sampler: Sampler<'_> = match runner {
        Runner::Interpreter(compiled) => {
            run::select_entry(&compiled.ir, Some(entry)).map_err(|e| e.message)?;
            let args = input_values(&input)?;
            let run_opts = ogham_interp::RunOptions { tuning: tuning.values.clone(), ..Default::default() };
            // The warm-up run, whose result is also the one validated.
            let result = run::run_interpreter_with(compiled, entry, args.clone(), &run_opts).map_err(|e| e.message)?;
            validate(&expected, &result)?;
            Box::new(move |n| {
                let mut times = Vec::with_capacity(n);
                for _ in 0..n {
                    let copy = args.clone();
                    let start = Instant::now();
                    let out = run::run_interpreter_with(compiled, entry, copy, &run_opts).map_err(|e| e.message)?;
                    times.push(start.elapsed().as_micros() as u64);
                    drop(out);
                }
                Ok((times, String::new()))
            })
        }
        Runner::Executable(exe) => {
            let mut first = true;
            let input = &input;
            let expected = &expected;
            let options: Vec<String> = tuning.options.iter().chain(&opts.pass_options).cloned().collect();
            Box::new(move |n| {
                let want_output = first && expected.is_some();
                let batch = run_executable(exe, entry, input, n, want_output, &options)?;
                if want_output {
                    let got = ogham_data::read_values(&batch.stdout)
                        .map_err(|e| format!("cannot read the program's output: {e}"))?;
                    validate(expected, &got)?;
                }
                first = false;
                Ok((batch.runtimes, batch.stderr))
            })
        }
    };
    measure(&mut *sampler, runs, opts, &case.name)
}

/// The measurement loop: the initial phase, then the convergence phase.
fn measure(
    sampler: &mut dyn FnMut(usize) -> Result<(Vec<u64>, String), String>,
    runs: usize,
    opts: &BenchOptions,
    name: &str,
) -> Result<Measurement, String> {
    let mut m = Measurement::default();
    let mut take = |m: &mut Measurement, n: usize| -> Result<(), String> {
        let (times, stderr) = sampler(n)?;
        if opts.verbose {
            eprintln!("{name}: {} runs, mean {:.0}μs", times.len(), mean(&times));
        }
        m.runtimes.extend(times);
        if !stderr.is_empty() && !m.stderr.contains(&stderr) {
            m.stderr.push_str(&stderr);
        }
        Ok(())
    };
    let wall = Instant::now();
    take(&mut m, runs)?;
    if m.runtimes.is_empty() {
        return Err("the program reported no runtimes".into());
    }
    // Runtimes are whole microseconds, so a run shorter than one counts as
    // none: the measured time of such a program may never reach
    // `min_time`, so measuring stops after twice that and a second anyway.
    let min_us = opts.min_time.as_micros() as f64;
    let give_up = opts.min_time * 2 + Duration::from_secs(1);
    while (m.runtimes.iter().sum::<u64>() as f64) < min_us && wall.elapsed() < give_up {
        let avg = mean(&m.runtimes).max(1.0);
        let missing = min_us - m.runtimes.iter().sum::<u64>() as f64;
        let n = ((missing / avg).ceil() as usize).clamp(1, MAX_BATCH);
        take(&mut m, n)?;
    }
    if opts.convergence_phase {
        let start = Instant::now();
        while relative_standard_error(&m.runtimes) > TARGET_RSE && start.elapsed() < opts.convergence_max {
            take(&mut m, runs)?;
        }
    }
    Ok(m)
}

/// What one invocation of an executable reported.
struct Batch {
    runtimes: Vec<u64>,
    stdout: Vec<u8>,
    stderr: String,
}

/// A timing file name no other run in this process or elsewhere uses.
fn timing_file() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("ogham-bench-{}-{n}.timing", std::process::id()))
}

/// Runs `exe -e ENTRY -t FILE -r RUNS -b` on the input and reads the
/// per-run microseconds from the timing file (the last `runs` numbers, in
/// case the executable also timed its warm-up run).
fn run_executable(
    exe: &Path,
    entry: &str,
    input: &Input,
    runs: usize,
    want_output: bool,
    pass_options: &[String],
) -> Result<Batch, String> {
    let tfile = timing_file();
    // A bare name (`prog`, for a program in the current directory) would be looked up on PATH.
    let exe = if exe.parent().is_some_and(|p| p.as_os_str().is_empty()) {
        Path::new(".").join(exe)
    } else {
        exe.to_path_buf()
    };
    let mut cmd = Command::new(&exe);
    cmd.arg("-e").arg(entry).arg("-t").arg(&tfile).arg("-r").arg(runs.to_string());
    // Results are printed only to be checked (an opaque one cannot be).
    cmd.arg(if want_output { "-b" } else { "-n" });
    cmd.args(pass_options);
    cmd.stdout(if want_output { Stdio::piped() } else { Stdio::null() });
    cmd.stderr(Stdio::piped());
    match input {
        Input::File(path) => {
            let f = File::open(path).map_err(|e| format!("cannot read input {}: {e}", path.display()))?;
            cmd.stdin(Stdio::from(f));
        }
        Input::Bytes(_) => {
            cmd.stdin(Stdio::piped());
        }
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let output = std::thread::scope(|scope| {
        if let (Input::Bytes(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
            // A program that stops reading early closes the pipe; its exit
            // status tells what went wrong, so a write error is ignored.
            scope.spawn(move || {
                let _ = stdin.write_all(bytes);
            });
        }
        child.wait_with_output()
    });
    let output = output.map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let timing = std::fs::read_to_string(&tfile);
    let _ = std::fs::remove_file(&tfile);
    if !output.status.success() {
        return Err(format!("{} failed ({}):\n{}", exe.display(), output.status, stderr.trim_end()));
    }
    let timing = timing.map_err(|e| format!("no timing file from {}: {e}", exe.display()))?;
    let mut runtimes = parse_runtimes(&timing)?;
    if runtimes.len() > runs {
        runtimes.drain(..runtimes.len() - runs);
    }
    Ok(Batch { runtimes, stdout: output.stdout, stderr })
}

/// The runtimes of a timing file: one number of microseconds per line.
pub fn parse_runtimes(text: &str) -> Result<Vec<u64>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.parse::<u64>()
                .or_else(|_| {
                    l.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).map(|x| x.round() as u64).ok_or(())
                })
                .map_err(|_| format!("bad line in the timing file: {l:?}"))
        })
        .collect()
}

/// The arithmetic mean (0 for no samples).
pub fn mean(xs: &[u64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().map(|&x| x as f64).sum::<f64>() / xs.len() as f64
    }
}

/// The sample standard deviation (0 for fewer than two samples).
pub fn std_dev(xs: &[u64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|&x| (x as f64 - m) * (x as f64 - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// The standard error of the mean over the mean (0 when the mean is 0).
pub fn relative_standard_error(xs: &[u64]) -> f64 {
    let m = mean(xs);
    if xs.len() < 2 || m == 0.0 {
        return 0.0;
    }
    std_dev(xs) / (xs.len() as f64).sqrt() / m
}

/// The two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
fn t_quantile(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        31..=40 => 2.021,
        41..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// The 95% confidence interval of the mean: mean ± t·s/√n. A single sample
/// gives the degenerate interval [x, x].
pub fn confidence_interval(xs: &[u64]) -> (f64, f64) {
    let m = mean(xs);
    if xs.len() < 2 {
        return (m, m);
    }
    let half = t_quantile(xs.len() - 1) * std_dev(xs) / (xs.len() as f64).sqrt();
    (m - half, m + half)
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_files_are_parsed() {
        assert_eq!(parse_runtimes("12\n 13 \n\n14.4\n").unwrap(), vec![12, 13, 14]);
        assert!(parse_runtimes("12\nabc\n").is_err());
        assert!(parse_runtimes("-3\n").is_err());
    }

    #[test]
    fn statistics() {
        let xs = [10, 12, 14];
        assert_eq!(mean(&xs), 12.0);
        assert_eq!(std_dev(&xs), 2.0);
        let (lo, hi) = confidence_interval(&xs);
        let half = 4.303 * 2.0 / 3f64.sqrt();
        assert!((lo - (12.0 - half)).abs() < 1e-9 && (hi - (12.0 + half)).abs() < 1e-9);
        assert_eq!(confidence_interval(&[7]), (7.0, 7.0));
        assert_eq!(relative_standard_error(&[5, 5, 5]), 0.0);
    }

    #[test]
    fn json_follows_futharks_schema() {
        let report = BenchReport {
            programs: vec![
                ProgramResult {
                    path: PathBuf::from("b/prog.fut"),
                    entry: "main".into(),
                    frontend_time: None,
                    codegen_time: None,
                    backend_time: None,
                    datasets: vec![
                        DatasetResult {
                            name: "data/a.in".into(),
                            outcome: Ok(Measurement { runtimes: vec![1, 2], stderr: String::new() }),
                        },
                        DatasetResult { name: "#1 (\"1i32\")".into(), outcome: Err("bad\nthing".into()) },
                    ],
                },
                ProgramResult {
                    path: PathBuf::from("b/prog.fut"),
                    entry: "other".into(),
                    frontend_time: None,
                    codegen_time: None,
                    backend_time: None,
                    datasets: vec![DatasetResult {
                        name: "x".into(),
                        outcome: Ok(Measurement { runtimes: vec![3], stderr: "warn".into() }),
                    }],
                },
            ],
        };
        let expected = "{\n  \"b/prog.fut\": {\"datasets\": {\n    \"data/a.in\": {\"runtimes\": [1, 2], \"bytes\": {}},\n    \"#1 (\\\"1i32\\\")\": \"bad\\nthing\"\n  }},\n  \"b/prog.fut:other\": {\"datasets\": {\n    \"x\": {\"runtimes\": [3], \"bytes\": {}, \"stderr\": \"warn\"}\n  }}\n}\n";
        assert_eq!(report.to_json(), expected);
        assert_eq!(report.failures(), 1);
    }

    #[test]
    fn measurement_meets_the_minimum_runs_and_time() {
        let opts =
            BenchOptions { min_time: Duration::from_micros(1000), convergence_phase: false, ..Default::default() };
        let mut calls = Vec::new();
        let mut sampler = |n: usize| {
            calls.push(n);
            Ok((vec![50; n], String::new()))
        };
        let m = measure(&mut sampler, 10, &opts, "d").unwrap();
        assert_eq!(m.runtimes.len(), 20);
        assert_eq!(calls, vec![10, 10]);
    }

    #[test]
    fn runs_shorter_than_a_microsecond_end() {
        // Every run times as 0 μs, so the measured time never reaches
        // min_time: measuring stops after 2·min_time + 1 s of wall time.
        let opts = BenchOptions { min_time: Duration::from_millis(10), ..Default::default() };
        let mut sampler = |n: usize| Ok((vec![0; n], String::new()));
        let start = Instant::now();
        let m = measure(&mut sampler, 10, &opts, "d").unwrap();
        assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
        assert!(m.runtimes.len() >= 10);
        assert_eq!(mean(&m.runtimes), 0.0);
    }

    #[test]
    fn convergence_stops_when_precise() {
        let opts = BenchOptions { min_time: Duration::ZERO, ..Default::default() };
        let mut round = 0u64;
        let mut sampler = |n: usize| {
            round += 1;
            // Noisy first batch, then steady batches that pull the RSE under 1%.
            let times = if round == 1 { (0..n as u64).map(|i| 100 + 40 * (i % 2)).collect() } else { vec![120; n] };
            Ok((times, String::new()))
        };
        let m = measure(&mut sampler, 10, &opts, "d").unwrap();
        assert!(relative_standard_error(&m.runtimes) <= TARGET_RSE);
        assert!(m.runtimes.len() > 10);
    }

    /// A program with four cases and a stand-in "executable": a shell script
    /// that behaves like a compiled program (timing file, `-r`, prints 3).
    #[cfg(unix)]
    fn fake_program(tag: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("ogham-bench-test-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let prog = dir.join("prog.fut");
        std::fs::write(
            &prog,
            "-- ==\n-- input { 1i32 } output { 3i32 }\n-- nobench input { 2i32 }\n-- \"big\" input @ data/x.in\n\
             -- input { 5i32 } output { 4i32 }\ndef main (x: i32) : i32 = x\n",
        )
        .unwrap();
        std::fs::write(dir.join("data/x.in"), "7i32\n").unwrap();
        let exe = dir.join("prog");
        std::fs::write(
            &exe,
            "#!/bin/sh\nt=; r=1\nwhile [ $# -gt 0 ]; do case $1 in -t) t=$2; shift;; -r) r=$2; shift;; esac; shift; done\n\
             cat > /dev/null\necho 999 > \"$t\"\ni=0\nwhile [ $i -lt $r ]; do echo $((100 + i)) >> \"$t\"; i=$((i + 1)); done\n\
             echo 3i32\n",
        )
        .unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        prog
    }

    #[cfg(unix)]
    #[test]
    fn benchmarks_an_executable_end_to_end() {
        let prog = fake_program("e2e");
        let json = prog.with_file_name("out.json");
        let opts = BenchOptions {
            skip_compilation: true,
            min_time: Duration::ZERO,
            convergence_phase: false,
            json: Some(json.clone()),
            ..Default::default()
        };
        let report = run_bench(std::slice::from_ref(&prog), &opts).unwrap();
        assert_eq!(report.programs.len(), 1);
        let sets = &report.programs[0].datasets;
        assert_eq!(sets.len(), 3, "the nobench case is skipped");
        let first = sets[0].outcome.as_ref().unwrap();
        assert_eq!(first.runtimes, (100..110).collect::<Vec<u64>>(), "the warm-up line is dropped");
        assert_eq!(sets[1].name, "big");
        assert!(sets[1].outcome.is_ok());
        assert!(sets[2].outcome.as_ref().unwrap_err().contains("differs from the expected output"));
        assert_eq!(report.failures(), 1);
        let text = std::fs::read_to_string(&json).unwrap();
        assert!(text.contains("\"big\": {\"runtimes\": [100, 101, 102"), "{text}");
        let _ = std::fs::remove_dir_all(prog.parent().unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn without_a_c_backend_every_dataset_fails() {
        let prog = fake_program("noc");
        let opts = BenchOptions {
            min_time: Duration::ZERO,
            convergence_phase: false,
            compile: c_backend_unavailable,
            ..Default::default()
        };
        let report = run_bench(std::slice::from_ref(&prog), &opts).unwrap();
        assert_eq!(report.failures(), 3);
        let _ = std::fs::remove_dir_all(prog.parent().unwrap());
    }

    #[test]
    fn command_line() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: BenchArgs,
        }
        let cli = Cli::parse_from([
            "bench",
            "--backend",
            "multicore",
            "-r",
            "3",
            "--no-convergence-phase",
            "--pass-option",
            "-P",
            "--json",
            "x.json",
            "a.fut",
        ]);
        let opts = cli.args.options(c_backend_unavailable);
        assert_eq!(opts.backend, Backend::Multicore);
        assert_eq!(opts.runs, 3);
        assert!(!opts.convergence_phase);
        assert_eq!(opts.pass_options, vec!["-P".to_string()]);
        assert_eq!(opts.json, Some(PathBuf::from("x.json")));
        assert_eq!(cli.args.paths, vec![PathBuf::from("a.fut")]);
        let cli = Cli::parse_from(["bench"]);
        assert_eq!(cli.args.options(c_backend_unavailable).backend, Backend::C);
        assert_eq!(cli.args.runs, 10);
    }

    #[test]
    fn executable_paths() {
        let opts = BenchOptions::default();
        assert_eq!(executable_path(Path::new("b/prog.fut"), &opts), PathBuf::from("b/prog"));
        let opts = BenchOptions { exe_dir: Some(PathBuf::from("out")), ..Default::default() };
        assert_eq!(executable_path(Path::new("b/prog.fut"), &opts), PathBuf::from("out/prog"));
    }
}
