// Separable Gaussian blur (the Direct3D 12 book, §13.7). A horizontal pass reads `src` and writes `dst`; the
// vertical pass is the same with x and y exchanged; one blur pass is both, ping-ponging between
// two images.
//
// `blur_horizontal` / `blur_vertical` are the document's kernels: a work group of N invocations
// along a row (or column) blurs N texels, which need N + 2R texels of input. Every invocation
// loads its own texel into the workgroup cache, the first R and the last R invocations each load
// one extra texel (left and right of the group), all clamped at the image border, then one
// barrier, then every tap reads the cache. `blur_naive_*` read every tap from the texture: the
// baseline.
//
// Out-of-bounds `textureLoad` is not defined to return anything useful in WGSL (D3D returns 0,
// which the document also clamps away), so every coordinate is clamped.

// Invocations per work group along the blurred axis; the host plans it from the device limits
// (the document's 256; WebGPU allows 256 in all).
override N: u32 = 256;
// The document's gMaxBlurRadius: 32 weights fit in 8 vec4, the cache holds N + 2 * 15 texels.
const MAX_RADIUS: u32 = 15u;

// The document's BlurDispatchCB: weights packed four to a vec4 (uniform arrays have a 16-byte
// stride), w[i + R] for tap i in -R..=R.
struct Blur {
    weights: array<vec4<f32>, 8>,
    radius: i32,
}

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;
@group(0) @binding(2) var<uniform> blur: Blur;

var<workgroup> sh_cache: array<vec4<f32>, N + 2u * MAX_RADIUS>;

fn weight(tap: i32) -> f32 {
    return blur.weights[tap / 4][tap % 4];
}

// Loads the texel at `along` on the blurred axis of line `line`, clamped to the image.
fn load(along: i32, line: i32, horizontal: bool) -> vec4<f32> {
    let dims = vec2<i32>(textureDimensions(src));
    if horizontal {
        return textureLoad(src, vec2<i32>(clamp(along, 0, dims.x - 1), line), 0);
    }
    return textureLoad(src, vec2<i32>(line, clamp(along, 0, dims.y - 1)), 0);
}

// The document's HorzBlurCS/VertBlurCS body; `t` is the invocation's place in the group,
// `along` its texel on the blurred axis, `line` the row (or column) of the group.
fn cached(t: i32, along: i32, line: i32, horizontal: bool) -> vec4<f32> {
    let r = blur.radius;
    if t < r {
        sh_cache[t] = load(along - r, line, horizontal);
    }
    if t >= i32(N) - r {
        sh_cache[t + 2 * r] = load(along + r, line, horizontal);
    }
    sh_cache[t + r] = load(along, line, horizontal);
    workgroupBarrier();
    var color = vec4<f32>(0.0);
    for (var i = -r; i <= r; i++) {
        color += weight(i + r) * sh_cache[t + r + i];
    }
    return color;
}

fn naive(along: i32, line: i32, horizontal: bool) -> vec4<f32> {
    let r = blur.radius;
    var color = vec4<f32>(0.0);
    for (var i = -r; i <= r; i++) {
        color += weight(i + r) * load(along + i, line, horizontal);
    }
    return color;
}

// Dispatched as ceil(width / N) x height groups. Invocations past the right edge still load
// (clamped) and reach the barrier; only the store is skipped.
@compute @workgroup_size(N, 1, 1)
fn blur_horizontal(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>) {
    let color = cached(i32(lid.x), i32(gid.x), i32(gid.y), true);
    if gid.x < textureDimensions(src).x {
        textureStore(dst, gid.xy, color);
    }
}

// Dispatched as width x ceil(height / N) groups.
@compute @workgroup_size(1, N, 1)
fn blur_vertical(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>) {
    let color = cached(i32(lid.y), i32(gid.y), i32(gid.x), false);
    if gid.y < textureDimensions(src).y {
        textureStore(dst, gid.xy, color);
    }
}

@compute @workgroup_size(N, 1, 1)
fn blur_naive_horizontal(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < textureDimensions(src).x {
        textureStore(dst, gid.xy, naive(i32(gid.x), i32(gid.y), true));
    }
}

@compute @workgroup_size(1, N, 1)
fn blur_naive_vertical(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.y < textureDimensions(src).y {
        textureStore(dst, gid.xy, naive(i32(gid.y), i32(gid.x), false));
    }
}
