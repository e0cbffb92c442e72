//! The soak (issue 15, item 7): 100,000 dispatches and 10,000 readbacks of mixed sizes, kernels
//! and batches on the adapter `SHOAL_BACKEND` names. After a warm-up, wgpu's count of every
//! kind of live resource (`Instance::generate_report`) must come back to its baseline, and the
//! resident memory (`VmRSS`) must grow by at most [`RSS_BOUND_MIB`]. Prints the figures; exits
//! non-zero when either fails. `cargo xtask soak` runs it on Vulkan and on GL.

use std::time::Instant;

use shoal::{Buffer, Gpu, Kernel, Source, SplitMix64};

/// Dispatches in all, warm-up included.
const DISPATCHES: u64 = 100_000;
/// Readbacks in all: one every tenth dispatch.
const READBACKS: u64 = DISPATCHES / 10;
/// Dispatches before the baseline is taken (caches, staging pool and driver warmed up).
const WARM_UP: u64 = 5_000;
/// How much the resident memory may grow between the baseline and the end, in MiB.
const RSS_BOUND_MIB: f64 = 16.0;
/// The element counts of the buffers kernels bind (below, at and above work-group multiples).
const SIZES: [u32; 6] = [1, 63, 64, 1000, 4096, 65_537];
/// Elements of the large buffer bound and dropped every 500 readbacks: 16 MiB of `u32`.
const LARGE: u64 = 4 << 20;

const DOUBLE: &str = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn double(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = 2u * a[id.x]; }
}";

const ADD_ONE: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(128)
fn add_one(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] += 1u; }
}";

const SUM: &str = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<atomic<u32>>;
@compute @workgroup_size(256)
fn sum(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&a) { atomicAdd(&total[0], a[id.x]); }
}";

/// Live resources of each kind wgpu-core tracks (kept by the user), by name.
fn live(gpu: &Gpu) -> Vec<(&'static str, usize)> {
    let _ = gpu
        .device()
        .poll(shoal::wgpu::PollType::wait_indefinitely());
    let Some(report) = gpu.instance().and_then(|i| i.generate_report()) else {
        return Vec::new();
    };
    let h = report.hub_report();
    [
        ("buffers", &h.buffers),
        ("textures", &h.textures),
        ("texture views", &h.texture_views),
        ("samplers", &h.samplers),
        ("bind groups", &h.bind_groups),
        ("bind group layouts", &h.bind_group_layouts),
        ("pipeline layouts", &h.pipeline_layouts),
        ("shader modules", &h.shader_modules),
        ("compute pipelines", &h.compute_pipelines),
        ("command encoders", &h.command_encoders),
        ("command buffers", &h.command_buffers),
        ("query sets", &h.query_sets),
    ]
    .into_iter()
    .map(|(name, r)| (name, r.num_kept_from_user))
    .collect()
}

/// Resident memory in MiB (`VmRSS`, or `VmHWM` for the peak), from `/proc/self/status`.
fn memory_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with(field))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

struct Pool {
    a: Vec<Buffer<u32>>,
    out: Vec<Buffer<u32>>,
    total: Buffer<u32>,
    inputs: Vec<Vec<u32>>,
}

