// GPU printf: `#import shoal::printf`, then from any invocation
//
//     shoal_print_u32(gid, i);
//     shoal_print_vec3f(gid, position);
//
// records the value, its type and the invocation's global id (`gid`, which WGSL cannot read from
// a helper) into a debug ring. Shoal binds the ring itself when a kernel uses it (binding 999 of
// group 0 is reserved for it) and `kernel.printed().await` returns the records in the order they
// were written. The ring keeps the first records of a batch and counts the rest: the host reports
// how many were dropped, so an overflow is never silent.

struct ShoalPrintRecord {
    gid: vec3<u32>,
    // Scalar kind (0 u32, 1 i32, 2 f32) | components << 8 | call site << 16.
    kind: u32,
    // The components' bits (f32 and i32 bitcast), unused ones zero.
    bits: vec4<u32>,
}

struct ShoalPrintf {
    // Records attempted since the host last read the ring; above arrayLength(&records) after an
    // overflow.
    cursor: atomic<u32>,
    // Explicit, so every backend puts the records at byte 16 (they are 16-aligned anyway).
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    records: array<ShoalPrintRecord>,
}

@group(0) @binding(999) var<storage, read_write> shoal_printf: ShoalPrintf;

// The call site of the print under way: Shoal renames each call in the kernel to a wrapper that
// sets it (its number in the kernel's table of `file:line:column`), 0 where unknown.
var<private> shoal_print_site: u32;

fn shoal_print_record(gid: vec3<u32>, kind: u32, bits: vec4<u32>) {
    let slot = atomicAdd(&shoal_printf.cursor, 1u);
    if slot < arrayLength(&shoal_printf.records) {
        shoal_printf.records[slot] = ShoalPrintRecord(gid, kind | (shoal_print_site << 16u), bits);
    }
    shoal_print_site = 0u;
}

fn shoal_print_u32(gid: vec3<u32>, v: u32) { shoal_print_record(gid, 0u | (1u << 8u), vec4<u32>(v, 0u, 0u, 0u)); }
fn shoal_print_i32(gid: vec3<u32>, v: i32) { shoal_print_record(gid, 1u | (1u << 8u), vec4<u32>(bitcast<u32>(v), 0u, 0u, 0u)); }
fn shoal_print_f32(gid: vec3<u32>, v: f32) { shoal_print_record(gid, 2u | (1u << 8u), vec4<u32>(bitcast<u32>(v), 0u, 0u, 0u)); }
fn shoal_print_vec2u(gid: vec3<u32>, v: vec2<u32>) { shoal_print_record(gid, 0u | (2u << 8u), vec4<u32>(v, 0u, 0u)); }
fn shoal_print_vec3u(gid: vec3<u32>, v: vec3<u32>) { shoal_print_record(gid, 0u | (3u << 8u), vec4<u32>(v, 0u)); }
fn shoal_print_vec4u(gid: vec3<u32>, v: vec4<u32>) { shoal_print_record(gid, 0u | (4u << 8u), v); }
fn shoal_print_vec2i(gid: vec3<u32>, v: vec2<i32>) { shoal_print_record(gid, 1u | (2u << 8u), vec4<u32>(bitcast<vec2<u32>>(v), 0u, 0u)); }
fn shoal_print_vec3i(gid: vec3<u32>, v: vec3<i32>) { shoal_print_record(gid, 1u | (3u << 8u), vec4<u32>(bitcast<vec3<u32>>(v), 0u)); }
fn shoal_print_vec4i(gid: vec3<u32>, v: vec4<i32>) { shoal_print_record(gid, 1u | (4u << 8u), bitcast<vec4<u32>>(v)); }
fn shoal_print_vec2f(gid: vec3<u32>, v: vec2<f32>) { shoal_print_record(gid, 2u | (2u << 8u), vec4<u32>(bitcast<vec2<u32>>(v), 0u, 0u)); }
fn shoal_print_vec3f(gid: vec3<u32>, v: vec3<f32>) { shoal_print_record(gid, 2u | (3u << 8u), vec4<u32>(bitcast<vec3<u32>>(v), 0u)); }
fn shoal_print_vec4f(gid: vec3<u32>, v: vec4<f32>) { shoal_print_record(gid, 2u | (4u << 8u), bitcast<vec4<u32>>(v)); }
