//! HLSL compute kernels on the GLSL route: glslang's HLSL front end → SPIR-V → naga → WGSL.
//!
//! [`to_wgsl`] takes the text and the name of one `[numthreads]` entry point. Before glslang,
//! the text is scanned for what WebGPU cannot run (each a refusal with its line and remedy) and
//! rewritten where HLSL has a construct glslang or WGSL lacks, line for line so every message
//! keeps its line: HLSL 2021's `select()` becomes `?:`, `[[vk::push_constant]]` on a struct a
//! push-constant block, a `ByteAddressBuffer`'s size bytes, and `AppendStructuredBuffer` /
//! `ConsumeStructuredBuffer` Shoal's append buffers (one binding with its header, as
//! `shoal::AppendBuffer`). After naga reads the SPIR-V, the bindings are set as HLSL declared
//! them (see [`REGISTER_BASES`]) and the module goes the GLSL route's way (layout checks, names,
//! image access, validation, WGSL). Every naga step runs under the GLSL route's panic guard.

use crate::{Error, Translation};

mod append;
mod bindings;
mod refused;
mod rewrite;

pub use refused::REFUSED;

/// The binding number each register kind starts at (`b0` is binding 200, `t0` 400, `s0` 600,
/// `u0` 800), so registers of different kinds never share a number, and numbers below 200 stay
/// free for explicit `[[vk::binding(n)]]`, which keep theirs.
pub const REGISTER_BASES: [(char, u32); 4] = [('b', 200), ('t', 400), ('s', 600), ('u', 800)];

/// Translates the HLSL compute kernel `text` (named `path` in messages), entry point `entry`,
/// to WGSL.
pub fn to_wgsl(path: &str, text: &str, entry: &str) -> Result<String, Error> {
    translate(path, text, entry).map(|t| t.wgsl)
}

/// [`to_wgsl`], with the aliases of resources named by words WGSL reserves (`target` is
/// `target_` in the WGSL, bound as `target`) and the lines of `[[vk::constant_id]]` constants.
pub fn translate(path: &str, text: &str, entry: &str) -> Result<Translation, Error> {
    crate::refuse_nul(path, text)?;
    refused::scan(path, text)?;
    let rewritten = rewrite::rewrite(text);
    let spirv = compile(path, text, &rewritten.text, entry)?;
    let module = crate::naga_step(path, "read glslang's SPIR-V", || {
        naga::front::spv::parse_u8_slice(&spirv, &naga::front::spv::Options::default())
    })
    .and_then(|r| r.map_err(|e| crate::unsupported::from_spirv(path, text, &spirv, &e)))
    .map_err(|e| refused::in_hlsl_words(path, text, e))?;
    let (wgsl, aliases) = crate::naga_step(path, "translate the module", || {
        let mut module = module;
        bindings::set(path, text, &mut module)?;
        crate::translate_module(path, &rewritten.text, &spirv, module, false)
    })
    .and_then(|r| r)
    .map_err(|e| refused::in_hlsl_words(path, text, e))?;
    let constants = crate::sites::constants(&crate::unsupported::code_lines(text))
        .into_iter()
        .map(|(name, line)| (name, format!("{path}:{line}")))
        .collect();
    Ok(Translation {
        wgsl: append::finish(path, wgsl, &rewritten.append)?,
        aliases,
        constants,
        ..Translation::default()
    })
}

/// HLSL → SPIR-V with glslang for Vulkan 1.0: registers mapped to bindings from their kind's
/// base in [`REGISTER_BASES`], `space` to the group; HLSL's packing for `cbuffer` offsets, which
/// the layout check then compares with WGSL's.
fn compile(path: &str, original: &str, text: &str, entry: &str) -> Result<Vec<u8>, Error> {
    let internal = |e: shaderc::Error| Error::Compile {
        message: format!("{path}: shaderc: {e}"),
    };
    let compiler = shaderc::Compiler::new().map_err(internal)?;
    let mut options = shaderc::CompileOptions::new().map_err(internal)?;
    options.set_source_language(shaderc::SourceLanguage::HLSL);
    options.set_target_env(
        shaderc::TargetEnv::Vulkan,
        shaderc::EnvVersion::Vulkan1_0 as u32,
    );
    options.set_hlsl_io_mapping(true);
    options.set_hlsl_offsets(true);
    options.set_auto_bind_uniforms(true);
    // Left off: naga refuses the SPV_GOOGLE_hlsl_functionality1 extension it would enable.
    options.set_hlsl_functionality1(false);
    for (kind, base) in REGISTER_BASES {
        let kinds: &[shaderc::ResourceKind] = match kind {
            'b' => &[shaderc::ResourceKind::Buffer],
            't' => &[
                shaderc::ResourceKind::Texture,
                shaderc::ResourceKind::StorageBuffer,
            ],
            's' => &[shaderc::ResourceKind::Sampler],
            _ => &[
                shaderc::ResourceKind::Image,
                shaderc::ResourceKind::UnorderedAccessView,
            ],
        };
        for k in kinds {
            options.set_binding_base(*k, base);
        }
    }
    if entry.is_empty() || entry.contains('\0') {
        return Err(Error::Compile {
            message: format!(
                "{path}: the entry point's name `{}` is not an HLSL function name",
                entry.escape_debug()
            ),
        });
    }
    match compiler.compile_into_spirv(
        text,
        shaderc::ShaderKind::Compute,
        path,
        entry,
        Some(&options),
    ) {
        Ok(artifact) => Ok(artifact.as_binary_u8().to_vec()),
        Err(shaderc::Error::CompilationError(_, log)) if log.contains("Entry point not found") => {
            Err(Error::Compile {
                message: format!(
                    "{path}: error: no function `{entry}`, the entry point asked for (a \
                     `[numthreads(x, y, z)]` function of that name)"
                ),
            })
        }
        Err(shaderc::Error::CompilationError(_, log)) => Err(Error::Compile {
            message: crate::render_log(path, original, &log),
        }),
        Err(e) => Err(internal(e)),
    }
}

#[cfg(test)]
mod tests;
