//! Images: upload and readback with the row pitch handled for every format and awkward widths,
//! storage images read and written by kernels, sampled textures with filtering and nearest
//! samplers, and every mismatch between a binding and the image bound to it as a typed error.

use shoal::half::f16;
use shoal::wgpu::{TextureFormat, TextureFormatFeatureFlags, TextureUsages};
use shoal::{Error, Gpu, Image, Texel};

use crate::gpu_test;
use crate::rng::Rng;

/// Widths around the 256-byte row alignment for every texel size (4, 8, 16 bytes).
const WIDTHS: [u32; 5] = [1, 63, 64, 65, 1000];
const HEIGHT: u32 = 3;

fn assert_names(e: &Error, parts: &[&str]) {
    let message = e.to_string();
    for part in parts {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
}

async fn round_trip<T: Texel + PartialEq + std::fmt::Debug>(
    gpu: &Gpu,
    format: TextureFormat,
    texel: impl Fn(u32) -> T,
) {
    for width in WIDTHS {
        let texels: Vec<T> = (0..width * HEIGHT).map(&texel).collect();
        let image = gpu
            .image_from(width, HEIGHT, format, &texels)
            .expect("image");
        assert_eq!(image.size(), [width, HEIGHT]);
        let back: Vec<T> = image.read().await.expect("read");
        assert_eq!(back.len(), texels.len(), "{format:?} width {width}");
        if let Some(i) = (0..texels.len()).find(|&i| back[i] != texels[i]) {
            panic!(
                "{format:?} width {width}: texel ({}, {}) is {:?}, wrote {:?}",
                i as u32 % width,
                i as u32 / width,
                back[i],
                texels[i]
            );
        }
    }
}

gpu_test! {
    /// Every format, widths 1, 63, 64, 65 and 1000: what is uploaded is what comes back.
    async fn every_format_round_trips_at_awkward_widths(gpu) {
        round_trip(&gpu, TextureFormat::Rgba8Unorm, |i| [i as u8, (i >> 8) as u8, (i * 7) as u8, 255]).await;
        round_trip(&gpu, TextureFormat::Rgba16Float, |i| {
            [f16::from_f32(i as f32), f16::from_f32(-0.5), f16::from_f32(i as f32 / 4.0), f16::ONE]
        })
        .await;
        round_trip(&gpu, TextureFormat::Rgba32Float, |i| [i as f32, -(i as f32), 0.25, 1.0e-3 * i as f32]).await;
        round_trip(&gpu, TextureFormat::R32Float, |i| i as f32 * 0.5 - 3.0).await;
        round_trip(&gpu, TextureFormat::R32Uint, |i| i.wrapping_mul(2_654_435_761)).await;
    }
}

const COORDS: &str = "
@group(0) @binding(0) var out: texture_storage_2d<r32uint, write>;
override WX: u32 = 8;
override WY: u32 = 8;
@compute @workgroup_size(WX, WY)
fn coords(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(out);
    if id.x >= size.x || id.y >= size.y { return; }
    textureStore(out, id.xy, vec4<u32>(id.y * 65536u + id.x, 0u, 0u, 0u));
}";

/// A 2D work group as large as the device allows, at most 16 x 16.
fn square_group(gpu: &Gpu) -> u32 {
    let l = gpu.limits();
    let mut side = 16;
    while side * side > l.max_compute_work_group_invocations
        || side > l.max_compute_work_group_size[1]
    {
        side /= 2;
    }
    side
}

gpu_test! {
    /// A kernel writes each texel's coordinates: readback strips the row padding correctly.
    async fn kernel_written_texels_read_back_in_place(gpu) {
        let side = square_group(&gpu);
        let kernel = gpu
            .kernel_builder(shoal::Source::new("coords.wgsl", COORDS))
            .constant("WX", side)
            .constant("WY", side)
            .build()
            .expect("kernel");
        for width in WIDTHS {
            let image = gpu.image_zeroed(width, 5, TextureFormat::R32Uint).expect("image");
            kernel.bind("out", &image).invocations_2d(image.size()).run().expect("run");
            let back: Vec<u32> = image.read().await.expect("read");
            for (i, &v) in back.iter().enumerate() {
                let (x, y) = (i as u32 % width, i as u32 / width);
                assert_eq!(v, y * 65536 + x, "width {width}: texel ({x}, {y})");
            }
        }
    }
}

gpu_test! {
    /// `read_write` where every adapter allows it (r32float): doubled in place.
    async fn read_write_storage_image_updates_in_place(gpu) {
        let src = "
            @group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
            @compute @workgroup_size(8, 8)
            fn double(@builtin(global_invocation_id) id: vec3<u32>) {
                if any(id.xy >= textureDimensions(img)) { return; }
                textureStore(img, id.xy, textureLoad(img, id.xy) * 2.0);
            }";
        let kernel = gpu.kernel(shoal::Source::new("double.wgsl", src)).expect("kernel");
        let mut rng = Rng::new(7);
        let values: Vec<f32> = (0..37 * 11).map(|_| rng.range_f32(-50.0, 50.0)).collect();
        let image = gpu.image_from(37, 11, TextureFormat::R32Float, &values).expect("image");
        kernel.bind("img", &image).invocations_2d(image.size()).run().expect("run");
        let back: Vec<f32> = image.read().await.expect("read");
        let expected: Vec<f32> = values.iter().map(|v| v * 2.0).collect();
        assert_eq!(back, expected);
    }
}

gpu_test! {
    /// `read_write` on rgba8unorm: allowed only where the adapter says so; elsewhere a typed
    /// error at kernel creation that names the binding and the modes the format allows.
    async fn read_write_where_the_format_does_not_allow_it_is_an_error_at_creation(gpu) {
        let src = "
            @group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, read_write>;
            @compute @workgroup_size(8, 8)
            fn brighten(@builtin(global_invocation_id) id: vec3<u32>) {
                if any(id.xy >= textureDimensions(img)) { return; }
                textureStore(img, id.xy, textureLoad(img, id.xy) + vec4<f32>(1.0 / 255.0));
            }";
        let built = gpu.kernel(shoal::Source::new("brighten.wgsl", src));
        let allowed = gpu.format_features(TextureFormat::Rgba8Unorm).flags.contains(TextureFormatFeatureFlags::STORAGE_READ_WRITE);
        match built {
            Ok(kernel) => {
                assert!(allowed, "built although the adapter does not allow read_write rgba8unorm");
                let image = gpu.image_from(3, 2, TextureFormat::Rgba8Unorm, &[[10u8, 20, 30, 40]; 6]).expect("image");
                kernel.bind("img", &image).invocations_2d(image.size()).run().expect("run");
                assert_eq!(image.read::<[u8; 4]>().await.expect("read"), vec![[11, 21, 31, 41]; 6]);
            }
            Err(e) => {
                assert!(!allowed, "refused although allowed: {e}");
                assert!(matches!(e, Error::StorageAccess { .. }), "{e}");
                assert_names(&e, &["brighten.wgsl:brighten", "`img`", "texture_storage_2d<rgba8unorm, read_write>"]);
            }
        }
    }
}

gpu_test! {
    /// A write-only storage image in a format the device allows no storage access for: the
    /// remedy is about the format, not read_write (the message always gave read_write's).
    async fn a_storage_format_without_storage_use_says_so(gpu) {
    let src = "@group(0) @binding(0) var img: texture_storage_2d<r64uint, write>;
        @compute @workgroup_size(1) fn fill() { textureStore(img, vec2<u32>(0u), vec4<u64>(1lu)); }";
    match gpu.kernel(shoal::Source::new("fill.wgsl", src)) {
        Err(e @ Error::StorageAccess { .. }) => {
            assert_names(&e, &["fill.wgsl:fill", "`img`", "none (no storage use)", "storage buffer"]);
            assert!(!e.to_string().contains("read_write needs"), "{e}");
        }
        // Where the device stores r64uint images it builds; where it lacks 64-bit integers
        // or the format, another typed error comes first.
        Err(e) => assert!(matches!(e, Error::MissingFeature { .. } | Error::Wgsl { .. } | Error::BindingKind { .. }), "{e}"),
        Ok(_) => assert!(gpu.format_features(TextureFormat::R64Uint).flags.contains(TextureFormatFeatureFlags::STORAGE_WRITE_ONLY)),
    }
    }
}

const INVERT_RGBA32: &str = "
@group(0) @binding(0) var src: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;
@compute @workgroup_size(8, 8)
fn invert(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id.xy >= textureDimensions(dst)) { return; }
    textureStore(dst, id.xy, vec4<f32>(1.0) - textureLoad(src, id.xy));
}";

