//! The programs of the conformance suite: the specification's semantics and the documents'
//! first examples, each checked against a CPU reference. Each returns what it verified, or why
//! it failed.

use std::future::Future;
use std::pin::Pin;

use shoal::{DispatchArgs, Gpu, Usage};

use crate::rng::Rng;

/// Why a program's output is wrong (or Shoal refused to run it).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<shoal::Error> for Failure {
    fn from(e: shoal::Error) -> Self {
        Self(e.to_string())
    }
}

/// What a program verified, or its failure.
pub type Outcome = Result<String, Failure>;

/// A program of the suite.
pub type Program = for<'a> fn(&'a Gpu) -> Pin<Box<dyn Future<Output = Outcome> + 'a>>;

/// Every program, by name, for the showcase.
pub const ALL: &[(&str, Program)] = &[
    ("built-in IDs (spec formulas)", |g| Box::pin(builtin_ids(g))),
    ("shared memory + barrier shift (the OpenGL lesson's)", |g| {
        Box::pin(shift(g))
    }),
    ("VecAdd table (the Direct3D 12 book's)", |g| {
        Box::pin(vecadd(g))
    }),
    ("element-wise multiply (ARM's GLES introduction)", |g| {
        Box::pin(multiply(g))
    }),
    ("vector lengths (the Direct3D 12 book's exercise 1)", |g| {
        Box::pin(vector_lengths(g))
    }),
    ("indirect dispatch", |g| Box::pin(indirect(g))),
    ("folded 1D dispatch > 65535 groups", |g| {
        Box::pin(folding(g))
    }),
    ("dependent chain in one batch", |g| {
        Box::pin(dependent_chain(g))
    }),
];

fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failure> {
    if ok { Ok(()) } else { Err(Failure(message())) }
}

/// The work-group shape for the built-in ID test: (4, 7, 10) = 280 invocations, or (4, 7, z)
/// with z as large as the device allows.
pub fn builtin_ids_shape(gpu: &Gpu) -> [u32; 3] {
    let l = gpu.limits();
    let z = (l.max_compute_work_group_invocations / 28)
        .min(10)
        .min(l.max_compute_work_group_size[2]);
    [4, 7, z]
}

/// Dispatches (3, 4, 8) groups of the built-in ID kernel and checks every invocation's
/// `workgroup_id`, `local_invocation_id`, `global_invocation_id`, `local_invocation_index` and
/// `num_workgroups` against the specification's formulas.
pub async fn builtin_ids(gpu: &Gpu) -> Outcome {
    let size = builtin_ids_shape(gpu);
    let kernel = gpu
        .kernel_builder(shoal::wgsl!("../../wgsl/conformance/builtin_ids.wgsl"))
        .constant("X", size[0])
        .constant("Y", size[1])
        .constant("Z", size[2])
        .build()?;
    check(kernel.workgroup_size() == size, || {
        format!("reflected {:?}, set {size:?}", kernel.workgroup_size())
    })?;
    let groups = [3u32, 4, 8];
    let total = (0..3)
        .map(|i| (groups[i] * size[i]) as u64)
        .product::<u64>();
    let records = gpu.buffer_zeroed::<u32>(total * 16)?;
    kernel.bind("records", &records).groups(groups).run()?;
    let r = records.read().await?;
    let dims = [
        groups[0] * size[0],
        groups[1] * size[1],
        groups[2] * size[2],
    ];
    for gz in 0..dims[2] {
        for gy in 0..dims[1] {
            for gx in 0..dims[0] {
                let slot = ((gz * dims[1] + gy) * dims[0] + gx) as usize;
                let rec = &r[slot * 16..slot * 16 + 16];
                let gid = [gx, gy, gz];
                let wid = [0, 1, 2].map(|i| gid[i] / size[i]);
                let lid = [0, 1, 2].map(|i| gid[i] % size[i]);
                let index = lid[2] * size[0] * size[1] + lid[1] * size[0] + lid[0];
                let expected = [
                    wid[0], wid[1], wid[2], lid[0], lid[1], lid[2], gx, gy, gz, groups[0],
                    groups[1], groups[2], index, 1,
                ];
                check(rec[..14] == expected, || {
                    format!(
                        "invocation {gid:?}: recorded {:?}, the specification gives {expected:?}",
                        &rec[..14]
                    )
                })?;
            }
        }
    }
    Ok(format!(
        "{total} invocations, work group {size:?} x groups {groups:?}"
    ))
}

