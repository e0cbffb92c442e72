//! Render pipelines through the core: every texel a pipeline paints equals the CPU's, over many
//! target sizes, with the vertices made by the shader or read from a vertex buffer; a profiled
//! batch times the render pass under its label; and each mistake is a typed error (a snippet's
//! WGSL error under its own file and line, a binding unknown or left unbound, a stage of
//! another module, an entry point the module lacks).

use shoal::glam::Vec4;
use shoal::{Error, Gpu, RenderModule, RenderPipeline, Source, TimingSource, Usage, wgpu};

use crate::gpu_test;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

fn paint_source() -> Source {
    shoal::wgsl!("../../wgsl/conformance/paint.wgsl")
}

/// A pipeline of `module`'s `vertex` entry point and `paint`, the vertex buffer of
/// `vec4<f32>` positions when `buffered`.
fn pipeline(module: &RenderModule, vertex: &str, buffered: bool) -> shoal::Result<RenderPipeline> {
    let attributes = wgpu::vertex_attr_array![0 => Float32x4];
    let layout = [Some(wgpu::VertexBufferLayout {
        array_stride: 16,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &attributes,
    })];
    module.pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("paint"),
        layout: None,
        vertex: wgpu::VertexState {
            module: module.raw(),
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: if buffered { &layout } else { &[] },
        },
        fragment: Some(wgpu::FragmentState {
            module: module.raw(),
            entry_point: Some("paint"),
            compilation_options: Default::default(),
            targets: &[Some(FORMAT.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// A render pass into `image`, clearing it to black.
fn pass<'c>(commands: &'c mut shoal::Commands, image: &shoal::Image) -> wgpu::RenderPass<'c> {
    commands.render_pass(&wgpu::RenderPassDescriptor {
        label: Some("paint"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: image.view(),
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    })
}

/// What `paint` writes at `(x, y)`, as 8-bit unorm.
fn expected(w: u32, h: u32, blue: u8) -> Vec<[u8; 4]> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| [(x % 256) as u8, (y % 256) as u8, blue, 255]))
        .collect()
}

fn target(gpu: &Gpu, w: u32, h: u32) -> shoal::Image {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    gpu.image_zeroed_with(w, h, FORMAT, usage).expect("target")
}

gpu_test! {
    /// Both vertex paths paint every texel as the CPU does, over sizes around 1, 64 and 256
    /// (where red and green wrap), and a profiled batch times the pass under its label.
    async fn a_render_pipeline_paints_every_texel_as_the_cpu_does(gpu) {
        let module = gpu.render_module(paint_source()).expect("module");
        let made = pipeline(&module, "fullscreen", false).expect("pipeline");
        let buffered = pipeline(&module, "from_buffer", true).expect("buffered pipeline");
        let corners = [Vec4::new(-1.0, -1.0, 0.0, 1.0), Vec4::new(3.0, -1.0, 0.0, 1.0), Vec4::new(-1.0, 3.0, 0.0, 1.0)];
        let vertices = gpu.buffer_from_with(&corners, Usage::VERTEX).expect("vertices");
        let blue = gpu.uniform(&Vec4::new(0.0, 0.0, 0.2, 0.0)).expect("uniform");
        for [w, h] in [[1, 1], [2, 3], [63, 17], [64, 64], [65, 1], [257, 9]] {
            for from_buffer in [false, true] {
                let image = target(&gpu, w, h);
                let mut commands = gpu.commands().profiled();
                let draw = match from_buffer {
                    true => buffered.bind("blue", &blue).vertices(0, &vertices),
                    false => made.bind("blue", &blue),
                };
                draw.record(&mut pass(&mut commands, &image), 0..3, 0..1).expect("draw");
                let timings = commands.submit().expect("submit").timings().await.expect("timings");
                let got = image.read::<[u8; 4]>().await.expect("read");
                assert!(got == expected(w, h, 51), "{w} x {h}, from a buffer: {from_buffer}");
                if gpu.has_timestamps() {
                    assert_eq!(timings.len(), 1, "{timings:?}");
                    assert_eq!((timings[0].label.as_str(), timings[0].source), ("paint", TimingSource::GpuTimestamp));
                }
            }
        }
    }

    /// An empty range draws nothing: the pass still clears.
    async fn an_empty_draw_records_nothing_but_the_pass(gpu) {
        let module = gpu.render_module(paint_source()).expect("module");
        let made = pipeline(&module, "fullscreen", false).expect("pipeline");
        let blue = gpu.uniform(&Vec4::ONE).expect("uniform");
        let image = target(&gpu, 5, 4);
        let mut commands = gpu.commands();
        made.bind("blue", &blue).record(&mut pass(&mut commands, &image), 0..0, 0..1).expect("nothing");
        commands.submit().expect("submit").wait().await.expect("wait");
        assert_eq!(image.read::<[u8; 4]>().await.expect("read"), vec![[0, 0, 0, 255]; 20]);
    }

    /// A mistake in an imported snippet is `Error::Wgsl` naming the snippet's file and line.
    async fn a_snippet_error_in_a_render_module_names_the_snippet_file_and_line(gpu) {
        let source = Source::new("paint_main.wgsl", "#import paint::shade\n@fragment fn main() -> @location(0) vec4<f32> { return shade(); }\n")
            .snippet("paint::shade", Source::new("edited/shade.wgsl", "// shade\nfn shade() -> vec4<f32> {\n    let x: u32 = 1.5;\n    return vec4<f32>(1.0);\n}\n"));
        match gpu.render_module(source) {
            Err(Error::Wgsl { kernel, message }) => {
                assert_eq!(kernel, "paint_main.wgsl");
                assert!(message.contains("edited/shade.wgsl:3:"), "{message}");
            }
            other => panic!("expected a WGSL error, got {other:?}"),
        }
    }

    /// Bindings are checked by name before anything is recorded: one the module lacks, one left
    /// unbound; a stage of another module and an entry point the module lacks are refused.
    async fn render_pipeline_mistakes_are_typed_errors(gpu) {
        let module = gpu.render_module(paint_source()).expect("module");
        let made = pipeline(&module, "fullscreen", false).expect("pipeline");
        let blue = gpu.uniform(&Vec4::ONE).expect("uniform");
        let image = target(&gpu, 4, 4);
        let mut commands = gpu.commands();
        let e = made.bind("blue", &blue).bind("green", &blue).record(&mut pass(&mut commands, &image), 0..3, 0..1).expect_err("unknown");
        assert!(matches!(&e, Error::UnknownBinding { binding, available, .. } if binding == "green" && available == &["blue"]), "{e}");
        assert!(e.to_string().contains("paint"), "{e}");
        let e = made.draw().record(&mut pass(&mut commands, &image), 0..3, 0..1).expect_err("unbound");
        assert!(matches!(&e, Error::Unbound { binding, group: 0, index: 0, .. } if binding == "blue"), "{e}");
        assert!(e.to_string().contains(".bind(\"blue\""), "{e}");
        commands.submit().expect("nothing was recorded but the passes").wait().await.expect("wait");

        let other = gpu.render_module(paint_source()).expect("another module");
        let e = other.pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("mixed"),
            layout: None,
            vertex: wgpu::VertexState { module: module.raw(), entry_point: Some("fullscreen"), compilation_options: Default::default(), buffers: &[] },
            fragment: None,
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        }).expect_err("a stage of another module");
        assert!(matches!(&e, Error::InvalidParameter { parameter, .. } if parameter == "module"), "{e}");
        assert!(e.to_string().contains("conformance/paint.wgsl"), "{e}");
        let e = pipeline(&module, "no_such_entry", false).expect_err("no such entry point");
        assert!(matches!(&e, Error::InvalidParameter { parameter, value, .. } if parameter == "entry_point" && value == "no_such_entry"), "{e}");
        assert!(e.to_string().contains("fullscreen"), "{e}");
    }
}
