//! A GLSL token scanner for the text rewrites: identifiers, numbers and punctuation with their
//! byte ranges in the text, comments and preprocessor lines skipped. The rewrites edit the text
//! by these ranges and never add or remove a line break, so every line keeps its number.

use std::ops::Range;

/// One token: its text and where it is.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub(crate) text: String,
    pub(crate) at: Range<usize>,
}

impl Token {
    /// Whether the token is an identifier or keyword.
    pub(crate) fn is_ident(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    }
}

/// `text` with comments replaced by spaces (line breaks kept), so byte offsets stay the text's.
pub(crate) fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                out[i] = b' ';
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                if bytes[i] != b'\n' {
                    out[i] = b' ';
                }
                i += 1;
            }
            for b in out.iter_mut().skip(i).take(2) {
                *b = b' ';
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, whole comments at a time: still UTF-8,
    // except where a comment's multi-byte character was cut, which `from_utf8_lossy` keeps
    // at the same length only for ASCII; replace non-ASCII bytes by spaces as well.
    for b in &mut out {
        if !b.is_ascii() {
            *b = b' ';
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The tokens of `text` outside comments and preprocessor lines (`#version`, `#extension`, …).
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let code = blank_comments(text);
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in code.split_inclusive('\n') {
        let base = line_start;
        line_start += line.len();
        if line.trim_start().starts_with('#') {
            continue;
        }
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let start = i;
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            } else if c == b'"' {
                // A string (debugPrintfEXT's format): one token.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
            } else if c.is_ascii_alphabetic() || c == b'_' {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
            } else if c.is_ascii_digit()
                || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
            } else {
                i += 1;
            }
            out.push(Token {
                text: line[start..i].to_string(),
                at: base + start..base + i,
            });
        }
    }
    out
}

/// The number after `word =` in `tokens` (a layout qualifier's `set` or `binding`).
pub(crate) fn qualifier(tokens: &[Token], word: &str) -> Option<u32> {
    tokens
        .windows(3)
        .find(|w| w[0].text == word && w[1].text == "=")
        .and_then(|w| w[2].text.parse().ok())
}

/// The binding number after every `binding = N` in `tokens` (0 if none): one no declaration uses.
pub(crate) fn next_binding(tokens: &[Token]) -> u32 {
    tokens
        .windows(3)
        .filter(|w| w[0].text == "binding" && w[1].text == "=")
        .filter_map(|w| w[2].text.parse::<u32>().ok())
        .max()
        .map_or(0, |b| b + 1)
}

/// The 1-based line of byte offset `at` in `text`.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The index of the token closing the bracket opened at `open` (`(`, `[` or `{`).
pub(crate) fn closing(tokens: &[Token], open: usize) -> Option<usize> {
    let (o, c) = match tokens[open].text.as_str() {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        "{" => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        if t.text == o {
            depth += 1;
        } else if t.text == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Where a walk over the tokens is: the depth of braces, and the first token of the statement
/// at the top level (outside braces) that the walk is in.
#[derive(Default)]
pub(crate) struct Walk {
    /// Braces open.
    pub(crate) braces: usize,
    /// The index of the current top-level statement's first token.
    pub(crate) statement: usize,
}

impl Walk {
    /// Takes the token at index `i` into account (before the walk looks at it).
    pub(crate) fn step(&mut self, token: &Token, i: usize) {
        match token.text.as_str() {
            "{" => self.braces += 1,
            "}" => self.braces = self.braces.saturating_sub(1),
            _ => {}
        }
        if self.braces == 0 && (token.text == ";" || token.text == "}") {
            self.statement = i + 1;
        }
    }
}

/// Text edits by byte range, applied together (ranges must not overlap).
#[derive(Default)]
pub(crate) struct Edits(Vec<(Range<usize>, String)>);

impl Edits {
    /// Replaces `at` by `with`.
    pub(crate) fn replace(&mut self, at: Range<usize>, with: impl Into<String>) {
        self.0.push((at, with.into()));
    }

    /// Inserts `with` at byte offset `at`.
    pub(crate) fn insert(&mut self, at: usize, with: impl Into<String>) {
        self.0.push((at..at, with.into()));
    }

    /// Replaces `at` by spaces, keeping its line breaks.
    pub(crate) fn blank(&mut self, text: &str, at: Range<usize>) {
        let spaces: String = text[at.clone()]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        self.0.push((at, spaces));
    }

    /// Whether there is no edit.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with the edits made.
    pub(crate) fn apply(mut self, text: &str) -> String {
        self.0.sort_by_key(|(r, _)| (r.start, r.end));
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        for (range, with) in self.0 {
            if range.start < from {
                continue;
            }
            out.push_str(&text[from..range.start]);
            out.push_str(&with);
            from = range.end;
        }
        out.push_str(&text[from..]);
        out
    }
}