gpu_test! {
    /// A storage binding and an image of another format, dimension or usage: typed errors that
    /// name the kernel, the binding, the declared type and what was bound.
    async fn storage_image_mismatches_are_typed_errors(gpu) {
        let kernel = gpu.kernel(shoal::Source::new("invert.wgsl", INVERT_RGBA32)).expect("kernel");
        let good = gpu.image_zeroed(4, 4, TextureFormat::Rgba32Float).expect("image");
        let wrong_format = gpu.image_zeroed(4, 4, TextureFormat::Rgba8Unorm).expect("image");
        let e = kernel.bind("src", &good).bind("dst", &wrong_format).invocations_2d([4, 4]).run().expect_err("format");
        assert!(matches!(e, Error::ImageFormat { .. }), "{e}");
        assert_names(&e, &["invert.wgsl:invert", "`dst`", "texture_storage_2d<rgba32float, write>", "rgba8unorm"]);

        let sampled_only = gpu
            .image_zeroed_with(4, 4, TextureFormat::Rgba32Float, TextureUsages::TEXTURE_BINDING)
            .expect("image");
        let e = kernel.bind("src", &good).bind("dst", &sampled_only).invocations_2d([4, 4]).run().expect_err("usage");
        assert!(matches!(e, Error::MissingUsage { .. }), "{e}");
        assert_names(&e, &["invert.wgsl:invert", "`dst`", "STORAGE_BINDING"]);

        let arrayed = "
            @group(0) @binding(0) var layers: texture_storage_2d_array<rgba32float, write>;
            @compute @workgroup_size(1) fn fill() { textureStore(layers, vec2<u32>(0u), 0u, vec4<f32>(1.0)); }";
        let fill = gpu.kernel(shoal::Source::new("fill.wgsl", arrayed)).expect("kernel");
        let e = fill.bind("layers", &good).groups([1, 1, 1]).run().expect_err("dimension");
        assert!(matches!(e, Error::ImageDimension { .. }), "{e}");
        assert_names(&e, &["fill.wgsl:fill", "`layers`", "texture_storage_2d_array<rgba32float, write>", "D2"]);

        let buffer = gpu.buffer_zeroed::<f32>(16).expect("buffer");
        let e = kernel.bind("src", &good).bind("dst", &buffer).invocations_2d([4, 4]).run().expect_err("kind");
        assert!(matches!(e, Error::BindingKind { .. }), "{e}");
        assert_names(&e, &["`dst`", "Buffer<f32>"]);
    }
}

