// A render module for the core's render-pipeline tests: a full-screen triangle, made by the
// vertex shader (`fullscreen`) or read from a vertex buffer (`from_buffer`), painting each pixel
// from its own coordinates (red and green the coordinates modulo 256, exact in an 8-bit unorm
// target) and the uniform's blue (`paint`).

@group(0) @binding(0) var<uniform> blue: vec4<f32>;

@vertex
fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@vertex
fn from_buffer(@location(0) position: vec4<f32>) -> @builtin(position) vec4<f32> {
    return position;
}

@fragment
fn paint(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(at.xy);
    let rg = vec2<f32>(pixel % vec2<u32>(256u)) / 255.0;
    return vec4<f32>(rg, blue.z, 1.0);
}
