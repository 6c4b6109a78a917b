//! The `-- ==` test-block specification of a `.fut` file
//! (anchor-futhark.md §2.1): what a test program declares about itself —
//! description, tags, a compile-time error to expect, or the entry points
//! and run cases (input, expected output or error, run tags, dataset names).
//!
//! A test block is a run of `--` comment lines containing a line that is just
//! `==`; the lines before it are the description. After the `==`, the
//! comment markers are whitespace, so values may span many lines. Value
//! texts are kept raw (parse them with [`crate::parse_values`] or
//! [`crate::parse_random_items`]); `structure` sections are parsed and
//! dropped, `warning:` regexes are kept but not interpreted.
//!
//! Grammar after `==` (several blocks per file add their cases together;
//! `tags` may appear at the start of any block and accumulate):
//! ```text
//! [tags { t ... }]
//! ( error: REGEX                       -- compile-time failure, only block
//! | property: e ...
//! | { [entry: e ...] { CASE }* }*      -- without entry:, the entry is main
//!   { structure [WORD] { ... } | warning: REGEX }* )
//! CASE ::= ["name"] [runtag ...] [random | script] input (VALUES)
//!          [ output VALUES | auto output | error: REGEX ]
//! VALUES ::= { raw text } | @ path
//! ```

use crate::{DataError, Position};

/// Everything the test blocks of one file say.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSpec {
    /// Free text before the first block's `==`, comment markers removed.
    pub description: String,
    /// Program-level tags (`tags { autodiff }`).
    pub tags: Vec<String>,
    pub action: TestAction,
}

/// What testing the program means.
#[derive(Clone, Debug, PartialEq)]
pub enum TestAction {
    /// Compilation must fail with a message matching `regex`.
    CompileError { regex: String, line: usize },
    /// Property-based tests of the listed entry points.
    Property { entries: Vec<String> },
    /// Run the cases; `warnings` are regexes the compiler's warnings must match.
    Run { groups: Vec<EntryGroup>, warnings: Vec<String> },
}

/// Cases shared by the entry points of one `entry:` line.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryGroup {
    /// The entry points (`["main"]` when no `entry:` line was given).
    pub entries: Vec<String>,
    pub cases: Vec<RunCase>,
}

/// One run of an entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct RunCase {
    /// The dataset name, by Futhark's rule: an explicit `"name"`; else the
    /// file name of `input @ file` without `.gz`; else the random types;
    /// else `#i ("values")` with the values' first 50 characters.
    pub name: String,
    /// Run tags before `input` (`compiled`, `nobench`, `notest`, `disable`,
    /// `no_<backend>`, …); `random` and `script` show in [`CaseInput`] instead.
    pub tags: Vec<String>,
    pub input: CaseInput,
    pub expected: Expected,
    /// Line of the `.fut` file where the case's `input` keyword is.
    pub line: usize,
}

impl RunCase {
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Whether the case is left out by default under `backend`: tagged
    /// `disable`, `no_<backend>`, or (when `benchmarking`) `nobench`, else
    /// `notest`.
    pub fn excluded(&self, backend: &str, benchmarking: bool) -> bool {
        let mode_tag = if benchmarking { "nobench" } else { "notest" };
        self.has_tag("disable") || self.has_tag(mode_tag) || self.has_tag(&format!("no_{backend}"))
    }
}

/// Where a case's input values come from.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseInput {
    /// `input { … }`: the raw value text.
    Values(String),
    /// `input @ path`, path as written (relative to the program's directory).
    File(String),
    /// `random input { … }`: the raw item text (types or literals).
    Random(String),
    /// `script input { … }`: a FutharkScript expression.
    Script(String),
    /// `script input @ path`.
    ScriptFile(String),
}

/// What a case must produce.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// No expectation beyond running without error.
    Success,
    /// `output { … }`: the raw value text.
    Values(String),
    /// `output @ path`.
    File(String),
    /// `auto output`: the expected values come from a reference compiler.
    Auto,
    /// `error: regex`: the run must fail with a matching message.
    RunError(String),
}

