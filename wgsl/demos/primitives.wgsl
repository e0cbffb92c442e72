// The primitives demo's picture: the radix-sorted keys as bars (one column per pixel column,
// height = key / u32::MAX) and the inclusive prefix sum of the values, divided by the total, as
// a white curve over them. The work group is square, its side planned from the device's
// limits by the host (WG).

override WG: u32 = 16u;

@group(0) @binding(0) var<storage, read> sorted: array<u32>;
@group(0) @binding(1) var<storage, read> prefix: array<u32>;
@group(0) @binding(2) var bars: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(WG, WG, 1)
fn draw_bars(@builtin(global_invocation_id) gid: vec3<u32>) {
    let size = textureDimensions(bars);
    if gid.x >= size.x || gid.y >= size.y {
        return;
    }
    let n = arrayLength(&sorted);
    let i = min(u32(f32(gid.x) / f32(size.x) * f32(n)), n - 1u);
    let height = f32(sorted[i]) / 4294967295.0;
    let y = 1.0 - (f32(gid.y) + 0.5) / f32(size.y);
    let t = f32(gid.x) / f32(size.x);
    var color = vec3<f32>(0.06, 0.07, 0.1);
    if y < height {
        color = mix(vec3<f32>(0.1, 0.35, 0.8), vec3<f32>(0.95, 0.55, 0.15), t);
    }
    let curve = f32(prefix[i]) / f32(max(prefix[n - 1u], 1u));
    if abs(y - curve) < 1.5 / f32(size.y) {
        color = vec3<f32>(1.0);
    }
    textureStore(bars, gid.xy, vec4<f32>(color, 1.0));
}
