// The `io` block of scan.wgsl for stream compaction (compact.rs): keeping the elements whose
// flag (or predicate) holds, in order, is an inclusive sum scan of the kept flags, run in the
// scan's one pass (its look-back, or its multi-level kernels where the scan takes those).
// Element i loads as 1 where it is kept and 0 where not; a kept element is stored at its scanned
// count - 1. The last element leaves the count on the GPU, with indirect-dispatch arguments for
// the next kernel.
//
// Two functions come before this file: `fn keep(x: u32, i: u32) -> bool` and
// `fn keep4(q: u32) -> vec4<bool>` (elements 4q .. 4q + 3): `flags[i] != 0u`
// (compact_flags.wgsl), or the user's predicate over the value `x` and its index `i` (which may
// read `values`; compact.rs writes `keep` before compact_predicate.wgsl).

#import dispatch::args

// The kernel the count's arguments are for (none where its work-group size is 0).
@group(0) @binding(8) var<uniform> compaction: NextKernel;
@group(0) @binding(9) var<storage, read> values: array<u32>;
@group(0) @binding(10) var<storage, read> flags: array<u32>;
@group(0) @binding(11) var<storage, read_write> kept: array<u32>;
// [count, groups.x, groups.y, groups.z]: the count, then DispatchArgs for the next kernel.
@group(0) @binding(12) var<storage, read_write> count_args: array<u32>;
// `values` and `flags` as vec4s: a software adapter loads a vec4 in about the time of one u32.
@group(0) @binding(13) var<storage, read> values4: array<vec4<u32>>;
@group(0) @binding(14) var<storage, read> flags4: array<vec4<u32>>;

// The values the scan loaded last (a chunk of four, or one element at its place in its chunk):
// the scan calls `emit` for an element right after loading it, so the store loads nothing.
var<private> loaded: vec4<u32>;

fn element(i: u32, slot: u32) -> T {
    let x = values[i];
    loaded[i & 3u] = x;
    return select(0u, 1u, keep(x, i));
}

fn element4(q: u32) -> vec4<T> {
    loaded = values4[q];
    return select(vec4(0u), vec4(1u), keep4(q));
}

// `v` is the number kept up to and including element i, `x` whether i is kept (1 or 0). Every
// element is written, with no branch: a kept one at v - 1, a rejected one at the back, the last
// first (n - 1 - rejected so far): a software adapter pays for a branch in every lane whether
// it is taken or not.
fn emit(i: u32, slot: u32, v: T, x: T) {
    kept[select(params.n - 1u - i + v, v - 1u, x != 0u)] = shoal_component(loaded, i & 3u);
}

// The count, and the next kernel's arguments.
fn finish(total: T) {
    count_args[0] = total;
    if compaction.workgroup != 0u {
        let args = dispatch_args(total, compaction);
        count_args[1] = args.x;
        count_args[2] = args.y;
        count_args[3] = args.z;
    }
}
