//! Rewrites of the HLSL text before glslang, each keeping every line where it was (messages name
//! the user's lines): HLSL 2021's `select(c, a, b)`, which glslang does not know, becomes
//! `((c) ? (a) : (b))` (glslang's `?:` selects per component, as `select` does); append and
//! consume buffers become `RWStructuredBuffer`s with a counter and functions doing what Shoal's
//! append buffers do (see [`rewrite_append`]).

use super::refused::closing_paren;

/// The rewritten text and the append and consume buffers found.
pub(crate) struct Rewritten {
    /// The text for glslang.
    pub(crate) text: String,
    /// The append and consume buffers.
    pub(crate) append: Vec<AppendBuffer>,
}

/// An `AppendStructuredBuffer` or `ConsumeStructuredBuffer` declared in the kernel.
pub(crate) struct AppendBuffer {
    /// Its HLSL name.
    pub(crate) name: String,
    /// Its counter's binding in glslang's output, `shoal_header_NAME`.
    pub(crate) header: String,
    /// The functions the text calls for `Append` and `Consume`.
    pub(crate) append_fn: String,
    /// See `append_fn`.
    pub(crate) consume_fn: String,
}

/// The text with `select` and the append and consume buffers rewritten.
/// Comments are blanked first (line by line, so lines keep their numbers): a word in a comment
/// is rewritten nowhere.
pub(crate) fn rewrite(text: &str) -> Rewritten {
    let mut text = crate::unsupported::code_lines(text).join("\n");
    text.push('\n');
    let text = rewrite_select(&text);
    let text = rewrite_push_constant(&text);
    let text = rewrite_byte_dimensions(&text);
    let (text, append) = rewrite_append(&text);
    Rewritten { text, append }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The start offsets of `word` as a whole identifier in `text`.
fn words(text: &str, word: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        if text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_ident(c) && c != '.')
            && text[end..].chars().next().is_none_or(|c| !is_ident(c))
        {
            out.push(start);
        }
        from = end;
    }
    out
}

/// `select(c, a, b)` → `((c) ? (a) : (b))`, innermost calls included (the arguments are
/// rewritten first).
fn rewrite_select(text: &str) -> String {
    let mut text = text.to_string();
    // From the last call back, so an inner call is rewritten before the one holding it.
    for start in words(&text, "select").into_iter().rev() {
        let after = start + "select".len();
        let open = after + (text[after..].len() - text[after..].trim_start().len());
        if !text[open..].starts_with('(') {
            continue;
        }
        let Some(close) = closing_paren(&text[open..]) else {
            continue;
        };
        let args = split_args(&text[open + 1..open + close]);
        let [c, a, b] = args.as_slice() else {
            continue;
        };
        let replaced = format!("(({c}) ? ({a}) : ({b}))");
        text.replace_range(start..open + close + 1, &replaced);
    }
    text
}

/// The top-level comma-separated arguments of a call's parenthesis contents.
fn split_args(inside: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in inside.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inside[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inside[from..]);
    out
}

/// `b.GetDimensions(n)` on a `(RW)ByteAddressBuffer` → a function giving `n` in bytes, as HLSL
/// defines it: glslang gives the count of 32-bit words.
fn rewrite_byte_dimensions(text: &str) -> String {
    let mut text = text.to_string();
    let mut names = Vec::new();
    for kind in ["ByteAddressBuffer", "RWByteAddressBuffer"] {
        for start in words(&text, kind) {
            let rest = &text[start + kind.len()..];
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|&c| is_ident(c))
                .collect();
            let Some(semi) = rest.find(';') else { continue };
            if !name.is_empty() {
                names.push((name, start + kind.len() + semi + 1));
            }
        }
    }
    // The functions first, from the last declaration back so the offsets before it stay; their
    // own call is spelt apart until the uses are replaced.
    names.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
    const OWN: &str = "SHOAL_GET_DIMENSIONS";
    for (name, after) in &names {
        text.insert_str(
            *after,
            &format!(
                " void shoal_byte_dimensions_{name}(out uint shoal_bytes) \
                 {{ {name}.{OWN}(shoal_bytes); shoal_bytes *= 4; }}"
            ),
        );
    }
    for (name, _) in &names {
        let function = format!("shoal_byte_dimensions_{name}");
        for start in words(&text, name).into_iter().rev() {
            let rest = &text[start + name.len()..];
            let Some(call) = rest.trim_start().strip_prefix('.') else {
                continue;
            };
            let Some(open) = call.trim_start().strip_prefix("GetDimensions") else {
                continue;
            };
            if !open.trim_start().starts_with('(') {
                continue;
            }
            let open = text.len() - open.trim_start().len();
            text.replace_range(start..open, &function);
        }
    }
    text.replace(OWN, "GetDimensions")
}

