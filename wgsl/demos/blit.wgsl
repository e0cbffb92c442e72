// Draws an image over the whole target with one triangle (no vertex buffer): how the demos show
// what a kernel wrote. textureLoad, not a sampler, so float32 images (unfilterable without a
// feature) draw too; the image is scaled to the target with nearest texels.

struct Out {
    @builtin(position) position: vec4<f32>,
}

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> Out {
    // (-1,-1), (3,-1), (-1,3): one triangle covering the viewport.
    let xy = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - 1.0;
    return Out(vec4<f32>(xy, 0.0, 1.0));
}

@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var<uniform> target_size: vec2<f32>;

@fragment
fn show(in: Out) -> @location(0) vec4<f32> {
    let size = vec2<f32>(textureDimensions(image));
    let texel = vec2<i32>(floor(in.position.xy * size / target_size));
    let c = textureLoad(image, clamp(texel, vec2<i32>(0), vec2<i32>(size) - 1), 0);
    return vec4<f32>(c.rgb, 1.0);
}
