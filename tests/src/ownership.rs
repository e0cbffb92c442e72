//! Resources know their `Gpu`: a buffer, image, sampler, append buffer, indirect arguments or
//! kernel made by one `Gpu` and used with another is `Error::WrongGpu` naming both devices,
//! never a panic inside wgpu-core (which asserts on the resource's device).

use crate::COPY;
use shoal::wgpu::TextureFormat;
use shoal::{DispatchArgs, Error, Gpu, Usage};

const SAMPLE: &str = "
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(1)
fn sample() { out[0] = textureSampleLevel(tex, smp, vec2<f32>(0.5, 0.5), 0.0); }";

fn is_wrong_gpu(e: &Error, parts: &[&str]) {
    assert!(matches!(e, Error::WrongGpu { .. }), "{e}");
    let message = e.to_string();
    for part in parts.iter().chain(&["Gpu #", "made by", "used with"]) {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}

crate::async_test! {
    /// Two devices; each resource kind of the second bound to a kernel of the first.
    async fn resources_of_another_gpu_are_a_typed_error() {
    let (a, b) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
    let copy = a.kernel(shoal::Source::new("copy.wgsl", COPY)).expect("kernel");
    let mine = a.buffer_from(&[1u32, 2, 3, 4]).expect("mine");
    let out = a.buffer_zeroed::<u32>(4).expect("out");
    let theirs = b.buffer_from(&[5u32, 6, 7, 8]).expect("theirs");

    let e = copy.bind("src", &theirs).bind("dst", &out).invocations(4).run().expect_err("buffer");
    is_wrong_gpu(&e, &["`src`", "copy.wgsl:copy"]);
    // A dispatch that launches nothing is checked all the same.
    let e = copy.bind("src", &theirs).bind("dst", &out).invocations(0).run().expect_err("none");
    is_wrong_gpu(&e, &["`src`"]);
    let e = copy.bind("src", &mine).bind("dst", &theirs.view_as::<u32>()).invocations(4).run().expect_err("view");
    is_wrong_gpu(&e, &["`dst`"]);
    // Both names differ: the message tells the two devices apart.
    if let Error::WrongGpu { resource_gpu, expected_gpu, .. } = &e {
        assert_ne!(resource_gpu, expected_gpu);
    }

    let sample = a.kernel(shoal::Source::new("sample.wgsl", SAMPLE)).expect("kernel");
    let texels = [[255u8, 0, 0, 255]; 4];
    let (image_a, image_b) = (
        a.image_from(2, 2, TextureFormat::Rgba8Unorm, &texels).expect("image a"),
        b.image_from(2, 2, TextureFormat::Rgba8Unorm, &texels).expect("image b"),
    );
    let colour = a.buffer_zeroed::<[f32; 4]>(1).expect("colour");
    let (smp_a, smp_b) = (a.sampler_linear(), b.sampler_linear());
    let e = sample.bind("tex", &image_b).bind("smp", &smp_a).bind("out", &colour).groups([1, 1, 1]).run().expect_err("image");
    is_wrong_gpu(&e, &["`tex`", "sample.wgsl:sample"]);
    let e = sample.bind("tex", &image_a).bind("smp", &smp_b).bind("out", &colour).groups([1, 1, 1]).run().expect_err("sampler");
    is_wrong_gpu(&e, &["`smp`"]);

    // The same dispatch with the first device's own resources runs, and the device is intact.
    sample.bind("tex", &image_a).bind("smp", &smp_a).bind("out", &colour).groups([1, 1, 1]).run().expect("own resources");
    assert_eq!(colour.read().await.expect("read"), [[1.0, 0.0, 0.0, 1.0]]);
    copy.bind("src", &mine).bind("dst", &out).invocations(4).run().expect("own buffers");
    assert_eq!(out.read().await.expect("read"), [1, 2, 3, 4]);
    }
}

crate::async_test! {
    /// Append buffers, indirect arguments, batches and copies of another device.
    async fn append_buffers_indirect_arguments_batches_and_copies_of_another_gpu() {
    let (a, b) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
    let copy = a.kernel(shoal::Source::new("copy.wgsl", COPY)).expect("kernel");
    let (src, dst) = (a.buffer_from(&[1u32; 4]).expect("src"), a.buffer_zeroed::<u32>(4).expect("dst"));

    let append = b.append_buffer::<u32>(4).expect("append");
    let push = a.kernel(shoal::Source::new("push.wgsl", "#import shoal::append(items, u32)
        @group(0) @binding(0) var<storage, read_write> items: ShoalAppend_items;
        @compute @workgroup_size(1) fn push() { _ = items_append(1u); }")).expect("push kernel");
    let e = push.bind("items", &append).groups([1, 1, 1]).run().expect_err("append buffer");
    is_wrong_gpu(&e, &["`items`", "push.wgsl:push"]);

    let args = b.buffer_from_with(&[DispatchArgs::new(1, 1, 1)], Usage::STORAGE | Usage::INDIRECT).expect("args");
    let e = copy.bind("src", &src).bind("dst", &dst).indirect(&args, 0).run().expect_err("indirect");
    is_wrong_gpu(&e, &["indirect arguments", "copy.wgsl:copy"]);

    // A kernel of one device recorded into a batch of the other.
    let mut batch = b.commands();
    let e = copy.bind("src", &src).bind("dst", &dst).invocations(4).record(&mut batch).expect_err("batch");
    is_wrong_gpu(&e, &["kernel `copy.wgsl:copy`"]);
    let theirs = b.buffer_zeroed::<u32>(4).expect("theirs");
    let e = dst.copy_from(&theirs).expect_err("copy");
    is_wrong_gpu(&e, &["the source of a copy"]);
    let mut batch = a.commands();
    batch.clear(&theirs);
    let e = batch.submit().expect_err("clear");
    is_wrong_gpu(&e, &["a buffer to clear"]);
    }
}

crate::async_test! {
    /// `Commands::copy_image`: images of another device, and of another size.
    async fn image_copies_check_the_gpu_and_the_size() {
    let (a, b) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
    let texels = [[9u8, 8, 7, 6]; 4];
    let src = a.image_from(2, 2, TextureFormat::Rgba8Unorm, &texels).expect("src");
    let dst = a.image_zeroed(2, 2, TextureFormat::Rgba8Unorm).expect("dst");
    let theirs = b.image_zeroed(2, 2, TextureFormat::Rgba8Unorm).expect("theirs");
    let mut batch = a.commands();
    let e = batch.copy_image(&src, &theirs).map(|_| ()).expect_err("their image");
    is_wrong_gpu(&e, &["the destination image of a copy"]);
    let small = a.image_zeroed(1, 2, TextureFormat::Rgba8Unorm).expect("small");
    let e = batch.copy_image(&src, &small).map(|_| ()).expect_err("sizes differ");
    assert!(matches!(e, Error::Length { expected: 2, got: 4, .. }), "{e}");
    batch.copy_image(&src, &dst).expect("same device and size");
    batch.submit().expect("submit");
    assert_eq!(dst.read::<[u8; 4]>().await.expect("read"), texels);
    }
}
