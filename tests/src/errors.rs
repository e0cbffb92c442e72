//! Every error case of the foundation: each is a typed `shoal::Error`, returned before anything
//! is submitted, whose message names the kernel and, where there is one, the binding and limit.

use shoal::{Error, Gpu, Usage};

use crate::COPY;
use crate::gpu_test;
use crate::programs::Data;

/// A `[f32; 3]` + `[f32; 2]` struct without WGSL's vec3 padding: 20 bytes where WGSL has 32.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct PackedData {
    v1: [f32; 3],
    v2: [f32; 2],
}
shoal::pod_element!(PackedData);

fn copy_kernel(gpu: &Gpu) -> shoal::Kernel {
    gpu.kernel(shoal::Source::new("copy.wgsl", COPY))
        .expect("copy kernel")
}

fn assert_names(e: &Error, parts: &[&str]) {
    let message = e.to_string();
    for part in parts {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}

gpu_test! {
    async fn group_count_above_the_limit_is_invalid_value(gpu) {
    let k = copy_kernel(&gpu);
    let (a, b) = (gpu.buffer_zeroed::<u32>(4).expect("a"), gpu.buffer_zeroed::<u32>(4).expect("b"));
    let max = gpu.limits().max_compute_work_group_count;
    for axis in 0..3 {
        let mut groups = [1, 1, 1];
        groups[axis] = max[axis] + 1;
        let e = k.bind("src", &a).bind("dst", &b).groups(groups).run().expect_err("too many groups");
        assert!(matches!(e, Error::TooManyGroups { dimension, .. } if dimension == axis), "{e}");
        assert_names(&e, &["copy.wgsl:copy", "MAX_COMPUTE_WORK_GROUP_COUNT", &max[axis].to_string()]);
    }
    }
}

gpu_test! {
    async fn work_group_above_the_invocation_limit(gpu) {
    let limit = gpu.limits().max_compute_work_group_invocations;
    let src = "override W: u32 = 64; @compute @workgroup_size(W, 2) fn big() {}";
    let w = limit.min(gpu.limits().max_compute_work_group_size[0]);
    let e = gpu.kernel_builder(shoal::Source::new("big.wgsl", src)).constant("W", w).build().expect_err("too big");
    assert!(matches!(e, Error::WorkgroupTooLarge { limit_name: "MAX_COMPUTE_WORK_GROUP_INVOCATIONS", .. }), "{e}");
    assert_names(&e, &["big.wgsl:big", &limit.to_string()]);
    }
}

gpu_test! {
    async fn work_group_above_a_per_dimension_limit(gpu) {
    let z = gpu.limits().max_compute_work_group_size[2];
    let src = "override Z: u32 = 1; @compute @workgroup_size(1, 1, Z) fn tall() {}";
    let e = gpu.kernel_builder(shoal::Source::new("tall.wgsl", src)).constant("Z", z + 1).build().expect_err("too tall");
    assert!(matches!(e, Error::WorkgroupTooLarge { limit_name: "MAX_COMPUTE_WORK_GROUP_SIZE.z", .. }), "{e}");
    assert_names(&e, &["tall.wgsl:tall", &z.to_string()]);
    }
}

gpu_test! {
    async fn workgroup_memory_above_the_limit(gpu) {
    let limit = gpu.limits().max_compute_shared_memory_size;
    let src = "override M: u32 = 4; var<workgroup> tile: array<u32, M>;
               @compute @workgroup_size(1) fn greedy() { tile[0] = 1u; }";
    let e = gpu
        .kernel_builder(shoal::Source::new("greedy.wgsl", src))
        .constant("M", limit / 4 + 1)
        .build()
        .expect_err("too much shared memory");
    assert!(matches!(e, Error::WorkgroupMemory { bytes, .. } if bytes > u64::from(limit)), "{e}");
    assert_names(&e, &["greedy.wgsl:greedy", "MAX_COMPUTE_SHARED_MEMORY_SIZE", &limit.to_string()]);
    // Exactly at the limit is allowed.
    gpu.kernel_builder(shoal::Source::new("greedy.wgsl", src)).constant("M", limit / 4).build().expect("at the limit");
    }

    /// Variables whose sizes add up past u32::MAX (each under naga's 2 GiB) are counted as
    /// such, not wrapped to a small total the device would then try to give.
    async fn workgroup_memory_that_adds_up_past_four_gib(gpu) {
    let src = "var<workgroup> a: array<u32, 536870908>; var<workgroup> b: array<u32, 536870908>;
               var<workgroup> c: array<u32, 12>;
               @group(0) @binding(0) var<storage, read_write> o: array<u32>;
               @compute @workgroup_size(1) fn wide() { a[0] = 1u; b[0] = 2u; c[0] = 3u; o[0] = a[0] + b[0] + c[0]; }";
    let e = gpu.kernel(shoal::Source::new("wide.wgsl", src)).expect_err("4 GiB of shared memory");
    let want = 2 * 536870908u64 * 4 + 48;
    assert!(matches!(e, Error::WorkgroupMemory { bytes, .. } if bytes == want), "{e}");
    assert_names(&e, &["wide.wgsl:wide", &want.to_string()]);
    }
}

gpu_test! {
    async fn indirect_offset_not_a_multiple_of_four_past_the_end_or_without_indirect_usage(gpu) {
    let k = copy_kernel(&gpu);
    let (a, b) = (gpu.buffer_zeroed::<u32>(4).expect("a"), gpu.buffer_zeroed::<u32>(4).expect("b"));
    let args = gpu.buffer_zeroed_with::<u32>(6, Usage::INDIRECT).expect("args");
    let e = k.bind("src", &a).bind("dst", &b).indirect(&args, 6).run().expect_err("offset 6");
    assert!(matches!(e, Error::IndirectOffset { offset: 6, .. }), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "INVALID_VALUE"]);
    let e = k.bind("src", &a).bind("dst", &b).indirect(&args, 16).run().expect_err("past the end");
    assert!(matches!(e, Error::IndirectOutOfBounds { offset: 16, buffer_bytes: 24, .. }), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "INVALID_OPERATION"]);
    let plain = gpu.buffer_zeroed::<u32>(3).expect("plain");
    let e = k.bind("src", &a).bind("dst", &b).indirect(&plain, 0).run().expect_err("no INDIRECT usage");
    assert!(matches!(e, Error::MissingUsage { ref usage, .. } if usage == "INDIRECT"), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "indirect arguments"]);
    }
}