gpu_test! {
    /// Host-side mistakes: a texel type of another size or kind, a length that is not
    /// width x height, an image of zero texels.
    async fn host_texel_mistakes_are_typed_errors(gpu) {
        let image = gpu.image_zeroed(5, 2, TextureFormat::Rgba8Unorm).expect("image");
        let e = image.read::<f32>().await.expect_err("texel type");
        assert!(matches!(e, Error::TexelType { .. }), "{e}");
        assert_names(&e, &["rgba8unorm", "[u8; 4]", "f32"]);
        let e = image.write(&[[0u8; 4]; 9]).expect_err("length");
        assert!(matches!(e, Error::Length { expected: 40, got: 36, .. }), "{e}");
        let e = gpu.image_zeroed(0, 4, TextureFormat::R32Float).expect_err("empty");
        assert!(matches!(e, Error::ImageSize { width: 0, .. }), "{e}");
        let e = gpu.image_from(2, 1, TextureFormat::Rgba16Float, &[[0.0f32; 4]; 2]).expect_err("f32 into f16");
        assert!(matches!(e, Error::TexelType { .. }), "{e}");
    }
}

const SAMPLE: &str = "
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var<storage, read> at: array<vec2<f32>>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(64)
fn sample(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&at) { return; }
    out[id.x] = textureSampleLevel(tex, smp, at[id.x], 0.0);
}";

