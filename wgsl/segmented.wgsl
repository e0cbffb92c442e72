// Segmented scans and reduce-by-key, around the Scan family. segmented.rs records:
//   pack    (flag, value) pairs: the flag is 1 where a segment starts (a head flag, or a key
//           that differs from the one before), the value's bits (or 1, to count run lengths);
//   Scan    of the pairs with the segmented operator (flag_a | flag_b, flag_b ? b : a op b),
//           which is associative: a head cuts the running value off from everything before it;
//   unpack  the values out of the scanned pairs (exclusive: the identity at each head, else the
//           inclusive value before), and for reduce-by-key a flag where a run ends, which the
//           compaction keeps.

#import shoal::fold

override WG: u32 = 256u;

struct Params {
    // Elements.
    n: u32,
    // 0: heads from `heads` (a flag per element); 1: where `heads` (keys) changes; 2: the same
    // heads, and the value 1 for every element (run lengths).
    mode: u32,
    // 1 inclusive, 0 exclusive.
    inclusive: u32,
    // The operation's identity, as bits.
    identity: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Bits of the values (u32, i32 or f32).
@group(0) @binding(1) var<storage, read> values: array<u32>;
// Head flags (mode 0) or keys (modes 1 and 2).
@group(0) @binding(2) var<storage, read> heads: array<u32>;
@group(0) @binding(3) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read> scanned: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read_write> output: array<u32>;
// 1 where a run of equal keys ends (reduce-by-key's compaction keeps those).
@group(0) @binding(6) var<storage, read_write> ends: array<u32>;

fn is_head(i: u32) -> bool {
    if params.mode == 0u {
        return heads[i] != 0u;
    }
    return i == 0u || heads[i] != heads[i - 1u];
}

@compute @workgroup_size(WG)
fn pack(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lidx: u32) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= params.n {
        return;
    }
    var value = 1u;
    if params.mode != 2u {
        value = values[i];
    }
    pairs[i] = vec2<u32>(select(0u, 1u, is_head(i)), value);
}

@compute @workgroup_size(WG)
fn unpack(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lidx: u32) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= params.n {
        return;
    }
    if params.inclusive != 0u {
        output[i] = scanned[i].y;
    } else if i == 0u || is_head(i) {
        output[i] = params.identity;
    } else {
        output[i] = scanned[i - 1u].y;
    }
}

// unpack for reduce-by-key: every inclusive value, and where each run ends.
@compute @workgroup_size(WG)
fn run_ends(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lidx: u32) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= params.n {
        return;
    }
    output[i] = scanned[i].y;
    ends[i] = select(0u, 1u, i + 1u == params.n || heads[i + 1u] != heads[i]);
}
