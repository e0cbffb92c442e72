//! Scans and reductions with user operators that are not commutative, on a scalar, a vector and a
//! struct, against CPU twins folding in element order; the errors of operators and struct values.

use shoal::glam::{IVec2, IVec4, UVec2, UVec4, Vec2, Vec4};

use crate::test_support::*;
use crate::{Operation, Operator, Shape, Value, scan_by};

/// Sizes across one and several tiles of every tiling, with ragged ends.
const OP_SIZES: &[u64] = &[
    0, 1, 7, 8, 9, 511, 512, 513, 8191, 8192, 8193, 65_537, 200_003,
];

/// The last non-zero value so far: a scalar operator that is associative and not commutative.
const FORWARD_FILL: Operator = Operator::new(
    "forward fill",
    "fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return select(a, b, b != 0u); }",
);

fn forward_fill(a: u32, b: u32) -> u32 {
    if b != 0 { b } else { a }
}

/// Affine maps x -> a x + b (mod 2^32) as (a, b); `combine(f, g)` applies f, then g.
const AFFINE: Operator = Operator::new(
    "affine",
    "fn identity() -> T { return vec2<u32>(1u, 0u); }
fn combine(f: T, g: T) -> T { return vec2<u32>(g.x * f.x, g.x * f.y + g.y); }",
);

fn affine(f: UVec2, g: UVec2) -> UVec2 {
    UVec2::new(
        g.x.wrapping_mul(f.x),
        g.x.wrapping_mul(f.y).wrapping_add(g.y),
    )
}

/// A value and where it was: the struct of the (min, argmin) operator.
#[derive(Clone, Copy, Debug, PartialEq, encase::ShaderType)]
struct MinIndex {
    value: f32,
    index: u32,
}

impl Value for MinIndex {
    const WGSL: &'static str = "MinIndex";
    const SHAPE: Shape = Shape::Struct;
    type Wide = Self;
}

/// A struct declared in WGSL with fewer fields than in Rust.
#[derive(Clone, Copy, Debug, PartialEq, encase::ShaderType)]
struct Mislaid {
    a: u32,
    b: u32,
}

impl Value for Mislaid {
    const WGSL: &'static str = "Mislaid";
    const SHAPE: Shape = Shape::Struct;
    type Wide = Self;
}

/// The smallest value and its first index: ties keep the earlier element.
const ARGMIN: Operator = Operator::new(
    "argmin",
    "struct MinIndex { value: f32, index: u32 }
fn identity() -> T { return MinIndex(1e30, 4294967295u); }
fn combine(a: T, b: T) -> T {
    if b.value < a.value { return b; }
    return a;
}",
);

fn argmin(a: MinIndex, b: MinIndex) -> MinIndex {
    if b.value < a.value { b } else { a }
}

/// Scans `data` with `op` (inclusive and exclusive, each strategy) and reduces it, against
/// `identity` and `f` folding in element order.
#[allow(clippy::too_many_arguments)]
async fn check<T: Value + PartialEq>(
    gpu: &Gpu,
    (scan, reduce): (&Scan<T>, &Reduce<T>),
    op: impl Into<Operation> + Copy,
    data: &[T],
    identity: T,
    f: impl Fn(T, T) -> T + Copy,
    strategies: &[Strategy],
) {
    let n = data.len() as u64;
    let name = match op.into() {
        Operation::Builtin(op) => format!("{op:?} of {}", T::WGSL),
        Operation::Custom(op) => op.name().to_string(),
    };
    let input = gpu.buffer_from(data).expect("input");
    let output = gpu.buffer_zeroed::<T>(n.max(1)).expect("output");
    for &strategy in strategies {
        for inclusive in [true, false] {
            let spec = if inclusive {
                ScanSpec::inclusive(op)
            } else {
                ScanSpec::exclusive(op)
            };
            scan.run(ScanArgs {
                input: &input,
                output: &output,
                spec: spec.with_strategy(strategy),
            })
            .expect("scan");
            let got = output.read().await.expect("read");
            let want = scan_by(data, identity, f, inclusive);
            if let Some(d) = first_difference(&got[..data.len()], &want) {
                panic!("{name}, n = {n}, {strategy:?}, inclusive {inclusive}: {d}");
            }
        }
    }
    let total = reduce.value(&input, op).await.expect("reduce");
    let want = data.iter().fold(identity, |a, &b| f(a, b));
    assert_eq!(total, want, "{name} reduced, n = {n}");
}

const BOTH: &[Strategy] = &[Strategy::MultiLevel, Strategy::LookBack];

/// An operation's identity and its CPU form, written in a test.
type Reference<T> = (T, fn(T, T) -> T);

