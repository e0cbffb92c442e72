// The flock drawn as the document's paper airplanes (the OpenGL compute-shader lesson's 025_ComputeShaderBoids.vert): an
// 8-vertex triangle strip per member, instanced over the flock. The vertex shader reads the
// compute kernel's own member buffer as storage (no copy), orients the airplane with a look-at
// from the velocity, and colours it by instance id as the document does.

struct Member {
    position: vec3<f32>,
    velocity: vec3<f32>,
}

@group(0) @binding(0) var<storage, read> members: array<Member>;
@group(0) @binding(1) var<uniform> mvp: mat4x4<f32>;

struct Vertex {
    @builtin(position) position: vec4<f32>,
    @location(0) @interpolate(flat) color: vec3<f32>,
}

// The document's paper airplane: positions, then normals.
const POSITIONS = array<vec3<f32>, 8>(
    vec3<f32>(-5.0, 1.0, 0.0), vec3<f32>(-1.0, 1.5, 0.0), vec3<f32>(-1.0, 1.5, 7.0),
    vec3<f32>(0.0, 0.0, 0.0), vec3<f32>(0.0, 0.0, 10.0), vec3<f32>(1.0, 1.5, 0.0),
    vec3<f32>(1.0, 1.5, 7.0), vec3<f32>(5.0, 1.0, 0.0),
);
const NORMALS = array<vec3<f32>, 8>(
    vec3<f32>(0.0, 0.0, 0.0), vec3<f32>(0.0, 0.0, 0.0), vec3<f32>(0.107, -0.859, 0.0),
    vec3<f32>(0.832, 0.554, 0.0), vec3<f32>(-0.59, -0.395, 0.0), vec3<f32>(-0.832, 0.554, 0.0),
    vec3<f32>(0.295, -0.196, 0.0), vec3<f32>(0.124, 0.992, 0.0),
);

fn make_lookat(forward: vec3<f32>, up: vec3<f32>) -> mat3x3<f32> {
    let side = cross(forward, up);
    let u_frame = cross(side, forward);
    return mat3x3<f32>(side, u_frame, forward);
}

fn choose_color(f: f32) -> vec3<f32> {
    let r = sin(f * 6.2831853);
    let g = sin((f + 0.3333) * 6.2831853);
    let b = sin((f + 0.6666) * 6.2831853);
    return vec3<f32>(r, g, b) * 0.25 + vec3<f32>(0.75);
}

@vertex
fn airplane(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> Vertex {
    let member = members[i];
    // A member at rest has no direction: fly along +z rather than divide by zero.
    var forward = vec3<f32>(0.0, 0.0, 1.0);
    if dot(member.velocity, member.velocity) > 1e-12 {
        forward = normalize(member.velocity);
    }
    let lookat = make_lookat(forward, vec3<f32>(0.0, 1.0, 0.0));
    let object = lookat * POSITIONS[v];
    let n = lookat * NORMALS[v];
    let c = choose_color(fract(f32(i) / 1237.0));
    let color = mix(c * 0.2, c, smoothstep(0.0, 0.8, abs(n).z));
    return Vertex(mvp * vec4<f32>(object + member.position, 1.0), color);
}

@fragment
fn shade(in: Vertex) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color, 1.0);
}
