//! Storage images get the access their code uses.

use naga::TypeInner;

/// Gives each storage image the access its code uses: GLSL's unqualified `image2D` is read-write,
/// which WebGPU allows for `r32` formats only, while the seed's output images are only stored to
/// and its input images only loaded; an image neither loaded nor stored (only `imageSize`) is
/// read. Were an image reached through a function argument or used
/// by an atomic, every image would keep what it was declared with; neither reaches this today:
/// glslang refuses an image argument whose format is not the parameter's (which cannot have one),
/// and image atomics are refused before (naga's SPIR-V front end cannot read them).
pub(crate) fn narrow_image_access(module: &mut naga::Module) {
    use naga::{Expression, StorageAccess};
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
    let handles: Vec<_> = module.global_variables.iter().map(|(h, _)| h).collect();
    for handle in handles {
        let var = &module.global_variables[handle];
        let Some((format, access)) = storage_image(&module.types[var.ty].inner) else {
            continue;
        };
        let mut used = StorageAccess::empty();
        if loaded.contains(&handle) {
            used |= StorageAccess::LOAD;
        }
        if stored.contains(&handle) {
            used |= StorageAccess::STORE;
        }
        if used.is_empty() {
            // Only its size asked: read, which WebGPU allows for every format.
            used = StorageAccess::LOAD;
        }
        if used == access || !access.contains(used) {
            continue;
        }
        retype(module, handle, format, used);
    }
}

/// The format and access of a storage image's type; `None` for any other type.
pub(crate) fn storage_image(ty: &TypeInner) -> Option<(naga::StorageFormat, naga::StorageAccess)> {
    match *ty {
        TypeInner::Image {
            class: naga::ImageClass::Storage { format, access },
            ..
        } => Some((format, access)),
        _ => None,
    }
}

/// Gives the storage image `handle` the format `format` and the access `access`: a type as its
/// own (name, dimension, arrayed) but for those.
pub(crate) fn retype(
    module: &mut naga::Module,
    handle: naga::Handle<naga::GlobalVariable>,
    format: naga::StorageFormat,
    access: naga::StorageAccess,
) {
    let old = module.global_variables[handle].ty;
    let ty = &module.types[old];
    let TypeInner::Image { dim, arrayed, .. } = ty.inner else {
        return;
    };
    let new = naga::Type {
        name: ty.name.clone(),
        inner: TypeInner::Image {
            dim,
            arrayed,
            class: naga::ImageClass::Storage { format, access },
        },
    };
    let span = module.types.get_span(old);
    module.global_variables[handle].ty = module.types.insert(new, span);
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
