//! Every refusal of the HLSL route: the construct, its line and the remedy's words.

use super::super::*;

/// The refusal of `text`'s entry `CS`: its construct, remedy and location.
fn refusal(text: &str) -> (String, &'static str, String) {
    match to_wgsl("k.hlsl", text, "CS") {
        Err(Error::Unsupported {
            construct,
            wgsl,
            location,
        }) => (construct, wgsl, location),
        other => panic!("not a refusal: {other:?}"),
    }
}

const OUT: &str = "RWStructuredBuffer<uint> o : register(u0);\n";

#[test]
fn each_refused_construct_names_its_line_and_remedy() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "[numthreads(1, 1, 1)] void CS() {\n    RWStructuredBuffer<uint> b = ResourceDescriptorHeap[0];\n    b[0] = 1;\n}\n",
            "k.hlsl:3",
            "ResourceDescriptorHeap",
            "register(t0)",
        ),
        (
            "\nBuffer<float> t : register(t0);\n[numthreads(1, 1, 1)] void CS() { o[0] = (uint)t[0]; }\n",
            "k.hlsl:3",
            "typed buffer",
            "StructuredBuffer",
        ),
        (
            "Texture2D t : register(t0);\nfloat f(Texture2D x) { return x[int2(0, 0)].x; }\n[numthreads(1, 1, 1)] void CS() { o[0] = (uint)f(t); }\n",
            "k.hlsl:3",
            "`Texture2D x`",
            "file-scope resource",
        ),
        (
            "[numthreads(64, 1, 1)] void CS(uint3 id : SV_DispatchThreadID) {\n    o[id.x] = WaveActiveSum(id.x);\n}\n",
            "k.hlsl:3",
            "wave intrinsic",
            "groupshared",
        ),
        (
            "[numthreads(1, 1, 1)] void CS() {\n    o.IncrementCounter();\n}\n",
            "k.hlsl:3",
            "hidden counter",
            "AppendStructuredBuffer",
        ),
        (
            "uint k;\n[numthreads(1, 1, 1)] void CS() { o[0] = k; }\n",
            "k.hlsl:2",
            "`$Globals`",
            "static const",
        ),
        (
            "RWStructuredBuffer<uint> far : register(u200);\n[numthreads(1, 1, 1)] void CS() { far[0] = 1; o[0] = 1; }\n",
            "k.hlsl:2",
            "`register(u200)`",
            "below 200",
        ),
        (
            "[[vk::binding(800, 0)]] RWStructuredBuffer<uint> b;\n[numthreads(1, 1, 1)] void CS() { b[0] = 1; o[0] = 1; }\n",
            "k.hlsl:",
            "one binding number",
            "vk::binding",
        ),
        (
            "cbuffer C : register(b0)\n{\n    float a;\n    float3 b;\n};\n[numthreads(1, 1, 1)] void CS() { o[0] = (uint)(a + b.x); }\n",
            "k.hlsl:5",
            "(cbuffer `C`: `b` at byte 4, WGSL's 16)",
            "16-byte register",
        ),
        (
            "cbuffer C : register(b0)\n{\n    float w[4];\n};\n[numthreads(1, 1, 1)] void CS() { o[0] = (uint)w[1]; }\n",
            "k.hlsl:4",
            "array of scalars",
            "w[i / 4][i % 4]",
        ),
        (
            "groupshared uint4 g;\n[numthreads(1, 1, 1)] void CS() {\n    uint old;\n    InterlockedAdd(g.x, 1, old);\n    o[0] = old;\n}\n",
            "k.hlsl:5",
            "one component",
            "groupshared uint g[4]",
        ),
        (
            "RWTexture2D<uint> img : register(u1);\n[numthreads(1, 1, 1)] void CS() {\n    uint old;\n    InterlockedAdd(img[int2(0, 0)], 1, old);\n    o[0] = old;\n}\n",
            "k.hlsl:5",
            "no image atomics",
            "RWStructuredBuffer<uint>",
        ),
        (
            "[[vk::image_format(\"rg11b10f\")]] RWTexture2D<float3> img : register(u1);\n[numthreads(1, 1, 1)] void CS() { img[int2(0, 0)] = 1; o[0] = 1; }\n",
            "k.hlsl:2",
            "`rg11b10f` on `img`",
            "rgba16f",
        ),
    ];
    for (body, location, construct, remedy) in cases {
        let text = format!("{OUT}{body}");
        let (c, r, l) = refusal(&text);
        assert!(
            l.starts_with(location),
            "{text}\nlocation {l}, wanted {location}"
        );
        assert!(l.len() > "k.hlsl:".len(), "{text}\nno line: {l}");
        assert!(c.contains(construct), "{text}\nconstruct {c}");
        assert!(r.contains(remedy), "{text}\nremedy {r}");
        assert!(
            REFUSED.iter().any(|(what, _)| c.starts_with(what)),
            "{c} is listed in REFUSED"
        );
    }
}
