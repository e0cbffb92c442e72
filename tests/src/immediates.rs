//! Immediate data (`var<immediate>`): blocks of 4, 16, 64, 136 and 160 bytes set per dispatch
//! with `Dispatch::immediates`, several dispatches with different values in one batch, each read
//! back against the CPU, on both paths: `set_immediates` where the device takes the block, and
//! the binding Shoal owns elsewhere (a device whose `IMMEDIATES` is withheld, a block past
//! `max_immediate_size`, the browser). And the typed errors of a wrong value, on both paths.

use shoal::encase::ShaderType;
use shoal::glam::{UVec4, Vec2, Vec3, Vec4};
use shoal::{BindingKind, Element, Error, Gpu, ImmediateError, Kernel, Source};

use crate::gpu_test;

/// `out[i] = input[i] + add`: a 4-byte block.
const ADD: &str = "
var<immediate> add: u32;
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn add_u32(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = input[id.x] + add; }
}";

/// A 16-byte block of a vector and scalars: `out[i] = input[i] * scale.x + scale.y + bias`
/// for `i < n`, the rest left as they were.
const AFFINE: &str = "
struct Affine { scale: vec2<f32>, bias: f32, n: u32 }
var<immediate> p: Affine;
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn affine(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < min(p.n, arrayLength(&out)) { out[id.x] = input[id.x] * p.scale.x + p.scale.y + p.bias; }
}";

#[derive(ShaderType, Clone, Copy)]
struct Affine {
    scale: Vec2,
    bias: f32,
    n: u32,
}

/// A 64-byte block with a vec3 followed by a scalar in its padding.
const MIXED: &str = "
struct Mixed { a: vec4<f32>, b: vec4<f32>, c: vec4<u32>, d: vec3<f32>, k: u32 }
var<immediate> m: Mixed;
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn mixed(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i < arrayLength(&out) {
        let j = (i + m.k) % 4u;
        out[i] = input[i] * m.a[j] + m.b[j] + f32(m.c[j]) + m.d[j % 3u];
    }
}";

#[derive(ShaderType, Clone, Copy)]
struct Mixed {
    a: Vec4,
    b: Vec4,
    c: UVec4,
    d: Vec3,
    k: u32,
}

/// A 136-byte block whose `array<f32, 32>` is not a valid uniform layout: past lavapipe's 128
/// bytes it is read from a read-only storage binding.
const WEIGHTS: &str = "
struct Weights { w: array<f32, 32>, bias: f32, n: u32 }
var<immediate> weights: Weights;
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn weigh(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i < arrayLength(&out) { out[i] = input[i] * weights.w[(i + weights.n) % 32u] + weights.bias; }
}";

#[derive(ShaderType, Clone, Copy)]
struct Weights {
    w: [f32; 32],
    bias: f32,
    n: u32,
}

/// A 160-byte block that is a valid uniform layout: past 128 bytes it is read from a uniform.
const WIDE: &str = "
struct Wide { v: array<vec4<f32>, 9>, n: u32 }
var<immediate> wide: Wide;
@group(1) @binding(0) var<storage, read> input: array<f32>;
@group(1) @binding(3) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn wide_sum(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i < arrayLength(&out) { out[i] = input[i] + wide.v[(i + wide.n) % 9u][i % 4u]; }
}";

#[derive(ShaderType, Clone, Copy)]
struct Wide {
    v: [Vec4; 9],
    n: u32,
}

/// The sizes each kernel runs over: none, one, the work group and its neighbours, and more.
const SIZES: [usize; 7] = [0, 1, 63, 64, 65, 100, 257];

/// The devices to run on: the shared one, and natively one whose `IMMEDIATES` is withheld, on
/// which every block is read from a binding (in the browser the shared device is that already).
async fn devices(gpu: Gpu) -> Vec<Gpu> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static WITHHELD: std::sync::OnceLock<Gpu> = std::sync::OnceLock::new();
        let withheld = WITHHELD.get_or_init(|| {
            let options = shoal::GpuOptions {
                withheld_features: shoal::wgpu::Features::IMMEDIATES,
                ..Default::default()
            };
            pollster::block_on(Gpu::with_options(options)).expect("a device without immediates")
        });
        assert_eq!(withheld.max_immediate_size(), 0);
        let limit = gpu.max_immediate_size();
        crate::harness::report(&format!(
            "immediate data: {limit} bytes natively on {}",
            gpu.adapter_details()
        ));
        vec![gpu, withheld.clone()]
    }
    #[cfg(target_arch = "wasm32")]
    {
        assert_eq!(
            gpu.max_immediate_size(),
            0,
            "the browser takes no immediate data"
        );
        vec![gpu]
    }
}