gpu_test! {
    async fn a_binding_left_unbound(gpu) {
    let b = gpu.buffer_zeroed::<u32>(4).expect("b");
    let e = copy_kernel(&gpu).bind("dst", &b).invocations(4).run().expect_err("src unbound");
    assert!(matches!(e, Error::Unbound { ref binding, group: 0, index: 0, .. } if binding == "src"), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "`src`"]);
    }
}

gpu_test! {
    async fn a_name_the_kernel_does_not_have(gpu) {
    let b = gpu.buffer_zeroed::<u32>(4).expect("b");
    let e = copy_kernel(&gpu).bind("source", &b).bind("dst", &b).invocations(4).run().expect_err("misspelt");
    assert!(matches!(e, Error::UnknownBinding { ref available, .. } if available == &["src", "dst"]), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "`source`", "src, dst"]);
    }
}

gpu_test! {
    async fn a_resource_of_the_wrong_usage(gpu) {
    let uniform = gpu.uniform(&7u32).expect("uniform");
    let b = gpu.buffer_zeroed::<u32>(4).expect("b");
    let e = copy_kernel(&gpu).bind("src", &uniform).bind("dst", &b).invocations(4).run().expect_err("uniform as storage");
    assert!(matches!(e, Error::MissingUsage { ref usage, .. } if usage == "STORAGE"), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "`src`"]);
    let k = gpu
        .kernel(shoal::Source::new("scale.wgsl", "@group(0) @binding(0) var<uniform> s: u32;
            @group(0) @binding(1) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(1) fn scale() { out[0] = s; }"))
        .expect("kernel");
    let storage = gpu.buffer_from(&[3u32]).expect("storage");
    let e = k.bind("s", &storage).bind("out", &b).groups([1, 1, 1]).run().expect_err("storage as uniform");
    assert!(matches!(e, Error::MissingUsage { ref usage, .. } if usage == "UNIFORM"), "{e}");
    assert_names(&e, &["scale.wgsl:scale", "`s`"]);
    }
}

/// A texture bound through the public resource API, to check kind mismatches; its identity
/// comes from the `Gpu`, as every custom `Bindable`'s must.
struct RawTexture(wgpu::TextureView, wgpu::TextureUsages, shoal::ResourceId);

impl shoal::Bindable for RawTexture {
    fn resource(&self) -> shoal::Resource<'_> {
        shoal::Resource::Texture(shoal::TextureResource::new(
            &self.2,
            &self.0,
            wgpu::TextureFormat::Rgba8Unorm,
            self.1,
            wgpu::TextureViewDimension::D2,
            1,
        ))
    }
}