/// The shift-by-one of the OpenGL compute-shader lesson: every value moves one invocation to the right within its work group.
pub async fn shift(gpu: &Gpu) -> Outcome {
    let n = gpu.max_workgroup_1d(1024);
    let kernel = gpu
        .kernel_builder(shoal::wgsl!("../../wgsl/conformance/shift.wgsl"))
        .constant("N", n)
        .build()?;
    shift_with(gpu, &kernel).await
}

/// The lesson's shift by `kernel` (the WGSL above, or its GLSL twin `wgsl/glsl/shift.comp`), which
/// binds `values` and `shifted` and shifts within work groups of its reflected size, checked
/// over three work groups.
pub async fn shift_with(gpu: &Gpu, kernel: &shoal::Kernel) -> Outcome {
    let n = kernel.workgroup_size()[0];
    let groups = 3u32;
    let mut rng = Rng::new(7);
    let values: Vec<u32> = (0..n * groups).map(|_| rng.next_u32()).collect();
    let input = gpu.buffer_from(&values)?;
    let output = gpu.buffer_zeroed::<u32>(values.len() as u64)?;
    kernel
        .bind("values", &input)
        .bind("shifted", &output)
        .groups([groups, 1, 1])
        .run()?;
    let got = output.read().await?;
    let expected: Vec<u32> = (0..n * groups)
        .map(|i| {
            let (g, l) = (i / n, i % n);
            values[(g * n + (l + n - 1) % n) as usize]
        })
        .collect();
    let wrong = got.iter().zip(&expected).filter(|(a, b)| a != b).count();
    check(wrong == 0, || {
        format!("{wrong} of {} values not shifted by one", expected.len())
    })?;
    Ok(format!("{groups} work groups of {n}, exact"))
}

/// The document's VecAdd element.
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
pub struct Data {
    /// `float3 v1`.
    pub v1: glam::Vec3,
    /// `float2 v2`.
    pub v2: glam::Vec2,
}

/// The inputs as the book builds them: `a[i] = ((i, i, i), (i, 0))`, `b[i] = ((-i, i, 0), (0, -i))`.
pub fn vecadd_inputs(n: usize) -> (Vec<Data>, Vec<Data>) {
    let a = (0..n)
        .map(|i| {
            let x = i as f32;
            Data {
                v1: glam::vec3(x, x, x),
                v2: glam::vec2(x, 0.0),
            }
        })
        .collect();
    let b = (0..n)
        .map(|i| {
            let x = i as f32;
            Data {
                v1: glam::vec3(-x, x, 0.0),
                v2: glam::vec2(0.0, -x),
            }
        })
        .collect();
    (a, b)
}

/// The result file the book prints (the Direct3D 12 book, §13.3.5), row by row.
pub const VECADD_TABLE: &str = "(0, 0, 0, 0, 0)
(0, 2, 1, 1, -1)
(0, 4, 2, 2, -2)
(0, 6, 3, 3, -3)
(0, 8, 4, 4, -4)
(0, 10, 5, 5, -5)
(0, 12, 6, 6, -6)
(0, 14, 7, 7, -7)
(0, 16, 8, 8, -8)
(0, 18, 9, 9, -9)
(0, 20, 10, 10, -10)
(0, 22, 11, 11, -11)
(0, 24, 12, 12, -12)
(0, 26, 13, 13, -13)
(0, 28, 14, 14, -14)
(0, 30, 15, 15, -15)
(0, 32, 16, 16, -16)
(0, 34, 17, 17, -17)
(0, 36, 18, 18, -18)
(0, 38, 19, 19, -19)
(0, 40, 20, 20, -20)
(0, 42, 21, 21, -21)
(0, 44, 22, 22, -22)
(0, 46, 23, 23, -23)
(0, 48, 24, 24, -24)
(0, 50, 25, 25, -25)
(0, 52, 26, 26, -26)
(0, 54, 27, 27, -27)
(0, 56, 28, 28, -28)
(0, 58, 29, 29, -29)
(0, 60, 30, 30, -30)
(0, 62, 31, 31, -31)";

