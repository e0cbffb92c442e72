// Immediate data (push constants): the parameters of one dispatch, set with
// `.immediates(&value)` instead of a uniform buffer bound by name.
struct Saxpy {
    a: f32,
    n: u32,
}
var<immediate> params: Saxpy;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn saxpy(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < params.n {
        y[id.x] = params.a * x[id.x] + y[id.x];
    }
}