/// Scans (both strategies, both orders) and reduces seeded random values of the vector type `T`,
/// each made from four random words by `make`, with the built-in sum, min and max, each against
/// its identity and component-wise operation in `ops` (written by the caller, not taken from
/// the kernels): at 0, 1, 257 (beside a work group of 256) and a multi-tile size that is not a
/// power of two, so the look-back carries values from tile to tile.
async fn check_vectors<T: Value + PartialEq>(
    gpu: &Gpu,
    make: fn([u32; 4]) -> T,
    ops: [Reference<T>; 3],
) {
    let (scan, reduce) = (
        Scan::<T>::new(gpu).expect("scan"),
        Reduce::<T>::new(gpu).expect("reduce"),
    );
    let tile = scan.tile() as u64;
    for n in [0, 1, 257, 2 * tile + tile / 3 + 7] {
        let words = random_u32(n + T::WGSL.len() as u64, 4 * n, 0);
        let data: Vec<T> = words
            .chunks(4)
            .map(|w| make([w[0], w[1], w[2], w[3]]))
            .collect();
        for (op, (identity, f)) in [Op::Sum, Op::Min, Op::Max].into_iter().zip(ops) {
            check(gpu, (&scan, &reduce), op, &data, identity, f, BOTH).await;
        }
    }
}

/// A small integer in -100..=100 as an `f32`: sums of up to 2^17 of them are exact in any order.
fn small(w: u32) -> f32 {
    (w % 201) as f32 - 100.0
}