/// Formats one result row as the book's program prints it.
pub fn vecadd_row(d: &Data) -> String {
    // `+ 0.0` turns -0 into 0, as C++ streams print it.
    let f = |x: f32| format!("{}", x + 0.0);
    format!(
        "({}, {}, {}, {}, {})",
        f(d.v1.x),
        f(d.v1.y),
        f(d.v1.z),
        f(d.v2.x),
        f(d.v2.y)
    )
}

/// VecAdd: 32 elements, one group of 32; the output equals the book's table row by row.
pub async fn vecadd(gpu: &Gpu) -> Outcome {
    let (a, b) = vecadd_inputs(32);
    let (a, b) = (gpu.buffer_from(&a)?, gpu.buffer_from(&b)?);
    let out = gpu.buffer_zeroed::<Data>(32)?;
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/vecadd.wgsl"))?;
    kernel
        .bind("input_a", &a)
        .bind("input_b", &b)
        .bind("output", &out)
        .invocations(32)
        .run()?;
    let rows: Vec<String> = out.read().await?.iter().map(vecadd_row).collect();
    for (i, (got, want)) in rows.iter().zip(VECADD_TABLE.lines()).enumerate() {
        check(got == want, || {
            format!("row {i}: got {got}, the book prints {want}")
        })?;
    }
    check(rows.len() == 32, || format!("{} rows", rows.len()))?;
    // Past the book's one work group: a lone element, a work group's neighbours, a ragged
    // multi-group size, with inputs of their own (random, so a swapped field or an index off by
    // one shows), each element against its sum written here.
    let mut rng = Rng::new(13);
    for n in [1usize, 31, 33, 1000] {
        let mut data = || -> Vec<Data> {
            (0..n)
                .map(|_| Data {
                    v1: glam::vec3(
                        rng.range_f32(-100.0, 100.0),
                        rng.range_f32(-100.0, 100.0),
                        rng.range_f32(-100.0, 100.0),
                    ),
                    v2: glam::vec2(rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0)),
                })
                .collect()
        };
        let (a, b) = (data(), data());
        let out = gpu.buffer_from(&vec![
            Data {
                v1: glam::Vec3::NAN,
                v2: glam::Vec2::NAN
            };
            n
        ])?;
        kernel
            .bind("input_a", &gpu.buffer_from(&a)?)
            .bind("input_b", &gpu.buffer_from(&b)?)
            .bind("output", &out)
            .invocations(n as u64)
            .run()?;
        let got = out.read().await?;
        for i in 0..n {
            let want = Data {
                v1: glam::vec3(
                    a[i].v1.x + b[i].v1.x,
                    a[i].v1.y + b[i].v1.y,
                    a[i].v1.z + b[i].v1.z,
                ),
                v2: glam::vec2(a[i].v2.x + b[i].v2.x, a[i].v2.y + b[i].v2.y),
            };
            check(got[i] == want, || {
                format!("n = {n}, element {i}: got {:?}, want {want:?}", got[i])
            })?;
        }
    }
    Ok("32 rows equal the book's printed table; 1, 31, 33 and 1,000 elements their sums".into())
}

/// The multiply of ARM's OpenGL ES introduction over vec4 arrays of many lengths (the kernel bounds itself with arrayLength).
pub async fn multiply(gpu: &Gpu) -> Outcome {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/multiply.wgsl"))?;
    multiply_with(gpu, &kernel).await
}

