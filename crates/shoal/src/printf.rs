//! GPU printf: kernels that `#import shoal::printf` record values with their invocation's global
//! id into a debug ring (`wgsl/shared/printf.wgsl`); Shoal gives each such kernel its ring and
//! binds it at every dispatch, and [`Kernel::printed`] returns the records in the order they were
//! written.
//!
//! The ring keeps the first `capacity` records since it was last read and counts the rest; a
//! [`PrintLog`] with dropped records says so when printed, logs a warning, and
//! [`PrintLog::check`] turns it into [`Error::PrintfOverflow`].

use crate::buffer::Buffer;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::kernel::Kernel;
use crate::readback;

/// The WGSL name of the ring binding the printf snippet declares (`@group(0) @binding(999)`).
pub(crate) const BINDING: &str = "shoal_printf";

/// Records a kernel's ring holds unless [`KernelBuilder::printf_capacity`] says otherwise.
///
/// [`KernelBuilder::printf_capacity`]: crate::KernelBuilder::printf_capacity
pub const DEFAULT_PRINTF_CAPACITY: u32 = 4096;

/// Bytes of the ring's header (the atomic cursor, padded to the records' 16-byte alignment).
const HEADER: u64 = 16;
/// Bytes of one record: `gid: vec3<u32>`, `kind: u32`, `bits: vec4<u32>`.
const RECORD: u64 = 32;

/// A kernel's printf ring: a storage buffer of u32 words laid out as the snippet's `ShoalPrintf`.
pub(crate) struct PrintRing {
    pub(crate) buffer: Buffer<u32>,
    capacity: u32,
}

impl PrintRing {
    /// The ring of kernel `kernel`, `capacity` records (at least one), refused with
    /// [`Error::InvalidParameter`] when one binding could not see it all
    /// (`max_storage_buffer_binding_size`).
    pub(crate) fn new(gpu: &Gpu, kernel: &str, capacity: u32) -> Result<Self> {
        let bytes = HEADER + capacity.max(1) as u64 * RECORD;
        let limit = gpu.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(Error::InvalidParameter {
                kernel: kernel.to_string(),
                parameter: "printf_capacity".into(),
                value: format!("{capacity} records ({bytes} bytes)"),
                rule: format!(
                    "at most {} records of {RECORD} bytes on this device \
                     (max_storage_buffer_binding_size = {limit})",
                    limit.saturating_sub(HEADER) / RECORD
                ),
            });
        }
        let words = bytes / 4;
        Ok(Self {
            buffer: gpu.buffer_zeroed(words)?,
            capacity: capacity.max(1),
        })
    }
}

/// One printed value: its scalar type and components.
#[derive(Debug, Clone, PartialEq)]
pub enum PrintValue {
    /// `u32` or `vecN<u32>`.
    U32(Vec<u32>),
    /// `i32` or `vecN<i32>`.
    I32(Vec<i32>),
    /// `f32` or `vecN<f32>`.
    F32(Vec<f32>),
}

impl std::fmt::Display for PrintValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn show<T: std::fmt::Display>(
            f: &mut std::fmt::Formatter<'_>,
            scalar: &str,
            v: &[T],
        ) -> std::fmt::Result {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            match v.len() {
                1 => write!(f, "{scalar} {}", items[0]),
                n => write!(f, "vec{n}<{scalar}>({})", items.join(", ")),
            }
        }
        match self {
            Self::U32(v) => show(f, "u32", v),
            Self::I32(v) => show(f, "i32", v),
            Self::F32(v) => show(f, "f32", v),
        }
    }
}

/// A record: which invocation printed what.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintRecord {
    /// The `global_invocation_id` the kernel passed.
    pub gid: [u32; 3],
    /// The value.
    pub value: PrintValue,
    /// Where the call is, `file:line:column` as written (the kernel's file, a snippet's or a
    /// block's), or `None` for a call Shoal could not tag.
    pub location: Option<String>,
}

impl std::fmt::Display for PrintRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.gid;
        if let Some(at) = &self.location {
            write!(f, "{at}: ")?;
        }
        write!(f, "[{x}, {y}, {z}] {}", self.value)
    }
}

/// What a kernel printed since its ring was last read.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintLog {
    /// The kernel.
    pub kernel: String,
    /// The records kept, in the order the invocations wrote them.
    pub records: Vec<PrintRecord>,
    /// Records the invocations tried to write (more than `records.len()` after an overflow).
    pub attempted: u64,
    /// Records the ring holds.
    pub capacity: u64,
}

