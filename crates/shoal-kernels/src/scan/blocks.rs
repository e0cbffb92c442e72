//! What replaces the scan kernels' `#block`s (`wgsl/scan.wgsl`): the files under `wgsl/scan/`
//! for the work groups that are one subgroup, the adapters without subgroups, the values that
//! are not scalars and the operators that are not commutative; and the few pieces generated here,
//! each a function saying what varies: the `own` region's loads and stores, unrolled for the
//! tiling's elements per invocation, and the look-back's words of a vector.

use shoal::Source;

use crate::value::Shape;

/// Elements per invocation up to which the `own` region's loops are unrolled (every index into
/// `own` a constant, so the array lives in registers); above it they loop over memory.
pub(super) const UNROLLED: u32 = 64;

/// The `group` block of a work group that is one subgroup (WG = the subgroup size).
pub(crate) const ONE_SUBGROUP_GROUP: Source =
    shoal::wgsl!("../../wgsl/scan/group_one_subgroup.wgsl");

/// The `group_reduce` block of a work group that is one subgroup.
pub(crate) const ONE_SUBGROUP_REDUCE: Source =
    shoal::wgsl!("../../wgsl/scan/group_reduce_one_subgroup.wgsl");

/// The portable `group_reduce` block: a tree in shared memory, log2(WG) barriers.
pub(crate) const GROUP_REDUCE_PORTABLE: Source =
    shoal::wgsl!("../../wgsl/scan/group_reduce_shared.wgsl");

/// The portable `lane` block: the built-ins every kernel of the family takes, without subgroups.
pub(crate) const LANE_PORTABLE: Source = shoal::wgsl!("../../wgsl/scan/lane_portable.wgsl");

/// The `wide` block of a value with no four-at-a-time type (vectors, structs).
pub(crate) const NARROW: Source = shoal::wgsl!("../../wgsl/scan/wide_narrow.wgsl");

/// The `fold` block of an operator that may not be commutative; [`ordered_fold`] picks its
/// loads.
pub(crate) const ORDERED_FOLD: Source = shoal::wgsl!("../../wgsl/scan/fold_ordered.wgsl");

/// A region the kernel leaves out.
fn none() -> Source {
    Source::new("<none>", "")
}

/// The blocks of the `fold` of an operator that may not be commutative for `per` elements per
/// invocation: [`ORDERED_FOLD`] with the fold of each invocation's elements that matches the
/// `own` region (the rolled `load_own` above [`UNROLLED`], a loop of single loads up to it).
pub(super) fn ordered_fold(per: u32) -> Vec<(&'static str, Source)> {
    let unused = if per > UNROLLED {
        "mine_unrolled"
    } else {
        "mine_rolled"
    };
    vec![("fold", ORDERED_FOLD), (unused, none())]
}

/// The blocks of the `own` region of `scan.wgsl` for `per` elements per invocation: `PER`
/// ([`per_block`]), the loads and stores generated for it, and the regions that form leaves out.
/// Up to [`UNROLLED`] the loops are unrolled ([`unrolled_loads`], [`unrolled_stores`]); above it
/// they loop ([`rolled_loads`], [`rolled_stores`]) and `own`, `chunk` and the wide prelude go.
/// Whole chunks load as vec4s when `per` is a multiple of 4 (past the end they are the
/// identity, selected), through `element4`, which an `io` block may define; values that are not
/// scalars load element by element. Stores go through `output4` only when `wide_store` (then
/// `n` is a multiple of 4) and through `output` or the `io` block's `emit` otherwise, never
/// both: WebGPU refuses one buffer bound writable twice in a dispatch. An `io` block whose
/// `element4` returns `array<T, 4>` (`four`) also defines `element4_first(q)`, which the rolled
/// loops call before each of their loops over whole chunks with the loop's first chunk, so that
/// `element4` may carry what a chunk needs from the one before (a key) instead of loading it.
pub(super) fn own_blocks(
    per: u32,
    shape: Shape,
    wide_store: bool,
    four: bool,
) -> Vec<(&'static str, Source)> {
    let wide = shape == Shape::Scalar && per.is_multiple_of(4);
    // WGSL's `select` takes scalars and vectors only: a struct's goes through `pick`.
    let pick = if shape == Shape::Struct {
        "pick"
    } else {
        "select"
    };
    let mut blocks = vec![("per", per_block(per).into())];
    if shape != Shape::Struct {
        blocks.push(("pick", none()));
    }
    if per > UNROLLED {
        let four = four && per.is_multiple_of(4);
        blocks.extend([
            ("own_array", none()),
            ("chunk", none()),
            ("wide_prelude", none()),
            ("load_own", rolled_loads(wide, four).into()),
            (
                "store_own",
                rolled_stores(pick, wide, wide_store, four).into(),
            ),
        ]);
    } else {
        if !wide {
            blocks.extend([("chunk", none()), ("wide_prelude", none())]);
        }
        blocks.extend([
            ("load_own", unrolled_loads(per, wide).into()),
            ("store_own", unrolled_stores(per, pick, wide_store).into()),
        ]);
    }
    blocks
}

/// `const PER`: the tiling's elements per invocation, a constant rather than an `override`
/// because the private array `own` is sized by it and the loops are unrolled to it.
fn per_block(per: u32) -> String {
    format!("const PER: u32 = {per}u;")
}

/// The body of `load_own` up to [`UNROLLED`] elements per invocation: one statement per element
/// (`per` of them), each folding it into `acc` and keeping the running value in `own[j]`, a
/// constant index. Loads take one path, with no branch for a chunk cut by the end of the input:
/// SwiftShader runs every instruction of a kernel whether its lanes take the branch or not, so a
/// second, guarded copy of the loads cost as much as the loads themselves. `wide`: scalars in
/// whole chunks of four, through `chunk`.
fn unrolled_loads(per: u32, wide: bool) -> String {
    const LANES: [&str; 4] = ["x", "y", "z", "w"];
    let mut lines = Vec::new();
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
    lines.join("\n")
}

