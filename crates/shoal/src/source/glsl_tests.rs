//! Translated kernels under the names their GLSL and HLSL give: bindings named by words WGSL
//! reserves bound by those names (run time and `glsl!`), and the errors of kernel creation
//! naming the GLSL line of a subgroup operation or of a constant whose value is at fault.

use crate::{Error, Gpu, GpuOptions, Kernel, Source};

/// `reserved_names.comp`: `meta.values[i] = target[i] * module.scale + 1` for `i < count`.
const RESERVED: &str = include_str!("../../wgsl/glsl/reserved_names.comp");

/// The same kernel in HLSL, its resources named `target`, `filter` and `meta`.
const RESERVED_HLSL: &str = "
StructuredBuffer<float> target : register(t0);
RWStructuredBuffer<float> filter : register(u0);
cbuffer meta : register(b0) { float scale; uint count; };
[numthreads(64, 1, 1)]
void CS(uint3 id : SV_DispatchThreadID) {
    if (id.x < count) { filter[id.x] = target[id.x] * scale + 1.0f; }
}";

/// The kernels' `scale` and `count`.
#[derive(encase::ShaderType, Clone, Copy)]
struct Params {
    scale: f32,
    count: u32,
}

/// Runs `kernel` (bindings `input`, `output`, `params`; `params` a uniform where `uniform`) over
/// many sizes against the CPU.
fn check_scale(gpu: &Gpu, kernel: &Kernel, [input, output, params]: [&str; 3], uniform: bool) {
    for n in [0usize, 1, 63, 64, 65, 1000] {
        let data: Vec<f32> = (0..n).map(|i| (i % 97) as f32 - 40.0).collect();
        let src = gpu.buffer_from(&data.clone().max_one()).expect("input");
        let out = gpu.buffer_zeroed::<f32>(n.max(1) as u64).expect("output");
        let value = Params {
            scale: 1.5,
            count: n as u32,
        };
        let p = match uniform {
            true => gpu.uniform(&value),
            false => gpu.buffer_from(&[value]),
        }
        .expect("params");
        kernel
            .bind(input, &src)
            .bind(output, &out)
            .bind(params, &p)
            .invocations(n.max(1) as u64)
            .run()
            .expect("run");
        let got = out.read_blocking().expect("read");
        let want: Vec<f32> = (0..n.max(1))
            .map(|i| if i < n { data[i] * 1.5 + 1.0 } else { 0.0 })
            .collect();
        assert_eq!(got, want, "{n} elements");
    }
}

/// A one-element vector where `self` is empty (a binding cannot be empty).
trait MaxOne {
    fn max_one(self) -> Self;
}

impl MaxOne for Vec<f32> {
    fn max_one(mut self) -> Self {
        if self.is_empty() {
            self.push(0.0);
        }
        self
    }
}

#[test]
fn glsl_bindings_named_by_reserved_words_are_bound_by_those_names() {
    let gpu = Gpu::blocking().expect("device");
    let sources = [
        Source::glsl("reserved_names.comp", RESERVED).expect("translated"),
        crate::glsl!("../../wgsl/glsl/reserved_names.comp"),
    ];
    for source in sources {
        let mut aliases = source.aliases();
        aliases.sort();
        assert_eq!(
            aliases,
            [
                ("meta", "meta_"),
                ("module", "module_"),
                ("target", "target_")
            ]
        );
        assert!(source.text().contains("target_"), "{}", source.text());
        let kernel = gpu.kernel(source).expect("kernel");
        let mut names: Vec<&str> = kernel
            .reflection()
            .bindings
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        names.sort();
        assert_eq!(names, ["meta", "module", "target"]);
        check_scale(&gpu, &kernel, ["target", "meta", "module"], false);
        // The WGSL name is no binding's: the error lists the GLSL names.
        let buffer = gpu.buffer_zeroed::<f32>(4).expect("buffer");
        let e = kernel
            .bind("target_", &buffer)
            .invocations(4)
            .run()
            .expect_err("a typed error");
        let Error::UnknownBinding {
            binding, available, ..
        } = &e
        else {
            panic!("{e:?}");
        };
        assert_eq!(binding, "target_");
        assert!(available.iter().any(|a| a == "target"), "{e}");
        assert!(!available.iter().any(|a| a.ends_with('_')), "{e}");
        // A binding left unbound is named as the GLSL names it.
        let e = kernel
            .bind("meta", &buffer)
            .bind("module", &buffer)
            .invocations(4)
            .run()
            .expect_err("a typed error");
        assert!(
            matches!(&e, Error::Unbound { binding, .. } if binding == "target"),
            "{e:?}"
        );
    }
}

