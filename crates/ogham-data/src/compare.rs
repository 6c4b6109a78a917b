//! Comparing results with expected values as `futhark test` does
//! (anchor-futhark.md §2.4): types and shapes must match exactly, integers
//! and bools must be equal, floats may differ by the tolerance.
//!
//! The float tolerance of one value (a whole array or a scalar) is
//! `max(t, t · m)` with `t` = 0.002 and `m` the largest finite absolute
//! expected element, so large-magnitude results get a proportionally larger
//! allowance. NaN matches NaN; an infinity matches only itself.

use ogham_prim::PrimValue;

use crate::Value;

/// Futhark's default tolerance.
pub const DEFAULT_TOLERANCE: f64 = 0.002;

/// How many mismatch lines a comparison keeps before just counting.
pub const DEFAULT_MAX_REPORTED: usize = 10;

/// The outcome of comparing a list of results with the expected list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The first mismatches, one line each, e.g.
    /// `Value #0 index [4]: expected 4, got 0`.
    pub mismatches: Vec<String>,
    /// How many mismatches there were in all (at least `mismatches.len()`).
    pub total: usize,
}

impl Comparison {
    pub fn is_match(&self) -> bool {
        self.total == 0
    }

    /// The mismatch lines, followed by `...and N other mismatches.` when
    /// some were left out. Empty when everything matched.
    pub fn report(&self) -> String {
        let mut lines = self.mismatches.clone();
        let left_out = self.total - self.mismatches.len();
        if left_out > 0 {
            let noun = if left_out == 1 { "mismatch" } else { "mismatches" };
            lines.push(format!("...and {left_out} other {noun}."));
        }
        lines.join("\n")
    }

    fn add(&mut self, max_reported: usize, line: impl FnOnce() -> String) {
        if self.mismatches.len() < max_reported {
            self.mismatches.push(line());
        }
        self.total += 1;
    }
}

/// Compares `got` with `expected` using Futhark's defaults.
pub fn compare_values(expected: &[Value], got: &[Value]) -> Comparison {
    compare_values_with(expected, got, DEFAULT_TOLERANCE, DEFAULT_MAX_REPORTED)
}

/// Compares with an explicit tolerance and cap on reported lines.
pub fn compare_values_with(expected: &[Value], got: &[Value], tolerance: f64, max_reported: usize) -> Comparison {
    let mut result = Comparison::default();
    if expected.len() != got.len() {
        result.add(max_reported, || format!("Expected {} values, got {}.", expected.len(), got.len()));
        return result;
    }
    for (i, (e, g)) in expected.iter().zip(got).enumerate() {
        compare_one(i, e, g, tolerance, max_reported, &mut result);
    }
    result
}

fn compare_one(index: usize, expected: &Value, got: &Value, tolerance: f64, max_reported: usize, out: &mut Comparison) {
    let (et, gt) = (expected.value_type(), got.value_type());
    if et != gt {
        out.add(max_reported, || format!("Value #{index}: expected type {et}, got {gt}"));
        return;
    }
    let allowed = tolerance.max(tolerance * largest_finite_magnitude(expected));
    let shape = expected.shape();
    for flat in 0..expected.element_count() {
        let (Some(e), Some(g)) = (expected.flat_get(flat), got.flat_get(flat)) else {
            break;
        };
        if !elements_match(e, g, allowed) {
            out.add(max_reported, || {
                let at = if shape.is_empty() { String::new() } else { format!(" index {}", index_text(shape, flat)) };
                format!("Value #{index}{at}: expected {}, got {}", bare(e), bare(g))
            });
        }
    }
}

fn largest_finite_magnitude(v: &Value) -> f64 {
    if !v.elem_type().is_float() {
        return 0.0;
    }
    (0..v.element_count())
        .filter_map(|i| v.flat_get(i))
        .map(|x| x.as_f64().abs())
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max)
}

fn elements_match(expected: PrimValue, got: PrimValue, allowed: f64) -> bool {
    if !expected.prim_type().is_float() {
        return expected == got;
    }
    let (e, g) = (expected.as_f64(), got.as_f64());
    if e.is_nan() {
        g.is_nan()
    } else if e.is_infinite() || !g.is_finite() {
        e == g
    } else {
        (e - g).abs() <= allowed
    }
}

