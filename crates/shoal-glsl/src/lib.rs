//! GLSL compute kernels for Shoal: GLSL → SPIR-V with glslang (the system's shaderc) → naga's
//! SPIR-V front end → WGSL, which Shoal then reflects, binds and dispatches like any kernel.
//!
//! One function, [`translate`] (with [`Options`]; [`to_wgsl`] without), serves both routes: the
//! `glsl!` macro runs it at compile time (so the browser gets WGSL and needs nothing at run time)
//! and `shoal::Source::glsl` runs it at run time on native targets (hot reload).
//!
//! GLSL as Vulkan and OpenGL programs write it is rewritten before naga sees it, every line kept
//! where it was: `#include` expanded (a line map names each header's own lines), combined image
//! samplers split into a texture `name` and a sampler `name_sampler`, loose uniforms gathered into
//! one block bound as [`UNIFORM_BLOCK`], formatless storage images given the format the options
//! name, `debugPrintfEXT` made Shoal's printf, and in glslang's SPIR-V the arithmetic on
//! specialization constants computed where it is used (or fixed, where it sizes an array) and a
//! `local_size_x_id` work-group size made the override's.
//!
//! Names: a block with an instance name is bound by that name; an anonymous block with one
//! member by the member's name (what the GLSL code calls it); an anonymous block with several
//! members by the block's name. Images, samplers and `shared` variables keep their own names,
//! and `constant_id` constants become WGSL `override` constants set by their GLSL name. A binding
//! named by a word WGSL reserves (`target`, `module`, …), or by one the translated kernel needs
//! for a WGSL built-in (a binding `select` beside a `mix(a, b, flag)`, which naga writes as
//! `select`), is `name_` in the WGSL and listed in [`Translation::aliases`], by which Shoal binds
//! it as `name`; a `constant_id` constant so named is refused with [`Error::Unsupported`].
//!
//! naga 30 panics on some input (a type too large for its layouter); [`to_wgsl`] catches such a
//! panic and returns [`Error::Translate`] saying naga panicked. Catching needs unwinding: in a
//! build with `panic = "abort"` such a panic aborts the process instead.

use std::panic::{AssertUnwindSafe, catch_unwind};

use naga::{AddressSpace, TypeInner};

mod formats;
pub mod hlsl;
mod images;
mod include;
mod layout;
mod lex;
mod names;
mod options;
mod printf;
mod samplers;
mod sites;
mod spec;
mod uniforms;
mod unsupported;

pub use options::{Options, Translation};
pub use uniforms::BLOCK as UNIFORM_BLOCK;
pub use unsupported::UNSUPPORTED;

