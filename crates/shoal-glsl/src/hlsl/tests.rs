//! The HLSL route: the book's programs translate and validate, registers and names, rewrites,
//! refusals.

use super::*;

const BOOK: &[(&str, &str, &[&str])] = &[
    ("vecadd.hlsl", include_str!("../../../../wgsl/hlsl/vecadd.hlsl"), &["CS"]),
    ("texture_add.hlsl", include_str!("../../../../wgsl/hlsl/texture_add.hlsl"), &["CS"]),
    ("blur.hlsl", include_str!("../../../../wgsl/hlsl/blur.hlsl"), &["HorzBlurCS", "VertBlurCS"]),
    ("particles.hlsl", include_str!("../../../../wgsl/hlsl/particles.hlsl"), &["CS"]),
    ("sobel.hlsl", include_str!("../../../../wgsl/hlsl/sobel.hlsl"), &["SobelCS"]),
    ("waves.hlsl", include_str!("../../../../wgsl/hlsl/waves.hlsl"), &["UpdateWavesCS", "DisturbWavesCS"]),
];

#[test]
fn explore() {
    for (name, text, entries) in BOOK {
        for entry in *entries {
            match to_wgsl(name, text, entry) {
                Ok(w) => println!("==== {name} {entry}\n{w}"),
                Err(e) => println!("==== {name} {entry} ERROR {e}"),
            }
        }
    }
}

#[test]
fn explore2() {
    let cases: &[(&str, &str)] = &[
        ("push", "struct PC { float scale; uint n; };\n[[vk::push_constant]] PC pc;\nRWStructuredBuffer<float> gData : register(u0);\n[numthreads(64,1,1)] void CS(uint3 id : SV_DispatchThreadID) { if (id.x < pc.n) gData[id.x] *= pc.scale; }\n"),
        ("push_cb", "[[vk::push_constant]] cbuffer PC { float scale; uint n; };\nRWStructuredBuffer<float> gData : register(u0);\n[numthreads(64,1,1)] void CS(uint3 id : SV_DispatchThreadID) { if (id.x < n) gData[id.x] *= scale; }\n"),
        ("select", "RWStructuredBuffer<float4> gData : register(u0);\n[numthreads(64,1,1)] void CS(uint3 id : SV_DispatchThreadID) { float4 v = gData[id.x]; gData[id.x] = select(v > 0.5, v, select(v < 0.1, -v, 2*v)); }\n"),
        ("space", "RWStructuredBuffer<float> a : register(u0, space1);\nStructuredBuffer<float> b : register(t0);\ncbuffer C : register(b0) { float k; };\nSamplerState s : register(s0);\nTexture2D tex : register(t1);\n[[vk::binding(3, 0)]] RWStructuredBuffer<float> e;\n[numthreads(64,1,1)] void CS(uint3 id : SV_DispatchThreadID) { a[id.x] = b[id.x] * k + tex.SampleLevel(s, float2(0.5, 0.5), 0).x + e[id.x]; }\n"),
        ("cbuf", "cbuffer C : register(b0) { float a; float3 b; };\nRWStructuredBuffer<float> o : register(u0);\n[numthreads(1,1,1)] void CS() { o[0] = a + b.x; }\n"),
        ("cbuf2", "cbuffer C : register(b0) { float2 a; float3 b; };\nRWStructuredBuffer<float> o : register(u0);\n[numthreads(1,1,1)] void CS() { o[0] = a.x + b.x; }\n"),
        ("cbufarr", "cbuffer C : register(b0) { float w[4]; };\nRWStructuredBuffer<float> o : register(u0);\n[numthreads(1,1,1)] void CS() { o[0] = w[1]; }\n"),
        ("arg", "Texture2D t : register(t0);\nRWStructuredBuffer<float> o : register(u0);\nfloat f(Texture2D tx) { return tx[int2(0,0)].x; }\n[numthreads(1,1,1)] void CS() { o[0] = f(t); }\n"),
        ("atomic4", "groupshared uint4 g;\nRWStructuredBuffer<uint> o : register(u0);\n[numthreads(1,1,1)] void CS() { uint old; InterlockedAdd(g.x, 1, old); o[0] = old; }\n"),
        ("globals", "float k;\nRWStructuredBuffer<float> o : register(u0);\n[numthreads(1,1,1)] void CS() { o[0] = k; }\n"),
        ("fmt", "[[vk::image_format(\"rgba8\")]] RWTexture2D<float4> img : register(u0);\nRWTexture2D<float3> img3 : register(u1);\nRWTexture2D<uint> imgu : register(u2);\n[numthreads(1,1,1)] void CS() { img[int2(0,0)] = 1; img3[int2(0,0)] = 1; imgu[int2(0,0)] = imgu[int2(1,1)]; }\n"),
        ("imgatomic", "RWTexture2D<uint> imgu : register(u0);\n[numthreads(1,1,1)] void CS() { uint o; InterlockedAdd(imgu[int2(0,0)], 1, o); }\n"),
        ("byteaddr", "RWByteAddressBuffer b : register(u0);\n[numthreads(1,1,1)] void CS() { b.Store(0, b.Load(4) + 1); }\n"),
        ("half", "RWStructuredBuffer<half> b : register(u0);\n[numthreads(1,1,1)] void CS() { b[0] = b[1]; }\n"),
    ];
    for (name, text) in cases {
        match to_wgsl(name, text, "CS") {
            Ok(w) => println!("==== {name}\n{w}"),
            Err(e) => println!("==== {name} ERROR {e}"),
        }
    }
}
