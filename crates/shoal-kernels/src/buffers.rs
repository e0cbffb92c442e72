//! Checks of a call's buffers that Shoal's per-dispatch checks cannot make: that every buffer
//! belongs to the kernel's `Gpu` ([`Error::WrongGpu`]) and, for a call of several dispatches,
//! that no two are one buffer where one dispatch would overwrite what another reads or wrote
//! ([`Error::BindingKind`]). The owner comes first: wgpu numbers buffers per device, so buffers
//! of two `Gpu`s can compare equal as `wgpu::Buffer`s and would pass for "the same buffer".
//! Then where each starts ([`Error::InvalidParameter`] for a slice the device cannot bind),
//! which a dispatch checks too, but only as it is recorded: a call of several dispatches would
//! otherwise leave the first of them in the caller's batch.

use shoal::{Buffer, Element, Error, Gpu, Result};

/// A buffer of a call, with the name its errors give it.
#[derive(Clone, Copy)]
pub(crate) struct Named<'a> {
    name: &'a str,
    gpu: &'a Gpu,
    raw: &'a shoal::wgpu::Buffer,
    /// Its bytes within `raw`: where they start, how many.
    range: (u64, u64),
}

/// `buffer` (or a view or slice of it), called `name` in errors.
pub(crate) fn named<'a, T: Element>(name: &'a str, buffer: &'a Buffer<T>) -> Named<'a> {
    Named {
        name,
        gpu: buffer.gpu(),
        raw: buffer.raw(),
        range: (buffer.offset(), buffer.byte_len()),
    }
}

/// Fails with [`Error::WrongGpu`] (naming `kernel` and the buffer) unless every buffer of
/// `buffers` belongs to `gpu`.
pub(crate) fn check_owners(gpu: &Gpu, kernel: &str, buffers: &[Named<'_>]) -> Result<()> {
    for b in buffers {
        gpu.check_same(b.gpu, &format!("{kernel}: the {} buffer", b.name))?;
    }
    Ok(())
}

/// Fails with [`Error::InvalidParameter`] (naming `kernel`, the buffer and the alignment) unless
/// every buffer of `buffers` starts at a byte offset the device binds storage buffers at
/// ([`shoal::Limits::slice_alignment`]), as each dispatch that binds it will check.
fn check_offsets(gpu: &Gpu, kernel: &str, buffers: &[Named<'_>]) -> Result<()> {
    let align = u64::from(gpu.limits().slice_alignment(false).max(1));
    match buffers.iter().find(|b| !b.range.0.is_multiple_of(align)) {
        None => Ok(()),
        Some(b) => Err(Error::InvalidParameter {
            kernel: kernel.into(),
            parameter: format!("the {} buffer", b.name),
            value: format!("a slice starting at byte {}", b.range.0),
            rule: format!(
                "buffers are bound at byte offsets that are multiples of {align} \
                 (Limits::slice_alignment): slice at an element whose byte offset is one"
            ),
        }),
    }
}

/// [`check_owners`] and `check_offsets`, then an [`Error::BindingKind`] naming `kernel` when two of `buffers` are one
/// wgpu buffer (the same buffer, views or slices of one, even slices that do not overlap: a
/// dispatch uses a wgpu buffer whole); `why` says why they must differ.
pub(crate) fn check_apart(gpu: &Gpu, kernel: &str, buffers: &[Named<'_>], why: &str) -> Result<()> {
    refuse_shared(gpu, kernel, buffers, why, Shared::Buffer)
}

/// [`check_owners`] and `check_offsets`, then an [`Error::BindingKind`] naming `kernel` when two of `buffers` share
/// memory: slices of one wgpu buffer that do not overlap pass, for buffers that no one dispatch
/// binds together (a partition's two sides, one after the other); `why` says why they must not
/// overlap.
pub(crate) fn check_disjoint(
    gpu: &Gpu,
    kernel: &str,
    buffers: &[Named<'_>],
    why: &str,
) -> Result<()> {
    refuse_shared(gpu, kernel, buffers, why, Shared::Memory)
}

/// What two buffers may not share: a wgpu buffer ([`check_apart`]) or bytes ([`check_disjoint`]).
#[derive(Clone, Copy, PartialEq)]
enum Shared {
    Buffer,
    Memory,
}

/// The check of [`check_apart`] and [`check_disjoint`]: the first two of `buffers` that share
/// what `shared` says, as an error.
fn refuse_shared(
    gpu: &Gpu,
    kernel: &str,
    buffers: &[Named<'_>],
    why: &str,
    shared: Shared,
) -> Result<()> {
    check_owners(gpu, kernel, buffers)?;
    check_offsets(gpu, kernel, buffers)?;
    let conflict = |a: &Named<'_>, b: &Named<'_>| {
        a.raw == b.raw
            && (shared == Shared::Buffer
                || a.range.0 < b.range.0 + b.range.1 && b.range.0 < a.range.0 + a.range.1)
    };
    for (i, first) in buffers.iter().enumerate() {
        let Some(second) = buffers[i + 1..].iter().find(|b| conflict(first, b)) else {
            continue;
        };
        let (f, s) = (first.range, second.range);
        let got = match shared {
            _ if s == f => format!("the {} buffer itself", first.name),
            Shared::Buffer => format!(
                "another part of the {}'s wgpu buffer (bytes {}..{} and {}..{}; a dispatch uses \
                 a wgpu buffer whole, so even slices that do not overlap are one buffer)",
                first.name,
                f.0,
                f.0 + f.1,
                s.0,
                s.0 + s.1
            ),
            Shared::Memory => format!(
                "bytes {}..{} of the {}'s wgpu buffer, which overlap its bytes {}..{}",
                s.0,
                s.0 + s.1,
                first.name,
                f.0,
                f.0 + f.1
            ),
        };
        let expected = match shared {
            Shared::Buffer => format!("a buffer other than the {} ({why})", first.name),
            Shared::Memory => format!("memory apart from the {} ({why})", first.name),
        };
        return Err(Error::BindingKind {
            kernel: kernel.into(),
            binding: second.name.into(),
            expected,
            got,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