/// Bilinear filtering at `uv` of a `w` x `h` image, clamped to the edge: what a linear sampler
/// computes (to within its fixed-point weights).
fn bilinear(texels: &[[f32; 4]], w: u32, h: u32, [u, v]: [f32; 2]) -> [f32; 4] {
    let (x, y) = (u * w as f32 - 0.5, v * h as f32 - 0.5);
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let at = |xi: f32, yi: f32| {
        let xi = (xi as i32).clamp(0, w as i32 - 1) as u32;
        let yi = (yi as i32).clamp(0, h as i32 - 1) as u32;
        texels[(yi * w + xi) as usize]
    };
    let (a, b, c, d) = (
        at(x0, y0),
        at(x0 + 1.0, y0),
        at(x0, y0 + 1.0),
        at(x0 + 1.0, y0 + 1.0),
    );
    std::array::from_fn(|k| {
        (a[k] * (1.0 - fx) + b[k] * fx) * (1.0 - fy) + (c[k] * (1.0 - fx) + d[k] * fx) * fy
    })
}

gpu_test! {
    /// textureSampleLevel with a linear sampler on rgba8unorm: texel centres exactly, points
    /// between texels the bilinear mix within 1/255 + the sampler's weight precision (2/255).
    async fn linear_sampling_of_a_filterable_image_matches_bilinear(gpu) {
        let kernel = gpu.kernel(shoal::Source::new("sample.wgsl", SAMPLE)).expect("kernel");
        let (w, h) = (7u32, 5u32);
        let mut rng = Rng::new(11);
        let bytes: Vec<[u8; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| (rng.next_u32() % 256) as u8)).collect();
        let image = gpu.image_from(w, h, TextureFormat::Rgba8Unorm, &bytes).expect("image");
        let texels: Vec<[f32; 4]> = bytes.iter().map(|t| t.map(|c| c as f32 / 255.0)).collect();
        let mut at = Vec::new();
        for y in 0..h {
            for x in 0..w {
                at.push(glam::vec2((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32));
                at.push(glam::vec2((x as f32 + 0.9) / w as f32, (y as f32 + 0.25) / h as f32));
            }
        }
        let at_buffer = gpu.buffer_from(&at).expect("buffer");
        let out = gpu.buffer_zeroed::<glam::Vec4>(at.len() as u64).expect("buffer");
        let linear = gpu.sampler_linear();
        kernel.bind("tex", &image).bind("smp", &linear).bind("at", &at_buffer).bind("out", &out)
            .invocations(at.len() as u64).run().expect("run");
        let got = out.read().await.expect("read");
        for (i, (uv, g)) in at.iter().zip(&got).enumerate() {
            let want = bilinear(&texels, w, h, [uv.x, uv.y]);
            let tolerance = if i % 2 == 0 { 1e-6 } else { 2.0 / 255.0 };
            for k in 0..4 {
                assert!((g[k] - want[k]).abs() <= tolerance, "sample {i} at {uv}: got {g}, want {want:?}");
            }
        }
    }
}

