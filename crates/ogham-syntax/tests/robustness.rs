//! Randomised robustness tests: truncations, mutations, random bytes, token
//! soup and deep nesting must produce diagnostics, never panics, and every
//! span must lie inside the text.

use ogham_syntax::ast::NodeIds;
use ogham_syntax::parser::{parse_expr, parse_program, parse_type};
use ogham_syntax::FileId;

const SAMPLE: &str = r#"
-- | A sample with most constructs.
import "lib/github.com/diku-dk/sorts/radix_sort"

type~ vec [n] 't = ?[m].([n]t, [m]t)
type opt 'a = #some a | #none

#[noinline]
def (a: i32, b: i32) +^ (c: i32, d: i32) : (i32, i32) = (a + c, b + d)

def (<=>) 't (x: t) (y: t) = (x, y)

def sum [n] (xs: [n]f32) : f32 = reduce (+) 0f32 xs

entry main (xs: *[]i32) (k: i64) : []i32 =
  let ys = map (\x -> x * 2 + 'a') xs
  let (a, b) = (ys[0], ys[1:k:2])
  let zs[0] = 1
  let r = {x = 1, y = 2.5e-3}
  let r.x = 3
  let f [m] 'u (v: [m]u) : [m]u = v with [0] = v[1]
  let s = loop (acc, i) = (0, 0) for j < k do (acc + j, i `max` j)
  let w = loop x = 1 while x < 100 do x ** 2
  let q = match r.x
          case 0 -> #none
          case -1 -> #some (-1)
          case _ -> #some (r.x |> (+1) |> (.x) ({x = 1}))
  in #[unsafe] zs with [k - 1] = a + i32.i64 (length b) :> [k]i32

module M = { def x = 1 }
local def hidden = (.[0]) [1,2,3] + (`f` 2) + (2 `f`) + (.a.b) r
def ranges = (0..<10, 10..>0, 1..3...9, "str\n\u{3bb}", ???, 0x1.8p1f32)
"#;

/// A tiny deterministic xorshift generator, so the test needs no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn check(text: &str) {
    let mut ids = NodeIds::default();
    let (_, diags) = parse_program(FileId(0), text, &mut ids);
    for d in &diags {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "bad span in {text:?}: {d:?}");
    }
    let _ = parse_expr(FileId(0), text, &mut ids);
    let _ = parse_type(FileId(0), text, &mut ids);
}

#[test]
fn sample_parses_cleanly() {
    let (program, diags) = parse_program(FileId(0), SAMPLE, &mut NodeIds::default());
    assert!(diags.is_empty(), "{:?}", diags.iter().map(|d| &d.message).collect::<Vec<_>>());
    assert_eq!(program.decs.len(), 10);
}

#[test]
fn truncations() {
    for (i, _) in SAMPLE.char_indices() {
        check(&SAMPLE[..i]);
        check(&SAMPLE[i..]);
    }
}

#[test]
fn mutations() {
    let pieces = [
        "(", ")", "[", "]", "{", "}", ",", "let", "in", "=", "->", "\\", "'", "\"", "#", "#[", "..", ".", "-", "`",
        "0x", "e", "?",
    ];
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let chars: Vec<char> = SAMPLE.chars().collect();
    for _ in 0..3000 {
        let mut text: Vec<char> = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len());
            match rng.below(3) {
                0 => {
                    text.remove(at);
                }
                1 => {
                    let piece = pieces[rng.below(pieces.len())];
                    for (k, c) in piece.chars().enumerate() {
                        text.insert(at + k, c);
                    }
                }
                _ => {
                    let other = rng.below(text.len());
                    text.swap(at, other);
                }
            }
        }
        check(&text.iter().collect::<String>());
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(12345);
    for _ in 0..3000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len)
            .map(|_| if rng.below(2) == 0 { rng.next() as u8 } else { b" ()[]{}.:,'\"#\\-=<>|`0a1x_"[rng.below(25)] })
            .collect();
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn token_soup() {
    let tokens = [
        "def", "entry", "let", "in", "if", "then", "else", "loop", "for", "while", "do", "match", "case", "type",
        "type~", "module", "open", "local", "import", "with", "assert", "x", "f32.sqrt", "r.a.0", "1", "2.5", "0x1p3",
        "'c'", "\"s\"", "#c", "#[attr]", "(", ")", "[", "]", "{", "}", ",", "=", ":", ":>", "->", "\\", "+", "-", "!",
        "|>", "<|", "`f`", "..", "...", "..<", "..>", "?", "???", "'", "'^", "'~", "_", "*", "|", "<", "\n", "true",
    ];
    let mut rng = Rng(777);
    for _ in 0..5000 {
        let len = rng.below(40);
        let mut text = String::new();
        for _ in 0..len {
            text.push_str(tokens[rng.below(tokens.len())]);
            if rng.below(3) != 0 {
                text.push(' ');
            }
        }
        check(&text);
    }
}

#[test]
fn deep_nesting_of_every_kind() {
    let openers = ["(", "[", "{x=", "\\x -> ", "if c then 1 else ", "-", "!", "f (", "#[a] ", "a <| ", "[n]"];
    for opener in openers {
        for depth in [10, 100, 1000, 20_000] {
            let text = format!("def x = {}1", opener.repeat(depth));
            check(&text);
            let text = format!("def x: {}i32 = 1", opener.repeat(depth));
            check(&text);
            let text = format!("def x {} = 1", opener.repeat(depth));
            check(&text);
        }
    }
}

#[test]
fn maximum_nesting_fits_a_small_stack() {
    // The parser's depth limit must be reached long before a 1 MiB stack
    // runs out (test threads have 2 MiB; fuzzers add instrumentation).
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for opener in ["(", "[", "{x=", "(\\x -> ", "[n]", "let x = ", "f (", "(x, "] {
                check(&format!("def x = {}1", opener.repeat(1000)));
                check(&format!("type t = {}i32", opener.repeat(1000)));
            }
            // Short texts are parsed on the calling thread itself.
            for opener in ["(", "[", "\\x->", "- ", "#c ("] {
                let mut text = opener.repeat(64);
                text.truncate(64);
                check(&text);
            }
        })
        .unwrap();
    handle.join().unwrap();
}
