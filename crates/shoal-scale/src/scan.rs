//! The spread scan: each member scans its part on its device; the parts' totals are gathered and
//! scanned (exclusively, in part order) on the host, and each member adds its carry on its device.
//! No part's data leaves its device.

use std::marker::PhantomData;

use shoal::{Buffer, Element, Gpu, Kernel, Result, Source};
use shoal_kernels::{Op, Record, Scalar, Scan, ScanArgs, ScanSpec};

use crate::member::Member;
use crate::part::Part;
use crate::transport::{Transport, gather_values, step};

/// Inclusive or exclusive, as [`ScanSpec`] has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanKind {
    /// Element `i` of the result combines elements `0..=i`.
    Inclusive,
    /// Element `i` of the result combines elements `0..i` (the identity first).
    Exclusive,
}

/// The scan by `op` of the spread buffer whose part is `part`: this member's part of the result,
/// a new buffer on the same device over the same global range.
pub fn scan_part<T: Scalar, C: Transport>(
    comm: &C,
    member: &Member,
    part: &Part<T>,
    op: Op,
    kind: ScanKind,
) -> Result<Part<T>> {
    let gpu = member.gpu();
    let n = part.buffer.len();
    let local = comm.device_turn(|| {
        gpu.check_same(part.gpu(), "a spread scan's part")?;
        let scan = member.family(0, Scan::<T>::new)?;
        let out = gpu.buffer_zeroed::<T>(n)?;
        if n == 0 {
            return Ok((out, op.identity::<T>()));
        }
        let spec = match kind {
            ScanKind::Inclusive => ScanSpec::inclusive(op),
            ScanKind::Exclusive => ScanSpec::exclusive(op),
        };
        scan.run(ScanArgs {
            input: &part.buffer,
            output: &out,
            spec,
        })?;
        let last = read_one(&out, n - 1)?;
        let total = match kind {
            ScanKind::Inclusive => last,
            ScanKind::Exclusive => op.apply(last, read_one(&part.buffer, n - 1)?),
        };
        Ok((out, total))
    });
    let (out, total) = step(comm, local)?;
    let totals = gather_values(comm, &[total])?;
    let carry = totals[..comm.rank()]
        .iter()
        .flatten()
        .fold(op.identity::<T>(), |a, &b| op.apply(a, b));
    let added = comm.device_turn(|| {
        if comm.rank() > 0 && n > 0 {
            let kernel = member.family(op as u32, |gpu| Carry::<T>::new(gpu, op))?;
            kernel.add(&out, carry)?;
        }
        Ok(())
    });
    step(comm, added)?;
    Ok(Part::new(out, part.start))
}

fn read_one<T: Element>(buffer: &Buffer<T>, at: u64) -> Result<T> {
    let v = pollster::block_on(buffer.read_range(at..at + 1))?;
    v.into_iter()
        .next()
        .ok_or_else(|| shoal::Error::Readback("spread scan: an element read back empty".into()))
}

/// The kernel adding a carry: `data[i] = carry ∘ data[i]`.
struct Carry<T> {
    kernel: Kernel,
    _value: PhantomData<T>,
}

impl<T: Scalar> Carry<T> {
    fn new(gpu: &Gpu, op: Op) -> Result<Self> {
        let combine = match op {
            Op::Sum => "a + b",
            Op::Min => "min(a, b)",
            Op::Max => "max(a, b)",
        };
        let text = format!(
            "#import shoal::fold
alias T = {};
fn combine(a: T, b: T) -> T {{ return {combine}; }}
@group(0) @binding(0) var<storage, read> carry: array<T>;
@group(0) @binding(1) var<storage, read_write> data: array<T>;
@compute @workgroup_size(64)
fn add_carry(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lidx: u32) {{
    let i = shoal_linear_index(wid, nwg, lidx, 64u);
    if i < arrayLength(&data) {{
        data[i] = combine(carry[0], data[i]);
    }}
}}
",
            T::WGSL
        );
        Ok(Self {
            kernel: gpu.kernel(Source::new("shoal-scale: scan carry", text))?,
            _value: PhantomData,
        })
    }

    fn add(&self, data: &Buffer<T>, carry: T) -> Result<()> {
        let carry = data.gpu().buffer_from(&[carry])?;
        self.kernel
            .bind("carry", &carry)
            .bind("data", data)
            .invocations(data.len())
            .run()?
            .wait_blocking()
    }
}