/// That multiply by `kernel` (the WGSL above, or its GLSL twin `wgsl/glsl/multiply.comp`),
/// which binds `output_data`, `input_data0` and `input_data1`.
pub async fn multiply_with(gpu: &Gpu, kernel: &shoal::Kernel) -> Outcome {
    let mut rng = Rng::new(4);
    let lengths = [1u64, 127, 128, 129, 1000, 4099, 65537];
    for &n in &lengths {
        let x: Vec<glam::Vec4> = (0..n)
            .map(|_| glam::Vec4::from_array([0; 4].map(|_| rng.range_f32(-8.0, 8.0))))
            .collect();
        let y: Vec<glam::Vec4> = (0..n)
            .map(|_| glam::Vec4::from_array([0; 4].map(|_| rng.range_f32(-8.0, 8.0))))
            .collect();
        let (bx, by) = (gpu.buffer_from(&x)?, gpu.buffer_from(&y)?);
        let out = gpu.buffer_zeroed::<glam::Vec4>(n)?;
        kernel
            .bind("output_data", &out)
            .bind("input_data0", &bx)
            .bind("input_data1", &by)
            .invocations(n)
            .run()?;
        let got = out.read().await?;
        for i in 0..n as usize {
            // One f32 multiply per lane on both sides: exactly equal.
            check(got[i] == x[i] * y[i], || {
                format!("n = {n}, element {i}: {} != {}", got[i], x[i] * y[i])
            })?;
        }
    }
    Ok(format!("exact for n in {lengths:?}"))
}

/// Exercise 1 of the Direct3D 12 book's chapter: 64 random vectors with magnitudes in [1, 10]; every length in [1, 10]
/// and within 1e-5 (relative) of the CPU's.
pub async fn vector_lengths(gpu: &Gpu) -> Outcome {
    let mut rng = Rng::new(64);
    let vectors: Vec<glam::Vec3> = (0..64)
        .map(|_| {
            let dir = loop {
                let v = glam::vec3(
                    rng.range_f32(-1.0, 1.0),
                    rng.range_f32(-1.0, 1.0),
                    rng.range_f32(-1.0, 1.0),
                );
                if v.length() > 0.1 {
                    break v.normalize();
                }
            };
            dir * rng.range_f32(1.0, 10.0)
        })
        .collect();
    let input = gpu.buffer_from(&vectors)?;
    let lengths = gpu.buffer_zeroed::<f32>(64)?;
    gpu.kernel(shoal::wgsl!("../../wgsl/conformance/vector_length.wgsl"))?
        .bind("vectors", &input)
        .bind("lengths", &lengths)
        .invocations(64)
        .run()?;
    let got = lengths.read().await?;
    let mut worst = 0.0f64;
    for (v, &l) in vectors.iter().zip(&got) {
        let cpu = (v.x as f64).hypot(v.y as f64).hypot(v.z as f64);
        let rel = ((l as f64 - cpu) / cpu).abs();
        worst = worst.max(rel);
        check((1.0 - 1e-5..=10.0 + 1e-5).contains(&(l as f64)), || {
            format!("length {l} of {v} is outside [1, 10]")
        })?;
        check(rel <= 1e-5, || {
            format!("length of {v}: GPU {l}, CPU {cpu}, relative error {rel:e}")
        })?;
    }
    Ok(format!(
        "64 lengths in [1, 10], worst relative error {worst:.1e}"
    ))
}

