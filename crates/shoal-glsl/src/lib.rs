//! GLSL compute kernels for Shoal: GLSL → SPIR-V with glslang (the system's shaderc) → naga's
//! SPIR-V front end → WGSL, which Shoal then reflects, binds and dispatches like any kernel.
//!
//! One function, [`to_wgsl`], serves both routes: the `glsl!` macro runs it at compile time (so
//! the browser gets WGSL and needs nothing at run time) and `shoal::Source::glsl` runs it at run
//! time on native targets (hot reload).
//!
//! Names: a block with an instance name is bound by that name; an anonymous block with one
//! member by the member's name (what the GLSL code calls it); an anonymous block with several
//! members by the block's name. Images, samplers and `shared` variables keep their own names,
//! and `constant_id` constants become WGSL `override` constants set by their GLSL name.

use naga::{AddressSpace, TypeInner};

mod unsupported;

pub use unsupported::UNSUPPORTED;

/// Why a GLSL kernel was not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// glslang rejected the text. `message` has one `file:line: error: …` line per error,
    /// each followed by the source line it names.
    Compile {
        /// The rendered errors.
        message: String,
    },
    /// The kernel uses a construct Shoal cannot translate (see [`UNSUPPORTED`]).
    Unsupported {
        /// The GLSL construct.
        construct: &'static str,
        /// What to write instead, in WGSL.
        wgsl: &'static str,
        /// `file:line` of its first use.
        location: String,
    },
    /// naga rejected the SPIR-V glslang made of the kernel.
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

/// Translates the GLSL compute kernel `text` (named `path` in messages) to WGSL.
pub fn to_wgsl(path: &str, text: &str) -> Result<String, Error> {
    unsupported::scan(path, text)?;
    let spirv = compile(path, text)?;
    let mut module =
        naga::front::spv::parse_u8_slice(&spirv, &naga::front::spv::Options::default())
            .map_err(|e| unsupported::from_spirv(path, text, &e))?;
    unsupported::check_module(path, text, &module)?;
    name_blocks(&mut module);
    for (_, var) in module.global_variables.iter_mut() {
        // WGSL has no write-only storage buffers: a `writeonly` block is `read_write`.
        if let AddressSpace::Storage { access } = &mut var.space
            && access.contains(naga::StorageAccess::STORE)
        {
            *access |= naga::StorageAccess::LOAD;
        }
    }
    narrow_image_access(&mut module);
    for (_, o) in module.overrides.iter_mut() {
        // Shoal sets overrides by name; an `@id` would make the id the only key.
        o.id = None;
    }
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| unsupported::from_validation(path, text, &e.into_inner()))?;
    let wgsl =
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| Error::Translate {
                message: format!("{path}: naga could not write WGSL: {e}"),
            })?;
    let bound = module
        .global_variables
        .iter()
        .filter(|(_, v)| v.binding.is_some())
        .filter_map(|(_, v)| v.name.clone());
    Ok(bound.fold(wgsl, |text, name| restore_name(text, &name)))
}