use shoal::wgpu;

gpu_test! {
    /// Integers bound where WGSL has floats (or the reverse, or signed for unsigned) had the
    /// right stride and were read as other numbers without a word (a newcomer's audit); the bits
    /// pass on purpose through `view_as`, and a width may differ (`[u32; 2]` for `atomic<u64>`).
    async fn a_buffer_of_another_scalar_kind_is_refused(gpu) {
    let src = "@group(0) @binding(0) var<storage, read> x: array<f32>;
        @group(0) @binding(1) var<storage, read_write> y: array<f32>;
        @compute @workgroup_size(64) fn copy(@builtin(global_invocation_id) i: vec3<u32>) {
            if i.x < arrayLength(&y) { y[i.x] = x[i.x]; } }";
    let k = gpu.kernel(shoal::Source::new("floats.wgsl", src)).expect("kernel");
    let (ints, out) = (gpu.buffer_from(&[1u32, 2, 3, 4]).expect("ints"), gpu.buffer_zeroed::<f32>(4).expect("out"));
    let e = k.bind("x", &ints).bind("y", &out).invocations(4).run().expect_err("u32 for f32");
    assert!(matches!(e, Error::BindingKind { ref binding, .. } if binding == "x"), "{e}");
    assert_names(&e, &["floats.wgsl:copy", "`array<f32>`", "Buffer<u32>", "view_as::<f32>()"]);
    let signed = gpu.buffer_from(&[-1i32; 4]).expect("signed");
    assert!(matches!(k.bind("x", &signed).bind("y", &out).invocations(4).run(), Err(Error::BindingKind { .. })));
    k.bind("x", &ints.view_as::<f32>()).bind("y", &out).invocations(4).run().expect("the bits, on purpose");
    assert_eq!(out.view_as::<u32>().read().await.expect("read"), [1, 2, 3, 4]);
    let vectors = "@group(0) @binding(0) var<storage, read_write> v: array<vec4<f32>>;
        @compute @workgroup_size(1) fn touch() { v[0].x = 1.0; }";
    let k = gpu.kernel(shoal::Source::new("vectors.wgsl", vectors)).expect("kernel");
    let words = gpu.buffer_zeroed::<shoal::glam::UVec4>(1).expect("words");
    let e = k.bind("v", &words).groups([1, 1, 1]).run().expect_err("UVec4 for vec4<f32>");
    assert_names(&e, &["`array<vec4<f32>>`", "Buffer<UVec4>", "view_as::<Vec4>()"]);
    // An append buffer is told to be made of the element, not to take a view it has not. (Named
    // `out`: the snippet's consume took a parameter `out`, which hid such a buffer.)
    let appends = "#import shoal::append(out, f32)
        @group(0) @binding(0) var<storage, read_write> out: ShoalAppend_out;
        @compute @workgroup_size(1) fn put() { out_append(1.0); }";
    let k = gpu.kernel(shoal::Source::new("appends.wgsl", appends)).expect("kernel");
    let ints = gpu.append_buffer::<u32>(4).expect("append buffer");
    let e = k.bind("out", &ints).groups([1, 1, 1]).run().expect_err("u32 items for f32");
    assert_names(&e, &["AppendBuffer<u32>", "append_buffer::<f32>"]);
    }
}