/// Indirect dispatch: arguments written by the CPU (offset 0) and by a kernel (offset 16) size
/// the next dispatch; zero counts dispatch nothing; offset 6 and arguments past the end are the
/// specification's errors.
pub async fn indirect(gpu: &Gpu) -> Outcome {
    let writer = gpu
        .kernel_builder(shoal::wgsl!("../../wgsl/conformance/indirect.wgsl"))
        .entry("write_args")
        .build()?;
    let counter = gpu
        .kernel_builder(shoal::wgsl!("../../wgsl/conformance/indirect.wgsl"))
        .entry("count_groups")
        .build()?;
    let cpu_args = gpu.buffer_from_with(&[DispatchArgs::new(2, 3, 1)], Usage::INDIRECT)?; // 6 groups
    let args = gpu.buffer_zeroed_with::<u32>(12, Usage::STORAGE | Usage::INDIRECT)?;
    args.write_at(8, &[0, 5, 1])?; // zero in x: nothing runs
    let wanted = gpu.uniform(&glam::UVec4::new(4, 1, 2, 4))?; // GPU-written: 8 groups at word 4
    writer
        .bind("args", &args)
        .bind("wanted", &wanted)
        .groups([1, 1, 1])
        .run()?;
    let cases = [
        (&cpu_args.raw().clone(), 0u64, 6u32),
        (args.raw(), 16, 8),
        (args.raw(), 32, 0),
    ];
    for (buffer, offset, groups) in cases {
        let ran = gpu.buffer_zeroed::<u32>(2)?;
        let buffer = shoal::Buffer::<u32>::from_raw(gpu, buffer.clone(), buffer.size() / 4)?;
        counter.bind("ran", &ran).indirect(&buffer, offset).run()?;
        let got = ran.read().await?;
        check(got == [groups, groups * 8], || {
            format!(
                "indirect at offset {offset}: {} groups / {} invocations ran, expected {groups} / {}",
                got[0],
                got[1],
                groups * 8
            )
        })?;
    }
    let ran = gpu.buffer_zeroed::<u32>(2)?;
    let bad_offset = counter.bind("ran", &ran).indirect(&args, 6).run();
    check(
        matches!(
            bad_offset,
            Err(shoal::Error::IndirectOffset { offset: 6, .. })
        ),
        || format!("offset 6 gave {bad_offset:?}"),
    )?;
    let past_end = counter.bind("ran", &ran).indirect(&args, 40).run();
    check(
        matches!(
            past_end,
            Err(shoal::Error::IndirectOutOfBounds { offset: 40, .. })
        ),
        || format!("offset 40 gave {past_end:?}"),
    )?;
    Ok("CPU args at 0 -> 6 groups, GPU args at 16 -> 8 groups, zero args -> none; offsets 6 and 40 refused".into())
}

/// `.invocations(65535 * 64 + 3)` with a 64-wide kernel: more groups than one dimension allows,
/// folded; every index is visited exactly once.
pub async fn folding(gpu: &Gpu) -> Outcome {
    let max = gpu.limits().max_compute_work_group_count[0] as u64;
    let n = max * 64 + 3;
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/fold.wgsl"))?;
    let visits = gpu.buffer_zeroed::<u32>(n)?;
    let count = gpu.uniform(&(n as u32))?;
    kernel
        .bind("visits", &visits)
        .bind("n", &count)
        .invocations(n)
        .run()?;
    let got = visits.read().await?;
    let wrong: Vec<usize> = got
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 1)
        .map(|(i, _)| i)
        .take(5)
        .collect();
    check(wrong.is_empty(), || {
        format!("indices visited other than once, first: {wrong:?}")
    })?;
    Ok(format!(
        "{n} indices ({} groups of 64) each visited once",
        n.div_ceil(64)
    ))
}

/// Sixteen dispatches of `x -> 2x + 1` over one buffer in one batch: each reads what the one
/// before wrote, so the result is `2^16 (x + 1) - 1` (mod 2^32) only if they run in order.
pub async fn dependent_chain(gpu: &Gpu) -> Outcome {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl"))?;
    let start: Vec<u32> = (0..1000).collect();
    let values = gpu.buffer_from(&start)?;
    let mut commands = gpu.commands();
    for _ in 0..16 {
        kernel
            .bind("values", &values)
            .invocations(1000)
            .record(&mut commands)?;
    }
    commands.submit()?;
    let got = values.read().await?;
    let expected: Vec<u32> = start
        .iter()
        .map(|&x| (0..16).fold(x, |v, _| v.wrapping_mul(2).wrapping_add(1)))
        .collect();
    check(got == expected, || {
        "the chain's result differs: dispatches were not ordered".into()
    })?;
    Ok("16 dependent dispatches in one batch, in order".into())
}
