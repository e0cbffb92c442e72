//! The HLSL route: the book's programs and the corpus translate to valid WGSL; registers,
//! explicit bindings, names, image formats, push constants and the rewrites; each refusal with
//! its line and remedy; glslang's messages.

use naga::{AddressSpace, ImageClass, StorageFormat, TypeInner};

use super::*;

mod refusals;

/// Every HLSL file of the repository (`wgsl/hlsl/`) with its entry points.
const FILES: &[(&str, &str, &[&str])] = &[
    (
        "vecadd.hlsl",
        include_str!("../../../../wgsl/hlsl/vecadd.hlsl"),
        &["CS"],
    ),
    (
        "texture_add.hlsl",
        include_str!("../../../../wgsl/hlsl/texture_add.hlsl"),
        &["CS"],
    ),
    (
        "blur.hlsl",
        include_str!("../../../../wgsl/hlsl/blur.hlsl"),
        &["HorzBlurCS", "VertBlurCS"],
    ),
    (
        "particles.hlsl",
        include_str!("../../../../wgsl/hlsl/particles.hlsl"),
        &["CS"],
    ),
    (
        "sobel.hlsl",
        include_str!("../../../../wgsl/hlsl/sobel.hlsl"),
        &["SobelCS"],
    ),
    (
        "waves.hlsl",
        include_str!("../../../../wgsl/hlsl/waves.hlsl"),
        &["UpdateWavesCS", "DisturbWavesCS"],
    ),
    (
        "saxpy.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/saxpy.hlsl"),
        &["CSMain"],
    ),
    (
        "group_sum.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/group_sum.hlsl"),
        &["ReduceCS"],
    ),
    (
        "histogram.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/histogram.hlsl"),
        &["HistogramCS"],
    ),
    (
        "group_scan.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/group_scan.hlsl"),
        &["ScanCS"],
    ),
    (
        "transpose.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/transpose.hlsl"),
        &["TransposeCS"],
    ),
    (
        "grayscale.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/grayscale.hlsl"),
        &["GrayCS"],
    ),
    (
        "downsample.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/downsample.hlsl"),
        &["DownsampleCS"],
    ),
    (
        "threshold.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/threshold.hlsl"),
        &["ThresholdCS"],
    ),
    (
        "byte_address.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/byte_address.hlsl"),
        &["MultiplyCS"],
    ),
    (
        "keep_even.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/keep_even.hlsl"),
        &["KeepEvenCS"],
    ),
    (
        "bindings.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/bindings.hlsl"),
        &["DistanceCS"],
    ),
    (
        "volume.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/volume.hlsl"),
        &["FillCS"],
    ),
    (
        "push_scale.hlsl",
        include_str!("../../../../wgsl/hlsl/corpus/push_scale.hlsl"),
        &["ScaleCS"],
    ),
];

/// `wgsl` parsed and validated as Shoal does, immediates allowed.
fn validated(name: &str, wgsl: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(wgsl)
        .unwrap_or_else(|e| panic!("{name}: {}\n{wgsl}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::IMMEDIATES,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}: {}\n{wgsl}", e.emit_to_string(wgsl)));
    module
}

/// The translation of `text`'s entry `CS`, parsed and validated.
fn module(text: &str) -> (String, naga::Module) {
    let wgsl = to_wgsl("k.hlsl", text, "CS").unwrap_or_else(|e| panic!("{e}"));
    let module = validated("k.hlsl", &wgsl);
    (wgsl, module)
}