/// Checks which path `kernel` took on `gpu`: `set_immediates` when the block fits the device,
/// else a binding of `kind` named after the block, in a group the kernel already binds.
fn check_path(gpu: &Gpu, kernel: &Kernel, bytes: u32, kind: BindingKind) {
    let info = kernel
        .reflection()
        .immediates
        .as_ref()
        .expect("immediate data reflected");
    assert_eq!(info.size(), bytes, "{}", kernel.name());
    match &info.binding {
        None => assert!(bytes <= gpu.max_immediate_size(), "{}", kernel.name()),
        Some(b) => {
            assert!(bytes > gpu.max_immediate_size(), "{}", kernel.name());
            assert_eq!(
                (b.kind.clone(), b.name.as_str()),
                (kind, info.name.as_str())
            );
            let r = kernel.reflection();
            assert!(
                r.bindings
                    .iter()
                    .any(|o| o.group == b.group && o.name != b.name)
            );
            let same = r
                .bindings
                .iter()
                .filter(|o| (o.group, o.binding) == (b.group, b.binding));
            assert_eq!(same.count(), 1, "the binding collides with none");
        }
    }
}

/// Runs `kernel` over every size with three values recorded in one batch (one output each),
/// and compares each output with `cpu(value, input, i)`; outputs start at a marker so elements
/// a dispatch must not write are checked too.
async fn three_values<T: Element + Copy, E: Element + Copy + PartialEq + std::fmt::Debug>(
    gpu: &Gpu,
    kernel: &Kernel,
    values: [T; 3],
    input: impl Fn(usize) -> E,
    marker: E,
    cpu: impl Fn(&T, &[E], usize) -> E,
) {
    for n in SIZES {
        let data: Vec<E> = (0..n).map(&input).collect();
        let input_buffer = gpu.buffer_from(&data).expect("input");
        let outs: Vec<_> = (0..3)
            .map(|_| gpu.buffer_from(&vec![marker; n]).expect("out"))
            .collect();
        let mut commands = gpu.commands();
        for (value, out) in values.iter().zip(&outs) {
            let dispatch = kernel.bind("input", &input_buffer).bind("out", out);
            dispatch
                .immediates(value)
                .invocations(n as u64)
                .record(&mut commands)
                .expect("recorded");
        }
        commands
            .submit()
            .expect("submitted")
            .wait()
            .await
            .expect("ran");
        for (k, (value, out)) in values.iter().zip(&outs).enumerate() {
            let expected: Vec<E> = (0..n).map(|i| cpu(value, &data, i)).collect();
            let got = out.read().await.expect("read");
            assert_eq!(
                got,
                expected,
                "{} value {k} over {n} on {}",
                kernel.name(),
                gpu.adapter_details()
            );
        }
    }
}

