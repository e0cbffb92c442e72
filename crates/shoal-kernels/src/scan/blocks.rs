//! The WGSL the scan kernels' `#block`s are replaced with: the unrolled `own` block, the
//! work-group blocks for one-subgroup work groups and for adapters without subgroups, and the
//! blocks of values that are not scalars and of operators that are not commutative.

use crate::value::Shape;

/// Elements per invocation up to which the `own` block is unrolled (every index into `own` a
/// constant, so the array lives in registers); above it the block loops over `own` in memory.
pub(super) const UNROLLED: u32 = 64;

/// The `own` block of `scan.wgsl` for `per` elements per invocation. Up to [`UNROLLED`],
/// `load_own` and `store_own` are unrolled, so that every index into the private array `own` is
/// a constant and the array lives in registers (a software adapter's compiler turns a
/// dynamically indexed array into per-lane memory accesses); above it they loop
/// ([`rolled_own_block`]). Loads take one path, with no branch for a chunk cut by the end of the
/// input: SwiftShader runs every instruction of a kernel whether its lanes take the branch or
/// not, so a second, guarded copy of the loads cost as much as the loads themselves. Whole chunks load as vec4s when `per` is a
/// multiple of 4 (past the end they are the identity, selected), through `element4`, which an
/// `io` block may define; values that are not scalars load element by element. Stores go
/// through `output4` only when `wide_store` (then `n` is a multiple of 4) and through `output`
/// or the `io` block's `emit` otherwise, never both: WebGPU refuses one buffer bound writable
/// twice in a dispatch. The invocation holding the last element ends with the `io` block's
/// `finish`. An `io` block whose `element4` returns `array<T, 4>` (`four`) also defines
/// `element4_first(q)`, which the rolled block calls before each of its loops over whole chunks
/// with the loop's first chunk, so that `element4` may carry what a chunk needs from the one
/// before (a key) instead of loading it.
pub(super) fn own_block(per: u32, shape: Shape, wide_store: bool, four: bool) -> String {
    const LANES: [&str; 4] = ["x", "y", "z", "w"];
    let wide = shape == Shape::Scalar && per.is_multiple_of(4);
    if per > UNROLLED {
        return rolled_own_block(per, shape, wide, wide_store, four && per.is_multiple_of(4));
    }
    let mut lines = load_own_start(per, wide);
    lines.insert(1, "var<private> own: array<T, PER>;".into());
    for j in 0..per {
        if wide {
            if j % 4 == 0 {
                let k = j / 4;
                lines.push(format!(
                    "    let v{k} = chunk(start / 4u + {k}u, n4, tail);"
                ));
            }
            lines.push(format!(
                "    acc = combine(acc, v{}.{}); own[{j}] = acc;",
                j / 4,
                LANES[j as usize % 4]
            ));
        } else {
            lines.push(format!(
                "    if start + {j}u < params.n {{ acc = combine(acc, element(start + {j}u, {j}u)); }} own[{j}] = acc;"
            ));
        }
    }
    lines.push(STORE_OWN_START.into());
    // Element j of the result: prefix ⊕ own[j] inclusive, prefix ⊕ own[j - 1] exclusive.
    let value = |j: u32| {
        let inclusive = format!("combine(prefix, own[{j}])");
        let exclusive = match j {
            0 => "prefix".to_string(),
            _ => format!("combine(prefix, own[{}])", j - 1),
        };
        // WGSL's `select` takes scalars and vectors only.
        match shape {
            Shape::Struct => format!("pick({exclusive}, {inclusive}, inclusive)"),
            _ => format!("select({exclusive}, {inclusive}, inclusive)"),
        }
    };
    if shape == Shape::Struct {
        lines.insert(0, PICK.into());
    }
    if wide_store {
        // n is a multiple of 4 here, so even a chunk cut by the end holds whole vec4s.
        for k in 0..per / 4 {
            let v: Vec<String> = (4 * k..4 * k + 4).map(value).collect();
            lines.push(format!(
                "    if start + {}u <= params.n {{ output4[start / 4u + {k}u] = vec4<T>({}); }}",
                4 * k + 4,
                v.join(", ")
            ));
        }
    } else {
        for j in 0..per {
            lines.push(format!(
                "    if start + {j}u < params.n {{ emit(start + {j}u, {j}u, {}, element(start + {j}u, {j}u)); }}",
                value(j)
            ));
        }
    }
    lines.push(finish("combine(prefix, own[PER - 1u])"));
    lines.join("\n")
}