/// The `(group, binding)` of the global `name`.
fn binding(module: &naga::Module, name: &str) -> (u32, u32) {
    let var = module
        .global_variables
        .iter()
        .map(|(_, v)| v)
        .find(|v| v.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no global `{name}`"));
    let b = var.binding.expect("a binding");
    (b.group, b.binding)
}

#[test]
fn every_file_translates_and_the_wgsl_validates() {
    for (name, text, entries) in FILES {
        for entry in *entries {
            let wgsl = to_wgsl(name, text, entry).unwrap_or_else(|e| panic!("{name} {entry}: {e}"));
            let module = validated(name, &wgsl);
            assert_eq!(module.entry_points.len(), 1, "{name}: one entry point");
            assert_eq!(module.entry_points[0].name, *entry);
        }
    }
}

#[test]
fn register_kinds_get_distinct_bases_and_explicit_bindings_keep_their_numbers() {
    let (_, m) = module(
        "cbuffer C : register(b0) { float4 k; };
Texture2D tex : register(t0);
SamplerState smp : register(s0);
RWStructuredBuffer<float4> o : register(u0);
RWStructuredBuffer<float4> o2 : register(u3, space2);
[[vk::binding(0, 0)]] StructuredBuffer<float4> first;
[[vk::binding(7, 1)]] RWStructuredBuffer<float4> other : register(u1);
[numthreads(8, 1, 1)] void CS(uint3 id : SV_DispatchThreadID) {
    o[id.x] = k + tex.SampleLevel(smp, float2(0.5, 0.5), 0) + first[id.x];
    o2[id.x] = o[id.x]; other[id.x] = k;
}
",
    );
    assert_eq!(binding(&m, "C"), (0, 200));
    assert_eq!(binding(&m, "tex"), (0, 400));
    assert_eq!(binding(&m, "smp"), (0, 600));
    assert_eq!(binding(&m, "o"), (0, 800));
    assert_eq!(binding(&m, "o2"), (2, 803));
    assert_eq!(
        binding(&m, "first"),
        (0, 0),
        "an explicit binding is never shifted"
    );
    assert_eq!(
        binding(&m, "other"),
        (1, 7),
        "the attribute wins over the register"
    );
}

#[test]
fn select_becomes_a_per_component_choice() {
    let (wgsl, _) = module(
        "RWStructuredBuffer<float4> v : register(u0);
[numthreads(8, 1, 1)] void CS(uint3 id : SV_DispatchThreadID) {
    v[id.x] = select(v[id.x] > 0.5, select(v[id.x] < 0.1, 1.0.xxxx, v[id.x]), -v[id.x]);
}
",
    );
    assert_eq!(wgsl.matches("select(").count(), 2, "{wgsl}");
}

#[test]
fn push_constants_are_immediates_never_uniform_members() {
    for text in [
        "struct PC { float scale; uint n; };
[[vk::push_constant]] PC pc;
RWStructuredBuffer<float> d : register(u0);
[numthreads(8, 1, 1)] void CS(uint3 id : SV_DispatchThreadID) { if (id.x < pc.n) d[id.x] *= pc.scale; }
",
        "[[vk::push_constant]] cbuffer pc { float scale; uint n; };
RWStructuredBuffer<float> d : register(u0);
[numthreads(8, 1, 1)] void CS(uint3 id : SV_DispatchThreadID) { if (id.x < n) d[id.x] *= scale; }
",
    ] {
        let (wgsl, m) = module(text);
        assert!(wgsl.contains("var<immediate> pc: "), "{wgsl}");
        assert!(
            m.global_variables.iter().all(|(_, v)| v.space != AddressSpace::Uniform),
            "{wgsl}"
        );
    }
}

#[test]
fn storage_images_take_their_format_and_the_access_their_code_uses() {
    let (_, m) = module(
        "RWTexture2D<float3> rgb : register(u0);
[[vk::image_format(\"rgba8\")]] RWTexture2D<float4> bytes : register(u1);
RWTexture2D<uint> counts : register(u2);
RWTexture2D<float4> read_only : register(u3);
RWTexture2D<int2> pairs : register(u4);
[numthreads(8, 8, 1)] void CS(uint3 id : SV_DispatchThreadID) {
    rgb[id.xy] = read_only[id.xy].xyz;
    bytes[id.xy] = 1;
    counts[id.xy] = counts[id.xy] + 1;
    pairs[id.xy] = int2(1, 2);
}
",
    );
    let image = |name: &str| {
        let var = m
            .global_variables
            .iter()
            .map(|(_, v)| v)
            .find(|v| v.name.as_deref() == Some(name))
            .expect("image");
        match m.types[var.ty].inner {
            TypeInner::Image {
                class: ImageClass::Storage { format, access },
                ..
            } => (format, access),
            _ => panic!("{name}: not a storage image"),
        }
    };
    use naga::StorageAccess as A;
    assert_eq!(
        image("rgb"),
        (StorageFormat::Rgba32Float, A::STORE),
        "rgba32f by default, not a guess from float3"
    );
    assert_eq!(image("bytes"), (StorageFormat::Rgba8Unorm, A::STORE));
    assert_eq!(
        image("counts"),
        (StorageFormat::R32Uint, A::LOAD | A::STORE),
        "read-write: r32"
    );
    assert_eq!(image("read_only"), (StorageFormat::Rgba32Float, A::LOAD));
    assert_eq!(image("pairs"), (StorageFormat::Rgba32Sint, A::STORE));
}

#[test]
fn append_and_consume_buffers_are_one_binding_with_their_header() {
    let (wgsl, m) = module(include_str!("../../../../wgsl/hlsl/particles.hlsl"));
    let storage: Vec<_> = m
        .global_variables
        .iter()
        .map(|(_, v)| v)
        .filter(|v| v.binding.is_some())
        .collect();
    assert_eq!(storage.len(), 2, "no counter bindings: {wgsl}");
    for name in ["gInput", "gOutput"] {
        let var = storage
            .iter()
            .find(|v| v.name.as_deref() == Some(name))
            .expect("buffer");
        let TypeInner::Struct { members, .. } = &m.types[var.ty].inner else {
            panic!("struct")
        };
        assert_eq!(
            members.iter().map(|m| m.offset).collect::<Vec<_>>(),
            [0, 16],
            "{wgsl}"
        );
    }
    assert!(
        !wgsl.contains("var<storage, read_write> shoal_header"),
        "{wgsl}"
    );
}

#[test]
fn cbuffers_are_bound_by_their_names_and_checked_against_wgsl_packing() {
    let (_, m) = module(
        "cbuffer Settings : register(b1) { float2 a; float b; float c; float4 d; };
RWStructuredBuffer<float4> o : register(u0);
[numthreads(1, 1, 1)] void CS() { o[0] = d * (a.x + b + c); }
",
    );
    assert_eq!(binding(&m, "Settings"), (0, 201));
}

#[test]
fn glslang_errors_name_file_and_line() {
    let text = "RWStructuredBuffer<float> o : register(u0);\n[numthreads(1, 1, 1)]\nvoid CS() {\n    o[0] = nope;\n}\n";
    match to_wgsl("edited/broken.hlsl", text, "CS") {
        Err(Error::Compile { message }) => {
            assert!(message.contains("edited/broken.hlsl:4:"), "{message}");
            assert!(message.contains("    |     o[0] = nope;"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    match to_wgsl("k.hlsl", &text.replace("nope", "1"), "Missing") {
        Err(Error::Compile { message }) => assert!(message.contains("Missing"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn byte_address_dimensions_are_in_bytes() {
    let (wgsl, _) = module(
        "RWByteAddressBuffer b : register(u0);
[numthreads(1, 1, 1)] void CS() { uint bytes; b.GetDimensions(bytes); b.Store(0, bytes); }
",
    );
    assert!(
        wgsl.contains("(arrayLength((&b.u0040_data)) * 4u)"),
        "{wgsl}"
    );
}
