//! The bindings as the HLSL declared them, set on naga's module before the GLSL route's steps:
//! explicit `[[vk::binding(n, set)]]` numbers kept (glslang shifts them by the register bases),
//! every storage image's format from its `[[vk::image_format("…")]]` or `rgba32f` (glslang guesses
//! one from the element type), each `cbuffer` named after itself, and clashes refused.

use naga::{AddressSpace, Module, ResourceBinding, StorageFormat, TypeInner};

use super::refused::{BINDING_CLASH, GLOBALS, REGISTER, line_of, refuse};
use crate::Error;
use crate::unsupported::code_lines;

pub(crate) const IMAGE_FORMAT: (&str, &str) = (
    "a `[[vk::image_format(\"…\")]]` WebGPU has no storage texture of",
    "one of rgba8, rgba8snorm, rgba8ui, rgba8i, rgba16ui, rgba16i, rgba16f, r32ui, r32i, r32f, \
     rg32ui, rg32i, rg32f, rgba32ui, rgba32i, rgba32f",
);

/// A file-scope declaration's attribute with its value, by the declared name.
struct Attribute {
    name: String,
    value: String,
    line: usize,
}

/// Sets `module`'s bindings, image formats and block names as `text` declares them.
pub(crate) fn set(path: &str, text: &str, module: &mut Module) -> Result<(), Error> {
    registers_in_range(path, text)?;
    for binding in attributes(text, "vk::binding") {
        let numbers: Vec<u32> = binding
            .value
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        let (binding_n, group) = match numbers.as_slice() {
            [b] => (*b, 0),
            [b, s] => (*b, *s),
            _ => continue,
        };
        for (_, var) in module.global_variables.iter_mut() {
            if named(
                var,
                module_type_name(&var.ty, &module.types).as_deref(),
                &binding.name,
            ) {
                var.binding = Some(ResourceBinding {
                    group,
                    binding: binding_n,
                });
            }
        }
    }
    name_constant_buffers(path, text, module)?;
    // The access first: a read-write image of a scalar takes the `r32` format (see below).
    crate::images::narrow_image_access(module);
    set_image_formats(path, text, module)?;
    let mut seen: Vec<(ResourceBinding, String)> = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(binding) = var.binding else { continue };
        let name = var.name.clone().unwrap_or_default();
        if let Some((_, other)) = seen.iter().find(|(b, _)| *b == binding) {
            let detail = format!(
                "`{other}` and `{name}` on group {} binding {}",
                binding.group, binding.binding
            );
            return Err(refuse(
                path,
                line_of(text, &name),
                BINDING_CLASH,
                Some(detail),
            ));
        }
        seen.push((binding, name));
    }
    Ok(())
}

fn module_type_name(
    ty: &naga::Handle<naga::Type>,
    types: &naga::UniqueArena<naga::Type>,
) -> Option<String> {
    types[*ty].name.clone()
}

/// Whether `var` is the declaration named `name` in HLSL (a `cbuffer`'s variable may be nameless,
/// its block type carrying the name).
fn named(var: &naga::GlobalVariable, type_name: Option<&str>, name: &str) -> bool {
    match var.name.as_deref() {
        Some(n) if !n.is_empty() => n == name,
        _ => type_name == Some(name),
    }
}

/// Each `register(x#)` below 200, so that one kind's numbers never reach the next's base.
fn registers_in_range(path: &str, text: &str) -> Result<(), Error> {
    for (index, line) in code_lines(text).iter().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find("register") {
            let start = from + at + "register".len();
            from = start;
            let rest = line[start..].trim_start();
            let Some(inside) = rest.strip_prefix('(') else {
                continue;
            };
            let inside = inside.trim_start();
            let digits: String = inside
                .chars()
                .skip(1)
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse::<u32>()
                && n >= 200
            {
                let detail = format!("`register({}{n})`", inside.chars().next().unwrap_or('?'));
                return Err(refuse(path, Some(index + 1), REGISTER, Some(detail)));
            }
        }
    }
    Ok(())
}

/// The file-scope declarations carrying `[[attribute(value)]]`, with the name each declares:
/// `[[vk::binding(0, 1)]] RWStructuredBuffer<float> data;` gives `data` and `0, 1`.
fn attributes(text: &str, attribute: &str) -> Vec<Attribute> {
    let lines = code_lines(text);
    let code = lines.join("\n");
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find(attribute) {
        let start = from + at;
        from = start + attribute.len();
        let rest = code[from..].trim_start();
        let Some(inside) = rest.strip_prefix('(') else {
            continue;
        };
        let Some(close) = inside.find(')') else {
            continue;
        };
        let value = inside[..close].trim().trim_matches('"').to_string();
        let Some(end) = inside[close..].find("]]") else {
            continue;
        };
        let mut after = inside[close + end + 2..].trim_start();
        // Further attributes, then the type (with its template arguments) and the name.
        while let Some(more) = after.strip_prefix("[[") {
            after = more.find("]]").map_or("", |e| more[e + 2..].trim_start());
        }
        let mut words = Vec::new();
        let mut rest = after;
        while words.len() < 2 {
            let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if word.is_empty() {
                break;
            }
            rest = &rest[word.len()..];
            if let Some(template) = rest.trim_start().strip_prefix('<') {
                rest = template.find('>').map_or("", |e| &template[e + 1..]);
            }
            rest = rest.trim_start();
            if !matches!(
                word.as_str(),
                "static" | "globallycoherent" | "const" | "uniform"
            ) {
                words.push(word);
            }
        }
        if let [_, name] = words.as_slice() {
            out.push(Attribute {
                name: name.clone(),
                value,
                line: code[..start].matches('\n').count() + 1,
            });
        }
    }
    out
}