/// Parses all test blocks of a `.fut` source. `Ok(None)` when it has none.
pub fn parse_test_spec(source: &str) -> Result<Option<TestSpec>, DataError> {
    let blocks = find_blocks(source);
    if blocks.is_empty() {
        return Ok(None);
    }
    let mut spec = TestSpec {
        description: blocks[0].description.clone(),
        tags: Vec::new(),
        action: TestAction::Run { groups: Vec::new(), warnings: Vec::new() },
    };
    let block_count = blocks.len();
    for block in &blocks {
        let mut parser = BlockParser { text: block.text.as_bytes(), lines: &block.lines, pos: 0 };
        parser.parse_into(&mut spec, block_count)?;
    }
    if let TestAction::Run { groups, .. } = &spec.action {
        check_unique_names(groups)?;
    }
    Ok(Some(spec))
}

/// One `-- ==` block: its description and the text after `==`, comment
/// markers removed, with a map back to the file's lines.
struct RawBlock {
    description: String,
    text: String,
    /// For each line of `text`: its line number in the file (from 1) and how
    /// many bytes of the file line precede it (indentation plus `--`).
    lines: Vec<(usize, usize)>,
}

fn find_blocks(source: &str) -> Vec<RawBlock> {
    let mut blocks = Vec::new();
    let mut description: Vec<&str> = Vec::new();
    let mut current: Option<RawBlock> = None;
    for (index, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        let Some(content) = trimmed.strip_prefix("--") else {
            // Any other line ends the comment run, and so the block.
            blocks.extend(current.take());
            description.clear();
            continue;
        };
        if content.trim() == "==" {
            blocks.extend(current.take());
            current = Some(RawBlock {
                description: description.join("\n").trim().to_string(),
                text: String::new(),
                lines: Vec::new(),
            });
            description.clear();
            continue;
        }
        match &mut current {
            Some(block) => {
                block.text.push_str(content);
                block.text.push('\n');
                block.lines.push((index + 1, line.len() - content.len()));
            }
            None => {
                let content = content.strip_prefix(' ').unwrap_or(content);
                let content = content.strip_prefix("| ").or_else(|| content.strip_prefix('|')).unwrap_or(content);
                description.push(content);
            }
        }
    }
    blocks.extend(current);
    blocks
}

struct BlockParser<'a> {
    text: &'a [u8],
    lines: &'a [(usize, usize)],
    pos: usize,
}

