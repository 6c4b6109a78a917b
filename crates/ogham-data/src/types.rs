//! Types of data values as written in data contexts: `i64`, `[]i32`,
//! `[n][m]f32`, `[100][3]f32`. Parsed by `random input { … }` blocks, by
//! `empty(…)` literals and by the server protocol; printed in messages.

use std::fmt;

use ogham_prim::PrimType;

use crate::DataError;

/// One dimension of a [`ValueType`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A concrete size: `[100]`.
    Known(i64),
    /// A size variable: `[n]`.
    Named(String),
    /// No size given: `[]`.
    Any,
}

/// The type of a data value: an element type under zero or more dimensions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    pub shape: Vec<Dim>,
    pub elem: PrimType,
}

impl ValueType {
    /// A scalar type.
    pub fn scalar(elem: PrimType) -> ValueType {
        ValueType { shape: Vec::new(), elem }
    }

    /// An array type with every size known.
    pub fn array(elem: PrimType, shape: &[i64]) -> ValueType {
        ValueType { shape: shape.iter().map(|&d| Dim::Known(d)).collect(), elem }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The sizes, when every dimension is a known number.
    pub fn known_shape(&self) -> Option<Vec<i64>> {
        self.shape
            .iter()
            .map(|d| match d {
                Dim::Known(n) => Some(*n),
                _ => None,
            })
            .collect()
    }

    /// The same type with every size forgotten (`[][]f32`), as the server
    /// protocol prints types.
    pub fn without_sizes(&self) -> ValueType {
        ValueType { shape: vec![Dim::Any; self.rank()], elem: self.elem }
    }

    /// Whether a value of type `self` may be passed where `other` is
    /// expected: same element type and rank, and equal sizes wherever both
    /// types give a number.
    pub fn fits(&self, other: &ValueType) -> bool {
        self.elem == other.elem
            && self.rank() == other.rank()
            && self.shape.iter().zip(&other.shape).all(|pair| match pair {
                (Dim::Known(a), Dim::Known(b)) => a == b,
                _ => true,
            })
    }

    /// Parses a whole text such as `[n][3]f32` (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<ValueType, DataError> {
        let bytes = text.as_bytes();
        let (ty, end) = ValueType::parse_prefix(bytes, 0)?;
        let rest = skip_spaces(bytes, end);
        if rest != bytes.len() {
            return Err(DataError::at(bytes, rest, format!("unexpected text after type `{ty}`")));
        }
        Ok(ty)
    }

    /// Parses a type starting at byte `start` of `input` (after optional
    /// whitespace); returns it with the offset just past it. Whitespace is
    /// allowed inside the brackets, not between them and the element type.
    pub fn parse_prefix(input: &[u8], start: usize) -> Result<(ValueType, usize), DataError> {
        let mut pos = skip_spaces(input, start);
        let mut shape = Vec::new();
        while input.get(pos) == Some(&b'[') {
            let open = pos;
            pos = skip_spaces(input, pos + 1);
            let word_start = pos;
            while pos < input.len() && (input[pos].is_ascii_alphanumeric() || input[pos] == b'_' || input[pos] == b'\'')
            {
                pos += 1;
            }
            let word = std::str::from_utf8(&input[word_start..pos]).unwrap_or("");
            let dim = if word.is_empty() {
                Dim::Any
            } else if word.as_bytes()[0].is_ascii_digit() {
                let digits: String = word.chars().filter(|&c| c != '_').collect();
                match digits.parse::<i64>() {
                    Ok(n) => Dim::Known(n),
                    Err(_) => return Err(DataError::at(input, word_start, format!("invalid array size `{word}`"))),
                }
            } else {
                Dim::Named(word.to_string())
            };
            pos = skip_spaces(input, pos);
            if input.get(pos) != Some(&b']') {
                return Err(DataError::at(input, open, "expected `]` closing an array dimension"));
            }
            pos += 1;
            shape.push(dim);
        }
        let name_start = pos;
        while pos < input.len() && input[pos].is_ascii_alphanumeric() {
            pos += 1;
        }
        let name = std::str::from_utf8(&input[name_start..pos]).unwrap_or("");
        match PrimType::from_name(name) {
            Some(elem) => Ok((ValueType { shape, elem }, pos)),
            None if name.is_empty() => {
                Err(DataError::at(input, name_start, "expected a primitive type such as `i32` or `f64`"))
            }
            None => Err(DataError::at(input, name_start, format!("unknown primitive type `{name}`"))),
        }
    }
}

pub(crate) fn skip_spaces(input: &[u8], mut pos: usize) -> usize {
    while pos < input.len() && input[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Known(n) => write!(f, "[{n}]"),
            Dim::Named(name) => write!(f, "[{name}]"),
            Dim::Any => f.write_str("[]"),
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.shape {
            write!(f, "{d}")?;
        }
        write!(f, "{}", self.elem)
    }
}

impl std::str::FromStr for ValueType {
    type Err = DataError;
    fn from_str(s: &str) -> Result<ValueType, DataError> {
        ValueType::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for text in ["i64", "[]i32", "[n][m]f32", "[100][3]f32", "[0]bool", "[2][0][x']u16"] {
            assert_eq!(ValueType::parse(text).unwrap().to_string(), text);
        }
        let t = ValueType::parse(" [ 10 ][n]f64 ").unwrap();
        assert_eq!(t.shape, vec![Dim::Known(10), Dim::Named("n".into())]);
        assert_eq!(t.elem, PrimType::F64);
        assert_eq!(t.rank(), 2);
        assert_eq!(t.known_shape(), None);
        assert_eq!(ValueType::parse("[1_000]i8").unwrap().known_shape(), Some(vec![1000]));
        assert_eq!(t.without_sizes().to_string(), "[][]f64");
    }

    #[test]
    fn rejects_bad_types() {
        assert!(ValueType::parse("[3]").unwrap_err().message.contains("expected a primitive type"));
        assert!(ValueType::parse("i33").unwrap_err().message.contains("unknown primitive type `i33`"));
        assert!(ValueType::parse("[3f32").is_err());
        assert!(ValueType::parse("[99999999999999999999]f32").is_err());
        assert!(ValueType::parse("i32 x").is_err());
        assert!(ValueType::parse("").is_err());
    }

    #[test]
    fn fits_compares_known_sizes_only() {
        let a = ValueType::array(PrimType::I32, &[3]);
        assert!(a.fits(&ValueType::parse("[n]i32").unwrap()));
        assert!(!a.fits(&ValueType::parse("[4]i32").unwrap()));
        assert!(!a.fits(&ValueType::parse("[][]i32").unwrap()));
        assert!(!a.fits(&ValueType::parse("[]i64").unwrap()));
    }
}