gpu_test! {
    async fn a_resource_of_the_wrong_kind(gpu) {
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
    let texture = gpu.device().create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width: 4, height: 4, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage,
        view_formats: &[],
    });
    let view = RawTexture(texture.create_view(&Default::default()), usage, gpu.resource_id());
    let b = gpu.buffer_zeroed::<u32>(4).expect("b");
    let e = copy_kernel(&gpu).bind("src", &view).bind("dst", &b).invocations(4).run().expect_err("texture as buffer");
    assert!(matches!(e, Error::BindingKind { .. }), "{e}");
    assert_names(&e, &["copy.wgsl:copy", "`src`", "var<storage, read>"]);
    let k = gpu
        .kernel(shoal::Source::new("paint.wgsl", "@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;
            @compute @workgroup_size(1) fn paint() { textureStore(img, vec2<i32>(0, 0), vec4<f32>(1.0)); }"))
        .expect("kernel");
    let e = k.bind("img", &b).groups([1, 1, 1]).run().expect_err("buffer as image");
    assert!(matches!(e, Error::BindingKind { .. }), "{e}");
    assert_names(&e, &["paint.wgsl:paint", "`img`"]);
    k.bind("img", &view).groups([1, 1, 1]).run().expect("the right kind binds");
    }
}

gpu_test! {
    async fn a_pod_struct_without_vec3_padding_is_the_layout_error(gpu) {
    let packed = vec![PackedData { v1: [1.0; 3], v2: [2.0; 2] }; 32];
    let packed = gpu.buffer_from(&packed).expect("packed");
    let padded = gpu.buffer_zeroed::<Data>(32).expect("padded");
    let output = gpu.buffer_zeroed::<Data>(32).expect("output");
    let k = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/vecadd.wgsl")).expect("kernel");
    let e = k
        .bind("input_a", &packed)
        .bind("input_b", &padded)
        .bind("output", &output)
        .invocations(32)
        .run()
        .expect_err("20-byte elements where WGSL has 32");
    assert!(matches!(e, Error::ElementLayout { wgsl_bytes: 32, rust_bytes: 20, .. }), "{e}");
    assert_names(&e, &["vecadd.wgsl:vec_add", "`input_a`", "PackedData", "vec3<f32>", "16 bytes"]);
    // The README quotes this error: the quote is the text Shoal prints, word for word.
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(words(&readme_quoted_error()), words(&e.to_string()), "README.md's quoted error");
    }
}

/// The error the README quotes: its first ```text block.
fn readme_quoted_error() -> String {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("```text\n")
        .expect("README.md quotes an error in a ```text block")
        + 8;
    let len = readme[start..].find("```").expect("the block ends");
    readme[start..start + len].to_string()
}

gpu_test! {
    async fn a_plain_array_where_wgsl_has_vec3_is_the_layout_error(gpu) {
    let k = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/vector_length.wgsl")).expect("kernel");
    let v = gpu.buffer_from(&[[1.0f32, 2.0, 2.0]; 4]).expect("vectors");
    let l = gpu.buffer_zeroed::<f32>(4).expect("lengths");
    let e = k.bind("vectors", &v).bind("lengths", &l).invocations(4).run().expect_err("[f32; 3] for vec3");
    assert!(matches!(e, Error::ElementLayout { wgsl_bytes: 16, rust_bytes: 12, .. }), "{e}");
    // And the fix (it said only why, while the docs said it names the fix).
    assert_names(&e, &["`vectors`", "vec3<f32>", "[f32; 3]", "glam::Vec3", "[f32; 4]"]);
    }
}

gpu_test! {
    async fn a_uniform_of_the_wrong_size(gpu) {
    let k = gpu.kernel_builder(shoal::wgsl!("../../wgsl/conformance/indirect.wgsl")).entry("write_args").build().expect("kernel");
    let args = gpu.buffer_zeroed::<u32>(8).expect("args");
    let small = gpu.uniform(&4u32).expect("uniform");
    let e = k.bind("args", &args).bind("wanted", &small).groups([1, 1, 1]).run().expect_err("u32 for vec4<u32>");
    assert!(matches!(e, Error::ElementLayout { wgsl_bytes: 16, rust_bytes: 4, .. }), "{e}");
    assert_names(&e, &["indirect.wgsl:write_args", "`wanted`", "vec4<u32>"]);
    }
}