/// The body of `store_own` up to [`UNROLLED`] elements per invocation: one store per element
/// (`per` of them; per chunk of four through `output4` when `wide_store`, n then a multiple of
/// 4), each `prefix ⊕ own[j]` (inclusive) or `prefix ⊕ own[j - 1]` (exclusive) chosen by `pick`
/// (`select`, or a struct's `pick`), then the io block's `finish` with the total.
fn unrolled_stores(per: u32, pick: &str, wide_store: bool) -> String {
    let value = |j: u32| {
        let inclusive = format!("combine(prefix, own[{j}])");
        let exclusive = match j {
            0 => "prefix".to_string(),
            _ => format!("combine(prefix, own[{}])", j - 1),
        };
        format!("{pick}({exclusive}, {inclusive}, inclusive)")
    };
    let mut lines = Vec::new();
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

/// The body of `load_own` above [`UNROLLED`] elements per invocation: the same loads in loops,
/// folded into `acc` and kept nowhere (`store_own` loads the elements again and carries the
/// running value). A loop's index into a private array makes SwiftShader gather and scatter it
/// lane by lane, which costs more than loading the input twice
/// (docs/bench/webgpu-swiftshader.md). SwiftShader pays a fixed cost per invocation of a kernel
/// with barriers, which more elements per invocation spread ([`ROLLED_PER`](super::ROLLED_PER));
/// loops, not unrolled code, keep the kernel's compile time that of 64 elements. The
/// invocation's whole chunks of four go through `element4` in loops with no test per element or
/// chunk (a branch costs every lane on a software adapter, more than selecting the identity past
/// the end in every chunk did), several chunks per iteration ([`chunk_loops`], the generated
/// part), the rest one by one; `four` says the `io` block's `element4` returns `array<T, 4>` for
/// values that are not scalars, which then load the same way.
fn rolled_loads(wide: bool, four: bool) -> String {
    let mut lines = Vec::new();
    if wide || four {
        if four {
            lines.push(PRIME.into());
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
    }
    let first = if wide || four { "4u * whole" } else { "0u" };
    lines.extend([
        format!("    for (var j = {first}; j < PER; j++) {{"),
        "        if start + j < params.n { acc = combine(acc, element(start + j, NO_SLOT)); }"
            .into(),
        "    }".into(),
    ]);
    lines.join("\n")
}

/// The body of `store_own` above [`UNROLLED`] elements per invocation: the elements loaded
/// again as [`rolled_loads`] loads them and stored as `prefix ⊕ x0 ⊕ … ⊕ xj` folded left to
/// right (so an `f32` sum rounds differently from the unrolled stores' `prefix ⊕ (x0 ⊕ … ⊕ xj)`,
/// and as deterministically), chosen by `pick` as in [`unrolled_stores`]: whole vec4s through
/// `output4` when `wide` and `wide_store`, else element by element through `emit`, whole chunks
/// first ([`chunk_loops`]).
fn rolled_stores(pick: &str, wide: bool, wide_store: bool, four: bool) -> String {
    let mut lines = vec!["    var acc = prefix;".to_string()];
    if wide && wide_store {
        // n is a multiple of 4: the chunks are whole.
        lines.extend(chunk_loops(CHUNKS_PER_ITERATION, |k| {
            vec![
                format!("let v = input4[start / 4u + {k}];"),
                "let a = combine(acc, v.x);".into(),
                "let b = combine(a, v.y);".into(),
                "let c = combine(b, v.z);".into(),
                "let d = combine(c, v.w);".into(),
                format!("output4[start / 4u + {k}] = select(vec4<T>(acc, a, b, c), vec4<T>(a, b, c, d), inclusive);"),
                "acc = d;".into(),
            ]
        }));
    } else {
        // Whole chunks of four through `element4`, with no test per element; the rest one by
        // one.
        if wide || four {
            if four {
                lines.push(PRIME.into());
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
        }
        let first = if wide || four { "4u * whole" } else { "0u" };
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
    lines.push(finish("acc"));
    lines.join("\n")
}

/// The `io` block's `element4_first`, called before each loop over whole chunks of an `io`
/// block whose `element4` returns `array<T, 4>`.
const PRIME: &str = "    element4_first(start / 4u);";

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

/// `whole` (the invocation's whole chunks of four) and the loops over them, generated because
/// the body is repeated: `body(k)`, the statements for chunk `k` (a WGSL expression),
/// `per_iteration` times per iteration, then once per chunk for the rest.
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
/// of them, `total` (a WGSL expression, which differs between the two forms), to the `io`
/// block's `finish`.
fn finish(total: &str) -> String {
    format!("    if start < params.n && params.n - start <= PER {{ finish({total}); }}")
}

/// The `words` block for a vector of `n` components: how the look-back splits it into 32-bit
/// words and puts it back together (the count and the `vecN` type vary with the value). A
/// scalar keeps the block as written; a struct, which `bitcast` cannot take, has no look-back.
pub(super) fn vector_words_block(n: u32) -> String {
    let words: Vec<String> = (0..n).map(|c| format!("w[{c}]")).collect();
    format!(
        "const WORDS: u32 = {n}u;\nfn word_of(v: T, c: u32) -> u32 {{ return bitcast<vec{n}<u32>>(v)[c]; }}\nfn from_words(w: array<u32, 4>) -> T {{ return bitcast<T>(vec{n}<u32>({})); }}\n",
        words.join(", ")
    )
}