gpu_test! {
    /// r32float is unfilterable without FLOAT32_FILTERABLE: a nearest sampler samples it (the
    /// kernel's layout follows the sampler bound), a linear one is a typed error naming both
    /// bindings — unless the device filters 32-bit floats, when it simply works.
    async fn unfilterable_formats_follow_the_bound_sampler(gpu) {
        let kernel = gpu.kernel(shoal::Source::new("sample.wgsl", SAMPLE)).expect("kernel");
        let values: Vec<f32> = (0..12).map(|i| i as f32 * 1.5).collect();
        let image = gpu.image_from(4, 3, TextureFormat::R32Float, &values).expect("image");
        let at: Vec<glam::Vec2> = (0..12).map(|i| glam::vec2((i % 4) as f32 / 4.0 + 0.125, (i / 4) as f32 / 3.0 + 0.1)).collect();
        let at_buffer = gpu.buffer_from(&at).expect("buffer");
        let out = gpu.buffer_zeroed::<glam::Vec4>(12).expect("buffer");
        let nearest = gpu.sampler_nearest();
        kernel.bind("tex", &image).bind("smp", &nearest).bind("at", &at_buffer).bind("out", &out)
            .invocations(12).run().expect("nearest sampling of r32float");
        let got: Vec<f32> = out.read().await.expect("read").iter().map(|v| v.x).collect();
        assert_eq!(got, values);

        let linear = gpu.sampler_linear();
        let result = kernel.bind("tex", &image).bind("smp", &linear).bind("at", &at_buffer).bind("out", &out).invocations(12).run();
        if gpu.is_filterable(TextureFormat::R32Float) {
            result.expect("this device filters r32float");
        } else {
            let e = result.expect_err("linear sampling of r32float");
            assert!(matches!(e, Error::Unfilterable { .. }), "{e}");
            assert_names(&e, &["sample.wgsl:sample", "`tex`", "`smp`", "r32float", "FLOAT32_FILTERABLE"]);
            // A dispatch of no work groups is checked the same (it only skips buffer lengths).
            let none = kernel.bind("tex", &image).bind("smp", &linear).bind("at", &at_buffer).bind("out", &out).groups([0, 1, 1]).run();
            assert!(matches!(none, Err(Error::Unfilterable { .. })), "{none:?}");
        }
        // The filterable image still works with the same kernel and the linear sampler.
        let bytes = gpu.image_from(1, 1, TextureFormat::Rgba8Unorm, &[[255u8, 0, 255, 0]]).expect("image");
        kernel.bind("tex", &bytes).bind("smp", &linear).bind("at", &at_buffer).bind("out", &out).invocations(12).run().expect("linear");
        assert!(out.read().await.expect("read").iter().all(|v| *v == glam::vec4(1.0, 0.0, 1.0, 0.0)));
    }
}

gpu_test! {
    /// texture_2d<u32> bound with a float image: the texel kinds differ, a typed error.
    async fn sampled_texture_of_another_kind_is_a_typed_error(gpu) {
        let src = "
            @group(0) @binding(0) var ids: texture_2d<u32>;
            @group(0) @binding(1) var<storage, read_write> out: array<u32>;
            @compute @workgroup_size(1) fn first() { out[0] = textureLoad(ids, vec2<u32>(0u), 0).x; }";
        let kernel = gpu.kernel(shoal::Source::new("first.wgsl", src)).expect("kernel");
        let out = gpu.buffer_zeroed::<u32>(1).expect("buffer");
        let floats = gpu.image_zeroed(2, 2, TextureFormat::Rgba8Unorm).expect("image");
        let e = kernel.bind("ids", &floats).bind("out", &out).groups([1, 1, 1]).run().expect_err("kind");
        assert!(matches!(e, Error::ImageFormat { .. }), "{e}");
        assert_names(&e, &["first.wgsl:first", "`ids`", "texture_2d<u32>", "rgba8unorm"]);
        let uints = gpu.image_from(2, 2, TextureFormat::R32Uint, &[42u32, 1, 2, 3]).expect("image");
        kernel.bind("ids", &uints).bind("out", &out).groups([1, 1, 1]).run().expect("uint image");
        assert_eq!(out.read().await.expect("read"), [42]);
    }
}

/// A full-screen triangle whose fragments write `(x + 1000 y) / 2^20` as their depth (exact in
/// f32), and colour targets, when there are any, get the pixel's coordinates.
const DEPTH_RAMP: &str = "
@vertex fn full_screen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.5, 1.0);
}
struct Ramp { @builtin(frag_depth) depth: f32 }
@fragment fn ramp(@builtin(position) p: vec4<f32>) -> Ramp {
    return Ramp((floor(p.x) + 1000.0 * floor(p.y)) / 1048576.0);
}";