/// Why a GLSL kernel was not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// glslang rejected the text (or the text or path holds a NUL byte, which glslang cannot
    /// read). `message` has one `file:line: error: …` line per error, each followed by the
    /// source line it names.
    Compile {
        /// The rendered errors.
        message: String,
    },
    /// The kernel uses a construct Shoal cannot translate (see [`UNSUPPORTED`]).
    Unsupported {
        /// The GLSL construct: one of [`UNSUPPORTED`]'s, followed for some by the block, member
        /// or name at fault in parentheses.
        construct: String,
        /// What to write instead, in WGSL.
        wgsl: &'static str,
        /// `file:line` of its first use.
        location: String,
    },
    /// naga rejected (or failed on) the SPIR-V glslang made of the kernel.
    Translate {
        /// naga's error.
        message: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Compile { message } | Self::Translate { message } => f.write_str(message),
            Self::Unsupported {
                construct,
                wgsl,
                location,
            } => write!(
                f,
                "{location}: {construct} cannot be translated to WGSL; in WGSL: {wgsl}"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Translates the GLSL compute kernel `text` (named `path` in messages) to WGSL, with the
/// default [`Options`].
pub fn to_wgsl(path: &str, text: &str) -> Result<String, Error> {
    translate(path, text, &Options::new()).map(|t| t.wgsl)
}

/// Translates the GLSL compute kernel `text` (named `path` in messages; its `#include`s are
/// relative to `path`'s directory unless [`Options::directory`] says otherwise) to WGSL.
pub fn translate(path: &str, text: &str, options: &Options) -> Result<Translation, Error> {
    refuse_nul(path, text)?;
    let directory = options.directory.clone().or_else(|| {
        std::path::Path::new(path)
            .parent()
            .map(std::path::Path::to_path_buf)
    });
    let expanded = include::expand(path, text, directory.as_deref(), &options.include_dirs)?;
    let origins = expanded.origins;
    let mut translation = rewrite_and_translate(path, &expanded.text, options)
        .map_err(|e| relocate(e, path, &origins))?;
    translation.included = expanded.included;
    let lines = unsupported::code_lines(&expanded.text);
    let at = |line: usize| include::relocate(&format!("{path}:{line}"), path, &origins);
    translation.constants = sites::constants(&lines)
        .into_iter()
        .map(|(name, line)| (name, at(line)))
        .collect();
    translation.subgroups = sites::first_subgroup_use(&lines).map(at);
    Ok(translation)
}

/// The route after includes: the text rewrites (lines kept), glslang, the SPIR-V pass, naga.
fn rewrite_and_translate(path: &str, text: &str, options: &Options) -> Result<Translation, Error> {
    let text = samplers::split(path, text)?;
    let (text, gathered) = uniforms::gather(path, &text)?;
    let (text, printed) = printf::rewrite(&text);
    let text = formats::apply(path, &text, &options.image_formats)?;
    unsupported::scan(path, &text)?;
    let spirv = compile(path, &text)?;
    let specialized = spec::specialize(&spirv, &options.constants)
        .map_err(|spec::Unevaluable(name)| unsupported::spec_expression(path, &text, &name))?;
    let spirv: Vec<u8> = specialized
        .words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let module = naga_step(path, "read glslang's SPIR-V", || {
        naga::front::spv::parse_u8_slice(&spirv, &naga::front::spv::Options::default())
    })?
    .map_err(|e| unsupported::from_spirv(path, &text, &spirv, &e))?;
    // Everything after the parse uses naga's arenas, which assert (`UniqueArena::replace`):
    // under the guard too.
    let (wgsl, aliases) = naga_step(path, "translate the module", || {
        translate_module(path, &text, &spirv, module, gathered)
    })??;
    let wgsl = spec_workgroup_size(wgsl, &specialized.workgroup);
    let wgsl = if printed { printf::import(wgsl) } else { wgsl };
    Ok(Translation {
        wgsl,
        fixed: specialized.fixed,
        aliases,
        ..Translation::default()
    })
}

/// `error` with each `path:line` of the expanded text named by the file and line it came from.
fn relocate(error: Error, path: &str, origins: &[include::Origin]) -> Error {
    match error {
        Error::Compile { message } => Error::Compile {
            message: include::relocate(&message, path, origins),
        },
        Error::Translate { message } => Error::Translate {
            message: include::relocate(&message, path, origins),
        },
        Error::Unsupported {
            construct,
            wgsl,
            location,
        } => Error::Unsupported {
            construct,
            wgsl,
            location: include::relocate(&location, path, origins),
        },
    }
}

/// `wgsl` with its `@workgroup_size` naming the overrides `local_size_x_id` and kin give.
fn spec_workgroup_size(wgsl: String, overrides: &[Option<String>; 3]) -> String {
    const ATTRIBUTE: &str = "@workgroup_size(";
    let (Some(at), true) = (wgsl.find(ATTRIBUTE), overrides.iter().any(Option::is_some)) else {
        return wgsl;
    };
    let start = at + ATTRIBUTE.len();
    let Some(len) = wgsl[start..].find(')') else {
        return wgsl;
    };
    let sizes: Vec<String> = wgsl[start..start + len]
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let sizes: Vec<String> = (0..3)
        .map(|d| match &overrides[d] {
            Some(name) => name.clone(),
            None => sizes.get(d).cloned().unwrap_or_else(|| "1".to_string()),
        })
        .collect();
    format!(
        "{}{}{}",
        &wgsl[..start],
        sizes.join(", "),
        &wgsl[start + len..]
    )
}

/// The WGSL of `module`, which naga read from glslang's `spirv` of `text`, and the aliases of
/// the bindings it names otherwise than the text ([`Translation::aliases`]); `gathered`: the
/// text had loose uniforms, gathered into the block [`UNIFORM_BLOCK`].
fn translate_module(
    path: &str,
    text: &str,
    spirv: &[u8],
    mut module: naga::Module,
    gathered: bool,
) -> Result<(String, Vec<(String, String)>), Error> {
    layout::check_module(path, text, spirv, &module)?;
    name_blocks(&mut module, gathered);
    for (_, var) in module.global_variables.iter_mut() {
        // WGSL has no write-only storage buffers: a `writeonly` block is `read_write`.
        if let AddressSpace::Storage { access } = &mut var.space
            && access.contains(naga::StorageAccess::STORE)
        {
            *access |= naga::StorageAccess::LOAD;
        }
    }
    images::narrow_image_access(&mut module);
    for (_, o) in module.overrides.iter_mut() {
        // Shoal sets overrides by name; an `@id` would make the id the only key.
        o.id = None;
    }
    let wanted = names::prepare(path, text, &mut module)?;
    let info = naga_step(path, "validate the module", || {
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
    })?
    .map_err(|e| unsupported::from_validation(path, &e.into_inner()))?;
    let wgsl = naga_step(path, "write WGSL", || {
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
    })?
    .map_err(|e| Error::Translate {
        message: format!("{path}: naga could not write WGSL: {e}"),
    })?;
    names::restore(path, text, &module, wgsl, &wanted)
}

/// Runs one of naga's steps, making a panic in it (naga 30 panics on some input, such as a type
/// too large for its layouter) a [`Error::Translate`] saying naga panicked. The guard needs
/// unwinding: built with `panic = "abort"`, such a panic aborts the process.
fn naga_step<T>(path: &str, step: &str, run: impl FnOnce() -> T) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(run)).map_err(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Error::Translate {
            message: format!("{path}: naga failed to {step} (it panicked: {why})"),
        }
    })
}

