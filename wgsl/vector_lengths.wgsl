// Vector lengths through append and consume buffers (the Direct3D 12 book, exercise 3): each invocation consumes
// one vector and appends its length; the order of either is unknown, the multiset is not.

#import shoal::append(vectors, vec3<f32>)
#import shoal::append(lengths, f32)

override WG: u32 = 64;

@group(0) @binding(0) var<storage, read_write> vectors: ShoalAppend_vectors;
@group(0) @binding(1) var<storage, read_write> lengths: ShoalAppend_lengths;

@compute @workgroup_size(WG)
fn vector_lengths() {
    var v: vec3<f32>;
    if vectors_consume(&v) {
        lengths_append(sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
    }
}