gpu_test! {
    /// A u32 block, set per dispatch.
    async fn four_bytes_of_immediate_data(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("add.wgsl", ADD)).expect("kernel");
            check_path(&gpu, &kernel, 4, BindingKind::Uniform);
            let cpu = |add: &u32, d: &[u32], i: usize| d[i] + add;
            three_values(&gpu, &kernel, [7u32, 0, 1 << 20], |i| i as u32 * 3, u32::MAX, cpu).await;
        }
    }

    /// A vec2 and two scalars; elements past the block's `n` stay unwritten.
    async fn sixteen_bytes_of_immediate_data(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("affine.wgsl", AFFINE)).expect("kernel");
            check_path(&gpu, &kernel, 16, BindingKind::Uniform);
            let values = [
                Affine { scale: Vec2::new(2.0, 0.5), bias: -1.0, n: 1000 },
                Affine { scale: Vec2::new(-0.25, 3.0), bias: 4.0, n: 64 },
                Affine { scale: Vec2::new(1.0, 0.0), bias: 0.0, n: 1 },
            ];
            let cpu = |p: &Affine, d: &[f32], i: usize| match i < p.n as usize {
                true => d[i] * p.scale.x + p.scale.y + p.bias,
                false => -7.0,
            };
            three_values(&gpu, &kernel, values, |i| i as f32, -7.0, cpu).await;
        }
    }

    /// 64 bytes: vectors of f32 and u32, and a u32 in a vec3's padding.
    async fn sixty_four_bytes_of_immediate_data(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("mixed.wgsl", MIXED)).expect("kernel");
            check_path(&gpu, &kernel, 64, BindingKind::Uniform);
            let value = |s: f32, k: u32| Mixed {
                a: Vec4::new(1.0, 2.0, -1.0, 0.5) * s,
                b: Vec4::new(10.0, 20.0, 30.0, 40.0),
                c: UVec4::new(1, 2, 3, 4 + k),
                d: Vec3::new(0.25, 0.5, 0.75) * s,
                k,
            };
            let cpu = |m: &Mixed, d: &[f32], i: usize| {
                let j = (i + m.k as usize) % 4;
                d[i] * m.a[j] + m.b[j] + m.c[j] as f32 + m.d[j % 3]
            };
            let values = [value(1.0, 0), value(2.0, 3), value(-4.0, 1)];
            three_values(&gpu, &kernel, values, |i| (i % 17) as f32, 0.0, cpu).await;
        }
    }

    /// 136 bytes with an array of f32: set natively where the device takes 136 bytes (GL),
    /// else read from a read-only storage binding (lavapipe's 128 bytes, the browser).
    async fn an_array_block_past_the_limit_reads_a_storage_binding(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("weights.wgsl", WEIGHTS)).expect("kernel");
            check_path(&gpu, &kernel, 136, BindingKind::Storage { writable: false });
            let value = |s: f32, n: u32| Weights {
                w: std::array::from_fn(|i| (i as f32 - 16.0) * s),
                bias: s,
                n,
            };
            let cpu = |p: &Weights, d: &[f32], i: usize| {
                d[i] * p.w[(i + p.n as usize) % 32] + p.bias
            };
            let values = [value(1.0, 0), value(0.5, 5), value(-2.0, 31)];
            three_values(&gpu, &kernel, values, |i| (i % 9) as f32, 0.0, cpu).await;
        }
    }

    /// 160 bytes of vectors, bound in group 1 beside bindings 0 and 3: past 128 bytes it is read
    /// from a uniform in group 1 at a binding that collides with neither.
    async fn a_vector_block_past_the_limit_reads_a_uniform_binding(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("wide.wgsl", WIDE)).expect("kernel");
            check_path(&gpu, &kernel, 160, BindingKind::Uniform);
            if let Some(b) = &kernel.reflection().immediates.as_ref().and_then(|i| i.binding.clone()) {
                assert_eq!((b.group, b.binding), (1, 4));
            }
            let value = |s: f32, n: u32| Wide {
                v: std::array::from_fn(|k| Vec4::new(k as f32, 1.0, -(k as f32), 0.5) * s),
                n,
            };
            let cpu = |p: &Wide, d: &[f32], i: usize| d[i] + p.v[(i + p.n as usize) % 9][i % 4];
            let values = [value(1.0, 0), value(3.0, 4), value(-0.5, 8)];
            three_values(&gpu, &kernel, values, |i| i as f32, 0.0, cpu).await;
        }
    }

    /// A kernel run again and again in one batch, each dispatch adding its own value: each
    /// sees its value, in order, on both paths.
    async fn dispatches_of_one_batch_each_see_their_value(gpu) {
        for gpu in devices(gpu).await {
            let kernel = gpu.kernel(Source::new("add.wgsl", ADD)).expect("kernel");
            let copy = gpu.kernel(Source::new("add.wgsl", ADD)).expect("kernel");
            let a = gpu.buffer_from(&[1u32, 2, 3]).expect("a");
            let b = gpu.buffer_zeroed::<u32>(3).expect("b");
            let mut commands = gpu.commands();
            for k in 0..8u32 {
                let (from, to) = if k % 2 == 0 { (&a, &b) } else { (&b, &a) };
                let k = 1u32 << k;
                kernel.bind("input", from).bind("out", to).immediates(&k).invocations(3).record(&mut commands).expect("recorded");
            }
            copy.bind("input", &a).bind("out", &b).immediates(&0u32).groups([1, 1, 1]).record(&mut commands).expect("recorded");
            commands.submit().expect("submitted").wait().await.expect("ran");
            assert_eq!(b.read().await.expect("b"), [256, 257, 258], "on {}", gpu.adapter_details());
            // Alone too: run() records the value as a batch does.
            kernel.bind("input", &a).bind("out", &b).immediates(&5u32).invocations(3).run().expect("run");
            assert_eq!(b.read().await.expect("b"), [261, 262, 263]);
        }
    }

    /// `validate` reflects the block without a device, as every binding.
    async fn validate_reflects_immediate_data(_gpu) {
        let reflected = shoal::validate(&Source::new("affine.wgsl", AFFINE)).expect("valid");
        let info = reflected[0].immediates.as_ref().expect("immediate data");
        assert_eq!((info.name.as_str(), info.shape.wgsl_type.as_str(), info.size()), ("p", "Affine", 16));
        assert_eq!(info.binding, None);
        assert_eq!(reflected[0].bindings.len(), 2);
    }

    /// The same mistakes are the same typed errors on both paths, before anything is recorded.
    async fn immediate_data_mistakes_are_typed_errors(gpu) {
        for gpu in devices(gpu).await {
            let affine = gpu.kernel(Source::new("affine.wgsl", AFFINE)).expect("kernel");
            let add = gpu.kernel(Source::new("add.wgsl", ADD)).expect("kernel");
            let plain = gpu.kernel(Source::new("plain.wgsl", "
                @group(0) @binding(0) var<storage, read_write> out: array<u32>;
                @compute @workgroup_size(1) fn plain() { out[0] = 1u; }")).expect("kernel");
            let (fin, fout) = (gpu.buffer_zeroed::<f32>(4).expect("in"), gpu.buffer_zeroed::<f32>(4).expect("out"));
            let (uin, uout) = (gpu.buffer_zeroed::<u32>(4).expect("in"), gpu.buffer_zeroed::<u32>(4).expect("out"));
            let bound = |k| bound_to(k, &fin, &fout);

            let e = bound(&affine).immediates(&[1.0f32; 3]).groups([1, 1, 1]).run().expect_err("12 bytes");
            assert!(matches!(&e, Error::Immediates(ImmediateError::Layout { wgsl_bytes: 16, rust_bytes: 12, .. })), "{e:?}");
            assert_names(&e, &["affine.wgsl:affine", "var<immediate> p: Affine", "16 bytes", "[f32; 3]", "12 bytes"]);

            let e = add.bind("input", &uin).bind("out", &uout).immediates(&1.5f32).groups([1, 1, 1]).run().expect_err("f32 for u32");
            assert!(matches!(&e, Error::Immediates(ImmediateError::Layout { .. })), "{e:?}");
            assert_names(&e, &["add.wgsl:add_u32", "var<immediate> add: u32", "scalars are f32", "u32"]);

            let e = plain.bind("out", &uout).immediates(&1u32).groups([1, 1, 1]).run().expect_err("none declared");
            assert!(matches!(&e, Error::Immediates(ImmediateError::NotDeclared { .. })), "{e:?}");
            assert_names(&e, &["plain.wgsl:plain", "declares no immediate data", "`u32`", "remove the call"]);

            let mut commands = gpu.commands();
            let e = bound(&affine).groups([1, 1, 1]).record(&mut commands).expect_err("not given");
            assert!(matches!(&e, Error::Immediates(ImmediateError::Missing { wgsl_bytes: 16, .. })), "{e:?}");
            assert_names(&e, &["affine.wgsl:affine", "var<immediate> p: Affine", "was not given", ".immediates(&value)", "16 bytes"]);
            // Refused even where it would run nothing.
            let e = bound(&affine).groups([0, 1, 1]).run().expect_err("not given");
            assert!(matches!(&e, Error::Immediates(ImmediateError::Missing { .. })), "{e:?}");

            let e = bound(&affine).bind("p", &fin).immediates(&Affine { scale: Vec2::ONE, bias: 0.0, n: 4 }).groups([1, 1, 1]).run().expect_err("bound by name");
            assert!(matches!(&e, Error::Immediates(ImmediateError::Bound { .. })), "{e:?}");
            assert_names(&e, &["affine.wgsl:affine", "`p` is immediate data", ".immediates(&value), not .bind"]);
            // Nothing was recorded: the batch still submits, and the outputs are untouched.
            commands.submit().expect("an empty batch").wait().await.expect("ran");
            assert_eq!(fout.read().await.expect("out"), [0.0; 4]);
        }
    }
}

/// `kernel` with `input` and `out` bound.
fn bound_to<'a>(
    kernel: &'a Kernel,
    input: &'a shoal::Buffer<f32>,
    out: &'a shoal::Buffer<f32>,
) -> shoal::Dispatch<'a> {
    kernel.bind("input", input).bind("out", out)
}

fn assert_names(e: &Error, parts: &[&str]) {
    let message = e.to_string();
    for part in parts {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}
