// Bilateral blur (the Direct3D 12 book, exercise 4): a Gaussian blur whose weights also fall off with the
// difference in colour, so edges stay sharp while flat regions smooth.
//
//   out(p) = Σ_q w(p, q) · in(q) / Σ_q w(p, q)
//   w(p, q) = exp(-|p - q|² / 2σs²) · exp(-|in(p).rgb - in(q).rgb|² / 2σr²)
//
// over the (2R + 1)² window with R = ceil(2σs) (the Gaussian blur's radius rule), borders
// clamped. Not separable, so one 2D pass.

struct Bilateral {
    // 1 / (2σs²) and 1 / (2σr²).
    spatial: f32,
    range: f32,
    radius: i32,
}

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;
@group(0) @binding(2) var<uniform> params: Bilateral;

@compute @workgroup_size(16, 16, 1)
fn bilateral(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = vec2<i32>(textureDimensions(src));
    let p = vec2<i32>(gid.xy);
    if p.x >= dims.x || p.y >= dims.y {
        return;
    }
    let center = textureLoad(src, p, 0);
    let r = params.radius;
    var sum = vec4<f32>(0.0);
    var total = 0.0;
    for (var dy = -r; dy <= r; dy++) {
        for (var dx = -r; dx <= r; dx++) {
            let q = clamp(p + vec2<i32>(dx, dy), vec2<i32>(0), dims - 1);
            let c = textureLoad(src, q, 0);
            let d = c.rgb - center.rgb;
            let w = exp(-f32(dx * dx + dy * dy) * params.spatial - dot(d, d) * params.range);
            sum += w * c;
            total += w;
        }
    }
    // total ≥ the centre's own weight, exp(0) = 1: never a division by zero.
    textureStore(dst, p, sum / total);
}
