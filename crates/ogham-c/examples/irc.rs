//! Compiles an IR text file to an executable: `irc prog.ir out [multicore] [nofuse]`.
use ogham_c::{compile_executable, Backend, Options};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: irc prog.ir out [multicore] [nofuse]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let prog = ogham_ir::parse::parse_program(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut opts = Options::default();
    if args.iter().any(|a| a == "multicore") {
        opts.backend = Backend::Multicore;
    }
    if args.iter().any(|a| a == "nofuse") {
        opts.fuse = false;
    }
    if let Err(e) = compile_executable(&prog, &opts, std::path::Path::new(&args[2])) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
