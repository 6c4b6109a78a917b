//! Compile-time diagnostics and their rendering.
//!
//! A diagnostic has a stable kebab-case name (documented in `docs/errors.md`),
//! a primary span, a message, and optional secondary labelled spans and
//! notes. Rendering shows `Error[name] at file:line:col-col2: message` (the
//! location in Futhark's form, [`SourceMap::span_location`]) followed by
//! the source line with a caret underline, so `-- error:` regexes in test
//! blocks can match either the name or the message.

use crate::source::{SourceMap, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable name, e.g. `type-mismatch`; every name has an entry in `docs/errors.md`.
    pub name: &'static str,
    pub span: Span,
    pub message: String,
    /// Extra spans with a short label each (e.g. "first consumed here").
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(name: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            name,
            span,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn warning(name: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(name, span, message) }
    }

    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.labels.push((span, label.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Renders the diagnostic with the offending source line and a caret underline.
    pub fn render(&self, sources: &SourceMap) -> String {
        let kind = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        let mut out = format!("{kind}[{}] at {}: {}\n", self.name, sources.span_location(self.span), self.message);
        render_snippet(&mut out, sources, self.span, None);
        for (span, label) in &self.labels {
            out.push_str(&format!("  note at {}: {label}\n", sources.span_location(*span)));
            render_snippet(&mut out, sources, *span, None);
        }
        for note in &self.notes {
            out.push_str(&format!("  = {note}\n"));
        }
        out
    }
}

fn render_snippet(out: &mut String, sources: &SourceMap, span: Span, label: Option<&str>) {
    let Some(file) = sources.file(span.file) else { return };
    let (line, col) = file.line_col(span.start);
    let (end_line, end_col) = file.line_col(span.end);
    let text = file.line_text(line);
    let gutter = line.to_string().len();
    out.push_str(&format!("{:gutter$} |\n", ""));
    out.push_str(&format!("{line} | {text}\n"));
    let width = if end_line == line && end_col > col { end_col - col } else { 1 };
    let width = width.min(text.chars().count().saturating_sub(col - 1).max(1));
    out.push_str(&format!("{:gutter$} | {}{}", "", " ".repeat(col - 1), "^".repeat(width)));
    if let Some(label) = label {
        out.push_str(&format!(" {label}"));
    }
    out.push('\n');
}
