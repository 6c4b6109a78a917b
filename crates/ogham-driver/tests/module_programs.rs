//! Module-language programs from the fuzzing generator
//! (`fuzz/fuzz_targets/modgen.rs`), made from a fixed pseudo-random byte
//! stream so the test is deterministic: each must compile or be rejected
//! with named, user-facing errors (never the compiler panicking or an
//! internal error), and each entry point of a program that compiles must run
//! on the interpreter without an internal error. The generator mostly makes
//! well-typed programs, so a run in which few compile (or none is rejected)
//! means the generator or the checker has drifted, and fails too.

#[path = "../../../fuzz/fuzz_targets/modgen.rs"]
mod modgen;

use ogham_driver::pipeline::{compile_source, Stop};
use ogham_driver::run::{read_arguments, run_interpreter};

/// xorshift64*: a fixed, dependency-free byte stream.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn generated_module_programs_compile_or_fail_cleanly() {
    let (mut compiled, mut rejected) = (0, 0);
    // OGHAM_MODGEN_COUNT=N tries more programs (the assertions below scale).
    let count: u64 = std::env::var("OGHAM_MODGEN_COUNT").ok().and_then(|n| n.parse().ok()).unwrap_or(160);
    for seed in 0..count {
        let data = bytes(seed, 24 + (seed as usize * 7) % 400);
        let text = modgen::program(&mut modgen::Choices::new(&data));
        // For triage: OGHAM_MODGEN_DUMP=DIR writes each program and its errors.
        let dump = std::env::var_os("OGHAM_MODGEN_DUMP").map(std::path::PathBuf::from);
        let result = compile_source("generated.fut", &text, Stop::Ir);
        if let Some(dir) = &dump {
            let errors = result.as_ref().err().map_or(String::new(), |e| e.rendered.clone());
            std::fs::write(dir.join(format!("{seed}.fut")), &text).unwrap();
            std::fs::write(dir.join(format!("{seed}.err")), errors).unwrap();
        }
        match result {
            Ok(program) => {
                compiled += 1;
                for fun in program.ir.entry_points() {
                    let args = read_arguments(fun, b"3").expect("every generated entry takes one i32");
                    if let Err(e) = run_interpreter(&program, &fun.name, args) {
                        assert!(
                            !e.message.contains("internal"),
                            "seed {seed}: entry {} failed: {}\n{text}",
                            fun.name,
                            e.message
                        );
                    }
                }
            }
            Err(e) => {
                rejected += 1;
                assert!(
                    !e.names.iter().any(|n| n.starts_with("internal")),
                    "seed {seed}: internal error\n{}\n{text}",
                    e.rendered
                );
            }
        }
    }
    assert!(compiled * 4 >= count, "only {compiled} of {count} generated programs compiled");
    assert!(rejected * 32 >= count, "only {rejected} of {count} generated programs were rejected");
}
