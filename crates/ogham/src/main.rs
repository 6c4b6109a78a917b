//! The `ogham` command: one binary, one subcommand per task, in the manner
//! of the `futhark` tool (`run`, `check`, `test`, `dev`, `dataset`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ogham_driver::pipeline::{compile_file, Stop};
use ogham_driver::test_runner::{self, Backend, TestOptions};
use ogham_driver::{native, run};

#[derive(Parser)]
#[command(name = "ogham", version, about = "A compiler for a data-parallel array language, compatible with Futhark")]
struct Cli {
    /// Run the IR verifier after lowering and after every pass (always on
    /// in debug builds and in `ogham test`).
    #[arg(long, global = true)]
    verify: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an entry point on the reference interpreter, reading its arguments from standard input.
    Run {
        program: PathBuf,
        /// The entry point to run (default: main).
        #[arg(short = 'e', long = "entry-point")]
        entry: Option<String>,
        /// Print results in the binary value format.
        #[arg(short = 'b', long = "binary-output")]
        binary: bool,
    },
    /// Compile a program to a sequential native executable through C.
    C(CompileArgs),
    /// Compile a program to a multithreaded native executable through C.
    Multicore(CompileArgs),
    /// Benchmark programs on their datasets, like `futhark bench`.
    Bench(ogham_driver::bench::BenchArgs),
    /// Type-check a program without running it.
    Check { program: PathBuf },
    /// Run the `-- ==` test blocks of every `.fut` file (and `.ir` file with one) under the given paths.
    ///
    /// With `--backend c` or `multicore`, each program is compiled with `-O0`
    /// and every C warning an error, which keeps suites of many small programs
    /// fast; `$CFLAGS` comes last, so `CFLAGS=-O3` optimises the executables
    /// for compute-heavy datasets (a benchmark's), as `ogham c` does.
    Test {
        paths: Vec<PathBuf>,
        /// Which backend runs the programs.
        #[arg(long, default_value = "interp")]
        backend: Backend,
        /// Skip cases and programs with this tag (repeatable).
        #[arg(long)]
        exclude: Vec<String>,
        /// Print every case, not only failures.
        #[arg(short, long)]
        verbose: bool,
        /// Do not pass `PROG.fut.tuning` files to the programs.
        #[arg(long)]
        no_tuning: bool,
        /// Skip cases whose data files are absent, counting them, instead
        /// of failing them.
        #[arg(long)]
        skip_missing_data: bool,
    },
    /// Developer views of the compiler's intermediate stages: runs passes
    /// of the middle end on a program (`.fut`, or core IR in a `.ir` file)
    /// and prints the IR.
    Dev {
        /// The program; a `.ir` file is read as core IR.
        program: Option<PathBuf>,
        /// Print the core IR after the passes.
        #[arg(long)]
        ir: bool,
        /// Print the imperative kernels the C backend makes of the loops
        /// (after the kernel passes), for `sequential` (the default) or
        /// `multicore` C (`--kernels=multicore`).
        #[arg(long, value_name = "BACKEND", num_args = 0..=1, require_equals = true, default_missing_value = "sequential")]
        kernels: Option<String>,
        /// The passes to run, comma-separated (`default`: the pipeline every
        /// backend runs; `none`: none). Default: `default`.
        #[arg(long, default_value = "default")]
        passes: String,
        /// Also print the IR after this pass (repeatable; `all` for every pass).
        #[arg(long = "print-after")]
        print_after: Vec<String>,
        /// List the passes and the default pipeline, then stop.
        #[arg(long)]
        list_passes: bool,
        /// Print to standard error how long the front end (parsing,
        /// checking, lowering) and each pass took (with --verify, each
        /// pass's time includes verifying its result).
        #[arg(long)]
        time: bool,
        /// Optimise for this many threads (as `ogham multicore` does for the
        /// machine's cores) instead of one; only the IR's speed depends on it.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Generate random values, like `futhark dataset`.
    Dataset {
        /// A type to generate, e.g. `[100][3]f32` (repeatable).
        #[arg(short = 'g', long = "generate")]
        generate: Vec<String>,
        /// Write the binary value format.
        #[arg(short = 'b', long = "binary")]
        binary: bool,
        /// Seed of the random generator.
        #[arg(short = 's', long = "seed", default_value_t = 1)]
        seed: u64,
    },
}

#[derive(clap::Args)]
struct CompileArgs {
    program: PathBuf,
    /// The executable to write (default: the program's name without `.fut`).
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// The C compiler to use (default: `$CC`, else `cc`).
    #[arg(long)]
    cc: Option<String>,
    /// Write a library instead: `prog.c`, `prog.h` (Futhark's C API) and `prog.json` (its manifest).
    #[arg(long)]
    library: bool,
    /// Write an executable that speaks the server protocol on standard input and output
    /// (other executables do so when run with `--server`).
    #[arg(long)]
    server: bool,
    /// Generate code that runs on any CPU of this architecture, not only on
    /// this machine's (ogham compiles for the host CPU by default, with
    /// `-march=native`, as a JIT compiler would).
    #[arg(long)]
    portable: bool,
}

/// The type checker and lowering allocate and free many small trees (types,
/// syntax copied for each functor application); glibc's allocator spent a
/// third of the time of type-checking the largest benchmark program, with
/// per-thread heaps grown a few pages at a time. mimalloc halves that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.verify {
        ogham_driver::pipeline::set_verify(true);
    }
    match cli.command {
        Command::Run { program, entry, binary } => cmd_run(&program, entry.as_deref(), binary),
        Command::C(args) => cmd_compile(&args, ogham_c::Backend::Sequential),
        Command::Multicore(args) => cmd_compile(&args, ogham_c::Backend::Multicore),
        Command::Bench(args) => {
            // Compiled for this machine (`-march=native`), like `ogham c`.
            let parallel = args.backend == ogham_driver::test_runner::Backend::Multicore;
            ogham_driver::pipeline::set_target(host_target(parallel));
            ExitCode::from(ogham_driver::bench::run_cli(&args) as u8)
        }
        Command::Check { program } => match compile_file(&program, Stop::AfterCheck) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => fail(&e.rendered),
        },
        Command::Test { paths, backend, exclude, verbose, no_tuning, skip_missing_data } => {
            let paths = if paths.is_empty() { vec![PathBuf::from("tests")] } else { paths };
            let opts = TestOptions { backend, exclude, verbose, no_tuning, skip_missing_data };
            let summary = test_runner::run_tests(&paths, &opts);
            if summary.failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Dev { program, ir, kernels, passes, print_after, list_passes, time, threads } => {
            if threads > 1 {
                ogham_driver::pipeline::set_target(ogham_opt::Target {
                    threads: threads as i64,
                    ..ogham_opt::Target::PORTABLE
                });
            }
            let kernels = match kernels.as_deref() {
                None => None,
                Some("sequential" | "c") => Some(ogham_c::Backend::Sequential),
                Some("multicore") => Some(ogham_c::Backend::Multicore),
                Some(other) => {
                    return fail(&format!("Error: --kernels takes `sequential` or `multicore`, not `{other}`\n"))
                }
            };
            cmd_dev(program.as_deref(), (ir, kernels), &passes, &print_after, list_passes, time)
        }
        Command::Dataset { generate, binary, seed } => cmd_dataset(&generate, binary, seed),
    }
}

