//! Aliasing is an error on every backend: one buffer or image (or two views of its memory) bound to two
//! bindings of one dispatch, one of them writable, is `Error::Aliasing` naming the kernel and
//! both bindings; natively it would be a data race, and WebGPU refuses the dispatch. Two
//! read-only bindings of one buffer stay allowed.

use shoal::{Error, Gpu};

use crate::COPY;
use crate::gpu_test;

const TWO_OUTPUTS: &str = "
@group(0) @binding(0) var<storage, read_write> low: array<u32>;
@group(0) @binding(1) var<storage, read_write> high: array<u32>;
@compute @workgroup_size(1)
fn split() { low[0] = 1u; high[0] = 2u; }";

const ADD: &str = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> sum: array<u32>;
@compute @workgroup_size(64)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&sum) { sum[id.x] = a[id.x] + b[id.x]; }
}";

fn kernel(gpu: &Gpu, name: &str, src: &str) -> shoal::Kernel {
    gpu.kernel(shoal::Source::new(name, src)).expect("kernel")
}

fn is_aliasing(e: &Error, parts: &[&str]) {
    assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    let message = e.to_string();
    for part in parts
        .iter()
        .chain(&["same memory", "bind a separate buffer"])
    {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}

gpu_test! {
    async fn one_buffer_writable_and_read_only_is_an_error(gpu) {
    let k = kernel(&gpu, "copy.wgsl", COPY);
    let b = gpu.buffer_from(&[1u32, 2, 3]).expect("b");
    let e = k.bind("src", &b).bind("dst", &b).invocations(3).run().expect_err("aliased");
    is_aliasing(&e, &["copy.wgsl:copy", "`src` (read)", "`dst` (read_write)"]);
    }
}

gpu_test! {
    async fn one_buffer_writable_twice_is_an_error(gpu) {
    let k = kernel(&gpu, "split.wgsl", TWO_OUTPUTS);
    let b = gpu.buffer_zeroed::<u32>(2).expect("b");
    let e = k.bind("low", &b).bind("high", &b).groups([1, 1, 1]).run().expect_err("aliased");
    is_aliasing(&e, &["split.wgsl:split", "`low` (read_write)", "`high` (read_write)"]);
    // Clones are the same buffer too.
    let e = k.bind("low", &b).bind("high", &b.clone()).groups([1, 1, 1]).run().expect_err("clone");
    is_aliasing(&e, &["`low`", "`high`"]);
    }
}

gpu_test! {
    /// A view of a buffer (`view_as`) overlaps the buffer it was made from.
    async fn overlapping_views_of_one_buffer_are_an_error(gpu) {
    let k = kernel(&gpu, "copy.wgsl", COPY);
    let pairs = gpu.buffer_from(&[[1u32, 2], [3, 4]]).expect("pairs");
    let words = pairs.view_as::<u32>();
    let e = k.bind("src", &words).bind("dst", &words.view_as::<u32>()).invocations(4).run().expect_err("views");
    is_aliasing(&e, &["`src`", "`dst`"]);
    let out = gpu.buffer_zeroed::<u32>(4).expect("out");
    k.bind("src", &words).bind("dst", &out).invocations(4).run().expect("separate buffers");
    assert_eq!(out.read().await.expect("read"), [1, 2, 3, 4]);
    }
}

gpu_test! {
    async fn one_buffer_on_two_read_only_bindings_is_allowed(gpu) {
    let k = kernel(&gpu, "add.wgsl", ADD);
    let x = gpu.buffer_from(&[1u32, 2, 3]).expect("x");
    let sum = gpu.buffer_zeroed::<u32>(3).expect("sum");
    k.bind("a", &x).bind("b", &x).bind("sum", &sum).invocations(3).run().expect("read-only twice");
    assert_eq!(sum.read().await.expect("read"), [2, 4, 6]);
    }
}

gpu_test! {
    /// An image written as a storage image and sampled in the same dispatch aliases too.
    async fn one_image_written_and_sampled_is_an_error(gpu) {
    let k = kernel(&gpu, "blit.wgsl", "
        @group(0) @binding(0) var src: texture_2d<f32>;
        @group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;
        @compute @workgroup_size(1)
        fn blit() { textureStore(dst, vec2<i32>(0, 0), textureLoad(src, vec2<i32>(0, 0), 0)); }");
    let texels = [[1u8, 2, 3, 4]; 4];
    let image = gpu.image_from(2, 2, shoal::wgpu::TextureFormat::Rgba8Unorm, &texels).expect("image");
    let e = k.bind("src", &image).bind("dst", &image).groups([1, 1, 1]).run().expect_err("aliased");
    assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    assert!(e.to_string().contains("`src` (sampled) and `dst` (storage write)"), "{e}");
    let other = gpu.image_zeroed(2, 2, shoal::wgpu::TextureFormat::Rgba8Unorm).expect("other");
    k.bind("src", &image).bind("dst", &other).groups([1, 1, 1]).run().expect("separate images");
    assert_eq!(other.read::<[u8; 4]>().await.expect("read")[0], [1, 2, 3, 4]);
    }
}

gpu_test! {
    /// The buffer a dispatch takes its group counts from may be read by it but not written
    /// (wgpu refuses the two usages in one dispatch): `Error::Aliasing` when recorded.
    async fn indirect_arguments_written_by_their_own_dispatch_are_an_error(gpu) {
    let k = kernel(&gpu, "copy.wgsl", COPY);
    let usage = shoal::Usage::STORAGE | shoal::Usage::INDIRECT;
    let args = gpu.buffer_from_with(&[1u32, 1, 1, 0], usage).expect("args");
    let other = gpu.buffer_from(&[5u32, 6, 7, 8]).expect("other");
    let e = k.bind("src", &other).bind("dst", &args).indirect(&args, 0).run().expect_err("written");
    assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    assert!(e.to_string().contains("`dst` (read_write) and `indirect arguments` (indirect)"), "{e}");
    let e = k.bind("src", &other).bind("dst", &args.view_as::<u32>()).indirect(&args, 0).run().expect_err("a view");
    assert!(matches!(e, Error::Aliasing { .. }), "{e}");
    // Read by the dispatch it sizes: allowed.
    let out = gpu.buffer_zeroed::<u32>(4).expect("out");
    k.bind("src", &args).bind("dst", &out).indirect(&args, 0).run().expect("read-only");
    assert_eq!(out.read().await.expect("read")[0], 1);
    }
}

gpu_test! {
    /// Two `Buffer`s wrapping one wgpu buffer (`Buffer::from_raw` of another's `raw()`) have
    /// identities of their own but are one allocation: bound to one dispatch with a write,
    /// taken as the indirect arguments of a dispatch that writes the other, or copied into each
    /// other, they are what one buffer would be (typed errors, a copy onto itself a no-op), not
    /// wgpu's validation error at submit.
    async fn two_wrappers_of_one_wgpu_buffer_are_one_buffer(gpu) {
    let k = kernel(&gpu, "copy.wgsl", COPY);
    let usage = shoal::Usage::STORAGE | shoal::Usage::INDIRECT | shoal::Usage::COPY_SRC | shoal::Usage::COPY_DST;
    let b = gpu.buffer_from_with(&[1u32, 1, 1, 4], usage).expect("b");
    let wrapper = shoal::Buffer::<u32>::from_raw(&gpu, b.raw().clone(), b.len()).expect("wrapper");
    let e = k.bind("src", &wrapper).bind("dst", &b).invocations(4).run().expect_err("aliased");
    is_aliasing(&e, &["copy.wgsl:copy", "`src` (read)", "`dst` (read_write)"]);
    let other = gpu.buffer_from(&[5u32, 6, 7, 8]).expect("other");
    let e = k.bind("src", &other).bind("dst", &b).indirect(&wrapper, 0).run().expect_err("written");
    assert!(e.to_string().contains("`dst` (read_write) and `indirect arguments` (indirect)"), "{e}");
    let mut commands = gpu.commands();
    commands.copy(&wrapper, &b).expect("the same bytes: nothing to copy");
    commands.submit().expect("submit").wait().await.expect("wait");
    let e = gpu.commands().copy(&wrapper.slice(0..2).expect("slice"), &b.slice(2..4).expect("slice")).map(|_| ()).expect_err("two slices");
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    // Two read-only bindings of it stay allowed, and the batch runs.
    let sum = gpu.buffer_zeroed::<u32>(4).expect("sum");
    kernel(&gpu, "add.wgsl", ADD).bind("a", &wrapper).bind("b", &b).bind("sum", &sum).invocations(4).run().expect("read twice");
    assert_eq!(sum.read().await.expect("read"), [2, 2, 2, 8]);
    }
}