shoal_conformance::gpu_test! {
    /// A scalar operator that is not commutative (forward fill), both strategies, and reduce:
    /// the same tiles and subgroup paths as the built-in sum.
    async fn operator_on_u32_scans_and_reduces_in_order(gpu) {
        assert_ne!(forward_fill(3, 5), forward_fill(5, 3), "not commutative");
        let (scan, reduce) = (Scan::<u32>::new(&gpu).expect("scan"), Reduce::<u32>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let data: Vec<u32> = random_u32(n + 5, n, 0).into_iter().map(|x| if x % 5 == 0 { x | 1 } else { 0 }).collect();
            check(&gpu, (&scan, &reduce), FORWARD_FILL, &data, 0, forward_fill, BOTH).await;
        }
        // Forced shared-memory tiles of 8 invocations, where the adapter plans one-subgroup tiles.
        let shared = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(8) };
        let (scan, reduce) = (Scan::<u32>::with_tiling(&gpu, shared).expect("scan"), Reduce::<u32>::with_tiling(&gpu, shared).expect("reduce"));
        let data: Vec<u32> = random_u32(3, 20_000, 0).into_iter().map(|x| if x % 7 == 0 { x | 1 } else { 0 }).collect();
        check(&gpu, (&scan, &reduce), FORWARD_FILL, &data, 0, forward_fill, BOTH).await;
    }

    /// Affine maps on `vec2<u32>`: composition is not commutative (asserted on the data), the
    /// look-back carries each value as two words; and the built-in sum of vectors.
    async fn operator_on_vectors_composes_affine_maps(gpu) {
        let (scan, reduce) = (Scan::<UVec2>::new(&gpu).expect("scan"), Reduce::<UVec2>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let words = random_u32(n + 9, 2 * n, 0);
            let data: Vec<UVec2> = words.chunks(2).map(|w| UVec2::new(w[0] | 1, w[1])).collect();
            if let [f, g, ..] = data[..] {
                assert_ne!(affine(f, g), affine(g, f), "n = {n}: the first two maps commute");
            }
            check(&gpu, (&scan, &reduce), AFFINE, &data, UVec2::new(1, 0), affine, BOTH).await;
        }
        let data: Vec<UVec2> = random_u32(1, 2 * 70_001, 0).chunks(2).map(|w| UVec2::new(w[0], w[1])).collect();
        let input = gpu.buffer_from(&data).expect("input");
        let output = gpu.buffer_zeroed::<UVec2>(data.len() as u64).expect("output");
        scan.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(Op::Sum) }).expect("scan");
        let want = scan_by(&data, UVec2::ZERO, |a, b| UVec2::new(a.x.wrapping_add(b.x), a.y.wrapping_add(b.y)), true);
        assert_eq!(first_difference(&output.read().await.expect("read"), &want), None, "vec2 sum");
    }

    /// The built-in sum, min and max on every vector value type (`UVec2`, `UVec4`, `IVec2`,
    /// `IVec4`, `Vec2`, `Vec4`): the vector identities (`vec4<i32>(2147483647i)`, …), the
    /// component-wise operations and the look-back's two- and four-word carries, each strategy,
    /// both orders, and the reduction, against references written here: wrapping integer sums
    /// over all 32 bits, exact `f32` sums of small integers.
    async fn builtin_operations_on_every_vector_type(gpu) {
        check_vectors::<UVec2>(&gpu, |w| UVec2::new(w[0], w[1]), [(UVec2::ZERO, UVec2::wrapping_add), (UVec2::MAX, UVec2::min), (UVec2::ZERO, UVec2::max)]).await;
        check_vectors::<UVec4>(&gpu, UVec4::from_array, [(UVec4::ZERO, UVec4::wrapping_add), (UVec4::MAX, UVec4::min), (UVec4::ZERO, UVec4::max)]).await;
        check_vectors::<IVec2>(&gpu, |w| IVec2::new(w[0] as i32, w[1] as i32), [(IVec2::ZERO, IVec2::wrapping_add), (IVec2::MAX, IVec2::min), (IVec2::MIN, IVec2::max)]).await;
        check_vectors::<IVec4>(&gpu, |w| IVec4::from_array(w.map(|x| x as i32)), [(IVec4::ZERO, IVec4::wrapping_add), (IVec4::MAX, IVec4::min), (IVec4::MIN, IVec4::max)]).await;
        check_vectors::<Vec2>(&gpu, |w| Vec2::new(small(w[0]), small(w[1])), [(Vec2::ZERO, |a, b| a + b), (Vec2::INFINITY, Vec2::min), (Vec2::NEG_INFINITY, Vec2::max)]).await;
        check_vectors::<Vec4>(&gpu, |w| Vec4::from_array(w.map(small)), [(Vec4::ZERO, |a, b| a + b), (Vec4::INFINITY, Vec4::min), (Vec4::NEG_INFINITY, Vec4::max)]).await;
    }

    /// A struct value, (min, argmin) with many ties: shared-memory tiles and the multi-level
    /// scan (the look-back's atomics carry no struct), the first index of the minimum.
    async fn operator_on_a_struct_finds_the_first_minimum(gpu) {
        let (scan, reduce) = (Scan::<MinIndex>::new(&gpu).expect("scan"), Reduce::<MinIndex>::new(&gpu).expect("reduce"));
        for &n in OP_SIZES {
            let data: Vec<MinIndex> = random_u32(n + 11, n, 16)
                .into_iter()
                .enumerate()
                .map(|(i, v)| MinIndex { value: v as f32 - 8.0, index: i as u32 })
                .collect();
            check(&gpu, (&scan, &reduce), ARGMIN, &data, MinIndex { value: 1e30, index: u32::MAX }, argmin, &[Strategy::Auto, Strategy::MultiLevel]).await;
        }
    }

    /// Bad operators and struct values get typed errors: a WGSL error names the operator's line,
    /// a built-in operation on a struct, the look-back or one-subgroup tiles for a struct.
    async fn operator_errors_are_typed(gpu) {
        const BROKEN: Operator = Operator::new("broken", "fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return a +* b; }");
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        let (input, output) = (gpu.buffer_from(&[1u32, 2, 3]).expect("input"), gpu.buffer_zeroed::<u32>(3).expect("output"));
        match scan.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(BROKEN) }) {
            Err(shoal::Error::Wgsl { message, .. }) => assert!(message.contains("operator `broken`:2"), "{message}"),
            other => panic!("a broken operator: {other:?}"),
        }
        // Without `identity` (commented out, or only a helper named like it): the operator and
        // the contract are named, not an identifier inside Shoal's scan (a newcomer's audit).
        const NO_IDENTITY: Operator = Operator::new("no identity", "// fn identity() -> T { return 0u; }
fn identity_of(x: T) -> T { return x; }
fn combine(a: T, b: T) -> T { return max(a, b); }");
        match scan.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(NO_IDENTITY) }) {
            Err(shoal::Error::Wgsl { message, .. }) => {
                assert!(message.contains("operator `no identity` does not define `fn identity() -> T`"), "{message}");
                assert!(!message.contains("combine(a: T, b: T) -> T` or"), "{message}");
            }
            other => panic!("an operator without identity: {other:?}"),
        }
        let structs = Scan::<MinIndex>::new(&gpu).expect("scan");
        let data = [MinIndex { value: 1.0, index: 0 }; 3];
        let (input, output) = (gpu.buffer_from(&data).expect("input"), gpu.buffer_zeroed::<MinIndex>(3).expect("output"));
        assert!(matches!(structs.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(Op::Sum) }), Err(shoal::Error::Wgsl { .. })));
        let forced = ScanSpec::inclusive(ARGMIN).with_strategy(Strategy::LookBack);
        assert!(matches!(structs.run(ScanArgs { input: &input, output: &output, spec: forced }), Err(shoal::Error::Override { .. })));
        let one_subgroup = Tiling { per_invocation: 4, one_subgroup: true, workgroup: None };
        let e = Scan::<MinIndex>::with_tiling(&gpu, one_subgroup).expect_err("a struct in one-subgroup tiles");
        assert!(matches!(e, shoal::Error::Override { .. }), "{e}");
        for part in ["subgroup shuffles", "`MinIndex` is a struct", "Tiling::for_value"] {
            assert!(e.to_string().contains(part), "{e} should say {part}");
        }
        // A struct whose WGSL (4 bytes) is not its Rust layout (8 bytes): the binding check refuses it.
        const SHORT: Operator = Operator::new("short", "struct Mislaid { a: u32 }
fn identity() -> T { return Mislaid(0u); }
fn combine(a: T, b: T) -> T { return Mislaid(a.a + b.a); }");
        let mislaid = Scan::<Mislaid>::new(&gpu).expect("scan");
        let (input, output) = (gpu.buffer_from(&[Mislaid { a: 1, b: 2 }; 4]).expect("input"), gpu.buffer_zeroed::<Mislaid>(4).expect("output"));
        let err = mislaid.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(SHORT) }).expect_err("layouts differ");
        assert!(err.to_string().contains("input"), "{err}");
    }

    /// `f32` sums that do not depend on scheduling: the multi-level scan and the reduction
    /// combine in a fixed order, so runs give the same bits. Before each run the output and the
    /// total are refilled with a NaN no sum produces, so a run that stores nothing fails rather
    /// than matching what the run before left; the first run is held to the exact (`f64`)
    /// prefix sums within the scan's error bound.
    async fn f32_multilevel_scan_and_reduce_are_reproducible(gpu) {
        const SENTINEL: u32 = 0x7fc0_dead;
        let mut rng = Rng::new(77);
        let data: Vec<f32> = (0..300_001).map(|_| rng.range_f32(-1.0, 1.0)).collect();
        let scan = Scan::<f32>::new(&gpu).expect("scan");
        let reduce = Reduce::<f32>::new(&gpu).expect("reduce");
        let input = gpu.buffer_from(&data).expect("input");
        let output = gpu.buffer_zeroed::<f32>(data.len() as u64).expect("output");
        let total = gpu.buffer_zeroed::<f32>(1).expect("total");
        let spec = ScanSpec::inclusive(Op::Sum).with_strategy(Strategy::MultiLevel);
        let mut first: Option<(Vec<u32>, u32)> = None;
        for round in 0..3 {
            output.write(&vec![f32::from_bits(SENTINEL); data.len()]).expect("refill");
            total.write(&[f32::from_bits(SENTINEL)]).expect("refill");
            scan.run(ScanArgs { input: &input, output: &output, spec }).expect("scan");
            reduce.run(ReduceArgs { input: &input, output: &total, op: Op::Sum.into() }).expect("reduce");
            let got = output.read().await.expect("read");
            let bits: Vec<u32> = got.iter().map(|x| x.to_bits()).collect();
            let sum = total.read().await.expect("total")[0];
            match &first {
                None => {
                    // Within 64 + 4 log2(n) roundings of the exact sums, as the scan's own test.
                    let depth = 64.0 + 4.0 * ((data.len() + 1) as f64).log2().ceil();
                    let (mut exact, mut abs) = (0f64, 0f64);
                    for (i, (&x, &g)) in data.iter().zip(&got).enumerate() {
                        exact += x as f64;
                        abs += (x as f64).abs();
                        let bound = depth * f32::EPSILON as f64 * abs;
                        assert!((g as f64 - exact).abs() <= bound, "index {i}: gpu {g}, exact {exact}, bound {bound}");
                    }
                    let bound = depth * f32::EPSILON as f64 * abs;
                    assert!((sum as f64 - exact).abs() <= bound, "total: gpu {sum}, exact {exact}, bound {bound}");
                    first = Some((bits, sum.to_bits()));
                }
                Some((b, t)) => {
                    assert_eq!(first_difference(&bits, b), None, "round {round}: scan bits differ from the first run's");
                    assert_eq!(sum.to_bits(), *t, "round {round}: reduction bits differ from the first run's");
                }
            }
        }
    }
}

/// The contract check reads declarations, not comments or names that only start alike.
#[test]
fn the_contract_check_reads_declarations() {
    use super::{defines, without_comments};
    let code = without_comments(
        "/* /* nested */ fn identity() -> T { } */ fn identity_of(x: T) -> T { return x; }
         // fn combine(a: T, b: T) -> T
         fn  combine (a: T, b: T) -> T { return a; } fn sfn identity() {}",
    );
    assert!(!defines(&code, "identity"), "{code}");
    assert!(defines(&code, "combine"), "{code}");
    assert!(defines("fn identity() -> T { return 0u; }", "identity"));
    // Every WGSL line break ends a `//` comment (naga's), not only `\n`.
    let cr = without_comments("// max\rfn identity() -> T { return 0u; }");
    assert!(defines(&cr, "identity"), "{cr}");
}
