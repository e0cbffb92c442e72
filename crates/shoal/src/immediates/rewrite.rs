//! Where the device does not take a kernel's immediate data as such (the browser, a device
//! without `IMMEDIATES`, a block larger than `max_immediate_size`), the kernel's WGSL is
//! rewritten to read the block from a binding Shoal owns: `var<immediate> p: P;` becomes
//! `@group(g) @binding(b) var<uniform> p: P;`, or `var<storage, read>` where `P` is not a valid
//! uniform layout (an `array<f32, 8>`, whose stride a uniform would need to be 16). The group is
//! the highest the entry point binds (0 where it binds nothing), so no bind group is added; the
//! binding number is one past every binding the module declares in that group.

use std::ops::Range;

use super::Owned;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::reflect::{self, ImmediateInfo, ReflectError, Reflection, Resolved};
use crate::source::Composed;

/// A kernel as it is built on one device: its source, reflection and resolved module, and the
/// binding Shoal owns for its immediate data where it has one.
pub(crate) type Planned = (Composed, Reflection, Resolved, Option<Owned>);

/// `composed` (reflected as `reflection` and `resolved`) as kernel `kernel` is built on `gpu`:
/// unchanged where it has no immediate data or the device takes the block, rewritten (and
/// reflected again) otherwise.
pub(crate) fn plan(
    gpu: &Gpu,
    kernel: &str,
    composed: Composed,
    constants: &[(String, f64)],
    (reflection, resolved): (Reflection, Resolved),
) -> Result<Planned> {
    let Some(info) = reflection.immediates.clone() else {
        return Ok((composed, reflection, resolved, None));
    };
    if info.size() <= gpu.max_immediate_size() {
        return Ok((composed, reflection, resolved, None));
    }
    let Some(declared) = declaration(&composed.text, &info.name) else {
        // naga parsed it from this text, so it is there; a form this scan misses is refused.
        return Err(crate::Error::InvalidParameter {
            kernel: kernel.to_string(),
            parameter: info.declaration(),
            value: "immediate data".into(),
            rule: format!(
                "this device takes at most {} bytes of immediate data and Shoal could not find \
                 the declaration to read it from a binding: write it `var<immediate> {}: Type;`",
                gpu.max_immediate_size(),
                info.name
            ),
        });
    };
    let (group, binding) = free_binding(&composed.text, &reflection);
    let entry = Some(reflection.entry_point.as_str());
    let mut refused = None;
    for space in ["uniform", "storage, read"] {
        let mut rewritten = composed.clone();
        let with = format!("@group({group}) @binding({binding}) var<{space}>");
        rewritten.replace(declared.clone(), &with);
        match reflect::reflect_module(&rewritten, entry, constants) {
            Ok((mut reflection, resolved)) => {
                let slot = reflection
                    .bindings
                    .iter()
                    .position(|b| b.group == group && b.binding == binding);
                let Some(slot) = slot else { break };
                let owned = owned(gpu, kernel, &info, slot, space == "uniform")?;
                reflection.immediates = Some(ImmediateInfo {
                    binding: Some(reflection.bindings[slot].clone()),
                    ..info
                });
                return Ok((rewritten, reflection, resolved, Some(owned)));
            }
            // Not a valid uniform layout: try read-only storage.
            Err(e @ ReflectError::Wgsl(_)) => refused = Some(e),
            Err(e) => return Err(e.into_error(kernel)),
        }
    }
    Err(refused
        .map(|e| e.into_error(kernel))
        .unwrap_or_else(|| crate::Error::InvalidParameter {
            kernel: kernel.to_string(),
            parameter: info.declaration(),
            value: "immediate data".into(),
            rule: "the binding Shoal gave it was not reflected".into(),
        }))
}

/// The buffer of the binding that holds the block on this device.
fn owned(
    gpu: &Gpu,
    kernel: &str,
    info: &ImmediateInfo,
    slot: usize,
    uniform: bool,
) -> Result<Owned> {
    let usage = match uniform {
        true => wgpu::BufferUsages::UNIFORM,
        false => wgpu::BufferUsages::STORAGE,
    };
    let bytes = u64::from(info.size());
    let raw = gpu.scoped(
        &format!("kernel `{kernel}`: its immediate data's binding"),
        || {
            gpu.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some("shoal immediate data"),
                size: bytes.max(4),
                usage: usage | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        },
    )?;
    Ok(Owned {
        raw,
        id: gpu.resource_id(),
        slot,
        bytes,
    })
}

/// The `(group, binding)` of the block's binding: the highest group `reflection` binds (0 where
/// none), one past the highest binding any declaration of `text` gives that group.
fn free_binding(text: &str, reflection: &Reflection) -> (u32, u32) {
    let group = reflection
        .bindings
        .iter()
        .map(|b| b.group)
        .max()
        .unwrap_or(0);
    // Every declaration, other entry points' too: naga parsed this text already.
    let taken = naga::front::wgsl::parse_str(text)
        .map(|m| {
            m.global_variables
                .iter()
                .filter_map(|(_, v)| v.binding.as_ref())
                .filter(|rb| rb.group == group)
                .map(|rb| rb.binding + 1)
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0);
    let used = reflection
        .bindings
        .iter()
        .filter(|b| b.group == group)
        .map(|b| b.binding + 1)
        .max()
        .unwrap_or(0);
    (group, taken.max(used))
}

/// The bytes of `var<immediate>` in the declaration of `name` in `text` (spaces allowed between
/// its tokens), outside comments.
fn declaration(text: &str, name: &str) -> Option<Range<usize>> {
    let code = without_comments(text);
    let mut from = 0;
    while let Some(found) = code[from..].find("var") {
        let start = from + found;
        from = start + 3;
        let word_before = code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if word_before {
            continue;
        }
        let rest = code[from..].trim_start();
        let Some(rest) = rest.strip_prefix('<') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("immediate") else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(after) = rest.strip_prefix('>') else {
            continue;
        };
        let end = code.len() - after.len();
        let declared = after.trim_start();
        let named = declared
            .strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with(':'));
        if named {
            return Some(start..end);
        }
    }
    None
}

/// `text` with every comment's characters replaced by spaces (offsets kept).
fn without_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let (mut i, mut depth) = (0, 0usize);
    while i < bytes.len() {
        if depth == 0 && bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                out[i] = b' ';
                i += 1;
            }
            continue;
        }
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            out[i] = b' ';
            out[i + 1] = b' ';
            i += 2;
            continue;
        }
        if depth > 0 && bytes[i..].starts_with(b"*/") {
            depth -= 1;
            out[i] = b' ';
            out[i + 1] = b' ';
            i += 2;
            continue;
        }
        if depth > 0 && bytes[i] != b'\n' {
            out[i] = b' ';
        }
        i += 1;
    }
    // Only ASCII bytes were replaced, by ASCII spaces, and multi-byte characters are either
    // kept whole or blanked byte by byte: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::declaration;

    #[test]
    fn declarations_are_found_by_name_outside_comments() {
        let text = "// var<immediate> p: P;\n/* var<immediate> p: P; */ var < immediate >  p : P;";
        let range = declaration(text, "p").expect("found");
        assert_eq!(&text[range], "var < immediate >");
        assert_eq!(declaration(text, "q"), None);
        let text = "var<immediate> pq: u32; var<immediate> p: f32;";
        assert_eq!(declaration(text, "p"), Some(24..38));
        assert_eq!(declaration("myvar<immediate> p: f32;", "p"), None);
    }
}
