//! `glsl_wgsl!("kernel.comp")`: the WGSL translation of a GLSL compute kernel, made at compile
//! time by [`shoal_glsl::translate`], as a string literal with the translation's notes (the
//! bindings' GLSL names, the constants' lines: [`shoal_glsl::Translation::notes`]).
//! `shoal::glsl!` wraps it in a `shoal::Source` named after the GLSL file; use that, not this
//! crate.
//!
//! The path, a string literal (plain, with escapes, or raw), is relative to the file invoking the
//! macro, as with `include_str!`. A GLSL error is a compile error with the GLSL file and line.

use proc_macro::{Literal, Span, TokenStream, TokenTree};

mod hlsl;

/// The WGSL translation of one entry point of the HLSL compute kernel at the given path
/// (`hlsl_wgsl!("kernel.hlsl", "CS")`), as a `&'static str` with the translation's notes;
/// `shoal::hlsl!` wraps it.
#[proc_macro]
pub fn hlsl_wgsl(input: TokenStream) -> TokenStream {
    hlsl::expand(input)
}

/// The WGSL translation of the GLSL compute kernel at the given path, as a `&'static str` with
/// the translation's notes, followed by translation options, each `key = "value"`: `include = "dir"` (a directory
/// `#include` searches, relative to the invoking file), `constant = "NAME=4"` (a `constant_id`
/// constant's value where it is fixed at translation) and `format = "image=rgba8"` (the format of
/// a storage image declared without one).
#[proc_macro]
pub fn glsl_wgsl(input: TokenStream) -> TokenStream {
    let tokens = flatten(input);
    let Some(TokenTree::Literal(literal)) = tokens.first().cloned() else {
        return error(
            Span::call_site(),
            "expected one string literal: glsl!(\"kernel.comp\")",
        );
    };
    let span = literal.span();
    let Some(path) = string_value(&literal.to_string()) else {
        return error(
            span,
            "expected a string literal (plain or raw): glsl!(\"kernel.comp\")",
        );
    };
    let path = path.as_str();
    let base = match base_of(span, "glsl!") {
        Ok(base) => base,
        Err(e) => return e,
    };
    let mut options = match parse_options(&tokens[1..], &base) {
        Ok(options) => options,
        Err((span, message)) => return error(span, &message),
    };
    let file = base.join(path);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => return error(span, &format!("glsl!: cannot read {}: {e}", file.display())),
    };
    // `include_bytes!` resolves a relative path against the invoking file: give it an absolute one.
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    options.directory = file.parent().map(std::path::Path::to_path_buf);
    let label = path.trim_start_matches("./").trim_start_matches("../");
    let label = label.rsplit("../").next().unwrap_or(label);
    match shoal_glsl::translate(label, &text, &options) {
        // `include_bytes!` makes Cargo rebuild when the GLSL file or a file it includes changes.
        Ok(translation) => {
            let mut watched = String::new();
            for f in std::iter::once(file).chain(translation.included.iter().cloned()) {
                let f = std::fs::canonicalize(&f).unwrap_or(f);
                watched.push_str(&format!(
                    "const _: &[u8] = include_bytes!({}); ",
                    Literal::string(&f.display().to_string())
                ));
            }
            format!("{{ {watched}{} }}", expansion(&translation))
                .parse()
                .unwrap_or_else(|_| {
                    error(span, "glsl!: internal error: the expansion did not parse")
                })
        }
        Err(e) => error(span, &e.to_string()),
    }
}

/// `(wgsl, notes)`: the WGSL as a string literal and [`shoal_glsl::Translation::notes`] as a
/// `&'static [(&str, &str, &str)]`, what `shoal::glsl!` and `shoal::hlsl!` make a `Source` of.
fn expansion(translation: &shoal_glsl::Translation) -> String {
    let notes: Vec<String> = translation
        .notes()
        .iter()
        .map(|(kind, name, value)| {
            format!(
                "({}, {}, {})",
                Literal::string(kind),
                Literal::string(name),
                Literal::string(value)
            )
        })
        .collect();
    format!(
        "({}, &[{}])",
        Literal::string(&translation.wgsl),
        notes.join(", ")
    )
}

/// The folder of the file that invokes `macro_name` at `span`, which its path is relative to.
fn base_of(span: Span, macro_name: &str) -> Result<std::path::PathBuf, TokenStream> {
    span.local_file()
        .and_then(|f| f.parent().map(|p| p.to_path_buf()))
        .ok_or_else(|| {
            error(
                span,
                &format!("{macro_name}: the invoking file is not on disk, so the path has no base"),
            )
        })
}

