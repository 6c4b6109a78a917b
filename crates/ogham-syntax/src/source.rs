//! Source files and byte spans into them.
//!
//! Every AST node, IR statement and diagnostic carries a [`Span`]; the
//! [`SourceMap`] turns spans back into `file:line:col(-col2)` and source lines for
//! rendering. The prelude is a file like any other.

use std::fmt;

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `[start, end)` in one file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both (they must be in the same file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// A span for generated code with no source position.
    pub const DUMMY: Span = Span { file: FileId(u32::MAX), start: 0, end: 0 };

    pub fn is_dummy(self) -> bool {
        self.file.0 == u32::MAX
    }

    /// A span that stands for a statement copied into a caller by inlining:
    /// entry `index` of the program's table of inlined spans (the span in
    /// the callee and the span of the call; see `ogham_ir::Program::frames`).
    pub fn inlined(index: usize) -> Span {
        Span { file: FileId(INLINED_FILE), start: index as u32, end: index as u32 }
    }

    /// The table entry this span stands for, if it is an inlined span.
    pub fn inlined_index(self) -> Option<usize> {
        (self.file.0 == INLINED_FILE).then_some(self.start as usize)
    }
}

/// The file id of inlined spans ([`Span::inlined`]); no source file has it.
const INLINED_FILE: u32 = u32::MAX - 1;

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}..{}", self.file.0, self.start, self.end)
    }
}

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given by the user (or `<prelude>/…`).
    pub name: String,
    pub text: String,
    /// Byte offsets at which lines start.
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: String, text: String) -> SourceFile {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { name, text, line_starts }
    }

    /// 1-based line and column (column in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map(|s| s.chars().count()).unwrap_or(end - start);
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else { return "" };
        let end = self.line_starts.get(line).map(|&e| e as usize).unwrap_or(self.text.len());
        self.text.get(start as usize..end).unwrap_or("").trim_end_matches(['\n', '\r'])
    }
}

/// All files of one compilation.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// `file:line:col` of the start of a span, as printed in error messages.
    pub fn location(&self, span: Span) -> String {
        match self.file(span.file) {
            Some(f) => {
                let (l, c) = f.line_col(span.start);
                format!("{}:{}:{}", f.name, l, c)
            }
            None => "<unknown location>".to_string(),
        }
    }

    /// Futhark's style of compile-error location: `file:line:col-col2` for a
    /// span on one line (`col2` one past its last character),
    /// `file:line:col-line2:col2` for one over several lines, and
    /// `file:line:col` for an empty span.
    pub fn span_location(&self, span: Span) -> String {
        match self.file(span.file) {
            Some(f) => {
                let (l1, c1) = f.line_col(span.start);
                if span.end <= span.start {
                    return format!("{}:{}:{}", f.name, l1, c1);
                }
                let (l2, c2) = f.line_col(span.end);
                if l1 == l2 {
                    format!("{}:{}:{}-{}", f.name, l1, c1, c2)
                } else {
                    format!("{}:{}:{}-{}:{}", f.name, l1, c1, l2, c2)
                }
            }
            None => "<unknown location>".to_string(),
        }
    }

    /// `file:line:col-line:col`, Futhark's style of run-time error location.
    pub fn range(&self, span: Span) -> String {
        match self.file(span.file) {
            Some(f) => {
                let (l1, c1) = f.line_col(span.start);
                let (l2, c2) = f.line_col(span.end);
                format!("{}:{}:{}-{}:{}", f.name, l1, c1, l2, c2)
            }
            None => "<unknown location>".to_string(),
        }
    }
}
