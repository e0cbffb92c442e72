//! `hlsl_wgsl!("kernel.hlsl", "CS")`: the WGSL translation of one entry point of an HLSL compute
//! kernel, made at compile time by [`shoal_glsl::hlsl::to_wgsl`], as a string literal.

use proc_macro::{Delimiter, Literal, Span, TokenStream, TokenTree};

use crate::{error, string_value};

/// The tokens without the invisible groups `$x:literal` arrives in through `macro_rules!`.
fn unwrap_groups(input: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for token in input {
        match token {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(unwrap_groups(g.stream()));
            }
            other => out.push(other),
        }
    }
    out
}

/// The expansion of `hlsl_wgsl!(path, entry)`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    const USAGE: &str = "expected two string literals: hlsl!(\"kernel.hlsl\", \"CS\")";
    let tokens = unwrap_groups(input);
    let (path, entry) = match tokens.as_slice() {
        [
            TokenTree::Literal(p),
            TokenTree::Punct(c),
            TokenTree::Literal(e),
        ]
        | [
            TokenTree::Literal(p),
            TokenTree::Punct(c),
            TokenTree::Literal(e),
            TokenTree::Punct(_),
        ] if c.as_char() == ',' => (p.clone(), e.clone()),
        _ => return error(Span::call_site(), USAGE),
    };
    let span = path.span();
    let (Some(path_value), Some(entry_value)) = (
        string_value(&path.to_string()),
        string_value(&entry.to_string()),
    ) else {
        return error(span, USAGE);
    };
    let Some(base) = span
        .local_file()
        .and_then(|f| f.parent().map(|p| p.to_path_buf()))
    else {
        return error(
            span,
            "hlsl!: the invoking file is not on disk, so the path has no base",
        );
    };
    let file = base.join(&path_value);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => return error(span, &format!("hlsl!: cannot read {}: {e}", file.display())),
    };
    // `include_bytes!` resolves a relative path against the invoking file: give it an absolute one.
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    let label = path_value
        .trim_start_matches("./")
        .trim_start_matches("../");
    let label = label.rsplit("../").next().unwrap_or(label);
    match shoal_glsl::hlsl::to_wgsl(label, &text, &entry_value) {
        // `include_bytes!` makes Cargo rebuild when the HLSL file changes.
        Ok(wgsl) => format!(
            "{{ const _: &[u8] = include_bytes!({}); {} }}",
            Literal::string(&file.display().to_string()),
            Literal::string(&wgsl)
        )
        .parse()
        .unwrap_or_else(|_| error(span, "hlsl!: internal error: the expansion did not parse")),
        Err(shoal_glsl::Error::Unsupported {
            construct,
            wgsl,
            location,
        }) => error(
            span,
            &format!("{location}: {construct} is refused in HLSL; instead: {wgsl}"),
        ),
        Err(e) => error(span, &e.to_string()),
    }
}
