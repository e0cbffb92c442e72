// Workgroup memory starts zeroed (WGSL), in every kind of variable: `dirty` fills it, `clean`
// and `clean_unindexed` only read it. On GL Shoal zeroes it itself, the work group together
// (crates/shoal/src/zero_init.rs); `clean_unindexed` names no local index, so Shoal adds one.

override WG: u32 = 64u;

struct Pair { count: atomic<u32>, sum: u32, v: vec2<f32> }
struct Plain { a: u32, b: vec3<f32> }
struct Local { @builtin(local_invocation_index) i: u32, @builtin(workgroup_id) group: vec3<u32> }

var<workgroup> big: array<u32, 4u * WG + 3u>;
var<workgroup> counters: array<atomic<u32>, 37>;
var<workgroup> pair: Pair;
var<workgroup> flag: u32;
var<workgroup> grid: array<array<f32, 5>, 7>;
var<workgroup> plains: array<Plain, 9>;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

// Nonzero where invocation `i` finds anything nonzero in its share of the variables (WG >= 37).
fn seen(i: u32) -> u32 {
    var any = 0u;
    for (var k = i; k < 4u * WG + 3u; k += WG) { any |= big[k]; }
    if i < 37u { any |= atomicLoad(&counters[i]); }
    if i < 35u { any |= bitcast<u32>(grid[i / 5u][i % 5u]); }
    if i < 9u { any |= plains[i].a | bitcast<u32>(plains[i].b.z); }
    if i == 0u { any |= atomicLoad(&pair.count) | pair.sum | bitcast<u32>(pair.v.y) | flag; }
    return any;
}

@compute @workgroup_size(WG)
fn dirty(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) group: vec3<u32>) {
    for (var k = i; k < 4u * WG + 3u; k += WG) { big[k] = 0xdeadbeefu; }
    if i < 37u { atomicStore(&counters[i], 7u); }
    if i < 35u { grid[i / 5u][i % 5u] = 2.0; }
    if i < 9u { plains[i] = Plain(3u, vec3(1.0)); }
    if i == 0u { atomicStore(&pair.count, 9u); pair.sum = 5u; pair.v = vec2(1.0); flag = 3u; }
    workgroupBarrier();
    out[group.x * WG + i] = seen(i);
}

@compute @workgroup_size(WG)
fn clean(l: Local) {
    out[l.group.x * WG + l.i] = seen(l.i);
}

@compute @workgroup_size(WG)
fn clean_unindexed(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) group: vec3<u32>) {
    out[group.x * WG + l.x] = seen(l.x);
}