/// The multi-dimensional index `[i, j, …]` of flat position `flat`.
fn index_text(shape: &[i64], mut flat: usize) -> String {
    let mut parts = vec![0usize; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        let d = d.max(1) as usize;
        parts[k] = flat % d;
        flat /= d;
    }
    let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// A scalar without its type suffix (both sides of a mismatch have the same
/// type, already checked): `4`, `0.5`, `nan`, `-inf`, `true`.
fn bare(v: PrimValue) -> String {
    let x = v.as_f64();
    if v.prim_type().is_float() && x.is_nan() {
        return "nan".into();
    }
    if v.prim_type().is_float() && x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let text = v.to_string();
    match text.strip_suffix(v.prim_type().name()) {
        Some(stripped) if v.prim_type().is_numeric() => stripped.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_values;

    fn cmp(expected: &str, got: &str) -> Comparison {
        compare_values(&parse_values(expected).unwrap(), &parse_values(got).unwrap())
    }

    #[test]
    fn equal_values_match() {
        assert!(cmp("[1, 2, 3] true 2.5f32", "[1, 2, 3] true 2.5f32").is_match());
        assert!(cmp("empty([0]i32)", "empty([0]i32)").is_match());
        assert_eq!(cmp("1", "1").report(), "");
    }

    #[test]
    fn integer_mismatches_are_located() {
        let c = cmp("[1, 2, 3, 4, 4]", "[1, 2, 3, 4, 0]");
        assert_eq!(c.mismatches, vec!["Value #0 index [4]: expected 4, got 0"]);
        let c = cmp("1i64 [[1u8, 2], [3, 4]]", "1i64 [[1u8, 2], [9, 4]]");
        assert_eq!(c.mismatches, vec!["Value #1 index [1, 0]: expected 3, got 9"]);
        assert_eq!(cmp("true", "false").mismatches, vec!["Value #0: expected true, got false"]);
    }

    #[test]
    fn types_shapes_and_counts_must_match() {
        assert_eq!(cmp("[1, 2]", "[1, 2, 3]").mismatches, vec!["Value #0: expected type [2]i32, got [3]i32"]);
        assert_eq!(cmp("1i32", "1i64").mismatches, vec!["Value #0: expected type i32, got i64"]);
        assert_eq!(cmp("1 2", "1").mismatches, vec!["Expected 2 values, got 1."]);
    }

    #[test]
    fn float_tolerance() {
        // Small magnitudes: absolute tolerance 0.002.
        assert!(cmp("1.0f32", "1.0019f32").is_match());
        assert!(!cmp("1.0f32", "1.0021f32").is_match());
        // Relative to the largest finite expected element: 0.002 * 1000 = 2.
        assert!(cmp("[1000.0, 1.0]", "[1001.9, 2.9]").is_match());
        assert!(!cmp("[1000.0, 1.0]", "[1000.0, 3.1]").is_match());
        // Infinite expected elements do not widen the tolerance.
        assert!(!cmp("[f64.inf, 1.0]", "[f64.inf, 1.01]").is_match());
        assert!(cmp("[f32.nan, -f32.inf]", "[f32.nan, -f32.inf]").is_match());
        assert!(!cmp("[f32.inf]", "[-f32.inf]").is_match());
        assert!(!cmp("[1f32]", "[f32.nan]").is_match());
        assert!(!cmp("[f32.nan]", "[1f32]").is_match());
        assert!(!cmp("[1f32]", "[f32.inf]").is_match());
        assert_eq!(cmp("0.5f16", "0.75f16").mismatches, vec!["Value #0: expected 0.5, got 0.75"]);
        assert_eq!(cmp("[f64.nan]", "[-f64.inf]").mismatches, vec!["Value #0 index [0]: expected nan, got -inf"]);
    }

    #[test]
    fn reports_are_capped() {
        let c = cmp("[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]");
        assert_eq!(c.total, 15);
        assert_eq!(c.mismatches.len(), DEFAULT_MAX_REPORTED);
        assert!(c.report().ends_with("Value #0 index [9]: expected 0, got 1\n...and 5 other mismatches."));
        let c = compare_values_with(&parse_values("[0, 0]").unwrap(), &parse_values("[1, 1]").unwrap(), 0.002, 1);
        assert_eq!(c.report(), "Value #0 index [0]: expected 0, got 1\n...and 1 other mismatch.");
    }
}
