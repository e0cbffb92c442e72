// The `io` block of scan.wgsl for run-length encoding (segmented.rs): an inclusive sum scan of
// run ends (element i ends its run where it is the last or the key after it differs), tested
// four keys at a time. Where a run ends, the index after it is stored at the run's index (ends
// so far - 1), and every other element's at the back, past the count (n - 1 - i + ends so far,
// its own place): a store per element and no branch, which a software adapter runs in every lane
// taken or not: faster on SwiftShader, lavapipe and llvmpipe's GL than storing only the runs'
// ends behind a branch (docs/bench/README.md).
// run_lengths.wgsl, dispatched over the runs by the arguments `finish` writes, turns the ends
// into lengths and reads each run's key.

#import dispatch::args

// run_lengths.wgsl, for its dispatch arguments.
@group(0) @binding(8) var<uniform> run_ends: NextKernel;
@group(0) @binding(9) var<storage, read> run_keys: array<u32>;
// The same keys as vec4s.
@group(0) @binding(10) var<storage, read> run_keys4: array<vec4<u32>>;
@group(0) @binding(12) var<storage, read_write> run_after: array<u32>;
// [runs, 0, 0, 0], laid out as CompactCount (the caller's count).
@group(0) @binding(13) var<storage, read_write> run_count: array<u32>;
// [runs, x, y, z]: the count and arguments of run_lengths.wgsl.
@group(0) @binding(14) var<storage, read_write> run_args: array<u32>;

fn ends(i: u32, key: u32) -> bool {
    return i + 1u == params.n || key != run_keys[min(i + 1u, params.n - 1u)];
}

fn element(i: u32, slot: u32) -> T {
    return select(0u, 1u, ends(i, run_keys[i]));
}

fn element4(q: u32) -> vec4<T> {
    let k = run_keys4[q];
    let after = 4u * q + 4u;
    let next = run_keys[min(after, params.n - 1u)];
    let e = vec4(k.x != k.y, k.y != k.z, k.z != k.w, k.w != next || after == params.n);
    return select(vec4(0u), vec4(1u), e);
}

// `v` is the number of runs ended up to and including element i, `x` whether i ends one.
fn emit(i: u32, slot: u32, v: T, x: T) {
    run_after[select(params.n - 1u - i + v, v - 1u, x != 0u)] = i + 1u;
}

fn finish(total: T) {
    run_count[0] = total;
    let args = dispatch_args(total, run_ends);
    run_args[0] = total;
    run_args[1] = args.x;
    run_args[2] = args.y;
    run_args[3] = args.z;
}