impl BlockParser<'_> {
    /// A position in the `.fut` file for offset `offset` of the block text.
    fn file_position(&self, offset: usize) -> Position {
        let local = Position::locate(self.text, offset);
        let (file_line, prefix) = self.lines.get(local.line - 1).copied().unwrap_or_else(|| {
            // Past the last line: point just after the block.
            self.lines.last().map_or((1, 0), |&(l, _)| (l + 1, 0))
        });
        Position { offset, line: file_line, column: local.column + prefix }
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> DataError {
        DataError { position: Some(self.file_position(offset)), message: message.into() }
    }

    fn line_of(&self, offset: usize) -> usize {
        self.file_position(offset).line
    }

    fn skip_blank(&mut self) {
        self.pos = crate::text::skip_blank(self.text, self.pos);
    }

    fn peek_byte(&mut self) -> Option<u8> {
        self.skip_blank();
        self.text.get(self.pos).copied()
    }

    /// The next word (up to whitespace or a brace), without consuming it.
    fn peek_word(&mut self) -> Option<&str> {
        self.skip_blank();
        let end = self.word_end();
        (end > self.pos).then(|| std::str::from_utf8(&self.text[self.pos..end]).unwrap_or(""))
    }

    fn word_end(&self) -> usize {
        let mut end = self.pos;
        while end < self.text.len()
            && !self.text[end].is_ascii_whitespace()
            && !matches!(self.text[end], b'{' | b'}' | b'"')
        {
            end += 1;
        }
        end
    }

    fn take_word(&mut self) -> Option<String> {
        let word = self.peek_word()?.to_string();
        self.pos += word.len();
        Some(word)
    }

    fn expect_word(&mut self, word: &str) -> Result<(), DataError> {
        match self.peek_word() {
            Some(w) if w == word => {
                self.pos += word.len();
                Ok(())
            }
            Some(w) => {
                let found = w.to_string();
                Err(self.error(self.pos, format!("expected `{word}`, found `{found}`")))
            }
            None => Err(self.error(self.pos, format!("expected `{word}`"))),
        }
    }

    /// The rest of the current line, trimmed (for regexes and name lists).
    fn rest_of_line(&mut self) -> String {
        let end = self.text[self.pos..].iter().position(|&b| b == b'\n').map_or(self.text.len(), |i| self.pos + i);
        let rest = String::from_utf8_lossy(&self.text[self.pos..end]).trim().to_string();
        self.pos = end;
        rest
    }

    /// The text between `{` and its matching `}` (nesting and string
    /// literals respected), with the braces consumed.
    fn braced(&mut self, what: &str) -> Result<String, DataError> {
        if self.peek_byte() != Some(b'{') {
            return Err(self.error(self.pos, format!("expected `{{` to start {what}")));
        }
        let open = self.pos;
        let mut depth = 0usize;
        let mut i = open;
        while i < self.text.len() {
            match self.text[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        let inner = String::from_utf8_lossy(&self.text[open + 1..i]).into_owned();
                        self.pos = i + 1;
                        return Ok(inner);
                    }
                }
                b'"' => {
                    i += 1;
                    while i < self.text.len() && self.text[i] != b'"' {
                        i += if self.text[i] == b'\\' { 2 } else { 1 };
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.error(open, format!("unclosed `{{` in {what}")))
    }

    /// `{ … }` or `@ path`.
    fn values_source(&mut self, what: &str) -> Result<ValuesSource, DataError> {
        match self.peek_byte() {
            Some(b'@') => {
                self.pos += 1;
                match self.take_word() {
                    Some(path) => Ok(ValuesSource::File(path)),
                    None => Err(self.error(self.pos, format!("expected a file name after `@` in {what}"))),
                }
            }
            Some(b'{') => Ok(ValuesSource::Inline(self.braced(what)?)),
            _ => Err(self.error(self.pos, format!("expected `{{ values }}` or `@ file` after {what}"))),
        }
    }

    fn parse_into(&mut self, spec: &mut TestSpec, block_count: usize) -> Result<(), DataError> {
        if self.peek_word() == Some("tags") {
            self.pos += "tags".len();
            let inner = self.braced("tags")?;
            spec.tags.extend(inner.split_whitespace().map(str::to_string));
        }
        match self.peek_word() {
            Some("error:") => {
                let at = self.pos;
                self.pos += "error:".len();
                let regex = self.rest_of_line();
                if block_count > 1 || !matches!(&spec.action, TestAction::Run { groups, .. } if groups.is_empty()) {
                    return Err(self.error(at, "a compile-error test (`error:`) must be the file's only test block"));
                }
                spec.action = TestAction::CompileError { regex, line: self.line_of(at) };
                return self.expect_end();
            }
            Some("property:") => {
                self.pos += "property:".len();
                let entries = self.rest_of_line().split_whitespace().map(str::to_string).collect();
                spec.action = TestAction::Property { entries };
                return self.expect_end();
            }
            _ => {}
        }
        let TestAction::Run { groups, warnings } = &mut spec.action else {
            return Err(self.error(self.pos, "run cases cannot follow a compile-error or property test block"));
        };
        let mut group: Option<EntryGroup> = None;
        loop {
            let Some(word) = self.peek_word().map(str::to_string) else {
                if self.peek_byte().is_none() {
                    break;
                }
                // A string: the name of the next case.
                let case = self.run_case(group.as_ref().map_or(0, |g| g.cases.len()))?;
                group.get_or_insert_with(default_group).cases.push(case);
                continue;
            };
            match word.as_str() {
                "entry:" => {
                    self.pos += word.len();
                    groups.extend(group.take());
                    let entries: Vec<String> = self.rest_of_line().split_whitespace().map(str::to_string).collect();
                    if entries.is_empty() {
                        return Err(self.error(self.pos, "`entry:` needs at least one entry point name"));
                    }
                    group = Some(EntryGroup { entries, cases: Vec::new() });
                }
                "structure" => {
                    self.pos += word.len();
                    if self.peek_byte() != Some(b'{') {
                        self.take_word();
                    }
                    self.braced("a structure test")?;
                }
                "warning:" => {
                    self.pos += word.len();
                    warnings.push(self.rest_of_line());
                }
                "error:" => {
                    return Err(self.error(self.pos, "`error:` must follow a case's input, or start the block"));
                }
                "tags" => return Err(self.error(self.pos, "`tags` must come first in a test block")),
                _ => {
                    let index = group.as_ref().map_or(0, |g| g.cases.len());
                    let case = self.run_case(index)?;
                    group.get_or_insert_with(default_group).cases.push(case);
                }
            }
        }
        groups.extend(group);
        Ok(())
    }

    fn expect_end(&mut self) -> Result<(), DataError> {
        // Structure and warning sections may still follow; anything else is an error.
        loop {
            if self.peek_byte().is_none() {
                return Ok(());
            }
            match self.peek_word() {
                Some("structure") => {
                    self.pos += "structure".len();
                    if self.peek_byte() != Some(b'{') {
                        self.take_word();
                    }
                    self.braced("a structure test")?;
                }
                Some("warning:") => {
                    self.pos += "warning:".len();
                    self.rest_of_line();
                }
                _ => return Err(self.error(self.pos, "unexpected text after a compile-error or property test")),
            }
        }
    }

    fn run_case(&mut self, index: usize) -> Result<RunCase, DataError> {
        let mut explicit_name = None;
        let mut tags = Vec::new();
        let mut kind = InputKind::Values;
        loop {
            if self.peek_byte() == Some(b'"') {
                let at = self.pos;
                if explicit_name.is_some() {
                    return Err(self.error(at, "a case has only one name"));
                }
                explicit_name = Some(self.string_literal()?);
                continue;
            }
            let Some(word) = self.peek_word().map(str::to_string) else {
                return Err(self.error(self.pos, "expected `input` to start a run case"));
            };
            match word.as_str() {
                "input" => break,
                // Like Futhark, `random` and `script` are run tags that may
                // stand anywhere among the others (`random compiled input`).
                "random" | "script" => {
                    self.pos += word.len();
                    kind = if word == "random" { InputKind::Random } else { InputKind::Script };
                }
                "output" | "auto" | "error:" | "entry:" | "structure" | "warning:" | "tags" => {
                    return Err(self.error(self.pos, format!("expected `input` before `{word}`")));
                }
                _ if is_tag(&word) => {
                    self.pos += word.len();
                    tags.push(word);
                }
                _ => return Err(self.error(self.pos, format!("expected `input`, found `{word}`"))),
            }
        }
        let input_at = self.pos;
        self.pos += "input".len();
        let source = self.values_source("input")?;
        let input = match (kind, source) {
            (InputKind::Values, ValuesSource::Inline(t)) => CaseInput::Values(t),
            (InputKind::Values, ValuesSource::File(p)) => CaseInput::File(p),
            (InputKind::Random, ValuesSource::Inline(t)) => CaseInput::Random(t),
            (InputKind::Random, ValuesSource::File(_)) => {
                return Err(self.error(input_at, "`random input` takes `{ types }`, not a file"))
            }
            (InputKind::Script, ValuesSource::Inline(t)) => CaseInput::Script(t),
            (InputKind::Script, ValuesSource::File(p)) => CaseInput::ScriptFile(p),
        };
        let expected = match self.peek_word() {
            Some("output") => {
                self.pos += "output".len();
                match self.values_source("output")? {
                    ValuesSource::Inline(t) => Expected::Values(t),
                    ValuesSource::File(p) => Expected::File(p),
                }
            }
            Some("auto") => {
                self.pos += "auto".len();
                self.expect_word("output")?;
                Expected::Auto
            }
            Some("error:") => {
                self.pos += "error:".len();
                Expected::RunError(self.rest_of_line())
            }
            _ => Expected::Success,
        };
        let name = explicit_name.unwrap_or_else(|| default_name(index, &input));
        Ok(RunCase { name, tags, input, expected, line: self.line_of(input_at) })
    }

    fn string_literal(&mut self) -> Result<String, DataError> {
        let open = self.pos;
        let mut out = Vec::new();
        let mut i = open + 1;
        while i < self.text.len() {
            match self.text[i] {
                b'"' => {
                    self.pos = i + 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                b'\\' if i + 1 < self.text.len() => {
                    out.push(self.text[i + 1]);
                    i += 2;
                }
                b'\n' => break,
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        Err(self.error(open, "unterminated dataset name"))
    }
}

#[derive(Clone, Copy)]
enum InputKind {
    Values,
    Random,
    Script,
}

enum ValuesSource {
    Inline(String),
    File(String),
}

fn default_group() -> EntryGroup {
    EntryGroup { entries: vec!["main".to_string()], cases: Vec::new() }
}

/// Run tags are identifier-like words (`compiled`, `no_opencl`, …).
fn is_tag(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Futhark's name for a dataset that was given none.
fn default_name(index: usize, input: &CaseInput) -> String {
    match input {
        CaseInput::File(path) | CaseInput::ScriptFile(path) => path.strip_suffix(".gz").unwrap_or(path).to_string(),
        CaseInput::Random(text) => collapse_whitespace(&strip_comments(text)),
        CaseInput::Values(text) | CaseInput::Script(text) => {
            let flat = collapse_whitespace(&strip_comments(text));
            let shown: String = flat.chars().take(50).collect();
            let ellipsis = if flat.chars().count() > 50 { "..." } else { "" };
            format!("#{index} (\"{shown}{ellipsis}\")")
        }
    }
}

fn strip_comments(text: &str) -> String {
    text.lines().map(|l| l.split_once("--").map_or(l, |(before, _)| before)).collect::<Vec<_>>().join("\n")
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn check_unique_names(groups: &[EntryGroup]) -> Result<(), DataError> {
    for group in groups {
        for (i, case) in group.cases.iter().enumerate() {
            if let Some(earlier) = group.cases[..i].iter().find(|c| c.name == case.name) {
                return Err(DataError {
                    position: Some(Position { offset: 0, line: case.line, column: 1 }),
                    message: format!(
                        "dataset name `{}` is used twice for entry {} (first on line {})",
                        case.name,
                        group.entries.join(" "),
                        earlier.line
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(source: &str) -> TestSpec {
        parse_test_spec(source).unwrap_or_else(|e| panic!("{e}")).expect("a test block")
    }

    fn groups(s: &TestSpec) -> &[EntryGroup] {
        match &s.action {
            TestAction::Run { groups, .. } => groups,
            other => panic!("not a run test: {other:?}"),
        }
    }

    #[test]
    fn simple_block() {
        let s = spec(
            "-- Adds one to every element.\n\
             -- Second line of description.\n\
             -- ==\n\
             -- input { [1, 2, 3] }\n\
             -- output { [2, 3, 4] }\n\
             \n\
             def main (xs: []i32) = map (+1) xs\n",
        );
        assert_eq!(s.description, "Adds one to every element.\nSecond line of description.");
        assert!(s.tags.is_empty());
        let g = groups(&s);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].entries, vec!["main"]);
        let c = &g[0].cases[0];
        assert_eq!(c.input, CaseInput::Values(" [1, 2, 3] ".into()));
        assert_eq!(c.expected, Expected::Values(" [2, 3, 4] ".into()));
        assert_eq!(c.name, "#0 (\"[1, 2, 3]\")");
        assert_eq!(c.line, 4);
        assert!(crate::parse_values(match &c.input {
            CaseInput::Values(t) => t,
            _ => unreachable!(),
        })
        .is_ok());
    }

    #[test]
    fn no_block_is_none() {
        assert_eq!(parse_test_spec("-- just a comment\ndef f = 1\n").unwrap(), None);
        assert_eq!(parse_test_spec("").unwrap(), None);
    }

    #[test]
    fn values_spanning_lines_tags_and_kinds() {
        let s = spec(
            "-- | Doc comment description.\n\
             -- ==\n\
             -- tags { autodiff no_opencl }\n\
             -- entry: fwd rev\n\
             -- compiled input {\n\
             --   [[1f32, 2f32],\n\
             --    [3f32, 4f32]]  -- a comment inside values\n\
             --   3i64\n\
             -- }\n\
             -- output { 10f32 }\n\
             -- \"big one\" nobench no_python input @ data/big.in.gz output @ data/big.out\n\
             -- random input { [100]f32 [100]f32 } auto output\n\
             -- script input { (256i64, $loaddata \"data/x.in\") }\n\
             -- input { 1i64 } error: Index \\[.*\\] out of bounds\n\
             -- notest input @ data/small.in\n",
        );
        assert_eq!(s.description, "Doc comment description.");
        assert_eq!(s.tags, vec!["autodiff", "no_opencl"]);
        let g = groups(&s);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].entries, vec!["fwd", "rev"]);
        let cases = &g[0].cases;
        assert_eq!(cases.len(), 6);

        assert_eq!(cases[0].tags, vec!["compiled"]);
        let CaseInput::Values(text) = &cases[0].input else { panic!() };
        let values = crate::parse_values(text).unwrap();
        assert_eq!(values.len(), 2);
        assert_eq!(values[0].shape(), &[2, 2]);
        assert_eq!(cases[0].name, "#0 (\"[[1f32, 2f32], [3f32, 4f32]] 3i64\")");
        assert_eq!(cases[0].line, 5);

        assert_eq!(cases[1].name, "big one");
        assert_eq!(cases[1].tags, vec!["nobench", "no_python"]);
        assert_eq!(cases[1].input, CaseInput::File("data/big.in.gz".into()));
        assert_eq!(cases[1].expected, Expected::File("data/big.out".into()));
        assert!(cases[1].excluded("python", false));
        assert!(cases[1].excluded("c", true));
        assert!(!cases[1].excluded("c", false));

        assert_eq!(cases[2].input, CaseInput::Random(" [100]f32 [100]f32 ".into()));
        assert_eq!(cases[2].name, "[100]f32 [100]f32");
        assert_eq!(cases[2].expected, Expected::Auto);

        assert_eq!(cases[3].input, CaseInput::Script(" (256i64, $loaddata \"data/x.in\") ".into()));
        assert_eq!(cases[3].expected, Expected::Success);

        assert_eq!(cases[4].expected, Expected::RunError("Index \\[.*\\] out of bounds".into()));
        assert_eq!(cases[4].name, "#4 (\"1i64\")");

        assert_eq!(cases[5].name, "data/small.in");
        assert_eq!(cases[5].expected, Expected::Success);
        assert!(cases[5].excluded("c", false));
    }

    #[test]
    fn several_blocks_and_entries() {
        let s = spec(
            "-- Two blocks.\n\
             -- ==\n\
             -- entry: sum\n\
             -- input { [1, 2] } output { 3 }\n\
             -- input { empty([0]i32) } output { 0 }\n\
             -- entry: prod\n\
             -- input { [1, 2] } output { 2 }\n\
             entry sum = i32.sum\n\
             entry prod = i32.product\n\
             \n\
             -- ==\n\
             -- entry: neg\n\
             -- input { 1 } output { -1 }\n\
             -- structure { Screma 1 }\n\
             -- warning: unused\n\
             entry neg (x: i32) = -x\n",
        );
        assert_eq!(s.description, "Two blocks.");
        let TestAction::Run { groups, warnings } = &s.action else { panic!() };
        assert_eq!(warnings, &vec!["unused".to_string()]);
        let entries: Vec<_> = groups.iter().map(|g| g.entries.join(" ")).collect();
        assert_eq!(entries, vec!["sum", "prod", "neg"]);
        assert_eq!(groups[0].cases.len(), 2);
        assert_eq!(groups[0].cases[1].name, "#1 (\"empty([0]i32)\")");
        assert_eq!(groups[1].cases[0].name, "#0 (\"[1, 2]\")");
        assert_eq!(groups[2].cases[0].expected, Expected::Values(" -1 ".into()));
        assert_eq!(groups[2].cases[0].line, 13);
    }

    #[test]
    fn compile_error_and_property_blocks() {
        let s = spec("-- ==\n-- error: Causality check\ndef main = 1\n");
        assert_eq!(s.action, TestAction::CompileError { regex: "Causality check".into(), line: 2 });
        let s = spec("-- ==\n-- tags { x }\n-- error:\n");
        assert_eq!(s.tags, vec!["x"]);
        assert_eq!(s.action, TestAction::CompileError { regex: "".into(), line: 3 });
        let s = spec("-- ==\n-- property: prop_a prop_b\n");
        assert_eq!(s.action, TestAction::Property { entries: vec!["prop_a".into(), "prop_b".into()] });
        let s = spec("-- ==\n-- structure gpu { SegMap 1 }\n");
        assert_eq!(groups(&s).len(), 0);
    }

    #[test]
    fn random_among_tags() {
        let s = spec(
            "-- ==\n-- random compiled input { [3]i32 } auto output\n-- nobench random input { i64 }\nentry f = 0\n",
        );
        let g = groups(&s);
        assert_eq!(g[0].cases[0].tags, vec!["compiled"]);
        assert!(matches!(&g[0].cases[0].input, CaseInput::Random(_)));
        assert_eq!(g[0].cases[1].tags, vec!["nobench"]);
        assert!(matches!(&g[0].cases[1].input, CaseInput::Random(_)));
    }

    #[test]
    fn benchmark_style_file() {
        let s = spec(
            "import \"lib\"\n\
             \n\
             -- ==\n\
             -- entry: step\n\
             --\n\
             -- compiled random input {22i64 1i64 [22528]u32}\n\
             -- compiled random input { [10][16][16]i32 } auto output\n\
             entry step = 0\n\
             \n\
             -- ==\n\
             -- entry: other\n\
             -- input { [2i32,0i32,2i32]\n\
             --         [1i32,2i32,3i32]\n\
             -- }\n\
             -- output {\n\
             --   [1i32,3i32,3i32]\n\
             -- }\n\
             -- structure { /Screma 1 /Screma/Screma 2 }\n",
        );
        assert_eq!(s.description, "");
        let g = groups(&s);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].cases[0].name, "22i64 1i64 [22528]u32");
        let CaseInput::Random(items) = &g[0].cases[0].input else { panic!() };
        let items = crate::parse_random_items(items).unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(g[0].cases[1].expected, Expected::Auto);
        assert_eq!(g[1].entries, vec!["other"]);
        let CaseInput::Values(text) = &g[1].cases[0].input else { panic!() };
        assert_eq!(crate::parse_values(text).unwrap().len(), 2);
        assert_eq!(g[1].cases[0].name, "#0 (\"[2i32,0i32,2i32] [1i32,2i32,3i32]\")");
        assert_eq!(g[1].cases[0].line, 12);
    }

    #[test]
    fn long_values_are_truncated_in_names() {
        let values: Vec<String> = (0..40).map(|i| i.to_string()).collect();
        let source = format!("-- ==\n-- input {{ [{}] }}\n", values.join(", "));
        let s = spec(&source);
        let name = &groups(&s)[0].cases[0].name;
        let flat = format!("[{}]", values.join(", "));
        assert_eq!(name, &format!("#0 (\"{}...\")", &flat[..50]));
    }

    #[test]
    fn errors_are_positioned_in_the_file() {
        let err = |s: &str| parse_test_spec(s).unwrap_err().to_string();
        assert_eq!(err("-- ==\n--   output { 1 }\n"), "line 2, column 6: expected `input` before `output`");
        assert_eq!(err("-- ==\n-- input { [1, 2\n-- output { 1 }\n"), "line 2, column 10: unclosed `{` in input");
        assert!(err("-- ==\n-- input 1\n").contains("expected `{ values }` or `@ file`"));
        assert!(err("-- ==\n-- input @\n").contains("expected a file name"));
        assert!(err("-- ==\n-- random input @ x.in\n").contains("not a file"));
        assert!(err("-- ==\n-- input { 1 } auto\n").contains("expected `output`"));
        assert!(err("-- ==\n-- \"a\" input { 1 }\n-- \"a\" input { 2 }\n").contains("dataset name `a` is used twice"));
        assert!(err("-- ==\n-- \"unterminated input { 1 }\n").contains("unterminated dataset name"));
        assert!(err("-- ==\n-- entry:\n").contains("at least one entry"));
        assert!(err("-- ==\n-- error: x\n-- input { 1 }\n").contains("unexpected text"));
        assert!(err("-- ==\n-- input { 1 }\n\n-- ==\n-- error: x\n").contains("only test block"));
        assert!(err("-- ==\n-- input { 1 } 17 \n").contains("expected `input`, found `17`"));
    }
}
