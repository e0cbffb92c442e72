//! Labels for a profile: [`Commands::labelled`] names what is recorded through it
//! (`reduce_by_key: scan: scan_lookback`), as [`Dispatch::label`](crate::Dispatch::label) names
//! one dispatch.

use std::ops::{Deref, DerefMut};

use crate::commands::Commands;

impl Commands {
    /// Labels every dispatch recorded through the returned handle `"{label}: {operation}"`, the
    /// operation being the dispatch's own [`label`](crate::Dispatch::label) or its kernel's
    /// entry point (and a copy or clear timed there `"{label}: copy"`); labels nest (`reduce_by_key: scan: scan_lookback`), a label directly inside
    /// itself counting once. The handle is the batch
    /// (it dereferences to `Commands`); when it drops, the labels are as they were.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let twice = gpu.kernel("
    ///     @group(0) @binding(0) var<storage, read_write> v: array<u32>;
    ///     @compute @workgroup_size(64)
    ///     fn twice(@builtin(global_invocation_id) id: vec3<u32>) {
    ///         if id.x < arrayLength(&v) { v[id.x] *= 2u; }
    ///     }")?;
    /// let v = gpu.buffer_from(&[1u32, 2, 3])?;
    /// let mut commands = gpu.commands().profiled();
    /// {
    ///     let commands = &mut commands.labelled("my_sim");
    ///     twice.bind("v", &v).invocations(3).record(commands)?;
    ///     twice.bind("v", &v).invocations(3).label("again").record(commands)?;
    /// }
    /// let timings = commands.submit()?.timings_blocking()?;
    /// if gpu.has_timestamps() {
    ///     let labels: Vec<_> = timings.iter().map(|t| t.label.as_str()).collect();
    ///     assert_eq!(labels, ["my_sim: twice", "my_sim: again"]);
    /// }
    /// assert_eq!(v.read_blocking()?, [4, 8, 12]);
    /// # Ok(()) }
    /// ```
    pub fn labelled(&mut self, label: &str) -> Labelled<'_> {
        let outer = self.scope.take();
        self.scope = Some(match &outer {
            // A family's record calling its own record again labels once.
            Some(o) if o == label || o.ends_with(&format!(": {label}")) => o.clone(),
            Some(o) => format!("{o}: {label}"),
            None => label.to_string(),
        });
        Labelled {
            commands: self,
            outer,
        }
    }

    /// The label of a dispatch of the kernel entry point `entry`, labelled `own` (or not),
    /// recorded now: `kernel` (the kernel's name) outside any [`labelled`](Self::labelled).
    pub(crate) fn dispatch_label(&self, own: Option<String>, kernel: &str, entry: &str) -> String {
        match (&self.scope, own) {
            (Some(scope), own) => format!("{scope}: {}", own.as_deref().unwrap_or(entry)),
            (None, Some(own)) => own,
            (None, None) => kernel.to_string(),
        }
    }
}

/// `label` (a copy's, a clear's) inside `scope`: `reduce_by_key: clear`.
pub(crate) fn scoped<'a>(scope: &Option<String>, label: &'a str) -> std::borrow::Cow<'a, str> {
    match scope {
        Some(scope) => format!("{scope}: {label}").into(),
        None => label.into(),
    }
}

/// The batch, its dispatches labelled: what [`Commands::labelled`] returns.
pub struct Labelled<'a> {
    commands: &'a mut Commands,
    outer: Option<String>,
}

impl Deref for Labelled<'_> {
    type Target = Commands;
    fn deref(&self) -> &Commands {
        self.commands
    }
}

impl DerefMut for Labelled<'_> {
    fn deref_mut(&mut self) -> &mut Commands {
        self.commands
    }
}

impl Drop for Labelled<'_> {
    fn drop(&mut self) {
        self.commands.scope = self.outer.take();
    }
}
