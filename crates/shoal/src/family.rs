//! The contract of a kernel family, held by the compiler: [`Family`] names the device and the
//! compiled kernels, [`Record`] is one operation on a struct of what it reads and writes, and
//! [`Record::run`] is written once, here.
//!
//! A family compiles its pipelines once in its constructor — `new(&gpu, params)`, or `new(&gpu)`
//! where it has no parameters — keeps its scratch buffers, and then runs many times, each run
//! recordable into a [`Commands`] batch beside other work. A family with several operations (a
//! sort of keys and a sort of pairs, a simulation's step and its disturbance) implements
//! [`Record`] once per operation, each with its own argument struct, so the argument's type
//! chooses the operation.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal::{Buffer, Commands, Family, Gpu, Kernel, Record, Result};
//!
//! /// Doubles every element of a buffer in place.
//! struct Double {
//!     kernel: Kernel,
//! }
//!
//! /// What one doubling reads and writes.
//! struct DoubleArgs<'a> {
//!     values: &'a Buffer<f32>,
//! }
//!
//! impl Double {
//!     fn new(gpu: &Gpu) -> Result<Self> {
//!         let kernel = gpu.kernel("
//!             @group(0) @binding(0) var<storage, read_write> values: array<f32>;
//!             @compute @workgroup_size(64)
//!             fn double(@builtin(global_invocation_id) id: vec3<u32>) {
//!                 if id.x < arrayLength(&values) { values[id.x] *= 2.0; }
//!             }")?;
//!         Ok(Self { kernel })
//!     }
//! }
//!
//! impl Family for Double {
//!     fn gpu(&self) -> &Gpu {
//!         self.kernel.gpu()
//!     }
//!     fn kernels(&self) -> Vec<&Kernel> {
//!         vec![&self.kernel]
//!     }
//! }
//!
//! impl Record<DoubleArgs<'_>> for Double {
//!     fn record(&self, commands: &mut Commands, args: DoubleArgs<'_>) -> Result<()> {
//!         let n = args.values.len();
//!         self.kernel.bind("values", args.values).invocations(n).record(commands)
//!     }
//! }
//!
//! let gpu = Gpu::blocking()?;
//! let double = Double::new(&gpu)?;
//! let values = gpu.buffer_from(&[1.0f32, 2.0, 3.0])?;
//! double.run(DoubleArgs { values: &values })?;
//! assert_eq!(values.read_blocking()?, [2.0, 4.0, 6.0]);
//! # Ok(()) }
//! ```

use crate::{Commands, Gpu, Kernel, Result, Submission};

/// A kernel family: pipelines compiled once for one [`Gpu`], run many times through its
/// [`Record`] operations.
pub trait Family {
    /// The device the family's kernels were compiled for.
    fn gpu(&self) -> &Gpu;

    /// The family's compiled kernels, in the order its operations dispatch them. Each shows the
    /// WGSL it runs. A family that compiles some kernels on first use lists those compiled so
    /// far.
    fn kernels(&self) -> Vec<&Kernel>;
}

/// One operation of a [`Family`], taking `A`: a struct of the buffers, images and options the
/// operation reads and writes.
pub trait Record<A>: Family {
    /// Checks `args` against the family's kernels and the device, then records the operation's
    /// dispatches, copies and clears into `commands`. Nothing is recorded when a check fails.
    fn record(&self, commands: &mut Commands, args: A) -> Result<()>;

    /// Records the operation into a fresh batch and submits it; the returned [`Submission`]
    /// waits for it or times it.
    fn run(&self, args: A) -> Result<Submission> {
        let mut commands = self.gpu().commands();
        self.record(&mut commands, args)?;
        commands.submit()
    }
}
