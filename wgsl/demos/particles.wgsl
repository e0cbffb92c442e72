// The append/consume particles drawn as small additive quads, straight from the kernel's live
// append buffer: its header holds the count, the items start at byte 16. One instance per slot;
// slots past the count are moved outside the clip volume.

struct Particle {
    position: vec3<f32>,
    velocity: vec3<f32>,
    acceleration: vec3<f32>,
    age: f32,
    id: u32,
}

// The layout of `shoal::append`'s buffer, read-only.
struct Live {
    count: i32,
    capacity: u32,
    _pad0: u32,
    _pad1: u32,
    items: array<Particle>,
}

struct View {
    view_proj: mat4x4<f32>,
    // xy: the target's size in pixels; z: the quad's side in pixels; w: the lifetime.
    params: vec4<f32>,
}

@group(0) @binding(0) var<storage, read> live: Live;
@group(0) @binding(1) var<uniform> view: View;

struct Vertex {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec3<f32>,
}

@vertex
fn quad(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> Vertex {
    if i32(i) >= live.count {
        return Vertex(vec4<f32>(2.0, 2.0, 2.0, 1.0), vec3<f32>(0.0));
    }
    let p = live.items[i];
    let clip = view.view_proj * vec4<f32>(p.position, 1.0);
    let corner = vec2<f32>(f32(v & 1u), f32(v >> 1u)) - 0.5;
    let offset = corner * view.params.z * 2.0 / view.params.xy * clip.w;
    // Young particles are hot white-yellow, old ones cool to red.
    let t = clamp(p.age / view.params.w, 0.0, 1.0);
    let color = mix(vec3<f32>(1.0, 0.85, 0.4), vec3<f32>(0.7, 0.1, 0.05), t) * 0.35;
    return Vertex(clip + vec4<f32>(offset, 0.0, 0.0), color);
}

@fragment
fn glow(in: Vertex) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color, 1.0);
}
