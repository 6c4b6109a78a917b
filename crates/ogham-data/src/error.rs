//! The error type of this crate: [`DataError`], a message with an optional
//! position in the input it came from.

use std::fmt;

/// Where in an input an error was found. Lines and columns count from 1;
/// columns count bytes, which is exact for the ASCII value formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `input` (clamped to its end).
    pub fn locate(input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Position { offset, line, column: offset - line_start + 1 }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A malformed value, a type or shape mismatch, or an unreadable file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub position: Option<Position>,
    pub message: String,
}

impl DataError {
    /// An error with no position (for example about a whole value).
    pub fn new(message: impl Into<String>) -> DataError {
        DataError { position: None, message: message.into() }
    }

    /// An error at byte `offset` of `input`.
    pub fn at(input: &[u8], offset: usize, message: impl Into<String>) -> DataError {
        DataError { position: Some(Position::locate(input, offset)), message: message.into() }
    }

    /// Prefixes the message with context, e.g. the name of the file read.
    pub fn context(mut self, what: impl fmt::Display) -> DataError {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.position {
            Some(p) => write!(f, "{p}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DataError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_counts_lines_and_columns() {
        let text = b"ab\ncde\nf";
        assert_eq!(Position::locate(text, 0), Position { offset: 0, line: 1, column: 1 });
        assert_eq!(Position::locate(text, 4), Position { offset: 4, line: 2, column: 2 });
        assert_eq!(Position::locate(text, 7), Position { offset: 7, line: 3, column: 1 });
        assert_eq!(Position::locate(text, 99).offset, 8);
        let e = DataError::at(text, 4, "bad");
        assert_eq!(e.to_string(), "line 2, column 2: bad");
    }
}