fn main() -> Result<(), shoal::Error> {
    env_logger::init();
    let gpu = Gpu::blocking()?;
    println!("soak on {}", gpu.adapter_details());
    let kernels: Vec<Kernel> = [
        ("double.wgsl", DOUBLE),
        ("add_one.wgsl", ADD_ONE),
        ("sum.wgsl", SUM),
    ]
    .into_iter()
    .map(|(name, text)| gpu.kernel(Source::new(name, text)))
    .collect::<Result<_, _>>()?;
    let inputs: Vec<Vec<u32>> = SIZES
        .iter()
        .map(|&n| (0..n).map(|i| i % 1000).collect())
        .collect();
    let pool = Pool {
        a: inputs
            .iter()
            .map(|v| gpu.buffer_from(v))
            .collect::<Result<_, _>>()?,
        out: SIZES
            .iter()
            .map(|&n| gpu.buffer_zeroed(n as u64))
            .collect::<Result<_, _>>()?,
        total: gpu.buffer_zeroed(1)?,
        inputs,
    };
    // Seeded: the workload is the same on every run.
    let mut rng = SplitMix64::new(15);
    let started = Instant::now();
    let (mut dispatched, mut read) = (0u64, 0u64);
    let mut baseline = None;
    while dispatched < DISPATCHES {
        if baseline.is_none() && dispatched >= WARM_UP {
            // One large buffer before the baseline too: the driver's allocator warmed up to it.
            large_buffer(&gpu, &kernels[1])?;
            baseline = Some((live(&gpu), memory_mib("VmRSS:"), Instant::now(), dispatched));
        }
        // A batch of 1 to 8 dispatches of random kernels on random buffers, then one readback.
        let batch = (1 + rng.next_u64() % 8).min(DISPATCHES - dispatched);
        let mut commands = gpu.commands();
        for _ in 0..batch {
            let p = (rng.next_u64() % SIZES.len() as u64) as usize;
            let n = SIZES[p] as u64;
            let d = match rng.next_u64() % 3 {
                0 => kernels[0].bind("a", &pool.a[p]).bind("out", &pool.out[p]),
                1 => kernels[1].bind("out", &pool.out[p]),
                _ => kernels[2].bind("a", &pool.a[p]).bind("total", &pool.total),
            };
            d.invocations(n).record(&mut commands)?;
        }
        commands.submit()?;
        dispatched += batch;
        // One readback per ten dispatches: check a double, or round-trip a short-lived buffer.
        while read < READBACKS && read * 10 < dispatched {
            read += 1;
            readback(&gpu, &kernels, &pool, &mut rng, read)?;
            if read.is_multiple_of(500) {
                transient_kernel(&gpu, &pool)?;
                large_buffer(&gpu, &kernels[1])?;
            }
        }
    }
    let (counts, rss, since, from) =
        baseline.unwrap_or_else(|| (live(&gpu), memory_mib("VmRSS:"), started, 0));
    let end = live(&gpu);
    let rss_end = memory_mib("VmRSS:");
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{dispatched} dispatches, {read} readbacks in {seconds:.1} s ({:.0} dispatches/s after warm-up)",
        (dispatched - from) as f64 / since.elapsed().as_secs_f64()
    );
    println!("{:<20} {:>9} {:>9}", "live resources", "baseline", "end");
    let mut same = true;
    for ((name, before), (_, after)) in counts.iter().zip(&end) {
        println!("{name:<20} {before:>9} {after:>9}");
        same &= before == after;
    }
    let growth = rss_end - rss;
    println!(
        "resident memory: {rss:.1} MiB after warm-up, {rss_end:.1} MiB at the end (+{growth:.1} MiB; bound {RSS_BOUND_MIB} MiB), peak {:.1} MiB",
        memory_mib("VmHWM:")
    );
    println!("staging pool: {} KiB kept", gpu.staging_bytes() / 1024);
    if !same || growth > RSS_BOUND_MIB || counts.is_empty() {
        eprintln!(
            "soak FAILED: {}",
            if counts.is_empty() {
                "no resource report from wgpu"
            } else if !same {
                "resource counts did not return to the baseline"
            } else {
                "resident memory grew past the bound"
            }
        );
        std::process::exit(1);
    }
    println!("soak ok");
    Ok(())
}

/// Readback number `n`: every tenth round-trips a buffer made for it (and dropped after);
/// the others run `double` on a pool buffer and check a random range of its output.
fn readback(
    gpu: &Gpu,
    kernels: &[Kernel],
    pool: &Pool,
    rng: &mut SplitMix64,
    n: u64,
) -> Result<(), shoal::Error> {
    if n.is_multiple_of(10) {
        let len = SIZES[(rng.next_u64() % SIZES.len() as u64) as usize] as usize;
        let data: Vec<u32> = (0..len as u32).map(|i| i ^ n as u32).collect();
        // Bound once to a long-lived kernel, then dropped: the kernel's bind-group cache must
        // let it go (the bind-group count comes back to its baseline).
        let buffer = gpu.buffer_from(&data)?;
        kernels[1]
            .bind("out", &buffer)
            .invocations(len as u64)
            .run()?;
        let got = buffer.read_blocking()?;
        let want: Vec<u32> = data.iter().map(|v| v + 1).collect();
        assert_eq!(got, want, "a short-lived buffer through add_one");
        return Ok(());
    }
    let p = (rng.next_u64() % SIZES.len() as u64) as usize;
    let len = SIZES[p] as u64;
    kernels[0]
        .bind("a", &pool.a[p])
        .bind("out", &pool.out[p])
        .invocations(len)
        .run()?;
    let start = rng.next_u64() % len;
    let end = start + 1 + rng.next_u64() % (len - start);
    let got = pollster::block_on(pool.out[p].read_range(start..end))?;
    let want: Vec<u32> = pool.inputs[p][start as usize..end as usize]
        .iter()
        .map(|v| 2 * v)
        .collect();
    assert_eq!(got, want, "double on {len} elements, range {start}..{end}");
    Ok(())
}

/// A 16 MiB buffer bound to a long-lived kernel and dropped (20 in the run): its memory must
/// go with it, not stay in the kernel's bind-group cache (320 MiB of resident memory if kept).
fn large_buffer(gpu: &Gpu, add_one: &Kernel) -> Result<(), shoal::Error> {
    let large = gpu.buffer_zeroed::<u32>(LARGE)?;
    add_one.bind("out", &large).invocations(LARGE).run()?;
    let got = pollster::block_on(large.read_range(LARGE - 1..LARGE))?;
    assert_eq!(got, [1], "add_one on a large buffer");
    Ok(())
}

/// A kernel made, run once and dropped: its pipeline, layouts and bind groups must go with it.
fn transient_kernel(gpu: &Gpu, pool: &Pool) -> Result<(), shoal::Error> {
    let k = gpu.kernel(Source::new("transient.wgsl", ADD_ONE))?;
    k.bind("out", &pool.out[0]).invocations(1).run()?;
    Ok(())
}