#[test]
fn hlsl_resources_named_by_reserved_words_are_bound_by_those_names() {
    let gpu = Gpu::blocking().expect("device");
    let source = Source::hlsl("reserved.hlsl", RESERVED_HLSL, "CS").expect("translated");
    let mut aliases = source.aliases();
    aliases.sort();
    assert_eq!(
        aliases,
        [
            ("filter", "filter_"),
            ("meta", "meta_"),
            ("target", "target_")
        ]
    );
    let kernel = gpu.kernel(source).expect("kernel");
    check_scale(&gpu, &kernel, ["target", "filter", "meta"], true);
    let buffer = gpu.buffer_zeroed::<f32>(4).expect("buffer");
    let e = kernel
        .bind("meta_", &buffer)
        .invocations(4)
        .run()
        .expect_err("a typed error");
    assert!(
        matches!(&e, Error::UnknownBinding { available, .. } if available.iter().any(|a| a == "meta")),
        "{e:?}"
    );
}

/// A subgroup sum whose first subgroup operation is on line 7.
const SUBGROUP_SUM: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float total = subgroupAdd(data[i]);
    data[i] = total;
}";

#[test]
fn a_glsl_subgroup_kernel_without_subgroups_names_its_line_and_remedy() {
    let withheld = GpuOptions {
        withheld_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    };
    let gpu = Gpu::with_options_blocking(withheld).expect("device without subgroups");
    let source = Source::glsl("sum.comp", SUBGROUP_SUM).expect("translated");
    let e = gpu.kernel(source).expect_err("a typed error");
    let Error::MissingFeature {
        feature,
        location,
        remedy,
        ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert_eq!(feature, "SUBGROUP");
    assert_eq!(location.as_deref(), Some("sum.comp:7"));
    assert!(
        remedy.contains("`shared` memory and `barrier()`"),
        "{remedy}"
    );
    assert!(e.to_string().contains("(first used at sum.comp:7)"), "{e}");
}

/// `1.0 / m` with `m` 0 by default: naga cannot apply the override.
const RECIPROCAL: &str = "#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float m = 0.0;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 1.0 / m; }";

#[test]
fn a_constant_whose_default_makes_an_expression_infinite_is_named_with_its_line() {
    let gpu = Gpu::blocking().expect("device");
    let source = Source::glsl("reciprocal.comp", RECIPROCAL).expect("translated");
    let e = gpu.kernel(source.clone()).expect_err("a typed error");
    let Error::Override { message, .. } = &e else {
        panic!("{e:?}");
    };
    for words in [
        "`m` (reciprocal.comp:3)",
        "infinite",
        ".constant(\"m\", …)",
        "change its default",
    ] {
        assert!(message.contains(words), "{words}: {message}");
    }
    // The remedy works: with a value the kernel runs, as the CPU computes.
    let kernel = gpu
        .kernel_builder(source)
        .constant("m", 4.0)
        .build()
        .expect("kernel");
    let data = gpu.buffer_from(&[2.0f32, 8.0, -4.0]).expect("data");
    kernel
        .bind("data", &data)
        .invocations(3)
        .run()
        .expect("run");
    assert_eq!(data.read_blocking().expect("read"), [0.5, 2.0, -1.0]);
}
