//! Host-side cost of setting a dispatch's parameters: a 16-byte immediate
//! (`Dispatch::immediates`) against the same 16 bytes written into a uniform buffer before the
//! same dispatch (`Buffer::write`, then `.bind`), each submitted on its own, excluding the wait
//! for the GPU. Goal: the immediate costs at most 1.05x the uniform's host time.

use std::time::Instant;

use shoal::Gpu;
use shoal::glam::UVec4;

use crate::overhead::{BLOCKS, PER_BLOCK, drain};

/// Adds the parameters' first word to every element.
const IMMEDIATE: &str = "
var<immediate> p: vec4<u32>;
@group(0) @binding(0) var<storage, read_write> values: array<u32>;
@compute @workgroup_size(64)
fn bump(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) { values[id.x] = values[id.x] + p.x; }
}";

/// The same, its parameters in a uniform buffer.
const UNIFORM: &str = "
@group(0) @binding(1) var<uniform> p: vec4<u32>;
@group(0) @binding(0) var<storage, read_write> values: array<u32>;
@compute @workgroup_size(64)
fn bump(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) { values[id.x] = values[id.x] + p.x; }
}";

/// Runs the comparison and prints microseconds per dispatch for each side and their ratio.
pub(crate) fn run(gpu: &Gpu) -> Result<(), shoal::Error> {
    let immediate = gpu.kernel(shoal::Source::new("immediate.wgsl", IMMEDIATE))?;
    let uniform = gpu.kernel(shoal::Source::new("uniform.wgsl", UNIFORM))?;
    let (by_immediate, by_uniform) = (gpu.buffer_zeroed::<u32>(64)?, gpu.buffer_zeroed(64)?);
    let params = gpu.uniform(&UVec4::ZERO)?;
    // Each dispatch adds a value of its own: 1, 2, 3, ... on both sides.
    let (mut next_immediate, mut next_uniform) = (0u32, 0u32);
    let mut immediate_side = || {
        next_immediate += 1;
        let p = UVec4::new(next_immediate, 0, 0, 0);
        let bound = immediate.bind("values", &by_immediate).immediates(&p);
        bound.invocations(64).run().map(drop)
    };
    let mut uniform_side = || {
        next_uniform += 1;
        params.write(&[UVec4::new(next_uniform, 0, 0, 0)])?;
        let bound = uniform.bind("values", &by_uniform).bind("p", &params);
        bound.invocations(64).run().map(drop)
    };
    let time = |side: &mut dyn FnMut() -> Result<(), shoal::Error>| {
        drain(gpu);
        let t = Instant::now();
        for _ in 0..PER_BLOCK {
            side()?;
        }
        Ok::<f64, shoal::Error>(t.elapsed().as_secs_f64() * 1e6 / PER_BLOCK as f64)
    };
    let (mut immediate_us, mut uniform_us) = (Vec::new(), Vec::new());
    for block in 0..BLOCKS + 1 {
        // Alternate which side goes first, so neither always follows a drained queue.
        let (i, u) = if block % 2 == 0 {
            let i = time(&mut immediate_side)?;
            (i, time(&mut uniform_side)?)
        } else {
            let u = time(&mut uniform_side)?;
            (time(&mut immediate_side)?, u)
        };
        if block > 0 {
            // The first block warms caches and the bind-group caches.
            immediate_us.push(i);
            uniform_us.push(u);
        }
    }
    drain(gpu);
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (i, u) = (median(&mut immediate_us), median(&mut uniform_us));
    let path = match immediate.reflection().immediates.as_ref() {
        Some(info) if info.binding.is_none() => "set_immediates",
        _ => "a binding Shoal owns",
    };
    println!(
        "\nhost time of one dispatch's 16 bytes of parameters (set + bind + encode + submit, no GPU wait), median of {BLOCKS} blocks of {PER_BLOCK}:"
    );
    println!("  uniform buffer (Buffer::write, then .bind)   {u:8.2} us");
    println!("  immediate data (.immediates, {path:>14}) {i:8.2} us");
    println!(
        "  ratio immediate / uniform                    {:8.3}x  (goal: <= 1.05x)",
        i / u
    );
    // Every dispatch added its own value: the sum of 1..=n on each side, read back.
    let n = (BLOCKS + 1) * PER_BLOCK;
    let expected = (n * (n + 1) / 2) as u32;
    let got = (
        by_immediate.read_blocking()?[63],
        by_uniform.read_blocking()?[63],
    );
    if got != (expected, expected) {
        eprintln!("  the sums read back, {got:?}, are not {expected}: the comparison is void");
    }
    Ok(())
}
