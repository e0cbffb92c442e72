//! The parallel primitives on seeded random data: a stable LSD radix sort of 65 536 u32 keys and
//! an inclusive prefix sum of 65 536 values, both checked against their CPU twins after the
//! frame ([`Demo::verify`]), and drawn as a bar plot of the sorted keys with the normalised
//! prefix sum as a curve over it. `cargo run --release -p shoal-demos --bin primitives
//! [-- --headless --out primitives.png]` prints a few values and the check.

use shoal::{Buffer, Commands, Error, Gpu, Image, Kernel, wgpu};
use shoal_kernels::{
    Op, RadixSort, Record, Scan, ScanArgs, ScanSpec, SortArgs, SortParams, scan_cpu,
};

use crate::blit::Blit;
use crate::cli::Options;
use crate::demo::{Demo, Verification};

/// Elements sorted and scanned.
pub const N: usize = 1 << 16;

/// The demo's seeded keys (xorshift32 from a fixed seed) and the values scanned (the keys'
/// top 16 bits, so the sum of all of them fits in a u32).
pub fn data() -> (Vec<u32>, Vec<u32>) {
    let mut x: u32 = 0x2545_f491;
    let keys: Vec<u32> = (0..N)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect();
    let values = keys.iter().map(|k| k >> 16).collect();
    (keys, values)
}

/// The bar-plot kernel compiled from `source` (`wgsl/demos/primitives.wgsl` or an edited copy).
fn bars_kernel(gpu: &Gpu, source: shoal::Source) -> Result<Kernel, Error> {
    gpu.kernel_builder(source)
        .constant("WG", shoal_kernels::plan_2d(gpu, 16))
        .build()
}

/// The demo (see the module docs).
pub struct PrimitivesDemo {
    sort: RadixSort,
    scan: Scan<u32>,
    keys: Buffer<u32>,
    values: Buffer<u32>,
    prefix: Buffer<u32>,
    bars: Kernel,
    image: Image,
    blit: Blit,
}

impl Demo for PrimitivesDemo {
    const NAME: &'static str = "primitives";

    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        let [w, h] = options.size;
        let (keys, values) = data();
        Ok(Self {
            sort: RadixSort::new(gpu, SortParams::default())?,
            scan: Scan::new(gpu)?,
            keys: gpu.buffer_from(&keys)?,
            values: gpu.buffer_from(&values)?,
            prefix: gpu.buffer_zeroed(N as u64)?,
            bars: bars_kernel(gpu, shoal::wgsl!("../../wgsl/demos/primitives.wgsl"))?,
            image: gpu.image_zeroed(w, h, wgpu::TextureFormat::Rgba32Float)?,
            blit: Blit::new(gpu, format)?,
        })
    }

    fn update(&mut self, commands: &mut Commands, frame: u64) -> Result<(), Error> {
        // The keys are sorted in place once; scanning again each frame is the per-frame work.
        if frame == 0 {
            self.sort.record(commands, SortArgs { keys: &self.keys })?;
        }
        self.scan.record(
            commands,
            ScanArgs {
                input: &self.values,
                output: &self.prefix,
                spec: ScanSpec::inclusive(Op::Sum),
            },
        )?;
        self.bars
            .bind("sorted", &self.keys)
            .bind("prefix", &self.prefix)
            .bind("bars", &self.image)
            .invocations_2d(self.image.size())
            .record(commands)
    }

    fn picture(&mut self) -> Option<(&Image, &mut Blit)> {
        Some((&self.image, &mut self.blit))
    }

    /// The bar plot's kernel only: the sort and the scan are generated WGSL.
    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/demos/primitives.wgsl"]
    }

    fn reload(&mut self, gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        self.bars = bars_kernel(gpu, source)?;
        Ok(())
    }

    fn verify(&self) -> Option<Verification<'_>> {
        Some(Box::pin(async move {
            let sorted = self.keys.read().await.map_err(|e| e.to_string())?;
            let prefix = self.prefix.read().await.map_err(|e| e.to_string())?;
            let (mut keys, values) = data();
            keys.sort_unstable();
            if sorted != keys {
                let i = sorted.iter().zip(&keys).position(|(a, b)| a != b);
                return Err(format!("radix sort differs from the CPU at index {i:?}"));
            }
            let want = scan_cpu(&values, Op::Sum, true);
            if prefix != want {
                let i = prefix.iter().zip(&want).position(|(a, b)| a != b);
                return Err(format!("scan differs from the CPU at index {i:?}"));
            }
            Ok(format!(
                "{N} keys sorted = CPU (first {:?}, last {}); inclusive sum of {N} = CPU (total {})",
                &sorted[..3],
                sorted[N - 1],
                prefix[N - 1]
            ))
        }))
    }
}