gpu_test! {
    async fn a_buffer_shorter_than_a_fixed_size_array_or_empty(gpu) {
    let k = gpu
        .kernel(shoal::Source::new("table.wgsl", "@group(0) @binding(0) var<storage, read> table: array<u32, 16>;
            @group(0) @binding(1) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(16) fn lookup(@builtin(local_invocation_index) i: u32) { out[i] = table[i]; }"))
        .expect("kernel");
    let short = gpu.buffer_zeroed::<u32>(8).expect("short");
    let out = gpu.buffer_zeroed::<u32>(16).expect("out");
    let e = k.bind("table", &short).bind("out", &out).groups([1, 1, 1]).run().expect_err("8 of 16");
    assert!(matches!(e, Error::BufferTooSmall { needed: 64, got: 32, .. }), "{e}");
    assert_names(&e, &["table.wgsl:lookup", "`table`", "array<u32, 16>"]);
    let empty = gpu.buffer_zeroed::<u32>(0).expect("empty");
    let full = gpu.buffer_zeroed::<u32>(16).expect("full");
    let e = k.bind("table", &full).bind("out", &empty).groups([1, 1, 1]).run().expect_err("empty runtime array");
    assert!(matches!(e, Error::BufferTooSmall { needed: 4, got: 0, .. }), "{e}");
    }
}

gpu_test! {
    async fn wgsl_syntax_error_names_file_line_column_and_source_line(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\n@compute @workgroup_size(1)\nfn broken() {\n    out[0] = 1u +;\n}\n";
    let e = gpu.kernel(shoal::Source::new("kernels/broken.wgsl", src)).expect_err("syntax error");
    assert!(matches!(e, Error::Wgsl { .. }), "{e}");
    assert_names(&e, &["kernels/broken.wgsl:5:", "out[0] = 1u +;", "^"]);
    }
}

gpu_test! {
    async fn wgsl_validation_error_names_file_line_and_source_line(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(1)\nfn wrong() {\n    let x: f32 = 1.0;\n    out[0] = x;\n}\n";
    let e = gpu.kernel(shoal::Source::new("kernels/wrong.wgsl", src)).expect_err("type error");
    assert!(matches!(e, Error::Wgsl { .. }), "{e}");
    assert_names(&e, &["kernels/wrong.wgsl:5:", "out[0] = x;"]);
    }
}

gpu_test! {
    async fn an_error_inside_a_snippet_points_at_the_user_file_line(gpu) {
    let src = "#import shoal::fold\n@compute @workgroup_size(1)\nfn f(@builtin(workgroup_id) w: vec3<u32>) {\n    let i: f32 = shoal_linear_index(w, w, 0u, 1u);\n}\n";
    let e = gpu.kernel(shoal::Source::new("uses_fold.wgsl", src)).expect_err("u32 into f32");
    assert_names(&e, &["uses_fold.wgsl:4:"]);
    let e = gpu.kernel(shoal::Source::new("nope.wgsl", "#import shoal::nothing\n")).expect_err("unknown snippet");
    assert!(matches!(e, Error::UnknownSnippet { .. }), "{e}");
    assert_names(&e, &["nope.wgsl", "shoal::nothing", "shoal::fold"]);
    }
}

gpu_test! {
    async fn entry_points_missing_or_ambiguous(gpu) {
    let src = "@compute @workgroup_size(1) fn a() {}\n@compute @workgroup_size(1) fn b() {}\n";
    let e = gpu.kernel(shoal::Source::new("two.wgsl", src)).expect_err("ambiguous");
    assert!(matches!(e, Error::EntryPoint { requested: None, .. }), "{e}");
    assert_names(&e, &["two.wgsl", "a, b"]);
    let e = gpu.kernel_builder(shoal::Source::new("two.wgsl", src)).entry("c").build().expect_err("missing");
    assert_names(&e, &["`c`", "a, b"]);
    let k = gpu.kernel_builder(shoal::Source::new("two.wgsl", src)).entry("b").build().expect("b exists");
    assert_eq!(k.name(), "two.wgsl:b");
    }
}

gpu_test! {
    async fn a_dispatch_without_a_size(gpu) {
    let (a, b) = (gpu.buffer_zeroed::<u32>(4).expect("a"), gpu.buffer_zeroed::<u32>(4).expect("b"));
    let e = copy_kernel(&gpu).bind("src", &a).bind("dst", &b).run().expect_err("no size");
    assert!(matches!(e, Error::NoSize { .. }), "{e}");
    assert_names(&e, &["copy.wgsl:copy", ".invocations(n)"]);
    }
}

gpu_test! {
    async fn sixty_four_bit_atomics_follow_the_device(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> total: atomic<u64>;
               @compute @workgroup_size(64) fn sum64() { atomicAdd(&total, 1lu); }";
    let made = gpu.kernel(shoal::Source::new("sum64.wgsl", src));
    if gpu.has_int64_atomics() {
        let k = made.expect("the device has 64-bit atomics");
        let total = gpu.buffer_zeroed::<[u32; 2]>(1).expect("total");
        k.bind("total", &total).groups([3, 1, 1]).run().expect("runs");
        assert_eq!(total.read().await.expect("read"), [[192, 0]]);
    } else {
        let e = made.expect_err("no 64-bit atomics");
        assert!(matches!(e, Error::MissingFeature { .. }), "{e}");
        assert_names(&e, &["sum64.wgsl:sum64", "SHADER_INT64_ATOMIC_ALL_OPS"]);
    }
    }
}

gpu_test! {
    /// WGSL without a compute entry point says so (it said "several … name one").
    async fn a_source_without_a_compute_entry_point(gpu) {
    let e = gpu.kernel(shoal::Source::new("empty.wgsl", "fn helper() {}")).expect_err("no entry point");
    assert!(matches!(e, Error::EntryPoint { .. }), "{e}");
    assert_names(&e, &["empty.wgsl", "no compute entry point", "none"]);
    }

    /// More invocations than folding over y and z covers: the error shows the fold tried.
    async fn invocations_beyond_every_fold_show_the_fold(gpu) {
    let k = gpu.kernel(shoal::Source::new("wide.wgsl", "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
        @compute @workgroup_size(64) fn wide() { o[0] = 1u; }")).expect("kernel");
    let o = gpu.buffer_zeroed::<u32>(1).expect("o");
    let e = k.bind("o", &o).invocations(u64::MAX).run().expect_err("too many");
    let max = gpu.limits().max_compute_work_group_count;
    let planes = (u64::MAX.div_ceil(64)).div_ceil(max[0] as u64 * max[1] as u64).min(u32::MAX as u64) as u32;
    assert!(matches!(e, Error::TooManyGroups { groups, dimension: 2, .. } if groups == [max[0], max[1], planes]), "{e}");
    }

    /// `.invocations(n)` that must fold, for a kernel indexing with `global_invocation_id.x`
    /// alone: it ran some elements twice and others never, with no error (a newcomer's audit).
    /// Now refused, naming the fix; the smallest folded count, and one below it runs.
    async fn a_fold_the_kernel_cannot_undo_is_refused(gpu) {
    let k = copy_kernel(&gpu);
    let x = gpu.limits().max_compute_work_group_count[0];
    let n = x as u64 * 64 + 1;
    let (a, b) = (gpu.buffer_zeroed::<u32>(4).expect("a"), gpu.buffer_zeroed::<u32>(4).expect("b"));
    let e = k.bind("src", &a).bind("dst", &b).invocations(n).run().expect_err("unfoldable");
    assert!(matches!(e, Error::TooManyGroups { groups: [g, 1, 1], dimension: 0, .. } if g == x + 1), "{e}");
    assert_names(&e, &["copy.wgsl:copy", &format!(".invocations({n})"), "num_workgroups", "shoal_linear_index"]);
    k.bind("src", &a).bind("dst", &b).invocations(n - 1).run().expect("one group in x per 64");
    }

    /// A kernel that does not ask where its work group is (a counter claims the work) is folded
    /// as before, and every work group runs once (one atomic per group: 65,536 of them).
    async fn a_kernel_without_a_position_is_folded(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> count: atomic<u32>;
        @compute @workgroup_size(64) fn claim(@builtin(local_invocation_index) l: u32) {
            if l == 0u { atomicAdd(&count, 1u); } }";
    let k = gpu.kernel(shoal::Source::new("claim.wgsl", src)).expect("kernel");
    let groups = gpu.limits().max_compute_work_group_count[0] as u64 + 1;
    let count = gpu.buffer_zeroed::<u32>(1).expect("count");
    k.bind("count", &count).invocations(groups * 64).run().expect("folded");
    assert_eq!(count.read().await.expect("read"), vec![groups as u32]);
    }

    /// `Debug` (what `fn main() -> Result<..>` and `unwrap` print) is the message, with real line
    /// breaks in a WGSL error's excerpt, and the variant's name.
    async fn debug_prints_the_message(gpu) {
    let e = gpu.kernel(shoal::Source::new("broken.wgsl", "@compute @workgroup_size(1) fn f() {\n let x = 1u\n}")).expect_err("broken");
    let debug = format!("{e:?}");
    assert!(debug.starts_with(&e.to_string()) && debug.ends_with("(shoal::Error::Wgsl)"), "{debug}");
    assert!(debug.contains("broken.wgsl:3") && debug.contains('\n'), "{debug}");
    assert_eq!(e.name(), "Wgsl");
    let typo = shoal::BackendChoice::parse("vulcan").expect_err("typo");
    assert_eq!(format!("{typo:?}"), "SHOAL_BACKEND=\"vulcan\" is not one of vulkan, gl, metal, dx12, webgpu, auto (shoal::Error::UnknownBackend)");
    }

    /// More invocations than a u32 index can number (every index would wrap past 2^32).
    async fn invocations_beyond_a_u32_index_are_refused(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
        @compute @workgroup_size(64) fn wide(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) g: vec3<u32>) { o[0] = w.x + g.x; }";
    let k = gpu.kernel(shoal::Source::new("wide.wgsl", src)).expect("kernel");
    let o = gpu.buffer_zeroed::<u32>(1).expect("o");
    let e = k.bind("o", &o).invocations((1 << 32) + 1).run().expect_err("beyond u32");
    assert!(matches!(e, Error::InvalidParameter { ref parameter, .. } if parameter == "invocations"), "{e}");
    assert_names(&e, &["wide.wgsl:wide", "4294967297", "2^32"]);
    // Up to 2^32 every count is taken: the fold narrows its rows rather than launch past the
    // u32 index (whose extra invocations would wrap to 0.. and pass the bound check). Recorded
    // only: 2^32 invocations are minutes on a software adapter.
    for n in [(1u64 << 32) - 64, (1 << 32) - 1, 1 << 32] {
        let mut commands = gpu.commands();
        k.bind("o", &o).invocations(n).record(&mut commands).expect("within a u32 index");
    }
    }
}

gpu_test! {
    /// `f64` runs where the device has SHADER_F64 (Shoal asks for it) and is a typed error
    /// where it has not, not wgpu's validation error.
    async fn f64_follows_the_device(gpu) {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<f32>;
               @compute @workgroup_size(1) fn wide() { var x: f64 = 1.0lf / 3.0lf; o[0] = f32(x * 3.0lf); }";
    let made = gpu.kernel(shoal::Source::new("wide.wgsl", src));
    if gpu.features().contains(shoal::wgpu::Features::SHADER_F64) {
        let k = made.expect("the device has f64");
        let o = gpu.buffer_zeroed::<f32>(1).expect("o");
        k.bind("o", &o).groups([1, 1, 1]).run().expect("runs");
        assert_eq!(o.read().await.expect("read"), [1.0]);
    } else {
        let e = made.expect_err("no f64");
        assert!(matches!(e, Error::MissingFeature { .. }), "{e}");
        assert_names(&e, &["wide.wgsl:wide", "SHADER_F64"]);
    }
    }

    /// A declaration Shoal cannot provide is a typed error at creation, saying what to use.
    /// (Immediate data is provided: `immediates.rs`.)
    async fn external_textures_are_refused(gpu) {
    let external = "@group(0) @binding(0) var frame: texture_external;
                    @group(0) @binding(1) var<storage, read_write> o: array<f32>;
                    @compute @workgroup_size(1) fn luma() { o[0] = textureLoad(frame, vec2<u32>(0u)).x; }";
    let e = gpu.kernel(shoal::Source::new("luma.wgsl", external)).expect_err("external");
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    assert_names(&e, &["luma.wgsl", "`frame`", "texture_external"]);
    }
}

gpu_test! {
    async fn writing_past_the_end_of_a_buffer(gpu) {
    let b = gpu.buffer_zeroed::<u32>(4).expect("b");
    let e = b.write_at(2, &[1, 2, 3]).expect_err("past the end");
    assert!(matches!(e, Error::Length { expected: 2, got: 3, .. }), "{e}");
    let c = gpu.buffer_zeroed::<u32>(5).expect("c");
    assert!(matches!(c.copy_from(&b), Err(Error::Length { .. })));
    }
}

crate::async_test! {
    /// Limits above the adapter's: the adapter refuses the device, and says which limit.
    async fn limits_above_the_adapters_are_a_request_device_error() {
    let adapter_limits = Gpu::new().await.expect("device").device().limits();
    let limits = shoal::wgpu::Limits {
        max_compute_workgroup_size_x: adapter_limits.max_compute_workgroup_size_x.saturating_mul(2).max(1 << 20),
        ..adapter_limits
    };
    let e = Gpu::with_options(shoal::GpuOptions { limits: Some(limits), ..Default::default() })
        .await
        .expect_err("more than the adapter has");
    assert!(matches!(e, Error::RequestDevice { .. }), "{e}");
    assert_names(&e, &["could not create a device on"]);
    }
}

crate::async_test! {
    async fn a_backend_without_an_adapter_lists_what_was_found() {
    let options = shoal::GpuOptions { backend: Some(shoal::BackendChoice::Metal), ..Default::default() };
    let opened = Gpu::with_options(options).await;
    // In the browser there is only WebGPU: asking for Metal by name must fail there too.
    if cfg!(target_arch = "wasm32") || !cfg!(target_vendor = "apple") {
        let e = opened.expect_err("no Metal adapter here");
        assert!(matches!(e, Error::NoAdapter { .. }), "{e}");
        assert_names(&e, &["no metal adapter", "adapters found:"]);
    }
    }
}

crate::async_test! {
    async fn a_wgpu_error_past_shoals_checks_is_returned_by_the_next_read() {
    // Its own device: wgpu's errors are collected per device, and other tests share theirs.
    let gpu = Gpu::new().await.expect("device");
    let values = gpu.buffer_from(&[1u32, 2]).expect("buffer");
    // MAP_READ beside STORAGE is invalid without MAPPABLE_PRIMARY_BUFFERS: Shoal never makes
    // such a buffer, so nothing of Shoal's checks it; wgpu does (in the browser, later).
    let _invalid = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("invalid usage"),
        size: 16,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    // A submit in between is not the error's: the queue takes the batch, and the submit says
    // so (it once returned the error, for a batch that then ran).
    let mut commands = gpu.commands();
    commands.copy(&gpu.buffer_from(&[5u32, 6]).expect("source"), &values).expect("copy");
    commands.submit().expect("a batch the queue takes is submitted");
    let e = values.read().await.expect_err("the next read reports wgpu's error");
    assert!(matches!(e, Error::Wgpu { .. }), "{e}");
    assert_names(&e, &["readback", "wgpu reported"]);
    assert_eq!(values.read().await.expect("reported once, then reads work"), [5, 6]);
    }
}

gpu_test! {
    async fn reading_a_buffer_without_copy_src_is_a_readback_error(gpu) {
    // Every buffer Shoal makes can be copied from; one made elsewhere and wrapped may not.
    let raw = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("no COPY_SRC"),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let b = shoal::Buffer::<u32>::from_raw(&gpu, raw, 4).expect("wrapped");
    let e = b.read().await.expect_err("no COPY_SRC");
    assert!(matches!(e, Error::Readback(_)), "{e}");
    assert_names(&e, &["readback failed", "without COPY_SRC"]);
    }
}

gpu_test! {
    async fn an_image_usage_its_format_does_not_allow(gpu) {
    let e = gpu
        .image_zeroed_with(4, 4, wgpu::TextureFormat::Rgba8UnormSrgb, wgpu::TextureUsages::STORAGE_BINDING)
        .expect_err("sRGB images are never storage images");
    assert!(matches!(e, Error::ImageUsage { .. }), "{e}");
    assert_names(&e, &["cannot have usage", "STORAGE_BINDING"]);
    }
}
