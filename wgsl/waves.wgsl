// The 2D wave equation (the Direct3D 12 book, exercise 5; the book's Waves class on the GPU). Heights live in
// three r32float images, the previous, current and next solutions; each step writes
//
//   next = k1·prev + k2·curr + k3·(curr[x, y+1] + curr[x, y-1] + curr[x+1, y] + curr[x-1, y])
//
// with k1 = (μdt − 2)/(μdt + 2), k2 = (4 − 8e)/(μdt + 2), k3 = 2e/(μdt + 2), e = c²dt²/dx²
// (computed on the host), and the host rotates the three images. As in the book's CPU class,
// the border is held at zero (only interior texels are updated; the GPU version writes zero
// there instead of relying on out-of-bounds reads, which WGSL leaves undefined).

struct Wave {
    k1: f32,
    k2: f32,
    k3: f32,
}

// A disturbance: the texel and the height added (its 4 neighbours get half).
struct Disturbance {
    x: u32,
    y: u32,
    magnitude: f32,
}

@group(0) @binding(0) var prev: texture_2d<f32>;
@group(0) @binding(1) var curr: texture_2d<f32>;
@group(0) @binding(2) var next: texture_storage_2d<r32float, write>;
@group(0) @binding(3) var<uniform> wave: Wave;

@group(0) @binding(4) var surface: texture_storage_2d<r32float, read_write>;
@group(0) @binding(5) var<uniform> disturbance: Disturbance;

// The document's [numthreads(16, 16, 1)].
@compute @workgroup_size(16, 16, 1)
fn waves_update(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = vec2<i32>(textureDimensions(curr));
    let p = vec2<i32>(gid.xy);
    if p.x >= dims.x || p.y >= dims.y {
        return;
    }
    if p.x == 0 || p.y == 0 || p.x == dims.x - 1 || p.y == dims.y - 1 {
        textureStore(next, p, vec4<f32>(0.0));
        return;
    }
    let h = wave.k1 * textureLoad(prev, p, 0).r
        + wave.k2 * textureLoad(curr, p, 0).r
        + wave.k3 * (textureLoad(curr, p + vec2<i32>(0, 1), 0).r
            + textureLoad(curr, p + vec2<i32>(0, -1), 0).r
            + textureLoad(curr, p + vec2<i32>(1, 0), 0).r
            + textureLoad(curr, p + vec2<i32>(-1, 0), 0).r);
    textureStore(next, p, vec4<f32>(h, 0.0, 0.0, 1.0));
}

// The exercise's "separate compute shader with a single thread" that disturbs the water, as
// the book's Waves::Disturb: the texel rises by the magnitude, its 4 neighbours by half. The
// host keeps (x, y) off the border.
@compute @workgroup_size(1)
fn waves_disturb() {
    let p = vec2<i32>(i32(disturbance.x), i32(disturbance.y));
    let m = disturbance.magnitude;
    textureStore(surface, p, textureLoad(surface, p) + vec4<f32>(m, 0.0, 0.0, 0.0));
    let half_m = vec4<f32>(0.5 * m, 0.0, 0.0, 0.0);
    for (var k = 0; k < 4; k++) {
        let q = p + array(vec2<i32>(1, 0), vec2<i32>(-1, 0), vec2<i32>(0, 1), vec2<i32>(0, -1))[k];
        textureStore(surface, q, textureLoad(surface, q) + half_m);
    }
}