fn ramp_depth(x: u32, y: u32) -> f32 {
    (x as f32 + 1000.0 * y as f32) / 1_048_576.0
}

/// Draws [`DEPTH_RAMP`] into `depth` after clearing it to 1.
fn draw_depth_ramp(gpu: &Gpu, encoder: &mut shoal::wgpu::CommandEncoder, depth: &Image) {
    use shoal::wgpu;
    let module = gpu
        .device()
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("depth ramp"),
            source: wgpu::ShaderSource::Wgsl(DEPTH_RAMP.into()),
        });
    let pipeline = gpu
        .device()
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("depth ramp"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("full_screen"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: depth.format(),
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("ramp"),
                compilation_options: Default::default(),
                targets: &[],
            }),
            multiview_mask: None,
            cache: None,
        });
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("depth ramp"),
        color_attachments: &[],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: depth.view(),
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(1.0),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(&pipeline);
    pass.draw(0..3, 0..1);
}

gpu_test! {
    /// A depth32float image is a render pass's depth attachment (through its view), a kernel's
    /// `texture_2d<f32>` (as GL needs it) and reads back as `f32`, row by row, at widths around
    /// the copy alignment; a colour image drawn into by a render pass reads back as well.
    async fn depth_and_colour_images_are_render_targets_kernels_bind_and_read_back(gpu) {
        use shoal::wgpu;
        let probe = gpu.kernel(shoal::Source::new("probe.wgsl", "
            @group(0) @binding(0) var depth: texture_2d<f32>;
            @group(0) @binding(1) var<storage, read_write> out: array<f32>;
            @compute @workgroup_size(1) fn probe() { out[0] = textureLoad(depth, vec2<u32>(2u, 1u), 0).x; }")).expect("kernel");
        for width in [3, 64, 65] {
            let depth = gpu
                .image_zeroed_with(width, 2, TextureFormat::Depth32Float, TextureUsages::RENDER_ATTACHMENT)
                .expect("depth image");
            assert!(depth.usage().contains(TextureUsages::TEXTURE_BINDING | TextureUsages::RENDER_ATTACHMENT), "{:?}", depth.usage());
            assert_eq!(depth.texel_bytes(), 4);
            let mut commands = gpu.commands();
            draw_depth_ramp(&gpu, commands.encoder(), &depth);
            commands.submit().expect("submit").wait().await.expect("wait");
            let back: Vec<f32> = depth.read().await.expect("read depth");
            let want: Vec<f32> = (0..2).flat_map(|y| (0..width).map(move |x| ramp_depth(x, y))).collect();
            assert_eq!(back, want, "width {width}");
            assert_eq!(depth.read_bytes().await.expect("bytes").len(), width as usize * 2 * 4);
            let out = gpu.buffer_zeroed::<f32>(1).expect("buffer");
            probe.bind("depth", &depth).bind("out", &out).groups([1, 1, 1]).run().expect("bind a depth image");
            assert_eq!(out.read().await.expect("read")[0], ramp_depth(2, 1));
        }

        let colour = gpu
            .image_zeroed_with(65, 3, TextureFormat::Rgba16Float, TextureUsages::RENDER_ATTACHMENT | TextureUsages::TEXTURE_BINDING)
            .expect("colour image");
        let mut commands = gpu.commands();
        commands.encoder().begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clear"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: colour.view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.5, g: 2.0, b: -1.0, a: 1.0 }), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        commands.submit().expect("submit").wait().await.expect("wait");
        let texels: Vec<[f16; 4]> = colour.read().await.expect("read colour");
        let want = [0.5, 2.0, -1.0, 1.0].map(f16::from_f32);
        assert!(texels.len() == 65 * 3 && texels.iter().all(|t| *t == want), "{:?}", texels[0]);
    }
}

gpu_test! {
    /// What a depth image does not do is a typed error: host writes, texels of another type,
    /// and reading back a depth format other than depth32float.
    async fn depth_image_mistakes_are_typed_errors(gpu) {
        let depth = gpu.image_zeroed_with(4, 4, TextureFormat::Depth32Float, TextureUsages::RENDER_ATTACHMENT).expect("depth");
        let e = depth.write(&[0.5f32; 16]).expect_err("host write");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        assert_names(&e, &["writing an Image", "depth32float", "render pass"]);
        let e = depth.read::<[f32; 4]>().await.expect_err("texel type");
        assert!(matches!(e, Error::TexelType { .. }), "{e}");
        assert_names(&e, &["depth32float", "`f32`"]);
        let e = gpu.image_from(4, 4, TextureFormat::Depth32Float, &[0.0f32; 16]).expect_err("image_from");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        let other = gpu.image_zeroed_with(4, 4, TextureFormat::Depth24Plus, TextureUsages::RENDER_ATTACHMENT).expect("depth24plus");
        let e = other.read_bytes().await.expect_err("depth24plus");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        assert_names(&e, &["depth24plus", "only depth32float"]);
    }
}

/// An image's view is what a render pass samples: it is a 2D view of the whole texture.
#[allow(
    dead_code,
    reason = "compile-time check of the public surface the demos draw with"
)]
fn view_is_reachable(image: &Image) -> (&shoal::wgpu::TextureView, &shoal::wgpu::Texture) {
    (image.view(), image.raw())
}