/// `PER`, `own_start` and `load_own` up to its loads (`chunk` and the input's last `n % 4`
/// elements where they are vec4s), for both forms of the `own` block.
fn load_own_start(per: u32, wide: bool) -> Vec<String> {
    let mut lines = vec![
        format!("const PER: u32 = {per}u;"),
        "fn own_start(tile: u32, id: u32) -> u32 { return (tile * WG + id) * PER; }".into(),
    ];
    if wide {
        lines.push(CHUNK.into());
    }
    lines.extend([
        "fn load_own(tile: u32, id: u32) -> T {".into(),
        "    let start = own_start(tile, id);".into(),
        "    var acc = identity();".into(),
    ]);
    if wide {
        lines.push(WIDE_PRELUDE.into());
    }
    lines
}

/// The end of `load_own` and the start of `store_own`, in both forms of the `own` block.
const STORE_OWN_START: &str = "    return acc;
}
fn store_own(tile: u32, id: u32, prefix: T) {
    let start = own_start(tile, id);
    let inclusive = params.inclusive != 0u;";

/// The start of a wide `load_own`: the last `n % 4` elements as one vec4 padded with the
/// identity, for [`CHUNK`].
const WIDE_PRELUDE: &str = "    let n4 = params.n / 4u;
    var tail = vec4<T>(identity());
    if params.n % 4u > 0u { tail.x = element(n4 * 4u, NO_SLOT); }
    if params.n % 4u > 1u { tail.y = element(n4 * 4u + 1u, NO_SLOT); }
    if params.n % 4u > 2u { tail.z = element(n4 * 4u + 2u, NO_SLOT); }";

/// `chunk(q)`: vec4 `q` of the input, `tail` where the end cuts it and the identity past it.
const CHUNK: &str = "fn chunk(q: u32, n4: u32, tail: vec4<T>) -> vec4<T> {
    let whole = element4(min(q, max(n4, 1u) - 1u));
    return select(select(whole, tail, q == n4), vec4<T>(identity()), q > n4);
}";

/// The `own` block for more than [`UNROLLED`] elements per invocation: the same loads in loops,
/// and no `own` array: `store_own` loads the elements again and carries the running value. A
/// loop's index into a private array makes SwiftShader gather and scatter it lane by lane, which
/// costs more than loading the input twice (docs/bench/webgpu-swiftshader.md). SwiftShader pays a fixed cost per invocation of
/// a kernel with barriers, which more elements per invocation spread
/// ([`ROLLED_PER`](super::ROLLED_PER)); loops, not unrolled code, keep the kernel's
/// compile time that of 64 elements. The values stored are `prefix ⊕ x0 ⊕ … ⊕ xj` folded left to
/// right, so an `f32` sum rounds differently from the unrolled block's `prefix ⊕ (x0 ⊕ … ⊕ xj)`,
/// and as deterministically. The invocation's whole chunks of four go through `element4` in
/// loops with no test per element or chunk (a branch costs every lane on a software adapter,
/// more than selecting the identity past the end in every chunk did), several chunks per iteration ([`chunk_loops`]), the
/// rest one by one; `four` says the `io` block's
/// `element4` returns `array<T, 4>` for values that are not scalars, which then load the same
/// way.
fn rolled_own_block(per: u32, shape: Shape, wide: bool, wide_store: bool, four: bool) -> String {
    let mut lines = load_own_start(per, false);
    let prime = "    element4_first(start / 4u);";
    // The elements of chunk k, or of element j, folded into `acc` (load_own) or stored
    // (store_own): the same loads in both.
    if wide || four {
        if four {
            lines.push(prime.into());
        }
        lines.extend(chunk_loops(
            chunks_per_iteration(wide, CHUNKS_PER_ITERATION),
            |k| {
                vec![
                    format!("let v = element4(start / 4u + {k});"),
                    "acc = combine(combine(combine(combine(acc, v[0]), v[1]), v[2]), v[3]);".into(),
                ]
            },
        ));
        lines.extend([
            "    for (var j = 4u * whole; j < PER; j++) {".into(),
            "        if start + j < params.n { acc = combine(acc, element(start + j, NO_SLOT)); }"
                .into(),
            "    }".into(),
        ]);
    } else {
        lines.extend([
            "    for (var j = 0u; j < PER; j++) {".into(),
            "        if start + j < params.n { acc = combine(acc, element(start + j, NO_SLOT)); }"
                .into(),
            "    }".into(),
        ]);
    }
    lines.extend([STORE_OWN_START.into(), "    var acc = prefix;".into()]);
    let pick = if shape == Shape::Struct {
        lines.insert(0, PICK.into());
        "pick"
    } else {
        "select"
    };
    match (wide, wide_store) {
        // n is a multiple of 4: the chunks are whole.
        (true, true) => lines.extend(chunk_loops(CHUNKS_PER_ITERATION, |k| {
            vec![
                format!("let v = input4[start / 4u + {k}];"),
                "let a = combine(acc, v.x);".into(),
                "let b = combine(a, v.y);".into(),
                "let c = combine(b, v.z);".into(),
                "let d = combine(c, v.w);".into(),
                format!("output4[start / 4u + {k}] = select(vec4<T>(acc, a, b, c), vec4<T>(a, b, c, d), inclusive);"),
                "acc = d;".into(),
            ]
        })),
        (wide, _) => {
            // Whole chunks of four through `element4`, with no test per element; the rest one
            // by one.
            let first = if wide || four {
                if four {
                    lines.push(prime.into());
                }
                let per_iteration = chunks_per_iteration(wide, EMIT_CHUNKS_PER_ITERATION);
                lines.extend(chunk_loops(per_iteration, |k| {
                    let mut body = vec![format!("let v = element4(start / 4u + {k});")];
                    for c in 0..4 {
                        body.extend([
                            format!("let next{c} = combine(acc, v[{c}]);"),
                            format!("emit(start + 4u * ({k}) + {c}u, NO_SLOT, {pick}(acc, next{c}, inclusive), v[{c}]);"),
                            format!("acc = next{c};"),
                        ]);
                    }
                    body
                }));
                "4u * whole"
            } else {
                "0u"
            };
            lines.extend([
                format!("    for (var j = {first}; j < PER; j++) {{"),
                "        if start + j < params.n {".into(),
                "            let x = element(start + j, NO_SLOT);".into(),
                "            let next = combine(acc, x);".into(),
                format!("            emit(start + j, NO_SLOT, {pick}(acc, next, inclusive), x);"),
                "            acc = next;".into(),
                "        }".into(),
                "    }".into(),
            ]);
        }
    }
    lines.push(finish("acc"));
    lines.join("\n")
}

