//! Robustness checks: random and mutated inputs to every reader must give
//! a value or an error, never a panic.

use crate::random::Rng;
use crate::{parse_test_spec, parse_values, read_values, value_to_binary, values_to_binary, ValueType};

const SEEDS: &[&str] = &[
    "[1i32, 2, 3] -- c\n 2.5f32 true empty([0][2]u8) \"ab\\n\" [[f32.nan], [-f32.inf]] 0xffu8 0b1_0i64",
    "[[1u16, 2], [3, 4],] -1e-3f64 1337e2f16 -f64.inf",
];

const SPEC: &str = "-- Desc\n-- ==\n-- tags { a }\n-- entry: f g\n-- \"n\" compiled input { [1, 2]\n--  3 } output { 4 }\n-- random input { [10]f32 } auto output\n-- input @ x.in.gz error: bad\n-- structure gpu { A 1 }\n-- warning: w\n";

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let interesting = b"[]{},-\"@b\x02\x00:0123456789fie.-_ \n";
    for _ in 0..1 + rng.next_u64() % 4 {
        let pos = if out.is_empty() { 0 } else { (rng.next_u64() as usize) % out.len() };
        let byte = if rng.next_u64().is_multiple_of(2) {
            interesting[(rng.next_u64() as usize) % interesting.len()]
        } else {
            rng.next_u64() as u8
        };
        match rng.next_u64() % 3 {
            0 if !out.is_empty() => out[pos] = byte,
            1 if !out.is_empty() => {
                out.remove(pos);
            }
            _ => out.insert(pos, byte),
        }
    }
    out
}

#[test]
fn mutated_inputs_never_panic() {
    let mut rng = Rng::new(42);
    let mut inputs: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    let values = parse_values(SEEDS[0]).unwrap();
    inputs.push(values_to_binary(&values));
    for seed in inputs.clone() {
        for _ in 0..3000 {
            let m = mutate(&mut rng, &seed);
            if let Ok(vs) = read_values(&m) {
                // Whatever parses must write and read back to the same type.
                for v in vs {
                    let back = read_values(&value_to_binary(&v)).unwrap();
                    assert_eq!(back[0].value_type(), v.value_type());
                    let text = v.to_string();
                    assert_eq!(parse_values(&text).unwrap()[0].value_type(), v.value_type(), "{text}");
                }
            }
        }
    }
    for _ in 0..3000 {
        let m = mutate(&mut rng, SPEC.as_bytes());
        let _ = parse_test_spec(&String::from_utf8_lossy(&m));
        let _ = ValueType::parse(&String::from_utf8_lossy(&m[..m.len().min(12)]));
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(7);
    for _ in 0..5000 {
        let len = (rng.next_u64() % 40) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let _ = read_values(&bytes);
        let mut with_header = b"b\x02".to_vec();
        with_header.extend_from_slice(&bytes);
        let _ = read_values(&with_header);
    }
}