gpu_test! {
    /// A multisampled texture binding and an image of one sample per texel (every image Shoal
    /// makes): a typed error when recorded, not wgpu's when the bind group is made.
    async fn a_multisampled_binding_and_a_one_sample_image_is_an_error(gpu) {
    let k = gpu.kernel(shoal::Source::new("resolve.wgsl", "
        @group(0) @binding(0) var t: texture_multisampled_2d<f32>;
        @group(0) @binding(1) var<storage, read_write> o: array<f32>;
        @compute @workgroup_size(1) fn main() { o[0] = textureLoad(t, vec2<i32>(0), 0).x; }")).expect("kernel");
    let image = gpu.image_zeroed(4, 4, TextureFormat::Rgba8Unorm).expect("image");
    let o = gpu.buffer_zeroed::<f32>(1).expect("o");
    let e = k.bind("t", &image).bind("o", &o).groups([1, 1, 1]).run().expect_err("one sample");
    assert!(matches!(e, Error::BindingKind { .. }), "{e}");
    for part in ["resolve.wgsl:main", "`t`", "multisampled", "1 sample(s) per texel"] {
        assert!(e.to_string().contains(part), "{e} should name {part}");
    }
    }
}

gpu_test! {
    /// A sampler descriptor wgpu refuses is `Error::Wgpu` from `Gpu::sampler`, which creates it
    /// inside error scopes: it once returned a sampler and left wgpu's error to fail an
    /// unrelated later call. A valid descriptor makes a sampler, and the next read is clean.
    async fn a_sampler_wgpu_refuses_is_an_error_of_its_own(gpu) {
        let bad = shoal::wgpu::SamplerDescriptor { lod_min_clamp: -1.0, ..Default::default() };
        let b = gpu.buffer_from(&[9u32]).expect("buffer");
        // Natively the call returns it; in the browser a scope answers later, and the next
        // read returns it, naming the call.
        let e = match gpu.sampler(&bad) {
            Err(e) => e,
            Ok(_) if cfg!(target_arch = "wasm32") => b.read().await.expect_err("the scope's answer"),
            Ok(_) => panic!("a negative lod_min_clamp made a sampler"),
        };
        assert!(matches!(e, Error::Wgpu { .. }), "{e}");
        assert!(e.to_string().contains("creating a sampler"), "{e}");
        let good = shoal::wgpu::SamplerDescriptor { mag_filter: shoal::wgpu::FilterMode::Linear, ..Default::default() };
        assert!(gpu.sampler(&good).expect("a valid descriptor").is_filtering());
        assert_eq!(b.read().await.expect("the next read is clean"), [9]);
    }
}
