//! `hlsl_wgsl!("kernel.hlsl", "CS")`: the WGSL translation of one entry point of an HLSL compute
//! kernel, made at compile time by [`shoal_glsl::hlsl::translate`], as a string literal
//! with the translation's notes.

use proc_macro::{Literal, Span, TokenStream, TokenTree};

use crate::{base_of, error, expansion, flatten, string_value};

/// The expansion of `hlsl_wgsl!(path, entry)`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    const USAGE: &str = "expected two string literals: hlsl!(\"kernel.hlsl\", \"CS\")";
    let tokens = flatten(input);
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
    let base = match base_of(span, "hlsl!") {
        Ok(base) => base,
        Err(e) => return e,
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
    match shoal_glsl::hlsl::translate(label, &text, &entry_value) {
        // `include_bytes!` makes Cargo rebuild when the HLSL file changes.
        Ok(translation) => format!(
            "{{ const _: &[u8] = include_bytes!({}); {} }}",
            Literal::string(&file.display().to_string()),
            expansion(&translation)
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