/// Chunks of four elements the rolled block's loops that load and store whole vec4s take per
/// iteration. A software adapter pays for every iteration of a loop (every lane's condition
/// tested, the lanes' masks updated) about what it pays for a vec4 load, so fewer iterations
/// leave the loads: on SwiftShader, with every load and store taken out, the loops alone took a
/// large share of the look-back scan. Four chunks were faster than one there and eight no faster
/// than four; lavapipe did not change (docs/bench/README.md).
const CHUNKS_PER_ITERATION: u32 = 4;

/// Chunks per iteration of the loop that hands elements to the `io` block's `emit` one by one
/// (compaction, run lengths, reduce-by-key), whose body is four times larger: on SwiftShader two
/// were faster than one, and four slower than either (the body repeated).
const EMIT_CHUNKS_PER_ITERATION: u32 = 2;

/// Chunks per iteration of a loop that takes `scalar_chunks` for scalar elements (`wide`): one
/// for values that are not scalars, whose larger bodies run slower repeated (on SwiftShader the
/// segmented sum and reduce-by-key were slower with four to load and two to emit).
fn chunks_per_iteration(wide: bool, scalar_chunks: u32) -> u32 {
    if wide { scalar_chunks } else { 1 }
}

/// `whole` (the invocation's whole chunks of four) and the loops over them: `body(k)`, the
/// statements for chunk `k` (a WGSL expression), `per_iteration` times per iteration, then once
/// per chunk for the rest.
fn chunk_loops(per_iteration: u32, body: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let mut lines = vec![
        "    let whole = min(PER, params.n - min(start, params.n)) / 4u;".into(),
        "    var k = 0u;".into(),
        format!("    for (; k + {per_iteration}u <= whole; k += {per_iteration}u) {{"),
    ];
    for c in 0..per_iteration {
        let chunk = if c == 0 {
            "k".to_string()
        } else {
            format!("k + {c}u")
        };
        lines.push("        {".into());
        lines.extend(body(&chunk).into_iter().map(|l| format!("            {l}")));
        lines.push("        }".into());
    }
    lines.extend(["    }".into(), "    for (; k < whole; k++) {".into()]);
    lines.extend(body("k").into_iter().map(|l| format!("        {l}")));
    lines.push("    }".into());
    lines
}

/// The end of `store_own`: the invocation that holds the last element passes the total of all
/// of them, `total`, to the `io` block's `finish`.
fn finish(total: &str) -> String {
    format!("    if start < params.n && params.n - start <= PER {{ finish({total}); }}\n}}")
}

/// `select` for a struct, which WGSL's `select` does not take.
const PICK: &str = "fn pick(f: T, t: T, c: bool) -> T { if c { return t; } return f; }";