/// A `cbuffer`'s variable, nameless in glslang's SPIR-V, takes the `cbuffer`'s name; the implicit
/// `$Global` block (file-scope variables that are not `static`) is refused.
fn name_constant_buffers(path: &str, text: &str, module: &mut Module) -> Result<(), Error> {
    let mut renamed = Vec::new();
    for (_, var) in module.global_variables.iter_mut() {
        if !matches!(var.space, AddressSpace::Uniform | AddressSpace::Immediate) {
            continue;
        }
        let ty = &module.types[var.ty];
        let Some(type_name) = ty.name.clone() else {
            continue;
        };
        if type_name == "$Global" {
            let member = match &ty.inner {
                TypeInner::Struct { members, .. } => members.first().and_then(|m| m.name.clone()),
                _ => None,
            };
            let line = member.as_deref().and_then(|m| line_of(text, m));
            let detail = member.map(|m| format!("`{m}`"));
            return Err(refuse(path, line, GLOBALS, detail));
        }
        if var.name.as_deref().is_none_or(str::is_empty) {
            var.name = Some(type_name.clone());
        }
        // The struct keeps another name, or WGSL's namer would rename the variable (`PC_1`).
        if var.name.as_deref() == Some(type_name.as_str()) {
            renamed.push(var.ty);
        }
    }
    for handle in renamed {
        let mut ty = module.types[handle].clone();
        ty.name = ty.name.map(|n| format!("{n}_block"));
        module.types.replace(handle, ty);
    }
    Ok(())
}

/// Every storage image's format: its `[[vk::image_format]]`, else rgba32 of its texel's kind —
/// but `r32` for an image of scalars both loaded and stored, WebGPU's only read-write formats.
fn set_image_formats(path: &str, text: &str, module: &mut Module) -> Result<(), Error> {
    let given = attributes(text, "vk::image_format");
    let handles: Vec<_> = module.global_variables.iter().map(|(h, _)| h).collect();
    for handle in handles {
        let var = &module.global_variables[handle];
        let Some((format, access)) = crate::images::storage_image(&module.types[var.ty].inner)
        else {
            continue;
        };
        let name = var.name.clone().unwrap_or_default();
        let wanted = match given.iter().find(|a| a.name == name) {
            Some(a) => format_named(&a.value).ok_or_else(|| {
                refuse(
                    path,
                    Some(a.line),
                    IMAGE_FORMAT,
                    Some(format!("`{}` on `{name}`", a.value)),
                )
            })?,
            // The texel's kind from glslang's guess (`R32Uint` for `uint`, `Rgba32Float` for
            // `float4`, …).
            None => {
                let scalar = matches!(
                    format,
                    StorageFormat::R32Float | StorageFormat::R32Uint | StorageFormat::R32Sint
                );
                let read_write =
                    access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE);
                match format!("{format:?}") {
                    _ if scalar && read_write => format,
                    f if f.ends_with("Uint") => StorageFormat::Rgba32Uint,
                    f if f.ends_with("Sint") => StorageFormat::Rgba32Sint,
                    _ => StorageFormat::Rgba32Float,
                }
            }
        };
        if wanted == format {
            continue;
        }
        crate::images::retype(module, handle, wanted, access);
    }
    Ok(())
}

/// The storage format a `[[vk::image_format("…")]]` names (GLSL's format qualifiers), where
/// WebGPU has storage textures of it.
fn format_named(name: &str) -> Option<StorageFormat> {
    use StorageFormat as F;
    Some(match name {
        "rgba8" => F::Rgba8Unorm,
        "rgba8snorm" => F::Rgba8Snorm,
        "rgba8ui" => F::Rgba8Uint,
        "rgba8i" => F::Rgba8Sint,
        "rgba16ui" => F::Rgba16Uint,
        "rgba16i" => F::Rgba16Sint,
        "rgba16f" => F::Rgba16Float,
        "r32ui" => F::R32Uint,
        "r32i" => F::R32Sint,
        "r32f" => F::R32Float,
        "rg32ui" => F::Rg32Uint,
        "rg32i" => F::Rg32Sint,
        "rg32f" => F::Rg32Float,
        "rgba32ui" => F::Rgba32Uint,
        "rgba32i" => F::Rgba32Sint,
        "rgba32f" => F::Rgba32Float,
        _ => return None,
    })
}
