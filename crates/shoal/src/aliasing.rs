//! The aliasing rule of one dispatch: a writable binding may not share memory with any other
//! binding of the same dispatch.
//!
//! WebGPU refuses such a dispatch (its usage scope allows one writable use of a buffer), while
//! native backends run it as a data race; Shoal refuses it on every backend, before anything is
//! recorded, so a program that runs natively also runs in the browser.

use crate::binding::Resource;
use crate::error::{Error, Result};
use crate::identity::ResourceId;
use crate::reflect::{BindingInfo, BindingKind};

/// How a binding accesses its resource: `None` for samplers, which hold no memory.
fn access(kind: &BindingKind) -> Option<(&'static str, bool)> {
    match kind {
        BindingKind::Storage { writable: true } => Some(("read_write", true)),
        BindingKind::Storage { writable: false } => Some(("read", false)),
        BindingKind::Uniform => Some(("uniform", false)),
        BindingKind::StorageTexture { access, .. } => {
            if access.contains(naga::StorageAccess::STORE) {
                Some(("storage write", true))
            } else {
                Some(("storage read", false))
            }
        }
        BindingKind::Texture { .. } => Some(("sampled", false)),
        BindingKind::Sampler { .. } => None,
    }
}

/// Fails with [`Error::Aliasing`] when two bindings share memory and one of them writes it.
/// Read-only bindings of one buffer are allowed.
pub(crate) fn check(kernel: &str, infos: &[BindingInfo], resources: &[Resource<'_>]) -> Result<()> {
    let bound: Vec<_> = infos
        .iter()
        .zip(resources)
        .filter_map(|(info, res)| access(&info.kind).map(|a| (info, res, a)))
        .collect();
    for (i, (first, a, (first_access, first_writes))) in bound.iter().enumerate() {
        for (second, b, (second_access, second_writes)) in &bound[i + 1..] {
            if (*first_writes || *second_writes) && a.same_memory(b) {
                return Err(Error::Aliasing {
                    kernel: kernel.to_string(),
                    first: first.name.clone(),
                    first_access,
                    second: second.name.clone(),
                    second_access,
                });
            }
        }
    }
    Ok(())
}

/// Fails with [`Error::Aliasing`] when a writable binding shares memory with the buffer the
/// dispatch takes its group counts from (`args`): WebGPU and wgpu refuse a buffer used as
/// indirect arguments and written in one dispatch. A read-only binding of it is allowed.
pub(crate) fn check_indirect(
    kernel: &str,
    infos: &[BindingInfo],
    resources: &[Resource<'_>],
    args: (&ResourceId, &wgpu::Buffer),
) -> Result<()> {
    for (info, res) in infos.iter().zip(resources) {
        if let Some((access, true)) = access(&info.kind)
            && (res.identity().same_memory(args.0) || res.raw_buffer() == Some(args.1))
        {
            return Err(Error::Aliasing {
                kernel: kernel.to_string(),
                first: info.name.clone(),
                first_access: access,
                second: "indirect arguments".into(),
                second_access: "indirect",
            });
        }
    }
    Ok(())
}