/// `ogham dev`: runs a list of passes on a program and prints the IR
/// after any of them.
fn cmd_dev(
    program: Option<&std::path::Path>,
    (ir, kernels): (bool, Option<ogham_c::Backend>),
    passes: &str,
    print_after: &[String],
    list: bool,
    time: bool,
) -> ExitCode {
    if list {
        let mut text = String::new();
        for p in ogham_opt::PASSES {
            text.push_str(&format!("{:<10} {}\n", p.name, p.summary));
        }
        text.push_str(&format!("default pipeline: {}\n", ogham_opt::DEFAULT_PIPELINE.join(",")));
        text.push_str(
            "kernel passes (every backend through C, in order; `contract` on CPUs with fused multiply-add):\n",
        );
        for p in std::iter::once(&ogham_imp::passes::CONTRACT).chain(ogham_imp::passes::PIPELINE) {
            text.push_str(&format!("{:<11} {}\n", p.name, p.summary));
        }
        return write_stdout(text.as_bytes());
    }
    let Some(program) = program else {
        return fail("Error: `ogham dev` needs a program (or --list-passes)\n");
    };
    let passes = match ogham_opt::parse_pipeline(passes) {
        Ok(p) => p,
        Err(e) => return fail(&format!("Error: {e}\n")),
    };
    for name in print_after {
        if name != "all" && ogham_opt::pass(name).is_none() {
            return fail(&format!("Error: --print-after names no pass: `{name}`\n"));
        }
    }
    let start = std::time::Instant::now();
    let mut compiled = match compile_file(program, Stop::Lowered) {
        Ok(c) => c,
        Err(e) => return fail(&e.rendered),
    };
    let front = start.elapsed();
    let mut times = Vec::new();
    let mut shown = Vec::new();
    let mut last = std::time::Instant::now();
    let result = ogham_driver::pipeline::run_passes(&mut compiled.ir, &compiled.sources, &passes, |pass, prog| {
        times.push((pass.name, last.elapsed()));
        if print_after.iter().any(|n| n == "all" || n == pass.name) {
            shown.extend_from_slice(format!("-- after pass {}\n", pass.name).as_bytes());
            shown.extend_from_slice(ogham_ir::print::program(prog).as_bytes());
        }
        last = std::time::Instant::now();
    });
    if time {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        let mut report = format!("{:<10} {:>8.2} ms\n", "front end", ms(front));
        for (name, t) in &times {
            report.push_str(&format!("{name:<10} {:>8.2} ms\n", ms(*t)));
        }
        let passes: std::time::Duration = times.iter().map(|(_, t)| *t).sum();
        report.push_str(&format!(
            "{:<10} {:>8.2} ms\n{:<10} {:>8.2} ms\n",
            "passes",
            ms(passes),
            "total",
            ms(front + passes)
        ));
        eprint!("{report}");
    }
    if let Err(e) = result {
        let _ = std::io::stdout().write_all(&shown);
        return fail(&e.rendered);
    }
    if ir {
        shown.extend_from_slice(ogham_ir::print::program(&compiled.ir).as_bytes());
    }
    if let Some(backend) = kernels {
        match ogham_driver::native::kernels(&compiled.ir, backend) {
            Ok(ks) => shown.extend_from_slice(ks.join("\n").as_bytes()),
            Err(e) => return fail(&format!("Error: {e}\n")),
        }
    }
    write_stdout(&shown)
}