/// The `group_reduce` block of a work group that is one subgroup.
pub(super) const ONE_SUBGROUP_REDUCE: &str =
    "fn group_reduce(x: T, lane: Lane) -> T { return subgroup_combine(x); }";

/// The `group` block of a work group that is one subgroup (WG = the subgroup size): elements are
/// ordered by subgroup lane, the scan is Hillis-Steele over subgroup shuffles, and nothing
/// waits at a barrier.
pub(super) const ONE_SUBGROUP_GROUP: &str = "fn rank(lane: Lane) -> u32 { return lane.sg_id; }
fn group_scan(x: T, lane: Lane) -> T {
    var inclusive = x;
    for (var d = 1u; d < WG; d <<= 1u) {
        let below = subgroupShuffleUp(inclusive, d);
        if lane.sg_id >= d {
            inclusive = combine(below, inclusive);
        }
    }
    group_total = subgroupShuffle(inclusive, WG - 1u);
    let before = subgroupShuffleUp(inclusive, 1u);
    return select(before, identity(), lane.sg_id == 0u);
}
fn first_u32(x: u32, lane: Lane) -> u32 { return subgroupBroadcast(x, 0u); }
fn first_t(x: T, lane: Lane) -> T { return subgroupBroadcast(x, 0u); }
fn group_sync() {}";

/// The portable `group_reduce` block: a tree in shared memory, log2(WG) barriers.
pub(super) const GROUP_REDUCE_PORTABLE: &str = "fn group_reduce(x: T, lane: Lane) -> T {
    shared_data[lane.id] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if lane.id < s {
            shared_data[lane.id] = combine(shared_data[lane.id], shared_data[lane.id + s]);
        }
        workgroupBarrier();
    }
    let total = shared_data[0];
    workgroupBarrier();
    return total;
}";

/// The `wide` block of a value with no four-at-a-time type (vectors, structs): no `input4` or
/// `output4`, and four elements folded from `input`.
pub(super) const NARROW: &str = "fn fold4(i: u32) -> T {
    let b = 4u * i;
    return combine(combine(element(b, NO_SLOT), element(b + 1u, NO_SLOT)), combine(element(b + 2u, NO_SLOT), element(b + 3u, NO_SLOT)));
}";

/// The `fold` block of an operator that may not be commutative: each invocation folds its own
/// PER contiguous elements, and the work group combines them in order with its scan, whose total
/// every invocation gets. One work-group scan per tile, where the commutative fold pays one
/// reduction per SPAN tiles. Above [`UNROLLED`] elements per invocation the fold is the rolled
/// `load_own` (which keeps nothing, and takes whole chunks several per loop iteration); up to
/// it, the same loads one element at a time, without touching `own`. One element per iteration,
/// each behind its own test, was slower on all three software adapters: a branch costs every
/// lane there.
pub(super) fn ordered_fold(per: u32) -> String {
    let mine = if per > UNROLLED {
        "        let mine = load_own(t, rank(lane));"
    } else {
        "        let start = own_start(t, rank(lane));
        var mine = identity();
        for (var j = 0u; j < PER; j++) {
            if start + j < params.n {
                mine = combine(mine, element(start + j, NO_SLOT));
            }
        }"
    };
    format!(
        "fn fold_tiles(first: u32, last: u32, lane: Lane) -> T {{
    var acc = identity();
    for (var t = first; t < last; t++) {{
{mine}
        group_scan(mine, lane);
        acc = combine(acc, group_total);
        group_sync();
    }}
    return acc;
}}"
    )
}

/// The `words` block for a value of `shape`: how the look-back splits it into 32-bit words and
/// puts it back together (`None` for a struct, which `bitcast` cannot take).
pub(super) fn words_block(shape: Shape) -> Option<String> {
    let n = shape.words();
    let (to, from) = match shape {
        Shape::Struct => return None,
        Shape::Scalar => (
            "bitcast<u32>(v)".to_string(),
            "bitcast<T>(w[0])".to_string(),
        ),
        Shape::Vector(_) => {
            let words: Vec<String> = (0..n).map(|c| format!("w[{c}]")).collect();
            (
                format!("bitcast<vec{n}<u32>>(v)[c]"),
                format!("bitcast<T>(vec{n}<u32>({}))", words.join(", ")),
            )
        }
    };
    Some(format!(
        "const WORDS: u32 = {n}u;\nfn word_of(v: T, c: u32) -> u32 {{ return {to}; }}\nfn from_words(w: array<u32, 4>) -> T {{ return {from}; }}\n"
    ))
}