impl PrintLog {
    /// Records that did not fit in the ring.
    pub fn dropped(&self) -> u64 {
        self.attempted - self.records.len() as u64
    }

    /// The log, or [`Error::PrintfOverflow`] if records were dropped.
    pub fn check(self) -> Result<Self> {
        if self.dropped() > 0 {
            return Err(Error::PrintfOverflow {
                kernel: self.kernel,
                capacity: self.capacity,
                attempted: self.attempted,
            });
        }
        Ok(self)
    }

    /// The records printed by invocation `gid`, in order.
    pub fn from(&self, gid: [u32; 3]) -> impl Iterator<Item = &PrintValue> {
        self.records
            .iter()
            .filter(move |r| r.gid == gid)
            .map(|r| &r.value)
    }
}

impl std::fmt::Display for PrintLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in &self.records {
            // A record names its call site; one Shoal could not tag names the kernel.
            match r.location {
                Some(_) => writeln!(f, "{r}")?,
                None => writeln!(f, "{}: {r}", self.kernel)?,
            }
        }
        if self.dropped() > 0 {
            writeln!(
                f,
                "{}: printf ring overflow: {} of {} records dropped (capacity {}; raise it with KernelBuilder::printf_capacity)",
                self.kernel,
                self.dropped(),
                self.attempted,
                self.capacity
            )?;
        }
        Ok(())
    }
}

/// One record of the ring, with its call site looked up in `sites` (site `i + 1` is `sites[i]`).
fn decode(words: &[u32], sites: &[String]) -> Option<PrintRecord> {
    let gid = [*words.first()?, *words.get(1)?, *words.get(2)?];
    let kind = *words.get(3)?;
    let (scalar, count) = (kind & 0xff, ((kind >> 8) & 0xff) as usize);
    let location = (kind >> 16)
        .checked_sub(1)
        .and_then(|i| sites.get(i as usize))
        .cloned();
    let bits = words.get(4..4 + count.clamp(1, 4))?;
    let value = match scalar {
        0 => PrintValue::U32(bits.to_vec()),
        1 => PrintValue::I32(bits.iter().map(|&b| b as i32).collect()),
        2 => PrintValue::F32(bits.iter().map(|&b| f32::from_bits(b)).collect()),
        _ => return None,
    };
    Some(PrintRecord {
        gid,
        value,
        location,
    })
}

impl Kernel {
    /// What the kernel's invocations printed (`#import shoal::printf`) since the last call, in
    /// the order they wrote it; the ring is emptied. Waits for the work submitted so far. A
    /// kernel that does not print returns an empty log.
    ///
    /// The read and the emptying are one submission: a dispatch that another thread submits
    /// meanwhile has its records in this log or in the next, never lost. Each call copies the
    /// whole ring (16 + 32 bytes per record of `printf_capacity`).
    pub async fn printed(&self) -> Result<PrintLog> {
        let mut log = PrintLog {
            kernel: self.name().to_string(),
            records: Vec::new(),
            attempted: 0,
            capacity: 0,
        };
        let Some(ring) = &self.inner.printf else {
            return Ok(log);
        };
        // The whole ring is copied and its cursor cleared in one submission: a dispatch another
        // thread submits meanwhile runs wholly before (its records are read) or wholly after
        // (they start the emptied ring), never between a read and the reset.
        let raw = ring.buffer.raw();
        let size = raw.size();
        let bytes = readback::read_staged(self.gpu(), size, |encoder, staging| {
            encoder.copy_buffer_to_buffer(raw, 0, staging, 0, size);
            encoder.clear_buffer(raw, 0, Some(4));
        })
        .await?;
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        log.attempted = words[0] as u64;
        log.capacity = ring.capacity as u64;
        let kept = log.attempted.min(log.capacity) as usize;
        let per = (RECORD / 4) as usize;
        let start = (HEADER / 4) as usize;
        log.records = words[start..start + kept * per]
            .chunks_exact(per)
            .filter_map(|record| decode(record, &self.inner.print_sites))
            .collect();
        if log.dropped() > 0 {
            log::warn!("{}", log.to_string().lines().last().unwrap_or_default());
        }
        Ok(log)
    }

    /// Reads what the kernel printed and writes it to stderr, overflow included (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn print_printed(&self) -> Result<PrintLog> {
        let log = pollster::block_on(self.printed())?;
        eprint!("{log}");
        Ok(log)
    }
}