/// Writes results to standard output; a write that fails (a full disk, a
/// closed pipe) is an error with exit status 1, as in compiled executables.
fn write_stdout(bytes: &[u8]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&format!("Error: cannot write the results: {e}")),
    }
}

fn fail(message: &str) -> ExitCode {
    eprint!("{message}");
    if !message.ends_with('\n') {
        eprintln!();
    }
    ExitCode::FAILURE
}

fn cmd_run(program: &std::path::Path, entry: Option<&str>, binary: bool) -> ExitCode {
    let compiled = match compile_file(program, Stop::Ir) {
        Ok(c) => c,
        Err(e) => return fail(&e.rendered),
    };
    let fun = match run::select_entry(&compiled.ir, entry) {
        Ok(f) => f,
        Err(e) => return fail(&e.message),
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        return fail(&format!("Error: cannot read standard input: {e}"));
    }
    let args = match run::read_arguments(fun, &input) {
        Ok(a) => a,
        Err(e) => return fail(&e.message),
    };
    match run::run_interpreter(&compiled, &fun.name, args) {
        Ok(values) => write_stdout(&run::format_results(&values, binary)),
        Err(e) => fail(&e.message),
    }
}

/// The passes' target for this machine, for a program whose parallel loops
/// run on all its cores (`parallel`: the multicore backend, whose runtime
/// starts a thread per core) or on one.
fn host_target(parallel: bool) -> ogham_opt::Target {
    let threads = if parallel { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { 1 };
    ogham_opt::Target::host(threads)
}

fn cmd_compile(args: &CompileArgs, backend: ogham_c::Backend) -> ExitCode {
    if !args.portable {
        ogham_driver::pipeline::set_target(host_target(backend == ogham_c::Backend::Multicore));
    }
    let compiled = match compile_file(&args.program, Stop::Ir) {
        Ok(c) => c,
        Err(e) => return fail(&e.rendered),
    };
    let out = args.output.clone().unwrap_or_else(|| native::default_output(&args.program));
    let written: Vec<PathBuf> = if args.library {
        ["c", "h", "json"].iter().map(|ext| ogham_c::beside(&out, ext)).collect()
    } else {
        vec![out.clone(), ogham_c::beside(&out, "c")]
    };
    if let Some(clash) = written.iter().find(|w| same_file(w, &args.program)) {
        return fail(&format!(
            "Error: the output {} would overwrite the program {}; choose another -o",
            clash.display(),
            args.program.display()
        ));
    }
    if args.library {
        return match native::write_library(&compiled, backend, &out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&format!("Error: {e}")),
        };
    }
    let opts = ogham_c::Options {
        backend,
        cc: args.cc.clone(),
        server: args.server,
        portable: args.portable,
        ..native::c_options()
    };
    match native::compile_executable_with(&compiled, opts, &out, &[]) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(&format!("Error: {e}")),
    }
}

/// Whether two paths name one file (an output that does not exist yet is
/// compared by its absolute path).
fn same_file(a: &Path, b: &Path) -> bool {
    let absolute = |p: &Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p)).ok();
    matches!((absolute(a), absolute(b)), (Some(x), Some(y)) if x == y)
}

fn cmd_dataset(types: &[String], binary: bool, seed: u64) -> ExitCode {
    let text = types.join(" ");
    let items = match ogham_data::parse_random_items(&text) {
        Ok(items) => items,
        Err(e) => return fail(&format!("Error: {e}")),
    };
    match ogham_data::generate_random_input(&items, seed, &ogham_data::RandomBounds::default()) {
        Ok(values) => write_stdout(&run::format_results(&values, binary)),
        Err(e) => fail(&format!("Error: {e}")),
    }
}