/// naga's namer appends `_` to a name that ends in a digit (`input_data0` → `input_data0_`); the
/// binding keeps its GLSL name when nothing else in the module is called that.
fn restore_name(text: String, name: &str) -> String {
    if !name.ends_with(|c: char| c.is_ascii_digit()) {
        return text;
    }
    let renamed = format!("{name}_");
    let words = identifiers(&text);
    if words.contains(&name) || !words.contains(&renamed.as_str()) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = find_identifier(rest, &renamed) {
        out.push_str(&rest[..at]);
        out.push_str(name);
        rest = &rest[at + renamed.len()..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every identifier-like word of `text`.
fn identifiers(text: &str) -> Vec<&str> {
    text.split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The byte offset of the first whole-word `word` in `text`.
fn find_identifier(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        let before = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_ident(c));
        let after = text[end..].chars().next().is_none_or(|c| !is_ident(c));
        if before && after {
            return Some(start);
        }
        from = end;
    }
    None
}

/// GLSL → SPIR-V with glslang, under Vulkan semantics (explicit bindings, `set = N`).
fn compile(path: &str, text: &str) -> Result<Vec<u8>, Error> {
    let internal = |e: shaderc::Error| Error::Compile {
        message: format!("{path}: shaderc: {e}"),
    };
    let compiler = shaderc::Compiler::new().map_err(internal)?;
    let mut options = shaderc::CompileOptions::new().map_err(internal)?;
    options.set_target_env(
        shaderc::TargetEnv::Vulkan,
        shaderc::EnvVersion::Vulkan1_0 as u32,
    );
    match compiler.compile_into_spirv(
        text,
        shaderc::ShaderKind::Compute,
        path,
        "main",
        Some(&options),
    ) {
        Ok(artifact) => Ok(artifact.as_binary_u8().to_vec()),
        Err(shaderc::Error::CompilationError(_, log)) => Err(Error::Compile {
            message: render_log(text, &log),
        }),
        Err(e) => Err(internal(e)),
    }
}

/// glslang's log with the source line under each `file:line:` message.
fn render_log(text: &str, log: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for message in log.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(message.trim_end());
        out.push('\n');
        let line = message
            .split(':')
            .nth(1)
            .and_then(|n| n.trim().parse::<usize>().ok());
        if let Some(source) = line.and_then(|n| lines.get(n.wrapping_sub(1))) {
            out.push_str(&format!("    | {}\n", source.trim_end()));
        }
    }
    out.trim_end().to_string()
}

/// Gives each storage image the access its code uses: GLSL's unqualified `image2D` is read-write,
/// which WebGPU allows for `r32` formats only, while the seed's output images are only stored to
/// and its input images only loaded. An image reached through a function argument, or by an
/// atomic, keeps what it was declared with.
fn narrow_image_access(module: &mut naga::Module) {
    use naga::{Expression, ImageClass, StorageAccess};
    let mut loaded = Vec::new();
    let mut stored = Vec::new();
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    for function in functions {
        let global = |e: naga::Handle<Expression>| match function.expressions[e] {
            Expression::GlobalVariable(h) => Some(h),
            _ => None,
        };
        for (_, expr) in function.expressions.iter() {
            if let Expression::ImageLoad { image, .. } = *expr {
                match global(image) {
                    Some(h) => loaded.push(h),
                    None => return,
                }
            }
        }
        let mut uses = Vec::new();
        image_statements(&function.body, &mut uses);
        for (image, atomic) in uses {
            match global(image) {
                Some(h) if !atomic => stored.push(h),
                _ => return,
            }
        }
    }
    for (handle, var) in module.global_variables.iter_mut() {
        let ty = &module.types[var.ty];
        let TypeInner::Image {
            dim,
            arrayed,
            class: ImageClass::Storage { format, access },
        } = ty.inner
        else {
            continue;
        };
        let mut used = StorageAccess::empty();
        if loaded.contains(&handle) {
            used |= StorageAccess::LOAD;
        }
        if stored.contains(&handle) {
            used |= StorageAccess::STORE;
        }
        if used.is_empty() || used == access || !access.contains(used) {
            continue;
        }
        let narrowed = naga::Type {
            name: ty.name.clone(),
            inner: TypeInner::Image {
                dim,
                arrayed,
                class: ImageClass::Storage {
                    format,
                    access: used,
                },
            },
        };
        var.ty = module.types.insert(narrowed, naga::Span::UNDEFINED);
    }
}

/// The image operand of every `ImageStore` (false) and `ImageAtomic` (true) in `block`.
fn image_statements(block: &naga::Block, out: &mut Vec<(naga::Handle<naga::Expression>, bool)>) {
    use naga::Statement as S;
    for statement in block.iter() {
        match statement {
            S::ImageStore { image, .. } => out.push((*image, false)),
            S::ImageAtomic { image, .. } => out.push((*image, true)),
            S::Block(b) => image_statements(b, out),
            S::If { accept, reject, .. } => {
                image_statements(accept, out);
                image_statements(reject, out);
            }
            S::Loop {
                body, continuing, ..
            } => {
                image_statements(body, out);
                image_statements(continuing, out);
            }
            S::Switch { cases, .. } => cases.iter().for_each(|c| image_statements(&c.body, out)),
            _ => {}
        }
    }
}

/// Names each block's variable by the rule in the crate's documentation.
fn name_blocks(module: &mut naga::Module) {
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
        match (members.as_slice(), &ty.name) {
            ([only], _) if only.name.is_some() => var.name = only.name.clone(),
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
