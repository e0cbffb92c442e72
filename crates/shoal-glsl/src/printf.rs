//! `debugPrintfEXT` onto Shoal's GPU printf (`#import shoal::printf`, records read with
//! `Kernel::printed`). naga cannot read the SPIR-V debug-printf instruction set, so the calls are
//! rewritten on the text: `debugPrintfEXT("x = %u, y = %f", x, y);` records each argument, in
//! order, with the invocation's global id, through overloads of `shoal_print` declared on the line
//! of the first declaration; they call one empty stub per type, whose WGSL body then calls the
//! printf snippet's function for that type. The format string is not kept: the records
//! hold the values, their types and the invocation.

use crate::lex::{Edits, closing, tokens};

/// The prefix of the stubs the rewrite declares, one per type.
const STUB: &str = "shoal_glsl_print_";

/// The printf snippet's functions, by the GLSL type they record.
const KINDS: &[(&str, &str)] = &[
    ("uint", "u32"),
    ("int", "i32"),
    ("float", "f32"),
    ("uvec2", "vec2u"),
    ("uvec3", "vec3u"),
    ("uvec4", "vec4u"),
    ("ivec2", "vec2i"),
    ("ivec3", "vec3i"),
    ("ivec4", "vec4i"),
    ("vec2", "vec2f"),
    ("vec3", "vec3f"),
    ("vec4", "vec4f"),
];

/// `text` with its `debugPrintfEXT` calls rewritten, and whether there were any.
pub(crate) fn rewrite(text: &str) -> (String, bool) {
    if !text.contains("debugPrintfEXT") {
        return (text.to_string(), false);
    }
    let toks = tokens(text);
    let mut edits = Edits::default();
    let mut found = false;
    for (i, t) in toks.iter().enumerate() {
        if t.text != "debugPrintfEXT" || toks.get(i + 1).is_none_or(|n| n.text != "(") {
            continue;
        }
        let Some(close) = closing(&toks, i + 1) else {
            continue;
        };
        // The arguments after the format string, split at the top-level commas.
        let mut args: Vec<&str> = Vec::new();
        let (mut depth, mut start) = (0usize, None::<usize>);
        for (j, a) in toks.iter().enumerate().take(close).skip(i + 2) {
            match a.text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "," if depth == 0 => {
                    if let Some(s) = start {
                        args.push(&text[toks[s].at.start..toks[j - 1].at.end]);
                    }
                    start = Some(j + 1);
                    continue;
                }
                _ => {}
            }
        }
        if let Some(s) = start.filter(|&s| s < close) {
            args.push(&text[toks[s].at.start..toks[close - 1].at.end]);
        }
        let calls: String = args.iter().map(|a| format!("shoal_print({a}); ")).collect();
        let body = format!("{{ {calls}}}").replace('\n', " ");
        edits.replace(t.at.start..toks[close].at.end, body);
        found = true;
    }
    // The extension directive goes (nothing needs it now); the overloads go before the first
    // declaration, on its line.
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        if directive
            .is_some_and(|d| d.starts_with("extension") && d.contains("GL_EXT_debug_printf"))
        {
            edits.blank(text, line_start..line_start + line.trim_end().len());
        }
        line_start += line.len();
    }
    if let (true, Some(first)) = (found, toks.first()) {
        let mut helpers = String::new();
        for (glsl, kind) in KINDS {
            helpers.push_str(&format!("void {STUB}{kind}(uvec3 g, {glsl} v) {{}} "));
        }
        for (glsl, kind) in KINDS {
            helpers.push_str(&format!(
                "void shoal_print({glsl} v) {{ {STUB}{kind}(gl_GlobalInvocationID, v); }} "
            ));
        }
        edits.insert(first.at.start, helpers);
    }
    (edits.apply(text), found)
}

/// `wgsl` (translated from a kernel [`rewrite`] changed) with each stub's body calling the
/// snippet's function of its type, and the snippet imported.
pub(crate) fn import(mut wgsl: String) -> String {
    for (_, kind) in KINDS {
        // naga names the stub after glslang's mangled name (`…_u0028_vu3_u003b…`), its
        // parameters pointers or values as glslang passed them.
        let Some(at) = wgsl.find(&format!("fn {STUB}{kind}")) else {
            continue;
        };
        let open = wgsl[at..].find('(').map(|o| at + o);
        let close = wgsl[at..].find(')').map(|c| at + c);
        let brace = close.and_then(|c| wgsl[c..].find('{').map(|b| c + b));
        let end = brace.and_then(|b| wgsl[b..].find("\n}\n").map(|e| b + e + 3));
        let (Some(open), Some(close), Some(brace), Some(end)) = (open, close, brace, end) else {
            continue;
        };
        // `name: type` per parameter; a pointer type's own comma (`ptr<function, u32>`) splits
        // it in two, and the second half, without a `:`, is skipped.
        let args: Vec<String> = wgsl[open + 1..close]
            .split(',')
            .filter_map(|p| {
                let (name, ty) = p.split_once(':')?;
                let deref = if ty.trim_start().starts_with("ptr<") {
                    "*"
                } else {
                    ""
                };
                Some(format!("{deref}{}", name.trim()))
            })
            .collect();
        let definition = format!(
            "{} {{\n    shoal_print_{kind}({});\n    return;\n}}\n",
            wgsl[at..brace].trim_end(),
            args.join(", ")
        );
        wgsl.replace_range(at..end, &definition);
    }
    wgsl.push_str("\n#import shoal::printf\n");
    wgsl
}
