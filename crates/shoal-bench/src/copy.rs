//! The yardstick: a vec4 copy kernel (`wgsl/bench/copy.wgsl`) over the same bytes as the
//! primitive it is compared with. Its source is pinned by a test, so a slower copy cannot flatter
//! the ratios.

use shoal::glam::UVec4;
use shoal::{Buffer, Gpu, Kernel};

use crate::harness::timed;

/// The copy kernel's source: one `vec4<u32>` read and written per invocation.
pub const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/bench/copy.wgsl");

/// The compiled copy kernel.
pub struct Copy {
    /// The `copy` entry point.
    kernel: Kernel,
}

impl Copy {
    /// Compiles the copy kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self, shoal::Error> {
        Ok(Self {
            kernel: gpu.kernel(SOURCE)?,
        })
    }

    /// The copy of `bytes` (rounded up to whole vec4s), run once and its last element checked.
    pub async fn prepare(&self, gpu: &Gpu, bytes: u64) -> Result<CopyRun, String> {
        let len = bytes.div_ceil(16);
        let src = gpu
            .buffer_from(&(0..len as u32).map(UVec4::splat).collect::<Vec<_>>())
            .map_err(|e| e.to_string())?;
        let dst = gpu.buffer_zeroed::<UVec4>(len).map_err(|e| e.to_string())?;
        let run = CopyRun {
            gpu: gpu.clone(),
            kernel: self.kernel.clone(),
            src,
            dst,
        };
        run.nanos().await?;
        let last = run
            .dst
            .read_range(len - 1..len)
            .await
            .map_err(|e| e.to_string())?;
        if last[0] != UVec4::splat((len - 1) as u32) {
            return Err("the copy kernel copied wrongly".into());
        }
        Ok(run)
    }
}

/// The copy kernel bound to its buffers.
pub struct CopyRun {
    /// The device the copy runs on.
    gpu: Gpu,
    /// [`Copy`]'s kernel.
    kernel: Kernel,
    /// What is read.
    src: Buffer<UVec4>,
    /// Where it is written, as long as `src`.
    dst: Buffer<UVec4>,
}

impl CopyRun {
    /// GPU nanoseconds of one copy (see [`timed`]).
    pub async fn nanos(&self) -> Result<f64, String> {
        let (kernel, src, dst) = (&self.kernel, &self.src, &self.dst);
        Ok(timed(&self.gpu, &mut |c| {
            kernel
                .bind("src", src)
                .bind("dst", dst)
                .invocations(src.len())
                .record(c)
        })
        .await?
        .0)
    }
}

#[cfg(test)]
mod tests {
    /// The copy every ratio divides by: exactly this kernel, one vec4 per invocation, 256 per
    /// work group. Changing it changes every ratio in docs/bench/; update those with it.
    #[test]
    fn the_copy_kernel_is_the_plain_vec4_copy() {
        let source = super::SOURCE;
        let code: Vec<&str> = source
            .text()
            .lines()
            .filter(|l| !l.starts_with("//") && !l.trim().is_empty())
            .collect();
        assert_eq!(
            code,
            [
                "#import shoal::fold",
                "@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;",
                "@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;",
                "@compute @workgroup_size(256)",
                "fn copy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,",
                "        @builtin(local_invocation_index) lid: u32) {",
                "    let i = shoal_linear_index(wid, nwg, lid, 256u);",
                "    if i < arrayLength(&src) { dst[i] = src[i]; }",
                "}",
            ]
        );
    }
}
