//! Values as the outside world sees them, and everything that reads, writes,
//! compares or generates them.
//!
//! * [`Buffer`] — flat typed element storage (`Vec<f32>`, `Vec<i64>`, …)
//!   with `len`, `get`/`at`, `set`, `push`, `slice`, `strided`, `gather`,
//!   `gather_rows`, `copy_from`, `repeat`, `concat`, `zeros`, `filled`,
//!   `from_prim_values`, `convert` and little-endian (de)serialisation. The
//!   interpreter uses the same type for its arrays.
//! * [`Value`] — a scalar ([`PrimValue`](ogham_prim::PrimValue)) or an
//!   [`ArrayValue`] (shape `Vec<i64>` plus a `Buffer`, row-major). `Display`
//!   prints Futhark's text format.
//! * [`ValueType`] / [`Dim`] — types written in data contexts (`[n][3]f32`),
//!   with `parse`, `Display` and `fits`.
//! * Text format ([`text`]): [`parse_text_value`], [`value_to_text`],
//!   [`values_to_text`].
//! * Binary format ([`binary`]): [`read_binary`], [`value_to_binary`],
//!   [`values_to_binary`].
//! * Streams of mixed text and binary values ([`reader`]): [`ValueReader`]
//!   (`next_value`, `read_values(n)`, `read_typed(&[ValueType])`,
//!   `read_all`), [`read_values`], [`parse_values`].
//! * Tolerant comparison as `futhark test` does it ([`compare`]):
//!   [`compare_values`] returning a [`Comparison`] of mismatch lines.
//! * Random data as `futhark dataset` makes it ([`random`]):
//!   [`RandomBounds`], [`Rng`], [`generate_value`], [`RandomItem`],
//!   [`parse_random_items`], [`generate_random_input`].
//! * Files ([`files`]): [`read_data_file`] reads a possibly gzipped file,
//!   [`gunzip_if_compressed`] does the same for bytes, [`read_values_file`]
//!   reads the values in one.
//! * Test blocks ([`testspec`]): [`parse_test_spec`] extracts the `-- ==`
//!   blocks of a `.fut` file into a [`TestSpec`].
//!
//! Choices where Futhark leaves room: floats print with the shortest digits
//! that read back exactly (Futhark's C writer uses `%.9g`/`%.17g`; both read
//! back to the same value); typed reading is strict, so `1` (an `i32`) is
//! rejected where an `i64` is expected, as `futhark test` rejects it.
//!
//! Every error is a [`DataError`]: a message with a line/column position
//! when it concerns a place in an input. Malformed input never panics.

pub mod binary;
pub mod buffer;
pub mod compare;
pub mod error;
pub mod files;
pub mod random;
pub mod reader;
#[cfg(test)]
mod robustness;
pub mod testspec;
pub mod text;
pub mod types;
pub mod value;

pub use binary::{read_binary, value_to_binary, values_to_binary, write_binary};
pub use buffer::{Buffer, ElemTypeMismatch};
pub use compare::{compare_values, compare_values_with, Comparison, DEFAULT_TOLERANCE};
pub use error::{DataError, Position};
pub use files::{gunzip_if_compressed, read_data_file, read_values_file};
pub use random::{generate_random_input, generate_value, parse_random_items, RandomBounds, RandomItem, Rng};
pub use reader::{parse_values, read_values, ValueReader};
pub use testspec::{parse_test_spec, CaseInput, EntryGroup, Expected, RunCase, TestAction, TestSpec};
pub use text::{parse_text_value, value_to_text, values_to_text, write_text};
pub use types::{Dim, ValueType};
pub use value::{ArrayValue, Value};
