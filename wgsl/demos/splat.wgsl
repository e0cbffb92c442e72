// Shows the splatting's HDR image (rgba16float, additive sums of particles over the opaque
// scene) in the frame: tone-mapped with x / (1 + x), encoded as sRGB unless the target format
// does it, scaled to the target with nearest texels.

struct Out {
    @builtin(position) position: vec4<f32>,
}

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> Out {
    let xy = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - 1.0;
    return Out(vec4<f32>(xy, 0.0, 1.0));
}

struct Composite {
    target_size: vec2<f32>,
    // 1: encode sRGB here (the target is a linear format); 0: the target encodes.
    encode_srgb: f32,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<uniform> composite: Composite;

fn srgb(linear: vec3<f32>) -> vec3<f32> {
    let low = linear * 12.92;
    let high = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, linear <= vec3<f32>(0.0031308));
}

@fragment
fn tone_map(in: Out) -> @location(0) vec4<f32> {
    let size = vec2<f32>(textureDimensions(hdr));
    let texel = vec2<i32>(floor(in.position.xy * size / composite.target_size));
    let c = textureLoad(hdr, clamp(texel, vec2<i32>(0), vec2<i32>(size) - 1), 0).rgb;
    let mapped = c / (1.0 + c);
    return vec4<f32>(select(mapped, srgb(mapped), composite.encode_srgb > 0.5), 1.0);
}
