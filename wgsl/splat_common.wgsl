// Particle splatting, the part every pass shares (`#import splat::common`): the particle and
// camera layouts, the cull, the pixel, the colour and the depth test. The compute splat
// (splat.wgsl, splat_int64.wgsl), the raster baseline and the composite (splat_raster.wgsl) all
// read these definitions, so the two paths cannot drift apart. Conventions are wgpu's, not GL's:
// clip z runs from 0 to w, and texture row 0 is the top of the image.

struct Particle {
    // xyz: world position; w: world size (the side of the particle's footprint).
    position: vec4<f32>,
    // rgb: the colour a particle exactly one pixel big adds; a: unused.
    color: vec4<f32>,
}

struct SplatParams {
    view_proj: mat4x4<f32>,
    // xyz: I_max / E_max per channel (R, G, B); w: focal length in pixels (P[1][1] * H / 2).
    scale: vec4<f32>,
    // x, y: target width and height; z, w: the coarse depth level's width and height.
    size: vec4<u32>,
}

// Where a particle lands and what it adds, or why it adds nothing.
struct Fragment {
    // SPLAT_CULLED, SPLAT_HIDDEN, or the pixel's index y * width + x.
    status: u32,
    // The quantised colour: R and B in 21 bits, G in 22.
    color: vec3<u32>,
}

const SPLAT_CULLED: u32 = 0xFFFFFFFFu;
const SPLAT_HIDDEN: u32 = 0xFFFFFFFEu;
// The coarse depth level is level 4 of a mip chain: one texel per 16 x 16 pixels.
const SPLAT_TILE: u32 = 16u;
const SPLAT_IMAX: vec3<u32> = vec3<u32>(0x1FFFFFu, 0x3FFFFFu, 0x1FFFFFu);

@group(0) @binding(0) var<uniform> params: SplatParams;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
// Depth32Float bound as an unfilterable float texture rather than texture_depth_2d: naga's GLSL
// back end cannot textureLoad a depth texture, and WebGPU allows either view of the format.
@group(0) @binding(2) var scene_depth: texture_2d<f32>;
@group(0) @binding(3) var<storage, read> hiz: array<f32>;

// Frustum cull before the perspective divide: a single pixel needs no clipping, only a test.
fn splat_inside(clip: vec4<f32>) -> bool {
    return clip.w > 0.0 && all(abs(clip.xy) <= vec2<f32>(clip.w)) && clip.z >= 0.0 && clip.z <= clip.w;
}

// Window coordinates in pixels, y down (row 0 at the top, as wgpu's framebuffer).
fn splat_window(clip: vec4<f32>, size: vec2<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2<f32>((ndc.x * 0.5 + 0.5) * size.x, (0.5 - 0.5 * ndc.y) * size.y);
}

// The document's pixel: pixel centres sit halfway between integers, clamped into the image.
fn splat_pixel(window: vec2<f32>, size: vec2<u32>) -> vec2<u32> {
    let p = vec2<i32>(round(window - vec2<f32>(0.5)));
    return vec2<u32>(clamp(p, vec2<i32>(0), vec2<i32>(size) - vec2<i32>(1)));
}

// Particles are always one pixel: the colour is scaled by the projected area over one pixel.
fn splat_color(p: Particle, clip_w: f32, focal_px: f32) -> vec3<f32> {
    let side = p.position.w * focal_px / clip_w;
    return p.color.rgb * (side * side);
}

// c_i = round(c_f * I_max / E_max). A single particle brighter than E_max saturates at I_max so it
// cannot spill into the neighbouring channel on its own; sums still overflow as the document says.
fn splat_quantise(c: vec3<f32>) -> vec3<u32> {
    return min(vec3<u32>(round(max(c, vec3<f32>(0.0)) * params.scale.xyz)), SPLAT_IMAX);
}

fn splat_fragment(index: u32) -> Fragment {
    let p = particles[index];
    let clip = params.view_proj * vec4<f32>(p.position.xyz, 1.0);
    if !splat_inside(clip) {
        return Fragment(SPLAT_CULLED, vec3<u32>(0u));
    }
    let pixel = splat_pixel(splat_window(clip, vec2<f32>(params.size.xy)), params.size.xy);
    let depth = clip.z / clip.w;
    // Hi-Z: in front of the nearest surface of the whole tile passes without touching the
    // full-resolution depth, whose reads are random (particles are neither sorted nor tiled).
    let tile = pixel / SPLAT_TILE;
    if !(depth < hiz[tile.y * params.size.z + tile.x]) {
        if !(depth < textureLoad(scene_depth, vec2<i32>(pixel), 0).r) {
            return Fragment(SPLAT_HIDDEN, vec3<u32>(0u));
        }
    }
    let color = splat_quantise(splat_color(p, clip.w, params.scale.w));
    return Fragment(pixel.y * params.size.x + pixel.x, color);
}
