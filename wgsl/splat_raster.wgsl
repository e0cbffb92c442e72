// The render side of particle splatting: the opaque scene (which fills the depth buffer), the
// rasterization baseline (particles as a point list, additive blending into rgba16float, depth
// test without writes), and the compute path's composite (a full-screen triangle that turns the
// per-pixel integers back into colour and adds them to the HDR target).
//
// Through splat_common.wgsl the cull, pixel and colour rules are the compute path's.
// Pipelines use wgpu's derived layouts (`layout: None`).

#import splat::common

@group(0) @binding(4) var<storage, read> accum_read: array<vec2<u32>>;

struct Shaded {
    @builtin(position) position: vec4<f32>,
    @location(0) @interpolate(flat) color: vec3<f32>,
}

@vertex
fn geometry_vs(@location(0) position: vec4<f32>, @location(1) color: vec4<f32>) -> Shaded {
    return Shaded(params.view_proj * vec4<f32>(position.xyz, 1.0), color.rgb);
}

// Alpha 0 throughout: additive passes then leave the target's alpha alone.
@fragment
fn shaded_fs(v: Shaded) -> @location(0) vec4<f32> {
    return vec4<f32>(v.color, 0.0);
}

@vertex
fn particle_vs(@location(0) position: vec4<f32>, @location(1) color: vec4<f32>) -> Shaded {
    let clip = params.view_proj * vec4<f32>(position.xyz, 1.0);
    if !splat_inside(clip) {
        // Behind the near plane: the clipper drops the point, as the compute path's cull does.
        return Shaded(vec4<f32>(0.0, 0.0, -1.0, 1.0), vec3<f32>(0.0));
    }
    return Shaded(clip, splat_color(Particle(position, color), clip.w, params.scale.w));
}

@vertex
fn composite_vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle covering the screen: (-1,-1), (3,-1), (-1,3).
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn composite_fs(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(position.xy);
    let words = accum_read[pixel.y * params.size.x + pixel.x];
    let lo = words.x;
    let hi = words.y;
    let q = vec3<u32>(hi >> 11u, ((hi & 0x7FFu) << 11u) | (lo >> 21u), lo & 0x1FFFFFu);
    return vec4<f32>(vec3<f32>(q) / params.scale.xyz, 0.0);
}