/// The tokens of `input` with invisible groups (what `$x:literal` arrives in) opened.
fn flatten(input: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for token in input {
        match token {
            TokenTree::Group(group) if group.delimiter() == proc_macro::Delimiter::None => {
                out.extend(flatten(group.stream()));
            }
            other => out.push(other),
        }
    }
    out
}

/// The translation options after the path: `, key = "value"` repeated (a trailing comma allowed).
fn parse_options(
    tokens: &[TokenTree],
    base: &std::path::Path,
) -> Result<shoal_glsl::Options, (Span, String)> {
    const USAGE: &str = "glsl!: options are `include = \"dir\"`, `constant = \"NAME=4\"` and \
                         `format = \"image=rgba8\"`, after the path and a comma";
    let mut options = shoal_glsl::Options::new();
    let mut rest = tokens;
    loop {
        match rest {
            [] => return Ok(options),
            [TokenTree::Punct(comma)] if comma.as_char() == ',' => return Ok(options),
            [
                TokenTree::Punct(comma),
                TokenTree::Ident(key),
                TokenTree::Punct(eq),
                TokenTree::Literal(value),
                tail @ ..,
            ] if comma.as_char() == ',' && eq.as_char() == '=' => {
                let span = value.span();
                let Some(value) = string_value(&value.to_string()) else {
                    return Err((span, USAGE.to_string()));
                };
                let pair = || {
                    value
                        .split_once('=')
                        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                        .ok_or_else(|| (span, USAGE.to_string()))
                };
                match key.to_string().as_str() {
                    "include" => options = options.include_dir(base.join(&value)),
                    "constant" => {
                        let (name, v) = pair()?;
                        let v = v.parse::<i64>().map_err(|_| {
                            (
                                span,
                                format!("glsl!: `{value}`: the value is not an integer"),
                            )
                        })?;
                        options = options.constant(name, v);
                    }
                    "format" => {
                        let (name, format) = pair()?;
                        options = options.image_format(name, format);
                    }
                    _ => return Err((key.span(), USAGE.to_string())),
                }
                rest = tail;
            }
            [other, ..] => return Err((other.span(), USAGE.to_string())),
        }
    }
}

/// The value of the string literal written `written` (`"a\\b.comp"`, `r"a\b.comp"`,
/// `r#"…"#`), or `None` for another literal (a byte or C string, a number, a suffix).
fn string_value(written: &str) -> Option<String> {
    if let Some(raw) = written.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let fence = "#".repeat(hashes);
        return raw
            .strip_prefix(&format!("{fence}\""))
            .and_then(|r| r.strip_suffix(&format!("\"{fence}")))
            .map(str::to_string);
    }
    let body = written.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(
                    u8::from_str_radix(&hex, 16).ok().filter(|b| b.is_ascii())?,
                ));
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = hex.replace('_', "");
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            // A line continuation: the newline and the whitespace after it are skipped (as
            // rustc: ' ', '\t', '\n' and '\r' only).
            '\n' | '\r' => {
                while chars
                    .next_if(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
                    .is_some()
                {}
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `compile_error!(message)` at `span`.
fn error(span: Span, message: &str) -> TokenStream {
    let mut lit = Literal::string(message);
    lit.set_span(span);
    format!("compile_error!({lit})")
        .parse::<TokenStream>()
        .map(|ts| {
            ts.into_iter()
                .map(|mut t| {
                    t.set_span(span);
                    t
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::string_value;

    #[test]
    fn string_literals_are_unescaped() {
        for (written, value) in [
            (r#""kernels/a.comp""#, Some("kernels/a.comp")),
            (r#""dir\\a.comp""#, Some("dir\\a.comp")),
            (r#""a\"b\x41\u{42}\t.comp""#, Some("a\"bAB\t.comp")),
            ("\"a\\\n    b.comp\"", Some("ab.comp")),
            // Only ' ', '\t', '\n' and '\r' after a continuation, as rustc: not U+00A0.
            ("\"a\\\n \t\u{a0}b.comp\"", Some("a\u{a0}b.comp")),
            (r#"r"dir\a.comp""#, Some("dir\\a.comp")),
            (r###"r#"say "hi".comp"#"###, Some("say \"hi\".comp")),
            (r#"b"a.comp""#, None),
            (r#"c"a.comp""#, None),
            (r#""a.comp"suffix"#, None),
            ("42", None),
            (r#""bad\q""#, None),
        ] {
            assert_eq!(string_value(written).as_deref(), value, "{written}");
        }
    }
}
