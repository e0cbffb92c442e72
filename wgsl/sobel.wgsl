// Sobel edge detection and the cartoon composite (the Direct3D 12 book, exercise 6).
//
// `sobel` is the document's SobelCS: the 3x3 neighbourhood c[row][column] around each texel
// (borders clamped: out-of-bounds `textureLoad` is not defined to return anything useful), the
// horizontal and vertical Sobel derivatives per channel, their magnitude, and
// 1 - saturate(luminance(magnitude)) so that edges are black and flat regions white.
//
// The document's Gy line reads `-c[2][0] - 2c[2][1] - c[2][1] + c[0][0] + 2c[0][1] + c[0][2]`:
// `c[2][1]` twice and no `c[2][2]`, a typo or extraction damage. The Sobel operator's vertical
// kernel is the horizontal one transposed, (1 2 1) on the top row and -(1 2 1) on the bottom
// row, so this file uses `-c[2][0] - 2c[2][1] - c[2][2]`.
//
// `composite_multiply` is the document's combining pixel shader as a kernel: base x edges.

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;

@group(0) @binding(2) var base: texture_2d<f32>;
@group(0) @binding(3) var edges: texture_2d<f32>;

// The document's CalcLuminance weights.
fn luminance(color: vec3<f32>) -> f32 {
    return dot(color, vec3<f32>(0.299, 0.587, 0.114));
}

// The document's [numthreads(16, 16, 1)]; 256 invocations fit WebGPU's limit.
@compute @workgroup_size(16, 16, 1)
fn sobel(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = vec2<i32>(textureDimensions(src));
    let p = vec2<i32>(gid.xy);
    if p.x >= dims.x || p.y >= dims.y {
        return;
    }
    var c: array<array<vec4<f32>, 3>, 3>;
    for (var i = 0; i < 3; i++) {
        for (var j = 0; j < 3; j++) {
            let xy = clamp(p + vec2<i32>(-1 + j, -1 + i), vec2<i32>(0), dims - 1);
            c[i][j] = textureLoad(src, xy, 0);
        }
    }
    let gx = -1.0 * c[0][0] - 2.0 * c[1][0] - 1.0 * c[2][0] + 1.0 * c[0][2] + 2.0 * c[1][2] + 1.0 * c[2][2];
    let gy = -1.0 * c[2][0] - 2.0 * c[2][1] - 1.0 * c[2][2] + 1.0 * c[0][0] + 2.0 * c[0][1] + 1.0 * c[0][2];
    let mag = sqrt(gx * gx + gy * gy);
    // The document assigns the scalar to a float4: every channel, alpha included, holds it.
    textureStore(dst, p, vec4<f32>(1.0 - saturate(luminance(mag.rgb))));
}

@compute @workgroup_size(16, 16, 1)
fn composite_multiply(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = textureDimensions(base);
    if gid.x >= dims.x || gid.y >= dims.y {
        return;
    }
    textureStore(dst, gid.xy, textureLoad(base, gid.xy, 0) * textureLoad(edges, gid.xy, 0));
}