/// `[[vk::push_constant]] T name;` → `[[vk::push_constant]] ConstantBuffer<T> name;`: glslang
/// makes the first, a plain struct variable, a member of the `$Globals` uniform block, and the
/// second the push-constant block the attribute asks for (a `var<immediate>` in WGSL).
fn rewrite_push_constant(text: &str) -> String {
    let mut text = text.to_string();
    for at in words(&text, "push_constant").into_iter().rev() {
        let Some(close) = text[at..].find("]]") else {
            continue;
        };
        let start = at + close + 2;
        let rest = &text[start..];
        let skipped = rest.len() - rest.trim_start().len();
        let ty: String = rest
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        if ty.is_empty() || ty == "cbuffer" || ty == "ConstantBuffer" {
            continue;
        }
        let ty_start = start + skipped;
        text.replace_range(
            ty_start..ty_start + ty.len(),
            &format!("ConstantBuffer<{ty}>"),
        );
    }
    text
}

/// `AppendStructuredBuffer<T> name …;` → `RWStructuredBuffer<T> name …;` followed on the same
/// line by its counter binding (`RWStructuredBuffer<int> shoal_header_name`, which
/// [`append::finish`](super::append::finish) makes the header of `name`'s own binding) and the
/// functions appending and consuming, and `name.Append(x)` / `name.Consume()` → calls of them.
/// glslang's legalization inlines the functions; what they do survives in the WGSL.
fn rewrite_append(text: &str) -> (String, Vec<AppendBuffer>) {
    let mut text = text.to_string();
    let mut found: Vec<AppendBuffer> = Vec::new();
    for kind in ["AppendStructuredBuffer", "ConsumeStructuredBuffer"] {
        while let Some(&start) = words(&text, kind).first() {
            let end = start + kind.len();
            let rest = &text[end..];
            let (Some(lt), Some(gt)) = (rest.find('<'), rest.find('>')) else {
                break;
            };
            let item = rest[lt + 1..gt].trim().to_string();
            let after = &rest[gt + 1..];
            let name: String = after
                .trim_start()
                .chars()
                .take_while(|&c| is_ident(c))
                .collect();
            let Some(semi) = after.find(';') else { break };
            let semi = end + gt + 1 + semi;
            let header = format!("shoal_header_{name}");
            let binding = HEADER_BINDING + found.len() as u32;
            // The slot counts: capacity from the header's second word, within the binding.
            let capacity = format!(
                "int shoal_capacity; InterlockedAdd({header}[1], 0, shoal_capacity); \
                 uint shoal_length, shoal_stride; {name}.GetDimensions(shoal_length, shoal_stride);"
            );
            let helpers = format!(
                " [[vk::binding({binding}, 0)]] RWStructuredBuffer<int> {header}; \
                 void shoal_append_{name}({item} shoal_value) {{ int shoal_slot; \
                 InterlockedAdd({header}[0], 1, shoal_slot); {capacity} \
                 if (shoal_slot >= 0 && (uint)shoal_slot < min((uint)shoal_capacity, shoal_length)) \
                 {{ {name}[shoal_slot] = shoal_value; }} }} \
                 {item} shoal_consume_{name}() {{ {item} shoal_item = ({item})0; int shoal_before; \
                 InterlockedAdd({header}[0], -1, shoal_before); if (shoal_before <= 0) \
                 {{ int shoal_back; InterlockedAdd({header}[0], 1, shoal_back); }} else {{ {capacity} \
                 uint shoal_slot = (uint)(shoal_before - 1); \
                 if (shoal_slot < min((uint)shoal_capacity, shoal_length)) \
                 {{ shoal_item = {name}[shoal_slot]; }} }} return shoal_item; }}"
            );
            text.insert_str(semi + 1, &helpers);
            text.replace_range(start..end, "RWStructuredBuffer");
            found.push(AppendBuffer {
                append_fn: format!("shoal_append_{name}"),
                consume_fn: format!("shoal_consume_{name}"),
                header,
                name,
            });
        }
    }
    for buffer in &found {
        for (method, function) in [
            ("Append", &buffer.append_fn),
            ("Consume", &buffer.consume_fn),
        ] {
            for start in words(&text, &buffer.name).into_iter().rev() {
                let rest = &text[start + buffer.name.len()..];
                let Some(call) = rest.trim_start().strip_prefix('.') else {
                    continue;
                };
                let Some(open) = call.trim_start().strip_prefix(method) else {
                    continue;
                };
                if !open.trim_start().starts_with('(') {
                    continue;
                }
                let open = text.len() - open.trim_start().len();
                text.replace_range(start..open, function);
            }
        }
    }
    (text, found)
}

/// The binding number of the first append buffer's counter in glslang's output (the counter
/// becomes the header of the buffer's own binding, so the number never reaches WebGPU).
const HEADER_BINDING: u32 = 990;
