// The wave surface as a lit height-field mesh: one vertex per texel of the current solution
// (an r32float image, read with textureLoad in the vertex shader), normals from central
// differences of the neighbouring heights, a camera looking down at an angle, a depth buffer.
// No vertex buffer: the vertex index names the cell and the corner.

struct View {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // x: heights are multiplied by this before they are drawn.
    params: vec4<f32>,
}

@group(0) @binding(0) var heights: texture_2d<f32>;
@group(0) @binding(1) var<uniform> view: View;

struct Vertex {
    @builtin(position) position: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

fn height(p: vec2<i32>, size: vec2<i32>) -> f32 {
    return textureLoad(heights, clamp(p, vec2<i32>(0), size - 1), 0).r * view.params.x;
}

@vertex
fn surface(@builtin(vertex_index) index: u32) -> Vertex {
    let size = vec2<i32>(textureDimensions(heights));
    // Two triangles per cell of (size - 1)^2 cells: corners (0,0) (1,0) (0,1) (0,1) (1,0) (1,1).
    let cells = size.x - 1;
    let cell = i32(index / 6u);
    let corner = array<vec2<i32>, 6>(
        vec2<i32>(0, 0), vec2<i32>(1, 0), vec2<i32>(0, 1),
        vec2<i32>(0, 1), vec2<i32>(1, 0), vec2<i32>(1, 1),
    )[index % 6u];
    let p = vec2<i32>(cell % cells, cell / cells) + corner;
    // The grid spans [-1, 1] in x and z; dx is one texel in world units.
    let dx = 2.0 / f32(max(size.x, size.y) - 1);
    let xz = (vec2<f32>(p) - 0.5 * vec2<f32>(size - 1)) * dx;
    let world = vec3<f32>(xz.x, height(p, size), xz.y);
    let ddx = height(p + vec2<i32>(1, 0), size) - height(p - vec2<i32>(1, 0), size);
    let ddz = height(p + vec2<i32>(0, 1), size) - height(p - vec2<i32>(0, 1), size);
    let normal = normalize(vec3<f32>(-ddx, 2.0 * dx, -ddz));
    return Vertex(view.view_proj * vec4<f32>(world, 1.0), world, normal);
}

@fragment
fn shade(in: Vertex) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let light = normalize(vec3<f32>(-0.4, 1.0, -0.3));
    let to_eye = normalize(view.eye.xyz - in.world);
    let diffuse = max(dot(n, light), 0.0);
    let specular = pow(max(dot(n, normalize(light + to_eye)), 0.0), 64.0);
    let water = vec3<f32>(0.05, 0.32, 0.52);
    let c = water * (0.25 + 0.75 * diffuse) + vec3<f32>(0.9) * specular;
    return vec4<f32>(c, 1.0);
}
