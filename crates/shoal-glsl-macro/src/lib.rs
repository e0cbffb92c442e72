//! `glsl_wgsl!("kernel.comp")`: the WGSL translation of a GLSL compute kernel, made at compile
//! time by [`shoal_glsl::to_wgsl`], as a string literal. `shoal::glsl!` wraps it in a
//! `shoal::Source` named after the GLSL file; use that, not this crate.
//!
//! The path is relative to the file invoking the macro, as with `include_str!`. A GLSL error is a
//! compile error with the GLSL file and line.

use proc_macro::{Literal, Span, TokenStream, TokenTree};

/// The WGSL translation of the GLSL compute kernel at the given path, as a `&'static str`.
#[proc_macro]
pub fn glsl_wgsl(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let mut first = tokens.next();
    // Through `shoal::glsl!`, `$path:literal` arrives wrapped in an invisible group.
    while let Some(TokenTree::Group(group)) = &first
        && group.delimiter() == proc_macro::Delimiter::None
    {
        let mut inner = group.stream().into_iter();
        first = inner.next();
        if inner.next().is_some() {
            first = None;
        }
    }
    let (Some(TokenTree::Literal(literal)), None) = (first, tokens.next()) else {
        return error(
            Span::call_site(),
            "expected one string literal: glsl!(\"kernel.comp\")",
        );
    };
    let span = literal.span();
    let written = literal.to_string();
    let Some(path) = written.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return error(
            span,
            "expected a plain string literal: glsl!(\"kernel.comp\")",
        );
    };
    let Some(base) = span
        .local_file()
        .and_then(|f| f.parent().map(|p| p.to_path_buf()))
    else {
        return error(
            span,
            "glsl!: the invoking file is not on disk, so the path has no base",
        );
    };
    let file = base.join(path);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => return error(span, &format!("glsl!: cannot read {}: {e}", file.display())),
    };
    // `include_bytes!` resolves a relative path against the invoking file: give it an absolute one.
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    let label = path.trim_start_matches("./").trim_start_matches("../");
    let label = label.rsplit("../").next().unwrap_or(label);
    match shoal_glsl::to_wgsl(label, &text) {
        // `include_bytes!` makes Cargo rebuild when the GLSL file changes.
        Ok(wgsl) => format!(
            "{{ const _: &[u8] = include_bytes!({}); {} }}",
            Literal::string(&file.display().to_string()),
            Literal::string(&wgsl)
        )
        .parse()
        .unwrap_or_else(|_| error(span, "glsl!: internal error: the expansion did not parse")),
        Err(e) => error(span, &e.to_string()),
    }
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