/// glslang reads C strings: a NUL byte in the text or the path would end them (shaderc panics).
fn refuse_nul(path: &str, text: &str) -> Result<(), Error> {
    if path.contains('\0') {
        return Err(Error::Compile {
            message: format!(
                "{}: error: the kernel's name holds a NUL byte, which glslang cannot read",
                path.escape_debug()
            ),
        });
    }
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        return Err(Error::Compile {
            message: format!(
                "{path}:{line}: error: a NUL byte (U+0000), which glslang cannot read"
            ),
        });
    }
    Ok(())
}

/// GLSL → SPIR-V with glslang, under Vulkan semantics (explicit bindings, `set = N`).
fn compile(path: &str, text: &str) -> Result<Vec<u8>, Error> {
    let internal = |e: shaderc::Error| Error::Compile {
        message: format!("{path}: shaderc: {e}"),
    };
    let compiler = shaderc::Compiler::new().map_err(internal)?;
    let mut options = shaderc::CompileOptions::new().map_err(internal)?;
    // Subgroup operations need SPIR-V 1.3 (Vulkan 1.1); the rest stays at Vulkan 1.0's SPIR-V,
    // whose barriers naga reads as the seed programs need.
    let version = if text.contains("GL_KHR_shader_subgroup") {
        shaderc::EnvVersion::Vulkan1_1
    } else {
        shaderc::EnvVersion::Vulkan1_0
    };
    options.set_target_env(shaderc::TargetEnv::Vulkan, version as u32);
    match compiler.compile_into_spirv(
        text,
        shaderc::ShaderKind::Compute,
        path,
        "main",
        Some(&options),
    ) {
        Ok(artifact) => Ok(artifact.as_binary_u8().to_vec()),
        Err(shaderc::Error::CompilationError(_, log)) => Err(Error::Compile {
            message: render_log(path, text, &log),
        }),
        Err(e) => Err(internal(e)),
    }
}

/// glslang's log with the source line under each `path:line:` message. A text with `#line`
/// numbers its lines otherwise: its messages go without the line.
fn render_log(path: &str, text: &str, log: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let renumbered = unsupported::code_lines(text).iter().any(|l| {
        l.trim_start().strip_prefix('#').is_some_and(|d| {
            d.trim_start()
                .strip_prefix("line")
                .is_some_and(|r| r.starts_with([' ', '\t']))
        })
    });
    let mut out = String::new();
    for message in log.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(message.trim_end());
        out.push('\n');
        let line = message
            .strip_prefix(path)
            .and_then(|rest| rest.strip_prefix(':'))
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.trim().parse::<usize>().ok());
        if let Some(source) = line
            .filter(|_| !renumbered)
            .and_then(|n| lines.get(n.wrapping_sub(1)))
        {
            out.push_str(&format!("    | {}\n", source.trim_end()));
        }
    }
    out.trim_end().to_string()
}

/// Names each block's variable by the rule in the crate's documentation; `gathered`: the block
/// [`UNIFORM_BLOCK`] of loose uniforms is bound by that name, whatever its members.
fn name_blocks(module: &mut naga::Module, gathered: bool) {
    let mut renamed_types = Vec::new();
    for (_, var) in module.global_variables.iter_mut() {
        let anonymous = var.name.as_deref().is_none_or(str::is_empty);
        if var.binding.is_none()
            || !anonymous
            || !matches!(
                var.space,
                AddressSpace::Storage { .. } | AddressSpace::Uniform
            )
        {
            continue;
        }
        let ty = &module.types[var.ty];
        let TypeInner::Struct { members, .. } = &ty.inner else {
            continue;
        };
        let gathered_block = gathered && ty.name.as_deref() == Some(uniforms::BLOCK);
        match (members.as_slice(), &ty.name) {
            ([only], _) if only.name.is_some() && !gathered_block => var.name = only.name.clone(),
            (_, Some(block)) => {
                var.name = Some(block.clone());
                if !renamed_types.contains(&var.ty) {
                    renamed_types.push(var.ty);
                }
            }
            _ => {}
        }
    }
    // The type keeps the block's name otherwise, and WGSL's namer would rename the variable.
    for handle in renamed_types {
        let mut ty = module.types[handle].clone();
        ty.name = ty.name.map(|n| format!("{n}_block"));
        module.types.replace(handle, ty);
    }
}

#[cfg(test)]
mod tests;
